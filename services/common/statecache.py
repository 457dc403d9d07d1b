"""A bounded cache from serialized game states to the native states that encode to them.

The gateway sends back, on every move, the exact State bytes the previous ApplyAction (or NewGame)
returned. A rules service that remembers which native state it encoded to those bytes can skip
decoding them. That is only sound because engines never change a state they are given (so one
native state can serve many requests, on many threads) and because decoding a state's encoding gives
that same state back; the conformance suite checks both for every game (the second for the games that
declare `exact_state_round_trip`, the only ones whose servicer uses the cache). The one write an
engine makes to a state it is given is the legal-action memo of `services.common.decisions`: a whole
list computed from the state and assigned at once, the same whichever thread computes it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

import prometheus_client

LOOKUPS = prometheus_client.Counter(
    "rules_state_cache_lookups_total",
    "Lookups of a request's state in the rules service's decoded-state cache, by result.",
    ["result"],
)
HITS = LOOKUPS.labels("hit")
MISSES = LOOKUPS.labels("miss")

DEFAULT_STATE_CACHE = 1024


class StateCache:
    """The native states behind the last `capacity` State encodings stored, least recently used first.

    Thread-safe. Keys are the serialized State message (the packed Any's value); values are shared,
    so whoever gets one must not change it.
    """

    def __init__(self, capacity: int) -> None:
        if capacity < 1:
            raise ValueError(f"a state cache holds at least one state, not {capacity}")
        self.capacity = capacity
        self._states: OrderedDict[bytes, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._states)

    def get(self, key: bytes) -> Any | None:
        """The native state stored for `key` (now the most recently used), or None; counted as a
        hit or a miss."""
        with self._lock:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
        (MISSES if state is None else HITS).inc()
        return state

    def put(self, key: bytes, state: Any) -> None:
        """Remember that `state` encodes to `key`, dropping the least recently used beyond capacity."""
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            if len(self._states) > self.capacity:
                self._states.popitem(last=False)


def state_cache_size_from_env(value: str | None) -> int:
    """The RULES_STATE_CACHE setting: how many states to cache (unset or empty: the default; 0: off)."""
    if value is None or not value.strip():
        return DEFAULT_STATE_CACHE
    size = int(value)
    if size < 0:
        raise ValueError(f"RULES_STATE_CACHE must be 0 (off) or a number of states, not {value!r}")
    return size

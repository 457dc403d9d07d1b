"""The rules servicer's decoded-state cache: every registered game answers byte for byte the same with
it as without it, whole games long and from many threads at once, and the states fed back are found
in it; plus the cache's own LRU bookkeeping and its setting."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf.message import Message
from prometheus_client import REGISTRY

from services.common import registry
from services.common.game import Game
from services.common.rng import Rng
from services.common.servicer import RulesServicer
from services.common.statecache import DEFAULT_STATE_CACHE, StateCache, state_cache_size_from_env

CASES = [
    (name, players)
    for name, game in registry.games().items()
    for players in sorted({game.info.min_players, game.info.max_players})
]

# The games whose servicer caches decoded states.
CACHED = [name for name, game in registry.games().items() if game.exact_state_round_trip]


def lookups(result: str) -> float:
    """The process's rules_state_cache_lookups_total for `result` (hit or miss)."""
    value = REGISTRY.get_sample_value("rules_state_cache_lookups_total", {"result": result})
    return value or 0.0


@contextmanager
def counted() -> Iterator[dict[str, float]]:
    """The cache hits and misses counted inside the block, filled in when it ends."""
    before = {result: lookups(result) for result in ("hit", "miss")}
    counts: dict[str, float] = {}
    yield counts
    counts.update({result: lookups(result) - before[result] for result in ("hit", "miss")})


def wire(message: Message) -> bytes:
    """Deterministic bytes of a response."""
    return message.SerializeToString(deterministic=True)


def play(game: Game, players: int, seed: bytes) -> list[rules_pb2.ApplyActionRequest]:
    """The ApplyAction requests (with every view) of a whole random game, each carrying the state the
    previous response returned, as the gateway sends them; checked on the way against a servicer
    without the cache, call by call."""
    cached, plain = RulesServicer(game), RulesServicer(game, state_cache=0)
    new_game = rules_pb2.NewGameRequest(player_count=players, seed=seed)
    response = cached.NewGame(new_game, None)
    assert wire(response) == wire(plain.NewGame(new_game, None))
    state, acting = response.state, list(response.acting_seats)
    rng = Rng.from_seed(seed)
    requests = []
    while acting:
        seat = acting[rng.below(len(acting))]
        listing = rules_pb2.ListLegalActionsRequest(state=state, seat=seat)
        legal = cached.ListLegalActions(listing, None)
        assert wire(legal) == wire(plain.ListLegalActions(listing, None))
        action = legal.actions[rng.below(len(legal.actions))].action
        request = rules_pb2.ApplyActionRequest(state=state, seat=seat, action=action, include_views=True)
        if len(requests) % 7 == 0:
            request.view_seat = seat
        response = cached.ApplyAction(request, None)
        assert wire(response) == wire(plain.ApplyAction(request, None)), f"move {len(requests)}"
        requests.append(request)
        state, acting = response.state, list(response.acting_seats)
    for asked in (rules_pb2.GetViewRequest(state=state), rules_pb2.GetViewRequest(state=state, seat=0)):
        assert wire(cached.GetView(asked, None)) == wire(plain.GetView(asked, None))
    scores = rules_pb2.GetScoresRequest(state=state)
    assert wire(cached.GetScores(scores, None)) == wire(plain.GetScores(scores, None))
    return requests


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{name}-{p}p" for name, p in CASES])
def test_whole_games_answer_the_same_with_and_without_the_cache(name: str, players: int) -> None:
    game = registry.get(name)
    with counted() as counts:
        requests = play(game, players, f"state cache {name} {players}".encode())
    assert requests, "a game without a move"
    if game.exact_state_round_trip:
        # Every call after NewGame carried a state the cached servicer had just returned.
        calls = 2 * len(requests) + 3
        assert counts == {"hit": calls, "miss": 0}
    else:
        assert counts == {"hit": 0, "miss": 0}, f"{name} does not declare exact_state_round_trip"


@pytest.mark.parametrize("name", CACHED)
def test_threads_sharing_cached_states_answer_the_same(name: str) -> None:
    """Many threads applying actions to the same cached states, in any order, get the bytes a
    servicer without the cache gives."""
    game = registry.get(name)
    players, seed = game.info.max_players, b"state cache threads"
    requests = play(game, players, seed)[:240]
    expected = [wire(RulesServicer(game, state_cache=0).ApplyAction(request, None)) for request in requests]
    cached = RulesServicer(game)
    # The game again, so that the cache holds every state the requests carry.
    cached.NewGame(rules_pb2.NewGameRequest(player_count=players, seed=seed), None)
    for request in requests:
        cached.ApplyAction(request, None)
    order = list(range(len(requests))) * 4
    Rng.from_seed(b"order").shuffle(order)
    with counted() as counts, ThreadPoolExecutor(max_workers=8) as pool:
        answers = list(pool.map(lambda i: (i, wire(cached.ApplyAction(requests[i], None))), order))
    for i, answer in answers:
        assert answer == expected[i], f"request {i}"
    assert counts == {"hit": len(order), "miss": 0}


def test_a_cache_of_zero_is_never_consulted() -> None:
    game = registry.get(CACHED[0])
    servicer = RulesServicer(game, state_cache=0)
    new_game = rules_pb2.NewGameRequest(player_count=game.info.min_players, seed=b"z")
    with counted() as counts:
        state = servicer.NewGame(new_game, None).state
        servicer.GetView(rules_pb2.GetViewRequest(state=state), None)
    assert counts == {"hit": 0, "miss": 0}


def test_the_least_recently_used_state_goes_first() -> None:
    cache = StateCache(2)
    with counted() as counts:
        cache.put(b"a", "A")
        cache.put(b"b", "B")
        assert cache.get(b"a") == "A"
        cache.put(b"c", "C")
        assert [cache.get(key) for key in (b"a", b"b", b"c")] == ["A", None, "C"]
        cache.put(b"a", "A2")
        assert len(cache) == 2 and cache.get(b"a") == "A2"
    assert counts == {"hit": 4, "miss": 1}
    with pytest.raises(ValueError):
        StateCache(0)


@pytest.mark.parametrize(
    ("value", "size"), [(None, DEFAULT_STATE_CACHE), ("", DEFAULT_STATE_CACHE), (" 0 ", 0), ("64", 64)]
)
def test_the_setting_reads_a_size(value: str | None, size: int) -> None:
    assert state_cache_size_from_env(value) == size


@pytest.mark.parametrize("value", ["-1", "many", "1.5"])
def test_the_setting_refuses_what_is_not_a_size(value: str) -> None:
    with pytest.raises(ValueError):
        state_cache_size_from_env(value)

"""Redis's keys sorted by what bounds them, for the soak (`chaos.soak`): a census that weighs every key
(SCAN, then PTTL, TYPE and MEMORY USAGE in a pipeline) and puts it in one class.

The classes, in the order a key is tried:

- `EXPIRING`: keys that expire within the window (`RECENT_SECONDS`, an hour: a finished game's keys,
  rate counters, watch leases): bounded by that window.
- `CAPPED`: lists, sorted sets, streams and hashes of a family the code trims to a cap (`caps`: a
  player's game list, inbox, history, a game's kept changes and chat): bounded by cap x holders, so the
  census counts each family's holders and its longest entry count. A capped key with a long expiry
  (an inbox: 30 days) is here, as its cap bounds it long before the expiry does.
- `LONG_TTL`: other keys with a longer expiry (lobbies, guests, sessions): bounded by that expiry.
- `FIXED`: keys of a known family with no expiry and no cap (accounts, ratings, leaderboards, a live
  game's keys, Celery's broker): they must stay steady at a fixed population.
- `UNKNOWN`: keys whose family cannot be told from their name; the census names them by their prefix.

A key's family is found from its name by the key table itself (`live.keys`): each of its key
functions called with a placeholder gives the family's pattern.
"""

from __future__ import annotations

import inspect
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import cast

import redis

from gateway.chat import CHAT_KEPT
from live import keys
from live.archive import RECENT_SECONDS
from live.inbox import INBOX_KEPT
from live.mygames import FINISHED_KEPT
from live.queues import QUEUES
from live.settings import Settings
from live.store import UNDO_KEPT

EXPIRING = "expiring within the hour"
CAPPED = "trimmed to a cap"
LONG_TTL = "expiring later"
FIXED = "no expiry, no cap"
UNKNOWN = "of no known family"
CLASSES = (EXPIRING, CAPPED, LONG_TTL, FIXED, UNKNOWN)
BATCH = 1000  # keys per SCAN and per pipeline
PLACEHOLDER = "\x00"
# What live.keys holds besides key names: pub/sub channels (not keys: SCAN never sees them) and parts of
# names.
NOT_KEYS = (
    keys.game_channel,
    keys.inbox_channel,
    keys.game_chat_channel,
    keys.revoked_sessions,
    keys.address_subject,
    keys.api_key_subject,
    keys.account_subject,
    keys.match_ticket_prefix,
)
# Celery's own keys in its Redis broker (kombu's queues, bindings and unacknowledged messages), which
# live.keys does not name; its task results expire (`result_expires`) and are weighed by their expiry.
BROKER = re.compile(
    "|".join([*QUEUES, r"_kombu\.binding.*", r"unacked(_index|_mutex)?", r"celery-task-meta-.*"])
)
# How long a key of each type is: its entry count is this divided by a Cap's `per_entry`.
LENGTH = {"list": "LLEN", "zset": "ZCARD", "stream": "XLEN", "hash": "HLEN", "set": "SCARD"}


@dataclass(frozen=True)
class Family:
    """The keys one function of `live.keys` names, told by `pattern` (its placeholders any text)."""

    name: str
    pattern: re.Pattern[str]


@dataclass(frozen=True)
class Cap:
    """The most entries the code keeps in each key of a family (`per_entry` of the key's length make
    one entry: a hash of games holds two fields a game). `slack`: how far past `limit` a key may go
    (a stream trimmed with MAXLEN ~ keeps whole nodes), None when the cap is not checked (the hash of a
    player's games holds their live games besides the finished ones the cap counts). `until_archived`:
    a sorted set of game ids trimmed as its games are archived (a history, `live.archive`), which may
    also hold, past `limit`, each of its games that has no index entry yet."""

    limit: int
    per_entry: int = 1
    slack: int | None = 0
    until_archived: bool = False


def family_of(function: Callable[..., str]) -> Family:
    """The family of a key function: its name, called with a placeholder per parameter."""
    arguments = [PLACEHOLDER] * len(inspect.signature(function).parameters)
    pieces = function(*arguments).split(PLACEHOLDER)
    return Family(function.__name__, re.compile(".+?".join(re.escape(piece) for piece in pieces)))


def families() -> list[Family]:
    """Every family of `live.keys`, the most literal pattern first (`apikey:{hash}:sessions` before
    `apikey:{hash}`), so that the first to match a name is its family."""
    functions = [
        function
        for _, function in inspect.getmembers(keys, inspect.isfunction)
        if function.__module__ == keys.__name__ and function not in NOT_KEYS
    ]
    found = [family_of(function) for function in functions]
    literal = {f.name: len(f.pattern.pattern.replace(".+?", "")) for f in found}
    return sorted(found, key=lambda f: (-literal[f.name], f.name))


def caps(settings: Settings, stream_node_entries: int) -> dict[str, Cap]:
    """The capped families by name, their caps from the code's constants and `settings`. The
    histories are trimmed as their games are archived (`live.history`): past their caps they hold
    the games not archived yet, all of a suite's without an archive."""
    return {
        keys.game_events.__name__: Cap(settings.event_history),
        keys.game_undo.__name__: Cap(UNDO_KEPT),
        keys.game_chat.__name__: Cap(CHAT_KEPT),
        keys.inbox.__name__: Cap(INBOX_KEPT, slack=stream_node_entries),
        keys.my_finished_games.__name__: Cap(FINISHED_KEPT),
        keys.my_games.__name__: Cap(FINISHED_KEPT, per_entry=2, slack=None),
        keys.player_games.__name__: Cap(settings.history_per_player, until_archived=True),
        keys.title_games.__name__: Cap(settings.history_per_title, until_archived=True),
        keys.hosted_lobbies.__name__: Cap(settings.open_lobbies_per_player),
    }


@dataclass
class Fill:
    """One capped family in a census: its keys (holders), their entries and bytes, the longest."""

    cap: Cap
    holders: int = 0
    entries: int = 0
    bytes: int = 0
    longest: int = 0
    over: int = 0  # keys past their cap and its slack

    def plateau(self) -> float:
        """The bytes the family holds once every holder is at its cap (at its bytes per entry now)."""
        if not self.entries:
            return float(self.bytes)
        return self.bytes / self.entries * self.cap.limit * self.holders


@dataclass
class Census:
    """Redis's keys at one moment: bytes by class, the capped families' fill, the keys and bytes of
    each (class, family) (a key of no known family named by its `prefix`), the longest expiry of each
    family of the LONG_TTL class (s), and the prefixes of the keys of no known family with their
    counts."""

    bytes: dict[str, int] = field(default_factory=lambda: dict.fromkeys(CLASSES, 0))
    fills: dict[str, Fill] = field(default_factory=dict)
    family_keys: Counter[tuple[str, str]] = field(default_factory=Counter)
    family_bytes: Counter[tuple[str, str]] = field(default_factory=Counter)
    longest_ttl: dict[str, float] = field(default_factory=dict)
    unknown: Counter[str] = field(default_factory=Counter)

    def add(self, kind: str, family: str, size: int) -> None:
        """Count a key of `family` in class `kind`."""
        self.bytes[kind] += size
        self.family_keys[kind, family] += 1
        self.family_bytes[kind, family] += size

    def holders(self) -> int:
        """The keys of every capped family."""
        return sum(fill.holders for fill in self.fills.values())

    def over(self) -> int:
        """The capped keys past their cap (and its slack)."""
        return sum(fill.over for fill in self.fills.values())


def _text(reply: bytes | str) -> str:
    return reply.decode() if isinstance(reply, bytes) else reply


def prefix(name: str) -> str:
    """What names a key of no known family in the census: its name up to the first ':' or '{'."""
    return re.split(r"[:{]", name, maxsplit=1)[0] + "..."


class Keyspace:
    """Takes censuses of one Redis, its families and caps fixed at the start."""

    def __init__(self, client: redis.Redis, settings: Settings, within: int = RECENT_SECONDS) -> None:
        self.client = client
        self.within_ms = within * 1000
        self.families = families()
        node = dict(client.config_get("stream-node-max-entries"))  # the one setting asked for
        self.caps = caps(settings, int(str(next(iter(node.values())))))

    def family(self, name: str) -> str | None:
        """The family of a key's name: a function of `live.keys`, BROKER's, or None."""
        for family in self.families:
            if family.pattern.fullmatch(name):
                return family.name
        return "broker" if BROKER.fullmatch(name) else None

    def census(self) -> Census:
        """Every key weighed and classed (see the module docstring)."""
        found = Census(fills={name: Fill(cap) for name, cap in self.caps.items()})
        batch: list[bytes] = []
        for name in self.client.scan_iter(count=BATCH):
            batch.append(name)
            if len(batch) >= BATCH:
                self._weigh(batch, found)
                batch = []
        self._weigh(batch, found)
        return found

    def _weigh(self, names: list[bytes], census: Census) -> None:
        if not names:
            return
        with self.client.pipeline(transaction=False) as pipe:
            for raw in names:
                pipe.pttl(raw)
                pipe.type(raw)
                pipe.memory_usage(raw)
            replies = pipe.execute()
        capped: list[tuple[str, str, str, int]] = []  # family, key, type, bytes
        for index, raw in enumerate(names):
            ttl, kind, size = replies[3 * index : 3 * index + 3]
            kind = _text(kind)
            if kind == "none":
                continue  # gone between the SCAN and the weighing
            name = raw.decode(errors="replace")
            size = size or 0
            family = self.family(name)
            named = family or prefix(name)
            if 0 < ttl <= self.within_ms:
                census.add(EXPIRING, named, size)
            elif family in self.caps and kind in LENGTH:
                capped.append((named, name, kind, size))
            elif ttl > 0:
                census.add(LONG_TTL, named, size)
                census.longest_ttl[named] = max(census.longest_ttl.get(named, 0.0), ttl / 1000)
            elif family is not None:
                census.add(FIXED, named, size)
            else:
                census.add(UNKNOWN, named, size)
                census.unknown[named] += 1
        self._fill(capped, census)

    def _fill(self, capped: list[tuple[str, str, str, int]], census: Census) -> None:
        """Count the entries of a batch's capped keys."""
        with self.client.pipeline(transaction=False) as pipe:
            for _, name, kind, _ in capped:
                pipe.execute_command(LENGTH[kind], name)
            lengths = pipe.execute()
        for (family, name, _, size), length in zip(capped, lengths, strict=True):
            fill = census.fills[family]
            entries = int(length) // fill.cap.per_entry
            census.add(CAPPED, family, size)
            fill.holders += 1
            fill.entries += entries
            fill.bytes += size
            fill.longest = max(fill.longest, entries)
            if fill.cap.slack is None or entries <= fill.cap.limit + fill.cap.slack:
                continue
            if fill.cap.until_archived:
                entries -= self._unarchived(name)
            if entries > fill.cap.limit + fill.cap.slack:
                fill.over += 1

    def _unarchived(self, history: str) -> int:
        """How many games of a history have no index entry (`keys.game_archived`) yet."""
        games = cast(list[bytes], self.client.zrange(history, 0, -1))
        with self.client.pipeline(transaction=False) as pipe:
            for game_id in games:
                pipe.exists(keys.game_archived(game_id.decode()))
            return sum(1 for archived in pipe.execute() if not archived)


def fill_lines(fills: Mapping[str, Fill]) -> list[list[str]]:
    """The rows of the capped families' table: holders, longest against the cap, MB, plateau MB."""
    return [
        [
            name,
            f"{fill.holders:,}",
            f"{fill.longest:,}",
            f"{fill.cap.limit:,}" + ("" if fill.cap.slack is not None else " (unchecked)"),
            f"{fill.bytes / 2**20:,.2f}",
            f"{fill.plateau() / 2**20:,.1f}",
            f"{fill.over:,}",
        ]
        for name, fill in fills.items()
        if fill.holders
    ]


def unknown_families(counts: Iterable[tuple[str, int]]) -> str:
    """The prefixes of keys of no known family, with their counts ('none' without any)."""
    return ", ".join(f"{name} x{count:,}" for name, count in counts) or "none"

"""A game's records in Redis, and the one write path: a Lua compare-and-set on the game's version.

The write path checks the expected version (and the request id, for idempotency), stores the new
state, appends the action to the game's log (stream entry id `<version>-1`), keeps the change in a
capped list for watchers that resume, records the request id for as long as its change is kept,
writes the game's new clock entry (so that whoever sees the version finds its deadline), marks the
game finished when it is, and publishes the change with every seat's view of it — all in one atomic
script on one Cluster slot (every key has {game_id}; on a Cluster the change goes out by sharded
pub/sub, SPUBLISH, on the game's slot). With a replica-acknowledgement policy
(`live.settings.ReplicaAcks`) the commit is followed, on the same connection, by `WAIT` for that many
replicas, so a move is acknowledged once a failover cannot lose it (or once the wait timed out:
`REPLICA_ACK_SHORTFALLS` counts those).

A change of hands (a resignation, a forfeit) is a commit too: it keeps the state and logs no action,
rewrites the record's seats, and is published without views (`changes_hands`), so that two of them
at once both count and a move read before one is refused (its version is stale).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from redis.asyncio.client import Pipeline
from redis.exceptions import NoScriptError, ResponseError

from live import keys
from live.connection import clustered, register_script
from live.metrics import REPLICA_ACK_SHORTFALLS
from live.replies import blob, text
from live.settings import ReplicaAcks

META_FIELDS = ["record", "status", "clock", "lobby_id", "acting", "invited"]
INVITED_SEPARATOR = ","  # between the ids of the meta's "invited" field (invited spectators, in order)
STATUS_ACTIVE = "active"
STATUS_FINISHED = "finished"
FINISHED_TTL_SECONDS = 3600  # idempotency records and recent changes of a finished game

REQUEST_DIGEST_BYTES = 16
UNDO_KEPT = 32  # decisions a seat may take back one after another, at most (`live.undo`)

# KEYS: state, version, log, requests, events, meta, clock, outbox, undo, takeback. ARGV: 1 expected
# version, 2 the new state ('': kept, and no action is logged: a change of hands), 3 seat, 4 action,
# 5 request id, 6 the change kept for watchers, 7 channel, 8 changes kept, 9 game over, 10 finished TTL,
# 11 finished at, 12 the change published, 13 acting seats, 14 request digest, 15 the new record ('':
# kept), 16 the version's follow-ups for the outbox (`live.outbox`; '': none), 17 what the commit does
# to the game's undo list (`live.undo`): 'push' its entry 18 (first clearing the entries of another
# seat), 'reset' it to the mark 18 ('': empty), 'pop' its top entry, '' nothing; 19 the version an undo
# or a takeback returns to ('': a move), logged instead of an action, 20 the id of the pending takeback
# the commit carries out ('': none; refused as 'void' unless it is still pending, then cleared),
# 21... the clock entry's name/value pairs. Replies {outcome, version} and, for 'ok', the outbox
# entry's id and how many other entries the outbox holds (left by committers that died before
# performing them). The commit that ends the game clears the undo list and any pending takeback.
# A request id is stored with the digest of the request it named (REQUEST_DIGEST_BYTES, then the
# version it produced), so a retry of that request gets its result and another request under the same
# id is refused. A value with no digest (stored before digests were) counts as the same request.
# The request ids are those of the kept changes only (8: the last `event_history` commits): each kept
# change is `<version>:<length of its request id>:<request id><change>` in a capped list (a list, not
# a stream: a trimmed stream keeps deleted entries in its nodes), and a change leaving it takes its
# request id out of the hash. (A stream left from before is dropped at the next commit.)
# Past that window a retry is a new request, refused as stale: the game has moved on since the version
# it expected, so it is never applied twice.
# KEYS: the game's meta, state, version, events, clock and outbox. ARGV: 1 record, 2 seed, 3 status,
# 4 clock, 5 lobby id, 6 acting seats, 7 state, 8 the setup's kept entry, 9 the start's follow-ups for
# the outbox ('': none), then the clock entry's name/value pairs. Creates the game at version 0 unless
# its meta exists; replies the outbox entry's id ('' without one), or 0 if the game existed.
CREATE_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'record', ARGV[1], 'seed', ARGV[2], 'status', ARGV[3], 'clock', ARGV[4],
  'lobby_id', ARGV[5], 'acting', ARGV[6])
redis.call('SET', KEYS[2], ARGV[7])
redis.call('SET', KEYS[3], 0)
redis.call('RPUSH', KEYS[4], ARGV[8])
if #ARGV > 9 then redis.call('HSET', KEYS[5], 'version', 0, unpack(ARGV, 10)) end
if ARGV[9] == '' then return '' end
return redis.call('XADD', KEYS[6], '*', 'f', ARGV[9])
"""

COMMIT_SCRIPT = """
local current = tonumber(redis.call('GET', KEYS[2]))
if current == nil then return {'missing', ''} end
if ARGV[5] ~= '' then
  local previous = redis.call('HGET', KEYS[4], ARGV[5])
  if previous and #previous <= 16 then return {'duplicate', previous} end
  if previous and string.sub(previous, 1, 16) == ARGV[14] then
    return {'duplicate', string.sub(previous, 17)}
  end
  if previous then return {'reused', string.sub(previous, 17)} end
end
if current ~= tonumber(ARGV[1]) then return {'stale', tostring(current)} end
if ARGV[20] ~= '' and redis.call('HGET', KEYS[10], 'id') ~= ARGV[20] then
  return {'void', tostring(current)}
end
local version = current + 1
local id = version .. '-1'
redis.call('SET', KEYS[2], version)
if ARGV[2] ~= '' then
  redis.call('SET', KEYS[1], ARGV[2])
  if ARGV[19] ~= '' then
    local logged = {'s', ARGV[3], 'u', ARGV[19]}
    if ARGV[20] ~= '' then table.insert(logged, 't') table.insert(logged, '1') end
    redis.call('XADD', KEYS[3], id, unpack(logged))
  else
    redis.call('XADD', KEYS[3], id, 's', ARGV[3], 'a', ARGV[4])
  end
end
if ARGV[17] == 'push' then
  local top = redis.call('LINDEX', KEYS[9], -1)
  if top and string.sub(top, 1, 2) ~= 'h:' and string.sub(top, 1, #ARGV[3] + 1) ~= ARGV[3] .. ':' then
    redis.call('DEL', KEYS[9])
  end
  redis.call('RPUSH', KEYS[9], ARGV[3] .. ':' .. ARGV[18])
  redis.call('LTRIM', KEYS[9], -UNDO_KEPT, -1)
elseif ARGV[17] == 'reset' then
  redis.call('DEL', KEYS[9])
  if ARGV[18] ~= '' then redis.call('RPUSH', KEYS[9], ARGV[18]) end
elseif ARGV[17] == 'pop' then
  redis.call('RPOP', KEYS[9])
end
if ARGV[20] ~= '' then redis.call('DEL', KEYS[10]) end
if redis.call('TYPE', KEYS[5]).ok ~= 'list' then redis.call('DEL', KEYS[5]) end
local length = redis.call('LLEN', KEYS[5])
local leaving = length - tonumber(ARGV[8]) + 1
if leaving > 0 then
  for _, entry in ipairs(redis.call('LRANGE', KEYS[5], 0, leaving - 1)) do
    local size, start = string.match(entry, '^%d+:(%d+):()')
    if size and tonumber(size) > 0 then
      redis.call('HDEL', KEYS[4], string.sub(entry, start, start + tonumber(size) - 1))
    end
  end
  redis.call('LTRIM', KEYS[5], leaving, -1)
end
redis.call('RPUSH', KEYS[5], version .. ':' .. #ARGV[5] .. ':' .. ARGV[5] .. ARGV[6])
redis.call('HSET', KEYS[6], 'acting', ARGV[13])
if ARGV[15] ~= '' then redis.call('HSET', KEYS[6], 'record', ARGV[15]) end
if ARGV[5] ~= '' then redis.call('HSET', KEYS[4], ARGV[5], ARGV[14] .. version) end
if #ARGV > 20 then redis.call('HSET', KEYS[7], 'version', version, unpack(ARGV, 21)) end
local entry = ''
if ARGV[16] ~= '' then entry = redis.call('XADD', KEYS[8], '*', 'f', ARGV[16]) end
if ARGV[9] == '1' then
  redis.call('HSET', KEYS[6], 'status', 'finished', 'finished_at', ARGV[11])
  redis.call('EXPIRE', KEYS[4], ARGV[10])
  redis.call('EXPIRE', KEYS[5], ARGV[10])
  redis.call('DEL', KEYS[9], KEYS[10])
end
redis.call('PUBLISH', ARGV[7], version .. '|' .. ARGV[12])
local others = 0
if entry ~= '' then others = redis.call('XLEN', KEYS[8]) - 1 end
return {'ok', tostring(version), entry, others}
""".replace("UNDO_KEPT", str(UNDO_KEPT))


StreamEntries = list[tuple[bytes, dict[bytes, bytes]]]


def kept_entry(version: int, request_id: str, change: bytes) -> bytes:
    """A kept change as the list of kept changes holds it (see COMMIT_SCRIPT)."""
    rid = request_id.encode()
    return b"%d:%d:%s%s" % (version, len(rid), rid, change)


def read_kept(entry: bytes) -> tuple[int, str, bytes]:
    """The version, request id and serialized change of a kept entry."""
    version, size, rest = entry.split(b":", 2)
    length = int(size)
    return int(version), rest[:length].decode(), rest[length:]


def _version_of(entry_id: bytes | str) -> int:
    """The version of a stream entry id `<version>-1`."""
    return int(text(entry_id).split("-")[0])


def logged_of(entry_id: bytes | str, fields: dict[bytes, bytes]) -> Logged:
    """The log entry of a stream entry of the game's log (see COMMIT_SCRIPT)."""
    returned_to = fields.get(b"u")
    return Logged(
        _version_of(entry_id),
        int(fields[b"s"]),
        blob(fields.get(b"a", b"")),
        None if returned_to is None else int(returned_to),
        fields.get(b"t") == b"1",
    )


@dataclass(frozen=True)
class UndoStep:
    """What a commit does to its game's undo list (`live.undo`): `op` 'push' (the entry `payload`, for
    the committing seat), 'reset' (to the mark `payload`, or empty), 'pop', or '' (nothing)."""

    op: str
    payload: bytes = b""


KEEP = UndoStep("")


@dataclass(frozen=True)
class Logged:
    """One entry of a game's action log: the version it produced, the seat, and the Action's bytes; or,
    for an undo or a takeback, the version whose state the game returned to (and which of the two)."""

    version: int
    seat: int
    action: bytes
    returned_to: int | None = None
    takeback: bool = False


@dataclass(frozen=True)
class CommitResult:
    """What the write path did: 'ok' (with the new version), 'stale' (with the current one),
    'duplicate' (with the version the request id produced), 'reused' (the request id named another
    request) or 'missing'."""

    outcome: str
    version: int
    entry_id: str = ""  # the outbox entry of an 'ok' commit's follow-ups ('' if it wrote none)
    others: int = 0  # the other entries its outbox held: follow-ups left by committers that died


@dataclass(frozen=True)
class Meta:
    """A game's fixed facts and status."""

    record: gateway_pb2.GameRecord  # without seed, actions or scores
    status: str
    clock: gateway_pb2.TurnClock
    lobby_id: str
    acting_seats: tuple[int, ...]


@dataclass(frozen=True)
class Request:
    """What a request id names: the digest of its request (None if stored without one) and the version
    the request produced."""

    digest: bytes | None
    version: int

    def names(self, digest: bytes) -> bool:
        """Whether the id names the request of `digest` (an id stored without a digest names any)."""
        return self.digest is None or self.digest == digest


def _request(stored: bytes | str | None) -> Request | None:
    if stored is None:
        return None
    value = blob(stored)
    if len(value) <= REQUEST_DIGEST_BYTES:
        return Request(None, int(value))
    return Request(value[:REQUEST_DIGEST_BYTES], int(value[REQUEST_DIGEST_BYTES:]))


@dataclass(frozen=True)
class Snapshot:
    """What a move needs, read at once: meta, what its request id names already (None: nothing),
    state, version, the game's clock hash (see `live.clocks`), and the request id it was read for."""

    meta: Meta
    request: Request | None
    state: bytes
    version: int
    clock: dict[bytes, bytes]
    request_id: str = ""
    marked_ms: int = 0  # when its read marked the game's outbox (`live.outbox`), ms since the epoch

    def read_for(self, game_id: str, request_id: str) -> bool:
        """Whether this is a snapshot of `game_id` read for `request_id`."""
        return self.meta.record.game_id == game_id and self.request_id == request_id


def meta_of(fields: list[bytes | str | None]) -> Meta | None:
    """The Meta of a game's META_FIELDS values (None: the game has no meta); the spectators invited
    during the game are added to those of its record."""
    if fields[0] is None:
        return None
    record, status, clock, lobby_id, acting, invited = (blob(field or b"") for field in fields)
    stored = gateway_pb2.GameRecord.FromString(record)
    stored.invited_spectator_ids.extend(text(invited).split(INVITED_SEPARATOR) if invited else ())
    return Meta(
        stored,
        text(status),
        gateway_pb2.TurnClock.FromString(clock),
        text(lobby_id),
        tuple(int(seat) for seat in text(acting).split(",") if seat),
    )


def changes_hands(change: rules_pb2.ApplyActionResponse) -> bool:
    """Whether a committed change is a change of hands (a resignation or forfeit): it carries no view,
    as the state is unchanged, and the seats in the game's meta changed."""
    return not change.seat_views and not change.HasField("spectator_view")


def published_change(change: rules_pb2.ApplyActionResponse) -> bytes:
    """What watchers get of a change: its events and every seat's view and the spectator's (no state)."""
    return rules_pb2.ApplyActionResponse(
        events=change.events,
        acting_seats=change.acting_seats,
        game_over=change.game_over,
        seat_views=change.seat_views,
        spectator_view=change.spectator_view,
    ).SerializeToString()


async def read_meta(redis: aioredis.Redis, game_id: str) -> Meta | None:
    """A game's fixed facts, or None for an unknown game."""
    return meta_of(await redis.hmget(keys.game_meta(game_id), META_FIELDS))


def queue_snapshot(pipe: Pipeline, game_id: str, request_id: str) -> None:
    """Queue on `pipe` the reads of a game's snapshot: its state and version, then its meta, what a
    request id already names, and its clock hash (`snapshot_of` reads the replies).

    The pipeline is not a transaction (the caller's check shares it, on another Cluster slot), so a
    commit may land between the reads: the version is read first, so the meta is never older than it
    (a move never acts on seats from before a resignation it did not see the version of).
    """
    # One MGET reads state and version at once (one slot); sent as a command because redis-py's
    # cluster pipeline refuses its mget method, which may span slots.
    pipe.execute_command("MGET", keys.game_state(game_id), keys.game_version(game_id))
    pipe.hmget(keys.game_meta(game_id), META_FIELDS)
    pipe.hget(keys.game_requests(game_id), request_id or "-")
    pipe.hgetall(keys.game_clock(game_id))


def snapshot_of(replies: list[Any], request_id: str, marked_ms: int = 0) -> Snapshot | None:
    """The snapshot read by the commands `queue_snapshot` queued for `request_id` (their replies, in
    order), with the game's outbox marked at `marked_ms`."""
    (state, version), fields, previous, clock = replies
    meta = meta_of(fields)
    if meta is None:
        return None
    stored, at_version = blob(state or b""), int(version or 0)
    return Snapshot(meta, _request(previous), stored, at_version, clock, request_id, marked_ms)


def _seats_text(seats: Iterable[int]) -> str:
    return ",".join(str(seat) for seat in seats)


@dataclass(frozen=True)
class ArchivedGame:
    """What the read calls need of a game whose keys have left Redis."""

    meta: Meta
    record: gateway_pb2.GameRecord  # whole: seed, finish time, actions, scores
    state: bytes
    version: int


class ArchiveReader(Protocol):
    """Where finished games are read once their keys have left Redis (`live.archive.Archive`)."""

    async def game(self, game_id: str) -> ArchivedGame | None:
        """The archived game, or None if it was never archived."""
        ...


class GameStore:
    """Reads and writes of games; `commit` is the only way a game's state changes. With an `archive`,
    the reads of a game whose keys have left Redis come from there (`live.archive`)."""

    def __init__(
        self,
        redis: aioredis.Redis,
        event_history: int,
        replica_acks: ReplicaAcks | None = None,
        archive: ArchiveReader | None = None,
    ) -> None:
        self.redis = redis
        self.event_history = event_history
        self.replica_acks = replica_acks or ReplicaAcks()
        self.archive = archive
        self._commit = register_script(redis, COMMIT_SCRIPT)
        self._create = register_script(redis, CREATE_SCRIPT)

    async def create(
        self,
        record: gateway_pb2.GameRecord,
        seed: bytes,
        clock: gateway_pb2.TurnClock,
        lobby_id: str,
        state: bytes,
        setup: rules_pb2.ApplyActionResponse,
        clock_entry: Sequence[int | str] = (),
        followup: bytes = b"",
    ) -> str | None:
        """Store a new game at version 0 with its setup events, `clock_entry` (name/value pairs of its
        clock entry at version 0, `live.clocks`) and `followup` (its outbox entry, `live.outbox`), as
        a commit writes them, unless a game of that id exists already (a retried creation:
        `live.games.start_game`): the outbox entry's id ('' without one), or None if it existed."""
        game_id = record.game_id
        game_keys = [
            keys.game_meta(game_id),
            keys.game_state(game_id),
            keys.game_version(game_id),
            keys.game_events(game_id),
            keys.game_clock(game_id),
            keys.game_outbox(game_id),
        ]
        args = [
            record.SerializeToString(),
            seed,
            STATUS_ACTIVE,
            clock.SerializeToString(),
            lobby_id,
            _seats_text(setup.acting_seats),
            state,
            kept_entry(0, "", setup.SerializeToString()),
            followup,
            *clock_entry,
        ]
        entry = await self._create(keys=game_keys, args=args)
        if entry == 0:
            return None
        await self.redis.sadd(keys.live_games(record.title), game_id)
        return text(entry)

    async def archived(self, game_id: str) -> ArchivedGame | None:
        """The game as archived, if its keys have left Redis; None: Redis has it, or nobody does (the
        archive is asked, and remembers the ids it lacks: `live.archive`)."""
        if self.archive is None or await self.redis.exists(keys.game_meta(game_id)):
            return None
        return await self.archive.game(game_id)

    async def meta(self, game_id: str) -> Meta | None:
        """The game's fixed facts, or None for an unknown game."""
        meta = await read_meta(self.redis, game_id)
        if meta is None and (gone := await self.archived(game_id)) is not None:
            return gone.meta
        return meta

    async def seed(self, game_id: str) -> bytes:
        """The game's seed (only ever shown once the game is over)."""
        seed = await self.redis.hget(keys.game_meta(game_id), "seed")
        if seed is None and (gone := await self.archived(game_id)) is not None:
            return gone.record.seed
        return blob(seed or b"")

    async def state(self, game_id: str) -> tuple[bytes, int]:
        """The serialized state (a packed Any) and its version."""
        state, version = await self.redis.mget(keys.game_state(game_id), keys.game_version(game_id))
        if version is None and (gone := await self.archived(game_id)) is not None:
            return gone.state, gone.version
        return blob(state or b""), int(version or 0)

    async def commit(
        self,
        game_id: str,
        *,
        expected_version: int,
        state: bytes | None,
        seat: int,
        action: bytes,
        request_id: str,
        change: rules_pb2.ApplyActionResponse,
        finished_at: str,
        clock_entry: Sequence[int | str] = (),
        request_digest: bytes = b"",
        record: gateway_pb2.GameRecord | None = None,
        followup: bytes = b"",
        undo: UndoStep = KEEP,
        returned_to: int | None = None,
        takeback_id: str = "",
    ) -> CommitResult:
        """The write path (see the module docstring); atomic. `state` None keeps the state and logs no
        action (a change of hands, which passes the new `record`). `clock_entry` (name/value pairs) is
        the game's new clock entry (see `live.clocks`), written with the new version; empty: the
        stored entry stands. `request_digest` (REQUEST_DIGEST_BYTES) is stored with the request id, and
        `followup` (`live.outbox`) goes to the game's outbox with the new version. `undo` is what the
        commit does to the game's undo list (`live.undo`); `returned_to`, the version whose state an
        undo or a takeback brings back, is logged in place of an action; `takeback_id` names the pending
        takeback the commit carries out ('void' if it is no longer pending)."""
        kept = rules_pb2.ApplyActionResponse(
            events=change.events, acting_seats=change.acting_seats, game_over=change.game_over
        ).SerializeToString()
        published = published_change(change)
        game_keys = [
            keys.game_state(game_id),
            keys.game_version(game_id),
            keys.game_log(game_id),
            keys.game_requests(game_id),
            keys.game_events(game_id),
            keys.game_meta(game_id),
            keys.game_clock(game_id),
            keys.game_outbox(game_id),
            keys.game_undo(game_id),
            keys.game_takeback(game_id),
        ]
        reply = await self._run_commit(
            game_keys,
            [
                expected_version,
                state or b"",
                seat,
                action,
                request_id,
                kept,
                keys.game_channel(game_id),
                self.event_history,
                1 if change.game_over else 0,
                FINISHED_TTL_SECONDS,
                finished_at,
                published,
                _seats_text(change.acting_seats),
                request_digest,
                record.SerializeToString() if record is not None else b"",
                followup,
                undo.op,
                undo.payload,
                "" if returned_to is None else returned_to,
                takeback_id,
                *clock_entry,
            ],
        )
        outcome, value = reply[0], reply[1]
        if len(reply) > 2:
            return CommitResult(outcome.decode(), int(value), text(reply[2]), int(reply[3]))
        return CommitResult(outcome.decode(), int(value) if value else 0)

    async def _run_commit(self, game_keys: list[str], args: list[Any]) -> list[Any]:
        """The commit script's reply; with a replica-acknowledgement policy, the script and `WAIT` go in
        one pipeline on one connection (`WAIT` counts the replicas that have that connection's writes),
        on a Cluster to the node of the game's slot."""
        acks = self.replica_acks
        if not acks.replicas:
            return cast(list[Any], await self._commit(keys=game_keys, args=args))
        route: dict[str, Any] = {}
        if clustered(self.redis):
            route["target_nodes"] = cast(Any, self.redis).get_node_from_key(game_keys[0])
        script = self._commit
        for command, body in (("EVALSHA", script.sha), ("EVAL", script.script)):
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.execute_command(command, body, len(game_keys), *game_keys, *args)
                pipe.execute_command("WAIT", acks.replicas, acks.timeout_ms, **route)
                reply, acknowledged = await pipe.execute(raise_on_error=False)
            if not isinstance(reply, NoScriptError):  # else the node does not know the script yet
                break
        if isinstance(reply, Exception):
            raise reply
        if reply[0] == b"ok" and (isinstance(acknowledged, Exception) or acknowledged < acks.replicas):
            REPLICA_ACK_SHORTFALLS.inc()
        return cast(list[Any], reply)

    async def changes_since(
        self, game_id: str, version: int
    ) -> list[tuple[int, rules_pb2.ApplyActionResponse]]:
        """The kept changes after `version`, oldest first (without states)."""
        try:
            entries = cast(list[bytes], await self.redis.lrange(keys.game_events(game_id), 0, -1))
        except ResponseError:  # a stream kept from before: the next commit replaces it
            return []
        changes = []
        for entry in entries:
            changed, _, change = read_kept(entry)
            if changed > version:
                changes.append((changed, rules_pb2.ApplyActionResponse.FromString(change)))
        return changes

    async def log(self, game_id: str) -> list[Logged]:
        """The whole action log, oldest first."""
        entries = cast(StreamEntries, await self.redis.xrange(keys.game_log(game_id)))
        if not entries and (gone := await self.archived(game_id)) is not None:
            return [
                Logged(
                    logged.version,
                    logged.seat,
                    logged.action.value,
                    logged.returned_to if logged.HasField("returned_to") else None,
                    logged.takeback,
                )
                for logged in gone.record.actions
            ]
        return [logged_of(entry_id, fields) for entry_id, fields in entries or ()]

    async def logged(self, game_id: str, version: int) -> Logged | None:
        """The log entry of one version (None: it logged nothing, or the log is gone)."""
        entries = cast(
            StreamEntries, await self.redis.xrange(keys.game_log(game_id), f"{version}-1", f"{version}-1")
        )
        return logged_of(*entries[0]) if entries else None

    async def finish(self, title: str, game_id: str) -> None:
        """Take a finished game off the live list."""
        await self.redis.srem(keys.live_games(title), game_id)

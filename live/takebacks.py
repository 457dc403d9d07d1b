"""Takebacks: a player asks to take back their last decision that still stands, beyond what an undo may
(`live.undo`), and every other human seat must accept before a deadline.

A request is allowed in an unrated game whose lobby allows it (`UNDO_POLICY_ALLOWED`). It names the
version before the asker's last standing decision (`live.undo.standing_decision`), whose state the
game's log re-derives (`live.replay`: the generator's position comes back with it, so every draw after
it will draw the same again). The bots and the bots of resigned seats answer at once, by the game's
`bot_takebacks`; a bot's decline ends it there. The humans are asked: the request is kept in the game's
slot (`keys.game_takeback`, one at a time: a hash of its seats, versions, deadline, the state it returns
to and each seat's answer, `w:`/`a:`/`d:<seat>`), created at the version the asker saw, and its deadline
filed in `keys.takeback_deadlines`, which the workers sweep every second as they sweep the turn clocks.
Each answer is one script on that hash: a decline ends the request, the last acceptance carries it out.

Carrying it out is a commit through the one write path, under the request id `takeback:<id>`: the state
it returns to as a new version, whose log entry names that version (`LoggedAction.returned_to`, with
`takeback`), the undo list reset, and the request deleted by the same script, which refuses a request no
longer pending ('void'). Whoever comes first carries it out (the last accepter, or the workers once the
deadline passes with every seat accepted), once. Each change of a request is published on the game's
channel (`t|<Takeback>`), which the watch streams hand to the game's players.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from live import clocks, inbox, keys, metrics, moves, outbox, replay, undo, undoable
from live.clocks import entry_of
from live.errors import GatewayError, precondition
from live.moves import FanOut
from live.replies import blob, text
from live.store import STATUS_FINISHED, CommitResult, Meta
from live.table import Table

TAKEBACK_DUE = "workers.takeback_due"  # the workers' task ending a request whose deadline passed
MAX_ATTEMPTS = 50  # a takeback carried out retries while other commits overtake it
PUBLISHED = b"t|"  # the head of a request's change on the game's channel (a change's is its version)
SWEEP_LIMIT = 500
LEASE_MS = 10_000

# KEYS: the request, the game's version, its meta. ARGV: 1 the channel, 2 the Takeback published, 3 the
# version asked at, 4... the request's field/value pairs. Creates it unless one is pending (replies its
# id), the game moved on ('stale') or is over ('over'); else ''.
CREATE_SCRIPT = """
local pending = redis.call('HGET', KEYS[1], 'id')
if pending then return pending end
if redis.call('GET', KEYS[2]) ~= ARGV[3] then return 'stale' end
if redis.call('HGET', KEYS[3], 'status') == 'finished' then return 'over' end
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('PUBLISH', ARGV[1], 't|' .. ARGV[2])
return ''
"""

# KEYS: the request. ARGV: 1 its id, 2 '1' accept or '0' decline, 3 now (ms), 4... the answering seats.
# Replies {outcome, the request's fields after it}: 'none' (no such request pending), 'lapsed' (its
# deadline passed while waiting), 'not_asked' (none of the seats is waited for), 'same' (they answered
# so already), 'other' (they answered the other way), 'declined' (deleted), 'pending', or 'all' (every
# seat accepted: carry it out).
ANSWER_SCRIPT = """
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return {'none'} end
local waiting = tonumber(redis.call('HGET', KEYS[1], 'waiting'))
if waiting > 0 and tonumber(redis.call('HGET', KEYS[1], 'deadline')) <= tonumber(ARGV[3]) then
  return {'lapsed'}
end
local given = ARGV[2] == '1' and 'a:' or 'd:'
local other = ARGV[2] == '1' and 'd:' or 'a:'
local answered = 0
for i = 4, #ARGV do
  if redis.call('HDEL', KEYS[1], 'w:' .. ARGV[i]) == 1 then
    redis.call('HSET', KEYS[1], given .. ARGV[i], '1')
    answered = answered + 1
  end
end
if answered == 0 then
  for i = 4, #ARGV do
    if redis.call('HEXISTS', KEYS[1], given .. ARGV[i]) == 1 then
      return {'same', redis.call('HGETALL', KEYS[1])}
    end
    if redis.call('HEXISTS', KEYS[1], other .. ARGV[i]) == 1 then return {'other'} end
  end
  return {'not_asked'}
end
waiting = redis.call('HINCRBY', KEYS[1], 'waiting', -answered)
local fields = redis.call('HGETALL', KEYS[1])
if given == 'd:' then
  redis.call('DEL', KEYS[1])
  return {'declined', fields}
end
if waiting > 0 then return {'pending', fields} end
return {'all', fields}
"""

# KEYS: the request. ARGV: its id, now (ms). Deletes it if its deadline passed while waiting, replying
# {'expired', fields}; {'carry', fields} when every seat accepted (carry it out); {'gone'} otherwise.
EXPIRE_SCRIPT = """
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return {'gone'} end
local fields = redis.call('HGETALL', KEYS[1])
if tonumber(redis.call('HGET', KEYS[1], 'waiting')) == 0 then return {'carry', fields} end
if tonumber(redis.call('HGET', KEYS[1], 'deadline')) > tonumber(ARGV[2]) then return {'gone'} end
redis.call('DEL', KEYS[1])
return {'expired', fields}
"""

# KEYS: the request. ARGV: 1 its id. Deletes it (it can no longer be carried out); 1 if it did.
CANCEL_SCRIPT = """
if redis.call('HGET', KEYS[1], 'id') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
"""

# KEYS: any key of the game's slot (where a Cluster publishes). ARGV: the channel, the message.
PUBLISH_SCRIPT = """
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 0
"""


@dataclass(frozen=True)
class Request:
    """A takeback request as kept: its id, the asking seat and player, the version asked at, the version
    returned to, the deadline (ms), the state returned to (a packed Any's bytes), and the seats waited
    for, that accepted and that declined."""

    takeback_id: str
    seat: int
    player_id: str
    asked_at: int
    returns_to: int
    deadline_ms: int
    state: bytes
    waiting: tuple[int, ...]
    accepted: tuple[int, ...]
    declined: tuple[int, ...] = ()

    def fields(self) -> list[bytes | str | int]:
        """The hash's field/value pairs."""
        pairs: list[bytes | str | int] = [
            "id", self.takeback_id, "seat", self.seat, "player", self.player_id, "at", self.asked_at,
            "to", self.returns_to, "deadline", self.deadline_ms, "state", self.state,
            "waiting", len(self.waiting),
        ]  # fmt: skip
        for prefix, seats in (("w:", self.waiting), ("a:", self.accepted), ("d:", self.declined)):
            for seat in seats:
                pairs += [f"{prefix}{seat}", "1"]
        return pairs

    def message(self, status: gateway_pb2.TakebackStatus, version: int = 0) -> gateway_pb2.Takeback:
        """The Takeback clients get."""
        message = gateway_pb2.Takeback(
            takeback_id=self.takeback_id,
            seat=self.seat,
            asked_at_version=self.asked_at,
            returns_to=self.returns_to,
            accepted_seats=sorted(self.accepted),
            waiting_seats=sorted(self.waiting),
            declined_seats=sorted(self.declined),
            status=status,
            version=version,
        )
        message.deadline.FromMilliseconds(self.deadline_ms)
        return message


def request_of(flat: Sequence[bytes | str]) -> Request | None:
    """The request of a hash's HGETALL reply, as a flat list of fields and values (None: empty)."""
    fields = {text(flat[i]): blob(flat[i + 1]) for i in range(0, len(flat), 2)}
    if "id" not in fields:
        return None

    def seats(prefix: str) -> tuple[int, ...]:
        return tuple(sorted(int(name[len(prefix) :]) for name in fields if name.startswith(prefix)))

    return Request(
        fields["id"].decode(),
        int(fields["seat"]),
        fields["player"].decode(),
        int(fields["at"]),
        int(fields["to"]),
        int(fields["deadline"]),
        fields["state"],
        seats("w:"),
        seats("a:"),
        seats("d:"),
    )


async def pending(app: Table, game_id: str) -> Request | None:
    """The game's pending request, if any."""
    flat: dict[bytes, bytes] = await app.redis.hgetall(keys.game_takeback(game_id))  # type: ignore[assignment]
    return request_of([item for pair in flat.items() for item in pair])


def takebacks_off(why: str) -> GatewayError:
    """FAILED_PRECONDITION: the game allows no takebacks."""
    return precondition("TAKEBACKS_OFF", f"this game allows no takebacks: {why}; only undo within your turn")


def no_takeback(takeback_id: str) -> GatewayError:
    """FAILED_PRECONDITION: no such request is pending."""
    return precondition(
        "NO_TAKEBACK",
        "no such takeback request is pending: it was answered, lapsed or carried out",
        takeback_id=takeback_id,
    )


async def publish(app: Table, game_id: str, takeback: gateway_pb2.Takeback) -> None:
    """Tell the game's watchers of a request's change (`gateway.fanout` hands it to the players)."""
    message = PUBLISHED + takeback.SerializeToString()
    await app.script(PUBLISH_SCRIPT)(
        keys=[keys.game_takeback(game_id)], args=[keys.game_channel(game_id), message]
    )


def _asked(meta: Meta, seats: Sequence[int]) -> tuple[list[int], list[int]]:
    """The seats whose human players are asked to answer (each not resigned, and not the asker's), and
    the seats bots play (a bot's, or a resigned human's), which answer at once."""
    humans: list[int] = []
    bots: list[int] = []
    for seat in meta.record.seats:
        if seat.seat in seats:
            continue
        (bots if clocks.is_bot_seat(seat) else humans).append(seat.seat)
    return humans, bots


async def request(
    app: Table, game_id: str, player_id: str, expected_version: int, fan_out: FanOut | None = None
) -> tuple[gateway_pb2.Takeback, int]:
    """Ask for a takeback (see the module docstring): the request as it stands, and the game's version
    after it (a takeback carried out at once moves it)."""
    meta = await moves.load_meta(app.store, game_id)
    seats = moves.played_seats(meta, player_id)
    if meta.status == STATUS_FINISHED:
        raise moves.game_over()
    record = meta.record
    if record.undo == gateway_pb2.UNDO_POLICY_OFF:
        raise undo.undo_off("takeback")
    if record.undo == gateway_pb2.UNDO_POLICY_OWN_TURN_ONLY:
        raise takebacks_off("its lobby allows undo within your turn only")
    if not record.unrated:
        raise takebacks_off("it is rated")
    standing = await pending(app, game_id)
    if standing is not None and await _lapsed(app, game_id, standing):
        standing = None
    if standing is not None:
        if standing.seat in seats:  # asked again: the same request
            return standing.message(gateway_pb2.TAKEBACK_STATUS_PENDING), (await app.store.state(game_id))[1]
        raise precondition("TAKEBACK_PENDING", "another takeback request is pending; answer it first")
    _, version = await app.store.state(game_id)
    if version != expected_version:
        raise moves.stale(version)
    found = await undo.standing_decision(app, game_id, seats, version)
    if found is None:
        raise undo.nothing_to_undo()
    returns_to, seat = found
    state = await _state_at(app, meta, returns_to)
    humans, bots = _asked(meta, seats)
    accepting = record.bot_takebacks != gateway_pb2.BOT_TAKEBACKS_DECLINE
    deadline = clocks.now_ms() + 1000 * _seconds(app, meta)
    asked = Request(
        uuid.uuid4().hex,
        seat,
        player_id,
        version,
        returns_to,
        deadline,
        state,
        tuple(humans),
        tuple(bots) if accepting else (),
        () if accepting else tuple(bots),
    )
    if not accepting and bots:  # a bot declines at once: nothing is kept
        return asked.message(gateway_pb2.TAKEBACK_STATUS_DECLINED), version
    created = await app.script(CREATE_SCRIPT)(
        keys=[keys.game_takeback(game_id), keys.game_version(game_id), keys.game_meta(game_id)],
        args=[
            keys.game_channel(game_id),
            asked.message(gateway_pb2.TAKEBACK_STATUS_PENDING).SerializeToString(),
            version,
            *asked.fields(),
        ],
    )
    if text(created) == "stale":
        raise moves.stale((await app.store.state(game_id))[1])
    if text(created) == "over":
        raise moves.game_over()
    if text(created):
        raise precondition("TAKEBACK_PENDING", "another takeback request is pending; answer it first")
    await app.redis.zadd(keys.takeback_deadlines(), {_member(game_id, asked.takeback_id): deadline})
    await _tell(app, meta, asked)
    if humans:
        return asked.message(gateway_pb2.TAKEBACK_STATUS_PENDING), version
    return await carry_out(app, game_id, asked, fan_out)


async def answer(
    app: Table, game_id: str, player_id: str, takeback_id: str, accept: bool, fan_out: FanOut | None = None
) -> tuple[gateway_pb2.Takeback, int]:
    """Answer the pending request for the player's seats: the request as it stands, and the game's
    version after it (the last acceptance carries it out)."""
    meta = await moves.load_meta(app.store, game_id)
    seats = moves.played_seats(meta, player_id)
    if meta.status == STATUS_FINISHED:
        raise moves.game_over()
    reply = await app.script(ANSWER_SCRIPT)(
        keys=[keys.game_takeback(game_id)],
        args=[takeback_id, "1" if accept else "0", clocks.now_ms(), *seats],
    )
    outcome = text(reply[0])
    if outcome == "none":
        raise no_takeback(takeback_id)
    if outcome == "lapsed":
        await expire(app, game_id, takeback_id)
        raise no_takeback(takeback_id)
    if outcome == "not_asked":
        raise precondition("NOT_ASKED", "your seats are not asked to answer this takeback request")
    if outcome == "other":
        raise precondition("ALREADY_ANSWERED", "you answered this takeback request the other way already")
    asked = request_of(reply[1])
    assert asked is not None
    version = (await app.store.state(game_id))[1]
    if outcome == "same":
        return asked.message(gateway_pb2.TAKEBACK_STATUS_PENDING), version
    if outcome == "declined":
        declined = asked.message(gateway_pb2.TAKEBACK_STATUS_DECLINED)
        await publish(app, game_id, declined)
        return declined, version
    if outcome == "pending":
        waiting = asked.message(gateway_pb2.TAKEBACK_STATUS_PENDING)
        await publish(app, game_id, waiting)
        return waiting, version
    return await carry_out(app, game_id, asked, fan_out)


async def carry_out(
    app: Table, game_id: str, asked: Request, fan_out: FanOut | None = None
) -> tuple[gateway_pb2.Takeback, int]:
    """Return the game to the state the request names, through the write path, once (see the module
    docstring): the request ACCEPTED with the version of its commit (or CANCELLED, once its seat
    resigned), and the game's version."""
    request_id = f"takeback:{asked.takeback_id}"
    digest = moves.request_digest("takeback", 0, any_pb2.Any(type_url=request_id))
    for _ in range(MAX_ATTEMPTS):
        snapshot = await moves.read_snapshot(app, game_id, request_id)
        meta, version = snapshot.meta, snapshot.version
        if snapshot.request is not None:  # carried out already
            return asked.message(gateway_pb2.TAKEBACK_STATUS_ACCEPTED, snapshot.request.version), version
        if meta.status == STATUS_FINISHED:  # the game's end deleted the request
            return asked.message(gateway_pb2.TAKEBACK_STATUS_CANCELLED), version
        if any(s.seat == asked.seat and s.resigned for s in meta.record.seats):
            await app.script(CANCEL_SCRIPT)(keys=[keys.game_takeback(game_id)], args=[asked.takeback_id])
            cancelled = asked.message(gateway_pb2.TAKEBACK_STATUS_CANCELLED)
            await publish(app, game_id, cancelled)
            return cancelled, version
        state = any_pb2.Any.FromString(asked.state)
        seat_views, spectator = await undo.views(app, meta, state)
        acting = tuple(spectator.acting_seats)
        change = rules_pb2.ApplyActionResponse(
            events=[undo.taken_back(meta.record.seats, asked.seat, takeback=True)],
            acting_seats=acting,
            seat_views=seat_views,
            spectator_view=spectator,
        )
        at = clocks.now_ms()
        plan = clocks.plan(version + 1, acting, meta, entry_of(snapshot.clock), at, moved=False)
        followup = outbox.Followup.of(version + 1, acting, meta.acting_seats, False, plan, at)
        commit = app.store.commit(
            game_id,
            expected_version=version,
            state=asked.state,
            seat=asked.seat,
            action=b"",
            request_id=request_id,
            change=change,
            finished_at="",
            clock_entry=plan.pairs(),
            request_digest=digest,
            followup=followup.encode(),
            undo=undoable.reset(version + 1),
            returned_to=asked.returns_to,
            takeback_id=asked.takeback_id,
        )
        result = await app.followups.run(_committed(app, commit, meta, change, followup, fan_out))
        if result.outcome == "stale":
            continue
        if result.outcome == "duplicate":
            return asked.message(gateway_pb2.TAKEBACK_STATUS_ACCEPTED, result.version), result.version
        if result.outcome != "ok":  # 'void': carried out by another meanwhile, or lapsed
            again = await moves.read_snapshot(app, game_id, request_id)
            if again.request is None:
                raise no_takeback(asked.takeback_id)
            return asked.message(gateway_pb2.TAKEBACK_STATUS_ACCEPTED, again.request.version), again.version
        accepted = asked.message(gateway_pb2.TAKEBACK_STATUS_ACCEPTED, result.version)
        await publish(app, game_id, accepted)
        await app.redis.zrem(keys.takeback_deadlines(), _member(game_id, asked.takeback_id))
        return accepted, result.version
    raise GatewayError(grpc.StatusCode.ABORTED, "GAME_BUSY", "the game changed too often meanwhile; retry")


async def _committed(
    app: Table,
    commit: Awaitable[CommitResult],
    meta: Meta,
    change: rules_pb2.ApplyActionResponse,
    followup: outbox.Followup,
    fan_out: FanOut | None,
) -> CommitResult:
    """`carry_out` from its commit on, as a move's (`live.moves`): its follow-ups when it committed."""
    result = await commit
    if result.outcome == "ok":
        metrics.UNDOS.labels(meta.record.title).inc()
        if fan_out is not None:
            fan_out(meta, result.version, change)
        await outbox.run(app, meta, result.entry_id, followup, result.others)
    return result


async def expire(app: Table, game_id: str, takeback_id: str) -> str:
    """End a request whose deadline passed (carrying it out instead if every seat accepted): 'expired',
    'carried' or 'gone' (nothing pending under that id)."""
    reply = await app.script(EXPIRE_SCRIPT)(
        keys=[keys.game_takeback(game_id)], args=[takeback_id, clocks.now_ms()]
    )
    outcome = text(reply[0])
    asked = request_of(reply[1]) if len(reply) > 1 else None
    if outcome == "carry" and asked is not None:
        try:
            await carry_out(app, game_id, asked)
        except GatewayError as error:
            if error.code != grpc.StatusCode.FAILED_PRECONDITION:
                raise
        return "carried"
    if outcome == "expired" and asked is not None:
        await publish(app, game_id, asked.message(gateway_pb2.TAKEBACK_STATUS_EXPIRED))
        await app.redis.zrem(keys.takeback_deadlines(), _member(game_id, takeback_id))
        return "expired"
    await app.redis.zrem(keys.takeback_deadlines(), _member(game_id, takeback_id))
    return "gone"


async def _lapsed(app: Table, game_id: str, standing: Request) -> bool:
    """Whether a pending request's deadline passed (then it is ended here, its sweep being late)."""
    if standing.deadline_ms > clocks.now_ms():
        return False
    return await expire(app, game_id, standing.takeback_id) != "gone"


async def due(app: Table, now: int | None = None) -> list[tuple[str, str]]:
    """The requests whose deadline is due, as (game id, takeback id), each leased for LEASE_MS so that
    overlapping sweeps skip it meanwhile."""
    at = clocks.now_ms() if now is None else now
    listed = await app.redis.eval(
        clocks.LEASE_DUE, 1, keys.takeback_deadlines(), at, at + LEASE_MS, SWEEP_LIMIT
    )
    found = []
    for member in listed:
        game_id, _, takeback_id = text(member).partition("|")
        found.append((game_id, takeback_id))
    return found


def _member(game_id: str, takeback_id: str) -> str:
    return f"{game_id}|{takeback_id}"


def _seconds(app: Table, meta: Meta) -> int:
    """How long the seats asked have to answer: the setting, or a correspondence game's time a move."""
    clock = meta.clock
    if clock.pace == gateway_pb2.CLOCK_PACE_CORRESPONDENCE and clock.per_move_seconds:
        return max(app.settings.takeback_seconds, clock.per_move_seconds)
    return app.settings.takeback_seconds


async def _state_at(app: Table, meta: Meta, version: int) -> bytes:
    """The game's state at `version`, re-derived from its seed and log (a packed Any's bytes)."""
    record = gateway_pb2.GameRecord()
    record.CopyFrom(meta.record)
    record.seed = await app.store.seed(meta.record.game_id)
    title = app.rules.get(record.title)
    for entry in await app.store.log(meta.record.game_id):
        logged = record.actions.add(version=entry.version, seat=entry.seat)
        if entry.returned_to is not None:
            logged.returned_to = entry.returned_to
        else:
            logged.action.type_url = f"type.googleapis.com/{title.info.action_type}"
            logged.action.value = entry.action
    replayed = await replay.replay(title, record, version)
    if replayed.mismatch:  # the log does not replay: a bug, never a request's fault
        raise GatewayError(
            grpc.StatusCode.INTERNAL, "GATEWAY_FAILURE", f"the game does not replay: {replayed.mismatch}"
        )
    return replayed.state.SerializeToString()


async def _tell(app: Table, meta: Meta, asked: Request) -> None:
    """Put the request in the inbox of each human asked to answer it."""
    players = {s.seat: s.player for s in meta.record.seats}
    sender = players[asked.seat]
    event = gateway_pb2.InboxEvent(
        kind=gateway_pb2.INBOX_EVENT_KIND_TAKEBACK_REQUESTED,
        game_id=meta.record.game_id,
        title=meta.record.title,
        version=asked.returns_to,
        sender=sender,
        takeback_id=asked.takeback_id,
    )
    event.at.FromMilliseconds(clocks.now_ms())
    event.deadline.FromMilliseconds(asked.deadline_ms)
    told = {players[seat].player_id for seat in asked.waiting if players[seat].player_id != asked.player_id}
    await inbox.post(app.redis, [(player_id, event) for player_id in sorted(told)])

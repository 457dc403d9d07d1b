"""The clock bookkeeping of a redispatch (`live.clocks.after_commit`), against a real Redis: what it
writes and queues, and that the write path's own commits plan the same entries and tasks."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from live import clocks, keys
from live.connection import async_client
from live.errors import GatewayError
from live.settings import Settings
from live.store import STATUS_ACTIVE, GameStore, Meta
from tests.titles import TITLE

NOW = 1_000_000_000


def meta(game_id: str, *, per_move_seconds: int = 0, bot_seat: int | None = None) -> Meta:
    """The meta of a 2-seat game, with a per-move clock and a bot seat when asked for."""
    record = gateway_pb2.GameRecord(game_id=game_id, title=TITLE)
    for seat in range(2):
        record.seats.add(seat=seat, player=gateway_pb2.Player(player_id=f"p{seat}", bot=seat == bot_seat))
    clock = gateway_pb2.TurnClock(per_move_seconds=per_move_seconds)
    return Meta(record, STATUS_ACTIVE, clock, "lobby", (0,))


async def bookkeep(
    redis_url: str,
    game_id: str,
    steps: Sequence[tuple[int, int, list[int]]],
    game_meta: Meta,
) -> tuple[list[clocks.Entry | None], list[tuple[str, list[object]]]]:
    """Run after_commit for each (version, now, acting seats); the entry after each step and the queue."""
    redis = async_client(Settings(redis_url=redis_url))
    queued: list[tuple[str, list[object]]] = []

    async def queue(task: str, args: Sequence[object]) -> None:
        queued.append((task, list(args)))

    entries = []
    fields = {
        "record": game_meta.record.SerializeToString(),
        "clock": game_meta.clock.SerializeToString(),
        "status": STATUS_ACTIVE,
        "acting": "0",
    }
    try:
        await redis.hset(keys.game_meta(game_id), mapping=fields)
        for version, now, acting in steps:
            commit = clocks.Commit(game_id, version, tuple(acting), False)
            await clocks.after_commit(redis, queue, commit, now=now)
            entries.append(await clocks.read_entry(redis, game_id))
    finally:
        await redis.aclose()
    return entries, queued


def test_a_standing_watch_entry_is_kept_while_more_than_half_its_interval_is_left(redis_url: str) -> None:
    steps = [
        (1, NOW, [0]),
        (2, NOW + 1_000, [1]),
        (3, NOW + clocks.WATCH_STANDING_MS - 1, [0]),
        (4, NOW + clocks.WATCH_STANDING_MS, [1]),
    ]
    entries, queued = asyncio.run(bookkeep(redis_url, "watch-game", steps, meta("watch-game")))
    assert [(e.kind, e.version, e.due) for e in entries if e] == [
        (clocks.KIND_WATCH, 1, NOW + clocks.WATCH_INTERVAL_MS),
        (clocks.KIND_WATCH, 1, NOW + clocks.WATCH_INTERVAL_MS),
        (clocks.KIND_WATCH, 1, NOW + clocks.WATCH_INTERVAL_MS),
        (clocks.KIND_WATCH, 4, NOW + clocks.WATCH_STANDING_MS + clocks.WATCH_INTERVAL_MS),
    ]
    assert queued == []


def test_a_clocked_turn_is_due_when_its_time_runs_out(redis_url: str) -> None:
    steps = [(1, NOW, [0]), (2, NOW + 4_000, [1])]
    entries, _ = asyncio.run(bookkeep(redis_url, "due-game", steps, meta("due-game", per_move_seconds=30)))
    assert [(e.kind, e.version, e.seat, e.due) for e in entries if e] == [
        (clocks.KIND_CLOCK, 1, 0, NOW + 30_000),
        (clocks.KIND_CLOCK, 2, 1, NOW + 4_000 + 30_000),
    ]


async def committed(
    redis_url: str, game_id: str, steps: Sequence[tuple[int, int, list[int]]], game_meta: Meta
) -> tuple[list[clocks.Entry | None], list[tuple[str, list[object]]]]:
    """Play each (version, now, acting seats) through the real write path, as a move does: plan the
    entry and commit it with the version. The entry seen right after each commit, and the tasks the
    plans name (which the commit's outbox entry carries, `live.outbox`)."""
    redis = async_client(Settings(redis_url=redis_url))
    store = GameStore(redis, event_history=10)
    queued: list[tuple[str, list[object]]] = []
    seen = []
    try:
        setup = rules_pb2.ApplyActionResponse(acting_seats=[0])
        await store.create(game_meta.record, b"seed", game_meta.clock, "lobby", b"state", setup)
        for version, now, acting in steps:
            previous = await clocks.read_entry(redis, game_id)
            plan = clocks.plan(version, acting, game_meta, previous, now)
            result = await store.commit(
                game_id,
                expected_version=version - 1,
                state=b"state",
                seat=0,
                action=b"",
                request_id="",
                change=rules_pb2.ApplyActionResponse(acting_seats=acting),
                finished_at="",
                clock_entry=plan.pairs(),
            )
            assert result.outcome == "ok"
            seen.append(await clocks.read_entry(redis, game_id))
            queued += [(task, list(args)) for task, args in plan.tasks]
    finally:
        await redis.aclose()
    return seen, queued


def test_a_move_commits_its_clock_entry_with_its_version(redis_url: str) -> None:
    """Whoever sees a version finds its entry at once (the commit writes it), and the entries and tasks
    are what a redispatch alone would have produced."""
    steps = [(1, NOW, [0]), (2, NOW + 2_000, [1]), (3, NOW + 5_000, [0])]
    for name, make in [
        ("clocked", lambda g: meta(g, per_move_seconds=30)),
        ("bot", lambda g: meta(g, bot_seat=1)),
    ]:
        game_id = f"commit-{name}"
        seen, queued = asyncio.run(committed(redis_url, game_id, steps, make(game_id)))
        assert [e.version if e else None for e in seen] == [1, 2, 3], name
        alone_id = f"alone-{name}"
        alone, queued_alone = asyncio.run(bookkeep(redis_url, alone_id, steps, make(alone_id)))
        assert [(e.kind, e.seat, e.due, e.left) for e in seen if e] == [
            (e.kind, e.seat, e.due, e.left) for e in alone if e
        ], name
        assert [(task, args[1:]) for task, args in queued] == [
            (task, args[1:]) for task, args in queued_alone
        ], name


def clocked(clock: gateway_pb2.TurnClock) -> Meta:
    """A 2-seat game of humans under `clock`."""
    game = meta("clocked")
    return Meta(game.record, STATUS_ACTIVE, clock, "lobby", (0,))


def turns(game: Meta, moves: Sequence[tuple[int, int]]) -> list[clocks.Entry]:
    """The entries planned for each (ms the move took, seat to act next), from the start at NOW."""
    entry: clocks.Entry | None = None
    now, planned = NOW, []
    for version, (took, seat) in enumerate(moves):
        now += took
        todo = clocks.plan(version, [seat], game, entry, now)
        assert todo.fields is not None
        entry = clocks.entry_of(
            {k.encode(): str(v).encode() for k, v in {"version": version, **todo.fields}.items()}
        )
        assert entry is not None
        planned.append(entry)
    return planned


def test_the_increment_is_credited_after_each_move_of_the_seat() -> None:
    game = clocked(gateway_pb2.TurnClock(total_seconds=60, increment_seconds=5))
    first, second, third = turns(game, [(0, 0), (20_000, 1), (1_000, 0)])
    assert first.due == NOW + 60_000
    assert second.left == {0: 60_000 - 20_000 + 5_000}
    assert third.left == {0: 45_000, 1: 60_000 - 1_000 + 5_000}
    assert third.due == NOW + 21_000 + 45_000


def test_a_move_past_the_per_move_limit_spends_the_reserve() -> None:
    day = 24 * 3600
    clock = gateway_pb2.TurnClock(
        pace=gateway_pb2.CLOCK_PACE_CORRESPONDENCE, per_move_seconds=day, reserve_seconds=3 * day
    )
    first, second, third = turns(clocked(clock), [(0, 0), (2 * day * 1000, 1), (0, 0)])
    assert first.due == NOW + 4 * day * 1000, "a day per move and three in reserve"
    assert second.reserve == {0: 2 * day * 1000}, "a move of two days took one day from the reserve"
    assert third.due == NOW + 2 * day * 1000 + 3 * day * 1000, "the seat has a day and two in reserve"


def test_a_clock_whose_parts_do_not_fit_is_refused() -> None:
    refused = [
        gateway_pb2.TurnClock(per_move_seconds=2 * 3600),
        gateway_pb2.TurnClock(pace=gateway_pb2.CLOCK_PACE_CORRESPONDENCE, per_move_seconds=60),
        gateway_pb2.TurnClock(increment_seconds=5),
        gateway_pb2.TurnClock(total_seconds=60, reserve_seconds=5),
    ]
    for clock in refused:
        try:
            clocks.check_clock(clock)
        except GatewayError as error:
            assert error.code == grpc.StatusCode.INVALID_ARGUMENT and error.reason == "INVALID_CLOCK"
        else:
            raise AssertionError(f"accepted {clock}")
    clocks.check_clock(
        gateway_pb2.TurnClock(pace=gateway_pb2.CLOCK_PACE_CORRESPONDENCE, per_move_seconds=86400)
    )

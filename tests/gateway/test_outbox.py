"""The outbox (`live.outbox`) on both Redis modes: a commit writes its follow-ups in the same step as its
version (a refused commit writes none), the committer performs and acknowledges them, and the sweep
performs those a committer left (it died after its commit) once, and only after their grace, keeping
the mark of a game marked again meanwhile."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Iterator, Sequence

import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from gateway import auth
from live import clocks, keys, outbox
from live.store import CommitResult
from live.table import Table
from services.common.rng import Rng
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import new_game
from workers import turns
from workers.bots.random_bot import random_action


class Recorder:
    """A dispatcher recording the tasks it is given."""

    def __init__(self) -> None:
        self.tasks: list[tuple[str, list[object]]] = []

    async def queue(self, task: str, args: Sequence[object]) -> None:
        self.tasks.append((task, list(args)))

    async def after_commit(self, commit: clocks.Commit) -> None:
        """No redispatch in these tests."""


@pytest.fixture
def recorded(redis_url: str, rules: dict[str, str]) -> Iterator[tuple[GatewayProcess, Recorder]]:
    recorder = Recorder()
    with GatewayProcess(gateway_settings(redis_url, rules), dispatcher=recorder) as process:
        yield process, recorder


def _game(process: GatewayProcess) -> tuple[str, list[str]]:
    """A new two-player game of the test's title between new players; its id and its players' ids."""
    players = [
        process.run(auth.create_player(process.app, f"outbox {secrets.token_hex(4)}", guest=False))  # type: ignore[arg-type]
        for _ in range(2)
    ]
    seats = [gateway_pb2.GameSeat(seat=seat, player=player) for seat, player in enumerate(players)]
    return new_game(process, TITLE, seats), [p.player_id for p in players]


def _settled_game(process: GatewayProcess) -> tuple[Table, str, list[str]]:
    """The gateway's table and a new game (`_game`) whose start's follow-ups are performed."""
    app = process.app
    assert app is not None
    game_id, player_ids = _game(process)
    process.run(app.followups.drain())
    return app, game_id, player_ids


def _commit(
    app: Table,
    game_id: str,
    expected_version: int,
    followup: outbox.Followup,
    change: rules_pb2.ApplyActionResponse,
    state: bytes,
    seat: int = 0,
    action: bytes = b"",
    clock_entry: Sequence[int | str] = (),
) -> Awaitable[CommitResult]:
    """A commit through the write path with `followup` for the outbox and no request id."""
    return app.store.commit(
        game_id,
        expected_version=expected_version,
        state=state,
        seat=seat,
        action=action,
        request_id="",
        change=change,
        finished_at="",
        clock_entry=clock_entry,
        followup=followup.encode(),
    )


async def _commit_and_die(app: Table, game_id: str) -> tuple[int, outbox.Followup]:
    """Commit a random legal action of the acting seat as `moves.play` does, then stop, as a committer
    killed right after its commit: nothing of its follow-ups is performed."""
    loaded = await turns.load(app, game_id)
    assert loaded is not None
    seat = next(iter(loaded.game.acting_seats(loaded.state)))
    action = turns.pack_action(loaded.game, random_action(loaded.game, loaded.state, seat, Rng(1)))
    title = app.rules.get(loaded.meta.record.title)
    request = rules_pb2.ApplyActionRequest(
        state=any_pb2.Any.FromString(loaded.snapshot.state), seat=seat, action=action, include_views=True
    )
    change = await title.call("ApplyAction", request)
    at = clocks.now_ms()
    plan = clocks.plan(loaded.version + 1, change.acting_seats, loaded.meta, None, at)
    followup = outbox.Followup.of(
        loaded.version + 1, change.acting_seats, loaded.meta.acting_seats, False, plan, at
    )
    state = change.state.SerializeToString()
    result = await _commit(
        app, game_id, loaded.version, followup, change, state, seat, action.value, plan.pairs()
    )
    assert result.outcome == "ok" and result.entry_id
    return result.version, followup


def test_a_commit_writes_its_followups_with_its_version_and_a_refused_one_writes_none(
    recorded: tuple[GatewayProcess, Recorder],
) -> None:
    process, _ = recorded
    app, game_id, _ = _settled_game(process)
    assert not process.run(app.redis.exists(keys.game_outbox(game_id))), "the start's entry was acknowledged"

    version, followup = process.run(_commit_and_die(app, game_id))
    [(entry_id, stored)] = process.run(outbox.pending(app.redis, game_id))
    assert stored == followup and stored.version == version

    stale = process.run(_commit(app, game_id, version - 1, followup, rules_pb2.ApplyActionResponse(), b"x"))
    assert stale.outcome == "stale"
    assert [i for i, _ in process.run(outbox.pending(app.redis, game_id))] == [entry_id]
    process.run(outbox.perform_pending(app, game_id))  # leaves no entry to the other tests' sweeps


def test_the_sweep_performs_what_a_dead_committer_left_once_after_its_grace(
    recorded: tuple[GatewayProcess, Recorder],
) -> None:
    process, recorder = recorded
    app, game_id, player_ids = _settled_game(process)
    process.run(outbox.mark(app.redis, game_id))  # as the move's read marks it
    version, followup = process.run(_commit_and_die(app, game_id))
    marked = process.run(app.redis.zscore(keys.outbox_marks(), game_id))
    assert marked is not None

    # (The session's Redis holds other tests' games: only this game's entry is looked at.)
    early = int(marked) - 1
    process.run(outbox.sweep(app, now=early))
    assert process.run(outbox.pending(app.redis, game_id)), "the entry was taken before its grace"

    later = int(marked) + outbox.GRACE_MS
    before = len(recorder.tasks)
    assert process.run(outbox.sweep(app, now=later)) >= 1
    assert not process.run(app.redis.exists(keys.game_outbox(game_id))), "the entry was not acknowledged"
    assert process.run(app.redis.zscore(keys.outbox_marks(), game_id)) is None, "the mark was left"
    listed = process.run(app.redis.hget(keys.my_games(player_ids[0]), game_id))
    assert gateway_pb2.MyGame.FromString(listed).version == version, "the players' lists were not updated"
    mine = [(task, args) for task, args in recorder.tasks[before:] if args and args[0] == game_id]
    assert mine == [(task, list(args)) for task, args in followup.tasks]
    due = process.run(app.redis.zscore(keys.deadlines(), game_id))
    entry = process.run(clocks.read_entry(app.redis, game_id))
    assert entry is not None and due == entry.due, "the clock entry's due time was not filed"

    tasks = len(recorder.tasks)
    process.run(outbox.sweep(app, now=later + outbox.LEASE_MS + 1))
    assert not [args for _, args in recorder.tasks[tasks:] if args and args[0] == game_id], "performed twice"


def test_a_game_marked_again_during_a_sweep_keeps_its_mark(
    recorded: tuple[GatewayProcess, Recorder],
) -> None:
    process, _ = recorded
    app = process.app
    assert app is not None
    game_id = "marked-again"
    now = clocks.now_ms()
    lease = now + outbox.LEASE_MS
    process.run(app.redis.zadd(keys.outbox_marks(), {game_id: lease}))  # leased by a sweep
    process.run(app.redis.zadd(keys.outbox_marks(), {game_id: now + outbox.GRACE_MS}))  # a move marks it
    unmark = app.script(outbox.UNMARK_SCRIPT)
    assert process.run(unmark(keys=[keys.outbox_marks()], args=[game_id, lease])) == 0
    assert process.run(app.redis.zscore(keys.outbox_marks(), game_id)) == now + outbox.GRACE_MS
    assert process.run(unmark(keys=[keys.outbox_marks()], args=[game_id, now + outbox.GRACE_MS])) == 1

"""Commits racing each other and their callers, through a real gateway whose dispatcher runs the real
clock bookkeeping (recording the tasks it would queue): every resignation counts, a move racing its
player's resignation is applied before it or refused after it, a move, resignation or new game whose
caller is cancelled as it is committed (a client hanging up) is committed and followed through, and
the next turn is always queued."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable, Coroutine, Iterator, Sequence
from typing import Any

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from live import clocks, keys, moves, resignations
from live.connection import sync_client
from live.games import start_game
from live.table import Table
from services.common import registry
from services.common.rng import Rng
from services.common.status import error_info
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game, seat_players, signed_in
from tests.titles import TITLE
from workers import turns

TRIALS = 40
STAGGER_SECONDS = 0.002


class Recorder:
    """The gateway's dispatch with the real clock bookkeeping, recording the tasks instead of sending
    them to a broker."""

    def __init__(self, process: GatewayProcess) -> None:
        self.process = process
        self.tasks: list[tuple[str, list[object]]] = []

    async def queue(self, task: str, args: Sequence[object]) -> None:
        self.tasks.append((task, list(args)))

    async def after_commit(self, commit: clocks.Commit) -> None:
        assert self.process.app is not None
        await clocks.after_commit(self.process.app.redis, self.queue, commit)

    def turns(self, game_id: str) -> set[int]:
        """The versions of the game whose bot turn was queued."""
        return {
            int(str(args[1])) for task, args in self.tasks if task == clocks.TAKE_TURN and args[0] == game_id
        }


@pytest.fixture(scope="module")
def recorded(redis_url: str, rules: dict[str, str]) -> Iterator[tuple[GatewayProcess, Recorder]]:
    process = GatewayProcess(gateway_settings(redis_url, rules))
    recorder = Recorder(process)
    process.dispatcher = recorder
    with process:
        yield process, recorder


@pytest.fixture
def players(recorded: tuple[GatewayProcess, Recorder]) -> Iterator[list[Client]]:
    """Three signed-in players of the recorded gateway (they sit at a new table in every trial)."""
    channels = [patient_channel(recorded[0].address) for _ in range(3)]
    clients = [Client(channel) for channel in channels]
    for i, client in enumerate(clients):
        client.sign_in_as_guest(f"player {i}")
    yield clients
    for channel in channels:
        channel.close()


def _wait(predicate: Callable[[], Any], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        time.sleep(0.02)


def _starting(
    process: GatewayProcess,
    clients: list[Client],
    clock: gateway_pb2.TurnClock | None = None,
    game_id: str = "",
) -> Coroutine[object, object, str]:
    """The start of a game of one seat per client (not yet run)."""
    return start_game(
        process.app,  # type: ignore[arg-type]
        title=TITLE,
        player_count=len(clients),
        options=[],
        seats=seat_players(clients),
        clock=clock or gateway_pb2.TurnClock(),
        lobby_id="",
        game_id=game_id,
    )


def _game(process: GatewayProcess, clients: list[Client], clock: gateway_pb2.TurnClock | None = None) -> str:
    return process.run(_starting(process, clients, clock))


def _at_once(*calls: Callable[[], object]) -> list[object]:
    """Run the calls on threads released together; each one's result or RpcError."""
    barrier = threading.Barrier(len(calls))
    results: list[object] = [None] * len(calls)

    def run(index: int) -> None:
        barrier.wait()
        try:
            results[index] = calls[index]()
        except Exception as error:  # an RpcError, or a failure the test then names
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _resign(client: Client, game_id: str) -> Callable[[], object]:
    return lambda: client.games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=client.auth)


def _view(client: Client, game_id: str) -> gateway_pb2.GameView:
    return client.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=client.auth).game


def _next_turn_is_queued(
    store: redis.Redis, recorder: Recorder, game_id: str, view: gateway_pb2.GameView
) -> None:
    """The game waits on nobody who left: a bot seat to act has its turn at the game's version queued
    (a human to act is waited on under the game's clock entry)."""
    seats = {seat.seat: seat for seat in view.seats}
    if any(clocks.is_bot_seat(seats[s]) for s in view.acting_seats):
        _wait(lambda: view.version in recorder.turns(game_id), 5, "the bot's turn to be queued")
    _wait(lambda: store.exists(keys.game_clock(game_id)), 5, "the game's clock entry")


def test_two_players_resigning_at_once_both_count(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client], redis_url: str
) -> None:
    process, recorder = recorded
    store = sync_client(redis_url)
    lost = 0
    clients = players
    for _ in range(TRIALS):
        game_id = _game(process, clients)
        answers = _at_once(_resign(clients[0], game_id), _resign(clients[1], game_id))
        assert all(isinstance(a, gateway_pb2.ResignResponse) for a in answers), answers
        view = _view(clients[2], game_id)
        resigned = {s.seat for s in view.seats if s.resigned}
        lost += resigned != {0, 1}
        _next_turn_is_queued(store, recorder, game_id, view)
    assert lost == 0, f"a resignation was lost in {lost} of {TRIALS} trials"


def test_a_move_racing_its_players_resignation_is_applied_before_it_or_refused(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client], redis_url: str
) -> None:
    process, recorder = recorded
    store = sync_client(redis_url)
    applied = 0
    clients = players
    for trial in range(TRIALS):
        game_id = _game(process, clients)
        acting = _view(clients[0], game_id).acting_seats[0]
        actor = clients[acting]
        mine = _view(actor, game_id)
        move = gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=mine.legal_actions[0].action,
            expected_version=mine.version,
            request_id=uuid.uuid4().hex,
        )
        resign = _resign(actor, game_id)
        lag = STAGGER_SECONDS * (trial % 4)  # the resignation is quicker: let the move lead sometimes

        def late_resign(resign: Callable[[], object] = resign, lag: float = lag) -> object:
            time.sleep(lag)
            return resign()

        played, resigned = _at_once(
            lambda a=actor, m=move: a.games.SubmitAction(m, metadata=a.auth),  # type: ignore[misc]
            late_resign,
        )
        assert isinstance(resigned, gateway_pb2.ResignResponse), resigned
        log = [(int(v.split(b"-")[0]), int(f[b"s"])) for v, f in store.xrange(keys.game_log(game_id))]
        resigned_at = resigned.game.version
        if isinstance(played, gateway_pb2.SubmitActionResponse):
            applied += 1
            assert log == [(played.version, acting)] and played.version < resigned_at, "applied before"
            retried = actor.games.SubmitAction(move, metadata=actor.auth)
            assert retried.version == played.version, "a retry of it is still answered"
        else:
            assert isinstance(played, grpc.RpcError)
            assert played.code() in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION), played
            assert log == [], "refused after the resignation: nothing played"
        again = gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=mine.legal_actions[0].action,
            expected_version=resigned_at,
            request_id="after",
        )
        with pytest.raises(grpc.RpcError) as after:
            actor.games.SubmitAction(again, metadata=actor.auth)
        info = error_info(after.value)
        assert (after.value.code(), info.reason if info else "") == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "SEAT_RESIGNED",
        ), after.value.details()
        view = _view(clients[(acting + 1) % 3], game_id)
        assert view.seats[acting].resigned
        _next_turn_is_queued(store, recorder, game_id, view)
    assert 0 < applied < TRIALS, f"both orders happen: the move came first in {applied} of {TRIALS}"


def test_a_game_with_a_resignation_replays_and_its_log_skips_the_resignation(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    """The session's gateway, which has no worker: the test plays every seat itself, the resigned one
    through the move path as its bot would."""
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    rng = Rng(8)
    resigned_at = 0
    for step in range(registry.get(TITLE).info.max_game_length):
        view = _view(clients[0], game_id)
        if view.status == gateway_pb2.GAME_STATUS_FINISHED:
            break
        if step == 5:
            resigned_at = (
                clients[1]
                .games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=clients[1].auth)
                .game.version
            )
            continue
        seat = view.acting_seats[0]
        state, version = gateway.run(gateway.app.store.state(game_id))  # type: ignore[union-attr]
        legal = gateway.run(
            gateway.app.rules.get(TITLE).call(  # type: ignore[union-attr]
                "ListLegalActions",
                rules_pb2.ListLegalActionsRequest(state=any_pb2.Any.FromString(state), seat=seat),
            )
        ).actions
        action = legal[rng.below(len(legal))].action
        gateway.run(moves.play(gateway.app, game_id, seat, action, version, f"m{version}"))  # type: ignore[arg-type]
    else:
        raise AssertionError("the game did not end within the title's bound")
    record = (
        clients[1]
        .games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=clients[1].auth)
        .record
    )
    assert record.seats[1].resigned and resigned_at == 6
    assert resigned_at not in {a.version for a in record.actions}
    assert [a.version for a in record.actions][:6] == [1, 2, 3, 4, 5, 7]
    replay = clients[0].games.ReplayGame(
        gateway_pb2.ReplayGameRequest(game_id=game_id), metadata=clients[0].auth
    )
    assert replay.consistent, replay.mismatch
    assert replay.actions_replayed == len(record.actions)


def test_a_resignation_does_not_restart_the_clock_of_the_player_to_act(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client]
) -> None:
    """A change of hands is no move: the acting human's turn goes on, with the same deadline."""
    process, _ = recorded
    game_id = _game(process, players, gateway_pb2.TurnClock(per_move_seconds=30, total_seconds=600))
    before = _view(players[0], game_id)
    acting = before.acting_seats[0]
    time.sleep(0.05)
    resigned = players[(acting + 1) % 3].games.Resign(
        gateway_pb2.ResignRequest(game_id=game_id), metadata=players[(acting + 1) % 3].auth
    )
    after = _view(players[acting], game_id)
    assert resigned.game.version == after.version == before.version + 1
    assert after.acting_seats == before.acting_seats and after.deadline == before.deadline
    with pytest.raises(grpc.RpcError) as again:
        _resign(players[(acting + 1) % 3], game_id)()
    info = error_info(again.value)
    assert (
        again.value.code() == grpc.StatusCode.FAILED_PRECONDITION and info and info.reason == "SEAT_RESIGNED"
    )
    assert _view(players[acting], game_id).version == after.version, "a second resignation commits nothing"


def test_a_forfeit_and_a_resignation_at_once_both_count_and_a_repeated_forfeit_is_a_no_op(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client], redis_url: str
) -> None:
    """The workers' forfeit (a timeout under TIMEOUT_POLICY_FORFEIT) takes the same write path."""
    process, recorder = recorded
    store = sync_client(redis_url)
    for _ in range(TRIALS // 4):
        game_id = _game(process, players)
        acting = _view(players[0], game_id).acting_seats[0]
        other = (acting + 1) % 3
        loaded = process.run(turns.load(process.app, game_id))  # type: ignore[arg-type]

        def forfeit(loaded: turns.Loaded = loaded, seat: int = acting, game_id: str = game_id) -> object:
            request_id = f"timeout:{game_id}:{loaded.version}"
            return process.run(turns.forfeit(process.app, loaded, seat, request_id))  # type: ignore[arg-type]

        forfeited, resigned = _at_once(forfeit, _resign(players[other], game_id))
        assert isinstance(resigned, gateway_pb2.ResignResponse), resigned
        assert isinstance(forfeited, bool), forfeited
        view = _view(players[(acting + 2) % 3], game_id)
        assert {s.seat for s in view.seats if s.resigned} == ({acting, other} if forfeited else {other})
        if forfeited:  # the forfeit read version 0; it is refused only if the resignation came first
            assert forfeit() is True, "a repeated forfeit answers as the first did"
            assert _view(players[(acting + 2) % 3], game_id).version == view.version, "and commits nothing"
            assert view.seats[acting].bot_strength == gateway_pb2.BOT_STRENGTH_HEURISTIC
        _next_turn_is_queued(store, recorder, game_id, view)


def test_a_watcher_is_told_of_a_resignation(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    watcher = clients[2]
    stream = watcher.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id), metadata=watcher.auth, timeout=20
    )
    assert next(stream).game.version == 0
    clients[1].games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=clients[1].auth)
    change = next(stream)
    stream.cancel()
    assert change.game.version == 1 and change.game.seats[1].resigned, "the view shows the seat resigned"
    assert [e.version for e in change.events] == [1] and "resigned" in change.events[0].text


async def cancelled_as_sent(app: Table, write: str, work: Coroutine[object, object, object]) -> bool:
    """Run `work`, cancelling it as it sends its write (`commit` or `create`, of the table's store) to
    Redis, as a client hanging up then would; whether it ended cancelled."""
    store = app.store
    real = getattr(store, write)
    sent = asyncio.Event()

    async def sending(*args: object, **kwargs: object) -> object:
        sent.set()
        return await real(*args, **kwargs)

    setattr(store, write, sending)
    try:
        caller = asyncio.ensure_future(work)
        waiter = asyncio.ensure_future(sent.wait())
        await asyncio.wait([caller, waiter], return_when=asyncio.FIRST_COMPLETED)
        waiter.cancel()
        caller.cancel()
        try:
            await caller
        except asyncio.CancelledError:
            return True
        return False
    finally:
        delattr(store, write)


def _followed_through(
    store: redis.Redis, recorder: Recorder, client: Client, game_id: str, view: gateway_pb2.GameView
) -> None:
    """Everything that follows the commit of `view`'s version was done: the next turn queued (a bot's,
    or the clock entry's due time filed) and the game listed at that version for `client`."""
    _next_turn_is_queued(store, recorder, game_id, view)
    _wait(
        lambda: (
            store.zscore(keys.deadlines(), game_id)
            == float(store.hget(keys.game_clock(game_id), "due") or -1)
        ),
        5,
        "the clock entry's due time to be filed",
    )

    def listed() -> int:
        listing = client.games.ListMyGames(gateway_pb2.ListMyGamesRequest(), metadata=client.auth)
        return next((g.version for g in listing.games if g.game_id == game_id), -1)

    _wait(lambda: listed() == view.version, 5, f"the game listed at version {view.version}")


def test_a_move_whose_caller_is_cancelled_as_it_is_committed_is_applied_and_followed_through(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client], redis_url: str
) -> None:
    """The mover's opponents resign (bots take their seats); then each of the mover's moves is
    cancelled as it is sent to be committed, until a bot is to act: every one is applied, and the
    bot's turn is queued."""
    process, recorder = recorded
    app: Table = process.app  # type: ignore[assignment]
    store = sync_client(redis_url)
    moved = 0
    for _ in range(TRIALS // 8):
        game_id = _game(process, players)
        mover = _view(players[0], game_id).acting_seats[0]
        for seat in range(len(players)):
            if seat != mover:
                _resign(players[seat], game_id)()
        client = players[mover]
        for _ in range(registry.get(TITLE).info.max_game_length):
            view = _view(client, game_id)
            if mover not in view.acting_seats:
                break
            play = moves.play(
                app, game_id, mover, view.legal_actions[0].action, view.version, uuid.uuid4().hex
            )
            assert process.run(cancelled_as_sent(app, "commit", play)), "the caller is cancelled"
            after = _view(client, game_id)
            assert after.version == view.version + 1, "the move that was sent is applied"
            _followed_through(store, recorder, client, game_id, after)
            moved += 1
        assert view.version in recorder.turns(game_id), "a bot acts: its turn is queued"
    assert moved >= TRIALS // 8


def test_a_resignation_whose_caller_is_cancelled_as_it_is_committed_counts_and_is_followed_through(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client], redis_url: str
) -> None:
    process, recorder = recorded
    app: Table = process.app  # type: ignore[assignment]
    store = sync_client(redis_url)
    for _ in range(TRIALS // 8):
        game_id = _game(process, players)
        before = _view(players[0], game_id)
        acting = before.acting_seats[0]
        client = players[acting]
        resign = resignations.hand_over(
            app,
            game_id,
            resignations.resigning(before.seats[acting].player.player_id),
            gateway_pb2.BOT_STRENGTH_HEURISTIC,
            resignations.RESIGNED,
        )
        assert process.run(cancelled_as_sent(app, "commit", resign)), "the caller is cancelled"
        after = _view(players[(acting + 1) % len(players)], game_id)
        assert after.version == before.version + 1 and after.seats[acting].resigned
        assert clocks.is_bot_seat(after.seats[acting]), "a bot acts: _followed_through waits for its turn"
        _followed_through(store, recorder, client, game_id, after)


def test_a_game_whose_starter_is_cancelled_as_it_is_stored_is_started_and_followed_through(
    recorded: tuple[GatewayProcess, Recorder], players: list[Client], redis_url: str
) -> None:
    process, recorder = recorded
    app: Table = process.app  # type: ignore[assignment]
    store = sync_client(redis_url)
    for _ in range(TRIALS // 8):
        game_id = uuid.uuid4().hex
        start = _starting(process, players, game_id=game_id)
        assert process.run(cancelled_as_sent(app, "create", start)), "the caller is cancelled"
        view = _view(players[0], game_id)
        assert view.version == 0
        for client in players:
            _followed_through(store, recorder, client, game_id, view)

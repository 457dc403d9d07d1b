"""Undos and takebacks racing other commits and each other, through a real gateway whose dispatcher runs
the real clock bookkeeping (as the resignation races, `test_write_races`): an undo against a move of
the same seat, a move or a resignation of another seat, and a timeout; two takeback requests; an
acceptance against a decline, against another acceptance and against the deadline. Whichever comes
first, exactly one of each pair commits, and what follows is what that order implies."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import clocks, keys, takebacks
from live.connection import sync_client
from live.games import start_game
from live.table import Table
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import seat_players
from tests.gateway.test_write_races import Recorder, _at_once
from tests.gateway.undoing import (
    acting,
    answer,
    ask_takeback,
    find_undoable,
    hand_over,
    move,
    refusal,
    undo,
    view,
)
from tests.titles import TITLE
from workers import turns
from workers.bots import Budget

TRIALS = 16
STAGGER_SECONDS = 0.002
TIMEOUT_STAGGER_SECONDS = 0.008
PRECONDITION, ABORTED = grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED
TAKEBACKS = (b"1",)  # a takeback's log entry's flag


@pytest.fixture(scope="module")
def recorded(redis_url: str, rules: dict[str, str]) -> Iterator[GatewayProcess]:
    process = GatewayProcess(gateway_settings(redis_url, rules))
    recorder = Recorder(process)
    process.dispatcher = recorder
    with process:
        yield process


@pytest.fixture
def players(recorded: GatewayProcess) -> Iterator[list[Client]]:
    """Three signed-in players of the recorded gateway (they sit at a new table in every trial)."""
    channels = [patient_channel(recorded.address) for _ in range(3)]
    clients = [Client(channel) for channel in channels]
    for i, client in enumerate(clients):
        client.sign_in_as_guest(f"racer {i}")
    yield clients
    for channel in channels:
        channel.close()


def _game(
    process: GatewayProcess,
    clients: list[Client],
    rated: bool = True,
    clock: gateway_pb2.TurnClock | None = None,
) -> str:
    return process.run(
        start_game(
            process.app,  # type: ignore[arg-type]
            title=TITLE,
            player_count=len(clients),
            options=[],
            seats=seat_players(clients),
            clock=clock or gateway_pb2.TurnClock(),
            lobby_id="",
            rated=rated,
        )
    )


def _later(call: Callable[[], object], lag: float) -> Callable[[], object]:
    def run() -> object:
        time.sleep(lag)
        return call()

    return run


def _log(store: redis.Redis, game_id: str) -> list[dict[bytes, bytes]]:
    return [fields for _, fields in store.xrange(keys.game_log(game_id))]


def _code(result: object) -> tuple[grpc.StatusCode, str] | None:
    return refusal(result) if isinstance(result, grpc.RpcError) else None


def test_an_undo_racing_a_move_of_the_same_seat_commits_one_of_them(
    recorded: GatewayProcess, players: list[Client], redis_url: str
) -> None:
    store = sync_client(redis_url)
    undone = 0
    for trial in range(TRIALS):
        game_id = _game(recorded, players)
        found = find_undoable(players, game_id)
        client, after = found.client, found.after
        request = gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=after.legal_actions[0].action,
            expected_version=after.version,
            request_id=uuid.uuid4().hex,
        )
        lag = STAGGER_SECONDS * (trial % 4)
        undid, moved = _at_once(
            lambda c=client, g=game_id, v=after.version: undo(c, g, v),  # type: ignore[misc]
            _later(lambda c=client, r=request: c.games.SubmitAction(r, metadata=c.auth), lag),  # type: ignore[misc]
        )
        now = view(client, game_id)
        assert now.version == after.version + 1, "exactly one of them committed"
        last = _log(store, game_id)[-1]
        if isinstance(undid, gateway_pb2.UndoResponse):
            undone += 1
            assert _code(moved) == (ABORTED, "STALE_VERSION")
            assert last[b"u"] == str(found.before.version).encode() and now.view == found.before.view
        else:
            assert isinstance(moved, gateway_pb2.SubmitActionResponse), moved
            assert _code(undid) == (ABORTED, "STALE_VERSION")
            assert b"a" in last and b"u" not in last
    assert 0 < undone < TRIALS, f"both orders happen: the undo came first in {undone} of {TRIALS}"


def test_an_undo_racing_another_seats_move_or_resignation_is_refused_or_comes_first(
    recorded: GatewayProcess, players: list[Client], redis_url: str
) -> None:
    """Another seat's move can only follow a decision that passed the turn on, which no undo takes back;
    another seat's resignation is a commit too: an undo before it stands, one after it is refused, and
    what the acting seat may undo is gone with it (the seats changed hands)."""
    store = sync_client(redis_url)
    for _ in range(TRIALS // 4):
        game_id = _game(recorded, players)
        done = hand_over(players, game_id)
        other = players[done.acting[0]]
        current = view(other, game_id)
        undid, moved = _at_once(
            lambda g=game_id, d=done: undo(d.client, g, d.version),  # type: ignore[misc]
            lambda o=other, c=current: move(o, c),  # type: ignore[misc]
        )
        assert isinstance(moved, gateway_pb2.SubmitActionResponse), moved
        assert _code(undid) in {(PRECONDITION, "UNDO_BARRIER"), (ABORTED, "STALE_VERSION")}
        assert view(other, game_id).version == done.version + 1
    resigned_first = 0
    for trial in range(TRIALS):
        game_id = _game(recorded, players)
        found = find_undoable(players, game_id)
        other = next(c for c in players if c is not found.client)
        lag = STAGGER_SECONDS * (trial % 4)
        undid, resigned = _at_once(
            lambda f=found, g=game_id: undo(f.client, g, f.after.version),  # type: ignore[misc]
            _later(
                lambda o=other, g=game_id: o.games.Resign(
                    gateway_pb2.ResignRequest(game_id=g), metadata=o.auth
                ),
                lag,
            ),  # type: ignore[misc]
        )
        assert isinstance(resigned, gateway_pb2.ResignResponse), resigned
        now = view(found.client, game_id)
        assert now.version == found.after.version + 2 - (not isinstance(undid, gateway_pb2.UndoResponse))
        if isinstance(undid, gateway_pb2.UndoResponse):
            assert undid.version == found.after.version + 1 and now.view == found.before.view
        else:
            resigned_first += 1
            assert _code(undid) == (ABORTED, "STALE_VERSION")
            code = refusal_of(lambda f=found, g=game_id, v=now.version: undo(f.client, g, v))
            assert code == (PRECONDITION, "UNDO_BARRIER"), "a change of hands ends what may be undone"
        assert _log(store, game_id)[-1].get(b"u") in (None, str(found.before.version).encode())


def refusal_of(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    return refusal(raised.value)


def test_an_undo_racing_a_timeout_commits_one_of_them(
    recorded: GatewayProcess, players: list[Client], redis_url: str
) -> None:
    """The acting seat's time has run out as it undoes: either the undo comes first (and puts back the
    clock of before its decision, which has not run out) or the timeout's bot plays the turn (and the
    undo is refused: a bot's move stands)."""
    app: Table = recorded.app  # type: ignore[assignment]
    store = sync_client(redis_url)
    clock = gateway_pb2.TurnClock(per_move_seconds=600)
    outcomes = {"undo": 0, "timeout": 0}
    for trial in range(TRIALS):
        game_id = _game(recorded, players, clock=clock)
        found = find_undoable(players, game_id)
        store.hset(keys.game_clock(game_id), "due", clocks.now_ms() - 1)  # its time ran out
        lag = TIMEOUT_STAGGER_SECONDS * (trial % 4)  # an undo asks for every seat's view: let it lead
        undid, handled = _at_once(
            lambda f=found, g=game_id: undo(f.client, g, f.after.version),  # type: ignore[misc]
            _later(lambda g=game_id: recorded.run(turns.on_deadline(app, g, Budget())), lag),  # type: ignore[misc]
        )
        now = view(found.client, game_id)
        if isinstance(undid, gateway_pb2.UndoResponse):
            outcomes["undo"] += 1
            assert handled in {"early", "timeout"}, handled  # a timeout read before the undo is refused
            assert now.version == found.after.version + 1 and now.deadline == found.before.deadline
            assert b"u" in _log(store, game_id)[-1]
        else:
            outcomes["timeout"] += 1
            assert handled == "timeout" and _code(undid) == (ABORTED, "STALE_VERSION")
            assert now.version == found.after.version + 1
            assert b"a" in _log(store, game_id)[-1], "the timeout's bot played the turn"
            if found.client is acting(players, game_id)[0]:
                code = refusal_of(lambda f=found, g=game_id, v=now.version: undo(f.client, g, v))
                assert code[1] in {"UNDO_BARRIER", "NOTHING_TO_UNDO"}, (
                    "a timeout's move is no undoable decision"
                )
    assert 0 < outcomes["undo"] < TRIALS, f"both orders happen: {outcomes}"


def _two_standing(process: GatewayProcess, players: list[Client]) -> tuple[str, list[Client], int]:
    """An unrated game where two players each made a decision that passed the turn on: the game, those
    two, and its version."""
    game_id = _game(process, players, rated=False)
    first = hand_over(players, game_id)
    second = hand_over(players, game_id)
    while second.client is first.client:
        second = hand_over(players, game_id)
    return game_id, [first.client, second.client], view(players[0], game_id).version


def test_two_takeback_requests_at_once_leave_one_pending(
    recorded: GatewayProcess, players: list[Client], redis_url: str
) -> None:
    store = sync_client(redis_url)
    for _ in range(TRIALS // 2):
        game_id, askers, version = _two_standing(recorded, players)
        answers = _at_once(*(lambda a=a, g=game_id, v=version: ask_takeback(a, g, v) for a in askers))  # type: ignore[misc]
        won = [a for a in answers if isinstance(a, gateway_pb2.RequestTakebackResponse)]
        lost = [a for a in answers if not isinstance(a, gateway_pb2.RequestTakebackResponse)]
        assert len(won) == 1 and [_code(a) for a in lost] == [(PRECONDITION, "TAKEBACK_PENDING")]
        assert won[0].takeback.status == gateway_pb2.TAKEBACK_STATUS_PENDING
        assert store.hget(keys.game_takeback(game_id), "id") == won[0].takeback.takeback_id.encode()


def test_an_acceptance_racing_a_decline_ends_declined(
    recorded: GatewayProcess, players: list[Client], redis_url: str
) -> None:
    store = sync_client(redis_url)
    for trial in range(TRIALS // 2):
        game_id = _game(recorded, players, rated=False)
        done = hand_over(players, game_id)
        asked = ask_takeback(done.client, game_id, done.version).takeback
        others = [c for c in players if c is not done.client]
        lag = STAGGER_SECONDS * (trial % 4)
        accepted, declined = _at_once(
            lambda o=others[0], g=game_id, t=asked.takeback_id: answer(o, g, t, True),  # type: ignore[misc]
            _later(lambda o=others[1], g=game_id, t=asked.takeback_id: answer(o, g, t, False), lag),  # type: ignore[misc]
        )
        assert isinstance(declined, gateway_pb2.AnswerTakebackResponse), declined
        assert declined.takeback.status == gateway_pb2.TAKEBACK_STATUS_DECLINED
        if not isinstance(accepted, gateway_pb2.AnswerTakebackResponse):
            assert _code(accepted) == (PRECONDITION, "NO_TAKEBACK"), "declined first"
        assert view(done.client, game_id).version == done.version, "nothing was taken back"
        assert not store.exists(keys.game_takeback(game_id))


def test_the_last_acceptances_racing_each_other_or_the_deadline_take_back_once(
    recorded: GatewayProcess, players: list[Client], redis_url: str
) -> None:
    """Two players accept at once (one of them carries it out, once); or the last acceptance meets the
    deadline's handling: it is carried out (once, by either) or it lapses (nothing taken back)."""
    app: Table = recorded.app  # type: ignore[assignment]
    store = sync_client(redis_url)
    for _ in range(TRIALS // 2):
        game_id = _game(recorded, players, rated=False)
        done = hand_over(players, game_id)
        asked = ask_takeback(done.client, game_id, done.version).takeback
        others = [c for c in players if c is not done.client]
        results = _at_once(
            *(lambda o=o, g=game_id, t=asked.takeback_id: answer(o, g, t, True) for o in others)
        )  # type: ignore[misc]
        statuses = sorted(
            r.takeback.status for r in results if isinstance(r, gateway_pb2.AnswerTakebackResponse)
        )
        assert statuses == [gateway_pb2.TAKEBACK_STATUS_PENDING, gateway_pb2.TAKEBACK_STATUS_ACCEPTED], (
            results
        )
        assert view(done.client, game_id).version == done.version + 1
        assert [f.get(b"t") for f in _log(store, game_id) if f.get(b"t")] == list(TAKEBACKS)
    outcomes = {"accepted": 0, "expired": 0}
    for trial in range(TRIALS):
        game_id = _game(recorded, players, rated=False)
        done = hand_over(players, game_id)
        asked = ask_takeback(done.client, game_id, done.version).takeback
        others = [c for c in players if c is not done.client]
        answer(others[0], game_id, asked.takeback_id, True)
        deadline = clocks.now_ms() + 30  # the time to answer runs out now
        store.hset(keys.game_takeback(game_id), "deadline", deadline)
        lag = 0.025 + STAGGER_SECONDS * (trial % 4)
        accepted, expired = _at_once(
            _later(lambda o=others[1], g=game_id, t=asked.takeback_id: answer(o, g, t, True), lag),  # type: ignore[misc]
            _later(lambda g=game_id, t=asked.takeback_id: recorded.run(takebacks.expire(app, g, t)), 0.03),  # type: ignore[misc]
        )
        taken = [f for f in _log(store, game_id) if f.get(b"t")]
        now = view(done.client, game_id)
        if isinstance(accepted, gateway_pb2.AnswerTakebackResponse):
            outcomes["accepted"] += 1
            assert accepted.takeback.status == gateway_pb2.TAKEBACK_STATUS_ACCEPTED
            assert expired in {"gone", "carried"} and len(taken) == 1 and now.version == done.version + 1
        else:
            outcomes["expired"] += 1
            assert _code(accepted) == (PRECONDITION, "NO_TAKEBACK") and expired in {"expired", "gone"}
            if expired == "gone":  # the acceptance found it lapsed and ended it itself
                assert not store.exists(keys.game_takeback(game_id))
            assert taken == [] and now.version == done.version
        assert not store.exists(keys.game_takeback(game_id))
    assert outcomes["accepted"] + outcomes["expired"] == TRIALS, outcomes

"""Takebacks through a real gateway, Redis and rules services: a player asks to take back a decision
behind a barrier, every other human seat must accept (bots answer by the game's setting), and the game
returns to the state before it as a new version, seen by the players' watch streams and inboxes; each
refusal with its reason; the deadline handled as the workers' sweep handles it (docs/undo.md)."""

from __future__ import annotations

from collections.abc import Callable

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from live import keys, takebacks
from live.connection import sync_client
from live.games import start_game
from live.table import Table
from tests.gateway.support import GatewayProcess
from tests.gateway.test_play import seat_players, signed_in
from tests.gateway.undoing import (
    RPC_TIMEOUT,
    acting,
    answer,
    ask_takeback,
    hand_over,
    move,
    refusal,
    view,
)
from tests.titles import TITLE

PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
PENDING, ACCEPTED = gateway_pb2.TAKEBACK_STATUS_PENDING, gateway_pb2.TAKEBACK_STATUS_ACCEPTED
DECLINED, EXPIRED = gateway_pb2.TAKEBACK_STATUS_DECLINED, gateway_pb2.TAKEBACK_STATUS_EXPIRED


def start(
    gateway: GatewayProcess,
    seats: list[gateway_pb2.GameSeat],
    rated: bool = False,
    undo: gateway_pb2.UndoPolicy = gateway_pb2.UNDO_POLICY_UNSPECIFIED,
    bots: gateway_pb2.BotTakebacks = gateway_pb2.BOT_TAKEBACKS_UNSPECIFIED,
) -> str:
    """A game of TITLE with these seats (unrated unless `rated`), as a lobby with these settings starts it."""
    return gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=TITLE,
            player_count=len(seats),
            options=[],
            seats=seats,
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
            undo=undo,
            rated=rated,
            bot_takebacks=bots,
        )
    )


def refused(call: Callable[[], object]) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as raised:
        call()
    return refusal(raised.value)


def bots(gateway: GatewayProcess, count: int, first: int) -> list[gateway_pb2.GameSeat]:
    """Bot seats `first`... (no worker plays them here: the game waits at their turn)."""
    from gateway import auth

    seats = []
    for seat in range(first, first + count):
        player = gateway.run(auth.create_player(gateway.app, f"takeback bot {seat}", guest=False, bot=True))  # type: ignore[arg-type]
        seats.append(
            gateway_pb2.GameSeat(seat=seat, player=player, bot_strength=gateway_pb2.BOT_STRENGTH_RANDOM)
        )
    return seats


def test_a_takeback_every_other_player_accepts_takes_the_game_back(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = start(gateway, seat_players(clients))
    store = sync_client(redis_url)
    done = hand_over(clients, game_id)
    asker = done.client
    seat = done.before.seat
    others = [c for c in clients if c is not asker]
    streams = [
        c.games.WatchGame(
            gateway_pb2.WatchGameRequest(game_id=game_id, from_version=done.version),
            metadata=c.auth,
            timeout=RPC_TIMEOUT,
        )
        for c in others
    ]
    for stream in streams:
        assert next(stream).game.version == done.version
    code, reason = refused(
        lambda: asker.games.Undo(
            gateway_pb2.UndoRequest(game_id=game_id, expected_version=done.version, request_id="u"),
            metadata=asker.auth,
        )
    )
    assert (code, reason) == (PRECONDITION, "UNDO_BARRIER")
    asked = ask_takeback(asker, game_id, done.version).takeback
    assert asked.status == PENDING and asked.seat == seat
    assert (asked.asked_at_version, asked.returns_to) == (done.version, done.before.version)
    assert sorted(asked.waiting_seats) == sorted(view(c, game_id).seat for c in others)
    assert asked.deadline.ToMilliseconds() > 0
    assert ask_takeback(asker, game_id, done.version).takeback == asked, "asked again: the same request"
    for stream in streams:
        told = next(stream)
        assert told.takeback == asked and not told.HasField("game"), "no change of the game"
    assert view(others[0], game_id).takeback == asked
    spectator = signed_in(new_client, 1)[0]
    assert not view(spectator, game_id).HasField("takeback")
    told_player = view(others[0], game_id)
    player_id = told_player.seats[told_player.seat].player.player_id
    inboxed = [
        gateway_pb2.InboxEvent.FromString(fields[b"e"]) for _, fields in store.xrange(keys.inbox(player_id))
    ]
    assert [e.takeback_id for e in inboxed if e.kind == gateway_pb2.INBOX_EVENT_KIND_TAKEBACK_REQUESTED] == [
        asked.takeback_id
    ]
    first = answer(others[0], game_id, asked.takeback_id, True).takeback
    assert first.status == PENDING and len(first.waiting_seats) == 1 and len(first.accepted_seats) == 1
    assert refused(lambda: answer(asker, game_id, asked.takeback_id, True)) == (PRECONDITION, "NOT_ASKED")
    assert answer(others[0], game_id, asked.takeback_id, True).takeback == first, "the same answer again"
    assert refused(lambda: answer(others[0], game_id, asked.takeback_id, False)) == (
        PRECONDITION,
        "ALREADY_ANSWERED",
    )
    last = answer(others[1], game_id, asked.takeback_id, True)
    assert last.takeback.status == ACCEPTED and last.takeback.version == done.version + 1
    after = view(asker, game_id)
    assert after.version == done.version + 1 and not after.HasField("takeback")
    assert (after.view, list(after.legal_actions), list(after.acting_seats)) == (
        done.before.view,
        list(done.before.legal_actions),
        list(done.before.acting_seats),
    ), "the game is back before the decision"
    entry_id, fields = store.xrange(keys.game_log(game_id))[-1]
    assert entry_id == f"{after.version}-1".encode()
    assert (fields[b"u"], fields[b"t"]) == (str(done.before.version).encode(), b"1")
    for stream in streams:
        messages = [next(stream), next(stream), next(stream)]
        stream.cancel()
        assert [m.takeback.status for m in messages if m.HasField("takeback")] == [PENDING, ACCEPTED]
        assert [m.game.version for m in messages if m.HasField("game")] == [after.version]
    assert refused(lambda: answer(others[1], game_id, asked.takeback_id, True)) == (
        PRECONDITION,
        "NO_TAKEBACK",
    )
    again = move(asker, after)
    assert again.game.view != done.before.view


def test_a_decline_ends_the_request_and_the_game_goes_on(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = start(gateway, seat_players(clients))
    done = hand_over(clients, game_id)
    others = [c for c in clients if c is not done.client]
    asked = ask_takeback(done.client, game_id, done.version).takeback
    declined = answer(others[0], game_id, asked.takeback_id, False).takeback
    assert declined.status == DECLINED and list(declined.declined_seats) == [view(others[0], game_id).seat]
    assert view(done.client, game_id).version == done.version, "nothing changed"
    assert refused(lambda: answer(others[1], game_id, asked.takeback_id, True)) == (
        PRECONDITION,
        "NO_TAKEBACK",
    )
    again = ask_takeback(done.client, game_id, done.version).takeback
    assert again.status == PENDING and again.takeback_id != asked.takeback_id, "a new request may follow"


def test_takebacks_are_refused_with_the_reason_that_says_why(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    seats = seat_players(clients)
    for rated, undo, reason in (
        (True, gateway_pb2.UNDO_POLICY_UNSPECIFIED, "TAKEBACKS_OFF"),
        (False, gateway_pb2.UNDO_POLICY_OWN_TURN_ONLY, "TAKEBACKS_OFF"),
        (False, gateway_pb2.UNDO_POLICY_OFF, "UNDO_OFF"),
    ):
        game_id = start(gateway, seats, rated=rated, undo=undo)
        done = hand_over(clients, game_id)
        assert refused(lambda g=game_id, d=done: ask_takeback(d.client, g, d.version)) == (
            PRECONDITION,
            reason,
        )
    game_id = start(gateway, seats)
    never = next(c for c in clients if view(c, game_id).seat not in view(c, game_id).acting_seats)
    assert refused(lambda: ask_takeback(never, game_id, 0)) == (PRECONDITION, "NOTHING_TO_UNDO")
    done = hand_over(clients, game_id)
    assert refused(lambda: ask_takeback(done.client, game_id, done.version - 1)) == (
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
    )
    spectator = signed_in(new_client, 1)[0]
    with pytest.raises(grpc.RpcError) as denied:
        ask_takeback(spectator, game_id, done.version)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    asked = ask_takeback(done.client, game_id, done.version).takeback
    mover, current = acting(clients, game_id)
    moved = move(mover, current).game  # the game goes on while it is pending
    if mover is not done.client:
        assert refused(lambda: ask_takeback(mover, game_id, moved.version)) == (
            PRECONDITION,
            "TAKEBACK_PENDING",
        )
    assert refused(lambda: answer(mover, game_id, "no-such-request", True)) == (PRECONDITION, "NO_TAKEBACK")
    empty = gateway_pb2.AnswerTakebackRequest(game_id=game_id, accept=True)
    with pytest.raises(grpc.RpcError) as missing:
        mover.games.AnswerTakeback(empty, metadata=mover.auth, timeout=RPC_TIMEOUT)
    assert refusal(missing.value) == (grpc.StatusCode.INVALID_ARGUMENT, "MISSING_TAKEBACK_ID")
    assert asked.status == PENDING


def test_bots_answer_by_the_games_setting(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    """With only bots to answer, accepting bots carry the takeback out at once; declining ones end it."""
    human = signed_in(new_client, 1)[0]
    for setting, status in (
        (gateway_pb2.BOT_TAKEBACKS_UNSPECIFIED, ACCEPTED),
        (gateway_pb2.BOT_TAKEBACKS_DECLINE, DECLINED),
    ):
        for _ in range(20):  # a game in which the human acts first
            game_id = start(gateway, [*seat_players([human]), *bots(gateway, 2, 1)], bots=setting)
            if list(view(human, game_id).acting_seats) == [0]:
                break
        else:
            raise AssertionError("the human acted first in none of 20 games")
        done = hand_over([human], game_id)
        asked = ask_takeback(human, game_id, done.version)
        assert asked.takeback.status == status and not asked.takeback.waiting_seats
        if status == ACCEPTED:
            assert sorted(asked.takeback.accepted_seats) == [1, 2]
            assert asked.game.version == done.version + 1 and asked.game.view == done.before.view
        else:
            assert sorted(asked.takeback.declined_seats) == [1, 2] and asked.game.version == done.version


def test_a_request_past_its_deadline_lapses_as_the_workers_sweep_finds_it(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    """Its deadline put in the past (the time a player has to answer gone by): the sweep leases it, its
    handling ends it and tells the players, and an answer after is refused. One every seat accepted but
    nobody carried out (the last accepter's process died) is carried out by the sweep instead."""
    app: Table = gateway.app  # type: ignore[assignment]
    store = sync_client(redis_url)
    clients = signed_in(new_client, 3)
    game_id = start(gateway, seat_players(clients))
    done = hand_over(clients, game_id)
    others = [c for c in clients if c is not done.client]
    asked = ask_takeback(done.client, game_id, done.version).takeback
    member = f"{game_id}|{asked.takeback_id}"
    assert store.zscore(keys.takeback_deadlines(), member) == asked.deadline.ToMilliseconds()
    past = asked.deadline.ToMilliseconds() - 10 * 60 * 1000
    store.hset(keys.game_takeback(game_id), "deadline", past)
    store.zadd(keys.takeback_deadlines(), {member: past})
    assert (game_id, asked.takeback_id) in gateway.run(takebacks.due(app))
    assert gateway.run(takebacks.expire(app, game_id, asked.takeback_id)) == "expired"
    assert store.zscore(keys.takeback_deadlines(), member) is None
    assert not store.exists(keys.game_takeback(game_id))
    assert refused(lambda: answer(others[0], game_id, asked.takeback_id, True)) == (
        PRECONDITION,
        "NO_TAKEBACK",
    )
    assert view(done.client, game_id).version == done.version
    asked = ask_takeback(done.client, game_id, done.version).takeback
    answer(others[0], game_id, asked.takeback_id, True)
    script = app.script(takebacks.ANSWER_SCRIPT)  # the last acceptance, as a process that died after it
    seat = view(others[1], game_id).seat
    reply = gateway.run(script(keys=[keys.game_takeback(game_id)], args=[asked.takeback_id, "1", 0, seat]))
    assert reply[0] == b"all"
    assert gateway.run(takebacks.expire(app, game_id, asked.takeback_id)) == "carried"
    after = view(done.client, game_id)
    assert after.version == done.version + 1 and after.view == done.before.view
    assert gateway.run(takebacks.expire(app, game_id, asked.takeback_id)) == "gone"


def test_a_lobbys_settings_reach_its_game(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    """An unrated lobby whose bots decline takebacks: its game's record says so, and a takeback there is
    declined by its bots; a lobby left to its defaults allows undo, is rated and has bots that accept."""
    host = signed_in(new_client, 1)[0]
    create = gateway_pb2.CreateLobbyRequest(
        title=TITLE,
        seat_count=3,
        seating=gateway_pb2.SEATING_FIXED,
        unrated=True,
        bot_takebacks=gateway_pb2.BOT_TAKEBACKS_DECLINE,
    )
    lobby = host.lobbies.CreateLobby(create, metadata=host.auth, timeout=RPC_TIMEOUT).lobby
    assert (lobby.undo, lobby.unrated, lobby.bot_takebacks) == (
        gateway_pb2.UNDO_POLICY_ALLOWED,
        True,
        gateway_pb2.BOT_TAKEBACKS_DECLINE,
    )
    for _ in range(2):
        add = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=gateway_pb2.BOT_STRENGTH_RANDOM)
        host.lobbies.AddBot(add, metadata=host.auth, timeout=RPC_TIMEOUT)
    started = host.lobbies.StartGame(
        gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), metadata=host.auth, timeout=RPC_TIMEOUT
    )
    meta = gateway.run(gateway.app.store.meta(started.game_id))  # type: ignore[union-attr]
    record = meta.record
    assert (record.undo, record.unrated, record.bot_takebacks) == (
        gateway_pb2.UNDO_POLICY_ALLOWED,
        True,
        gateway_pb2.BOT_TAKEBACKS_DECLINE,
    )
    plain = gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2)
    defaults = host.lobbies.CreateLobby(plain, metadata=host.auth, timeout=RPC_TIMEOUT).lobby
    assert (defaults.undo, defaults.unrated, defaults.bot_takebacks) == (
        gateway_pb2.UNDO_POLICY_ALLOWED,
        False,
        gateway_pb2.BOT_TAKEBACKS_ACCEPT,
    )
    host.lobbies.LeaveLobby(gateway_pb2.LeaveLobbyRequest(lobby_id=defaults.lobby_id), metadata=host.auth)

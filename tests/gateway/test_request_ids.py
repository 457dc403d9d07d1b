"""Request ids through the real gateway: a retry of the same request returns its first result, and a
request id reused for another request (another action, version or player) is refused and plays nothing."""

from __future__ import annotations

import threading

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import any_pb2

from live import keys
from live.connection import sync_client
from services.common.status import error_info
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import new_game, signed_in
from tests.titles import TITLE

DIGEST_BYTES = 16  # what an id may cost per move beyond itself and its version


def _opening(gateway: GatewayProcess, new_client) -> tuple[str, list[Client], Client, gateway_pb2.GameView]:  # type: ignore[no-untyped-def]
    """A new game of three players, and the acting player with its view."""
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    view = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    actor = clients[view.acting_seats[0]]
    mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    assert len(mine.legal_actions) >= 2
    return game_id, clients, actor, mine


def _submit(who: Client, game_id: str, action: any_pb2.Any, version: int, request_id: str):  # type: ignore[no-untyped-def]
    return who.games.SubmitAction(
        gateway_pb2.SubmitActionRequest(
            game_id=game_id, action=action, expected_version=version, request_id=request_id
        ),
        metadata=who.auth,
    )


def _reused(call) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        call()
    assert caught.value.code() == grpc.StatusCode.FAILED_PRECONDITION, caught.value.details()
    info = error_info(caught.value)
    assert info is not None and info.reason == "REQUEST_ID_REUSED"
    assert "request_id" in caught.value.details()


def test_a_request_id_reused_for_another_request_is_refused(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    game_id, clients, actor, mine = _opening(gateway, new_client)
    first, other = mine.legal_actions[0].action, mine.legal_actions[1].action
    played = _submit(actor, game_id, first, 0, "once")
    assert _submit(actor, game_id, first, 0, "once").version == played.version == 1, "a retry is answered"
    store = sync_client(redis_url)
    before = (store.get(keys.game_version(game_id)), store.xlen(keys.game_log(game_id)))
    _reused(lambda: _submit(actor, game_id, other, 0, "once"))  # another action
    later = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    mover = clients[later.acting_seats[0]]
    now = mover.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=mover.auth).game
    _reused(lambda: _submit(mover, game_id, now.legal_actions[0].action, 1, "once"))  # another version
    for client in clients:
        if client is not actor:
            _reused(lambda c=client: _submit(c, game_id, first, 0, "once"))  # another player
    assert (store.get(keys.game_version(game_id)), store.xlen(keys.game_log(game_id))) == before
    stored = store.hget(keys.game_requests(game_id), "once")
    assert stored is not None and len(stored) == DIGEST_BYTES + len("1"), "a small digest per id"


def test_racing_requests_under_one_id_apply_one_and_refuse_the_other(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    game_id, _, actor, mine = _opening(gateway, new_client)
    outcomes: list[str] = []
    barrier = threading.Barrier(2)

    def submit(action: any_pb2.Any) -> None:
        barrier.wait()
        try:
            _submit(actor, game_id, action, 0, "shared")
            outcomes.append("ok")
        except grpc.RpcError as error:
            info = error_info(error)
            outcomes.append(info.reason if info is not None else error.code().name)

    threads = [threading.Thread(target=submit, args=(legal.action,)) for legal in mine.legal_actions[:2]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["REQUEST_ID_REUSED", "ok"]
    assert sync_client(redis_url).xlen(keys.game_log(game_id)) == 1


def _play_on(clients: list[Client], game_id: str, moves: int, prefix: str) -> None:
    """`moves` moves of whoever acts, first legal action each, under request ids `prefix-<n>`."""
    for number in range(moves):
        spectator = clients[0]
        view = spectator.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=spectator.auth)
        mover = clients[view.game.acting_seats[0]]
        mine = mover.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=mover.auth).game
        _submit(mover, game_id, mine.legal_actions[0].action, mine.version, f"{prefix}-{number}")


def test_request_ids_are_kept_as_long_as_their_change_and_a_later_retry_is_stale(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    game_id, clients, actor, mine = _opening(gateway, new_client)
    first = mine.legal_actions[0].action
    assert _submit(actor, game_id, first, 0, "early").version == 1
    window = gateway.settings.event_history
    _play_on(clients, game_id, window - 1, "within")
    assert _submit(actor, game_id, first, 0, "early").version == 1, "a retry within the window is answered"
    store = sync_client(redis_url)
    _play_on(clients, game_id, 1, "past")
    assert store.hlen(keys.game_requests(game_id)) == window == store.llen(keys.game_events(game_id))
    assert not store.hexists(keys.game_requests(game_id), "early")
    version = int(store.get(keys.game_version(game_id)))
    with pytest.raises(grpc.RpcError) as caught:
        _submit(actor, game_id, first, 0, "early")
    assert caught.value.code() == grpc.StatusCode.ABORTED, "past the window a retry is stale, never replayed"
    assert int(store.get(keys.game_version(game_id))) == version

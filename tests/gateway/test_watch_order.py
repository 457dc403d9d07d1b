"""The order of a watch stream, as the proto documents it: the current view first, then the history
asked for (events only, oldest first), then live changes with their views."""

from __future__ import annotations

import uuid

from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.connection import sync_client
from live.settings import Settings
from services.common.rng import Rng
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import new_game, signed_in
from tests.titles import TITLE

MOVES = Settings().event_history - 1  # every change since the start is kept (with the setup's)


def _play(clients: list[Client], game_id: str, count: int, rng: Rng) -> int:
    """Play `count` random legal moves; the version reached."""
    version = 0
    for _ in range(count):
        view = clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth)
        actor = clients[view.game.acting_seats[0]]
        mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
        version = actor.games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=mine.legal_actions[rng.below(len(mine.legal_actions))].action,
                expected_version=mine.version,
                request_id=uuid.uuid4().hex,
            ),
            metadata=actor.auth,
        ).version
    return version


def test_a_watch_from_the_start_opens_with_the_current_view_then_the_history(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    rng = Rng(5)
    version = _play(clients, game_id, MOVES, rng)
    watcher = clients[1]
    stream = watcher.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=0), metadata=watcher.auth, timeout=30
    )
    opening = next(stream)
    assert opening.HasField("game"), "the current view comes first"
    assert opening.game.version == version and opening.game.seat == 1 and not opening.events
    assert not opening.resync, "every change since the start is still kept"
    history = [next(stream) for _ in range(version)]
    assert not any(m.HasField("game") for m in history), "the history is events only"
    shown = [e.version for m in history for e in m.events]
    assert (
        shown == sorted(shown) and set(shown) <= set(range(1, version + 1)) and len(set(shown)) > MOVES // 2
    )
    _play(clients, game_id, 1, rng)
    live = next(stream)
    stream.cancel()
    assert live.HasField("game") and live.game.version == version + 1, "then live changes with views"


def test_a_watch_from_before_the_kept_changes_gets_the_view_and_a_resync_then_what_is_kept(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    window = gateway.settings.event_history
    version = _play(clients, game_id, window + 5, Rng(8))
    stream = clients[1].games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=0), metadata=clients[1].auth, timeout=30
    )
    opening = next(stream)
    assert opening.game.version == version and opening.resync, "the changes before the window are gone"
    history = [next(stream) for _ in range(window)]
    stream.cancel()
    shown = {e.version for m in history for e in m.events}
    assert shown <= set(range(version - window + 1, version + 1)) and version in shown


def test_a_watch_from_the_view_held_gets_no_history(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    rng = Rng(6)
    version = _play(clients, game_id, 3, rng)
    watcher = clients[2]
    stream = watcher.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=version), metadata=watcher.auth, timeout=30
    )
    assert next(stream).game.version == version
    _play(clients, game_id, 1, rng)
    live = next(stream)
    stream.cancel()
    assert live.game.version == version + 1 and all(e.version == version + 1 for e in live.events)


def test_a_game_whose_changes_were_kept_in_a_stream_before_plays_on_and_keeps_them_in_a_list(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    version = _play(clients, game_id, 3, Rng(9))
    store = sync_client(redis_url)
    store.delete(keys.game_events(game_id))
    store.xadd(keys.game_events(game_id), {"c": b""}, id=f"{version}-1")  # as kept before
    stream = clients[1].games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=version - 1),
        metadata=clients[1].auth,
        timeout=30,
    )
    assert next(stream).resync, "the old stream is not read"
    stream.cancel()
    assert _play(clients, game_id, 2, Rng(10)) == version + 2
    assert store.type(keys.game_events(game_id)) == b"list" and store.llen(keys.game_events(game_id)) == 2

"""WatchInbox is a watch stream like WatchGame: it counts in the player's watch-stream quota and ends
when its token is signed out, on every gateway replica; it opens with a message saying where to resume
from, and tells its player of their turn from a move made through another replica."""

from __future__ import annotations

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from live import inbox, keys
from live.settings import Settings
from services.common.status import error_info
from tests.gateway._support_accounts import RPC_TIMEOUT, at_a_second_start, guest, me
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import new_game
from tests.gateway.test_quotas import open_stream, replica  # noqa: F401 - the fixture
from tests.gateway.test_revocation import move
from tests.titles import TITLE


def open_inbox(client: Client, from_event_id: str = "") -> grpc.Future:  # type: ignore[type-arg]
    """An inbox stream past its opening message."""
    stream = client.games.WatchInbox(
        gateway_pb2.WatchInboxRequest(from_event_id=from_event_id), metadata=client.auth, timeout=60
    )
    opening = next(stream)
    assert not opening.HasField("event") and opening.newest_event_id
    return stream


def test_inbox_streams_count_in_the_watch_stream_quota(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    player, opponent = guest(new_client, "inbox watcher"), guest(new_client, "opponent")
    game_id = new_game(gateway, TITLE, [player, opponent])
    quota = Settings().watch_streams_per_player
    at_a_second_start()  # the watch rate limit lets `quota` streams open in one second
    streams = [open_inbox(player) if i % 2 else open_stream(player, game_id) for i in range(quota)]
    at_a_second_start()
    extra = player.games.WatchInbox(
        gateway_pb2.WatchInboxRequest(), metadata=player.auth, timeout=RPC_TIMEOUT
    )
    with pytest.raises(grpc.RpcError) as raised:
        next(extra)
    info = error_info(raised.value)
    assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED and info is not None
    assert (info.reason, info.metadata["quota"]) == ("QUOTA_EXCEEDED", "watch_streams")
    for stream in streams:
        stream.cancel()


def test_an_inbox_hears_of_a_move_made_elsewhere_and_ends_when_its_token_signs_out(
    gateway: GatewayProcess,
    replica: GatewayProcess,  # noqa: F811 - the fixture
    new_client,  # type: ignore[no-untyped-def]
) -> None:
    player, opponent = guest(new_client, "inbox reader"), guest(new_client, "opponent")
    with patient_channel(replica.address) as channel:
        elsewhere = Client(channel, token=player.token)
        inbox = open_inbox(elsewhere)  # before the game: its first turn may be the player's
        game_id = new_game(gateway, TITLE, [player, opponent])
        mine = me(player).player_id
        while True:  # moves through the first gateway until it is the player's turn
            view = opponent.games.GetGame(
                gateway_pb2.GetGameRequest(game_id=game_id), metadata=opponent.auth
            ).game
            acting = {s.player.player_id for s in view.seats if s.seat in view.acting_seats}
            if mine in acting:
                break
            move([opponent], game_id)
        event = next(inbox).event
        assert (event.kind, event.game_id) == (gateway_pb2.INBOX_EVENT_KIND_YOUR_TURN, game_id)
        player.accounts.SignOut(gateway_pb2.SignOutRequest(), metadata=player.auth, timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as raised:
            next(inbox)
        assert raised.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_resuming_from_an_event_no_longer_kept_says_so(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    player = guest(new_client, "busy inbox")
    mine = me(player).player_id
    event = gateway_pb2.InboxEvent(kind=gateway_pb2.INBOX_EVENT_KIND_GAME_ENDED, title=TITLE)
    app = gateway.app
    assert app is not None
    gateway.run(inbox.post(app.redis, [(mine, event)]))
    first = gateway.run(app.redis.xrange(keys.inbox(mine)))[0][0].decode()
    gateway.run(inbox.post(app.redis, [(mine, event)] * (2 * inbox.INBOX_KEPT)))
    stream = open_inbox(player, first)
    resumed = next(stream)
    assert resumed.resync and resumed.event.event_id != first, "the first is no longer kept"
    stream.cancel()

    kept = gateway.run(app.redis.xrange(keys.inbox(mine)))[-2][0].decode()
    stream = open_inbox(player, kept)
    resumed = next(stream)
    assert not resumed.resync, "nothing after a kept event was lost"
    stream.cancel()

"""What one player may hold at once, with the settings a user gets: watch streams (counted over every
gateway replica) and open lobbies; past either, RESOURCE_EXHAUSTED with reason QUOTA_EXCEEDED."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from gateway import metrics
from live import keys
from live.connection import sync_client
from live.settings import Settings
from services.common.status import error_info
from tests.gateway._support_accounts import RPC_TIMEOUT, at_a_second_start, guest, me, own_gateway, refused
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_lobbies import create, listed, start
from tests.gateway.test_play import new_game
from tests.titles import TITLE

DEFAULTS = Settings()
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED


@pytest.fixture
def replica(redis_url: str, rules: dict[str, str]) -> Iterator[GatewayProcess]:
    """A second gateway on the session's Redis."""
    with GatewayProcess(gateway_settings(redis_url, rules)) as process:
        yield process


def open_stream(client: Client, game_id: str) -> grpc.Future:  # type: ignore[type-arg]
    """A watch stream whose first message came."""
    stream = client.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id), metadata=client.auth, timeout=60
    )
    assert next(stream).game.game_id == game_id
    return stream


def test_a_player_holds_a_limited_number_of_watch_streams_over_every_replica(
    gateway: GatewayProcess, replica: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    player, opponent = guest(new_client, "watcher"), guest(new_client, "opponent")
    game_id = new_game(gateway, TITLE, [player, opponent])
    with patient_channel(replica.address) as channel:
        elsewhere = Client(channel, token=player.token)
        quota = DEFAULTS.watch_streams_per_player
        at_a_second_start()  # the watch rate limit lets `quota` streams open in one second
        streams = [open_stream(player if i % 2 else elsewhere, game_id) for i in range(quota)]
        at_a_second_start()
        for client in (player, elsewhere):
            extra = client.games.WatchGame(
                gateway_pb2.WatchGameRequest(game_id=game_id), metadata=client.auth, timeout=RPC_TIMEOUT
            )
            with pytest.raises(grpc.RpcError) as raised:
                next(extra)
            info = error_info(raised.value)
            assert raised.value.code() == EXHAUSTED and info is not None
            assert (info.reason, info.metadata["quota"], info.metadata["limit"]) == (
                "QUOTA_EXCEEDED",
                "watch_streams",
                str(quota),
            )
        other = open_stream(opponent, game_id)
        other.cancel()
        streams.pop().cancel()
        store = sync_client(redis_url)
        leases = keys.watch_leases(me(player).player_id)
        deadline = time.monotonic() + 10
        while store.zcard(leases) >= quota and time.monotonic() < deadline:
            time.sleep(0.02)
        store.close()
        again = open_stream(elsewhere, game_id)
        again.cancel()
        for stream in streams:
            stream.cancel()


# Streams a player opens and drops after their first message: three quotas' worth, so that a stream
# the gateway failed to close (2 or 3 of the 30 did, before `live.connection._CancelledWhileWriting`)
# would leave the player short of places.
DROPPED_STREAMS = 3 * DEFAULTS.watch_streams_per_player
CLOSE_SECONDS = 5.0  # how soon the gateway ends a stream its client dropped


def test_a_stream_its_client_drops_gives_its_place_back(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    player, opponent = guest(new_client, "dropper"), guest(new_client, "opponent")
    game_id = new_game(gateway, TITLE, [player, opponent])
    open_before = metrics.WATCH_STREAMS._value.get()
    per_second = DEFAULTS.rate_limit("watch")
    for count in range(DROPPED_STREAMS):
        if count % per_second == 0:
            at_a_second_start()  # within the watch rate limit
        open_stream(player, game_id).cancel()
    store = sync_client(redis_url)
    leases = keys.watch_leases(me(player).player_id)
    deadline = time.monotonic() + CLOSE_SECONDS
    while (store.zcard(leases) or metrics.WATCH_STREAMS._value.get() > open_before) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.05)
    held, still_open = store.zcard(leases), metrics.WATCH_STREAMS._value.get() - open_before
    store.close()
    assert (held, still_open) == (0, 0), f"{held} places held, {still_open} streams open"
    at_a_second_start()
    streams = [open_stream(player, game_id) for _ in range(DEFAULTS.watch_streams_per_player)]
    for stream in streams:
        stream.cancel()


def test_a_player_hosts_a_limited_number_of_open_lobbies(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules) as own:
        host, other = guest(own.make_client, "host"), guest(own.make_client, "other")
        quota = DEFAULTS.open_lobbies_per_player
        lobbies = [create(host, 2) for _ in range(quota - 1)]
        lobbies.append(create(host, 2, visibility=gateway_pb2.VISIBILITY_PRIVATE))
        request = gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2)
        code, info = refused(host.lobbies.CreateLobby, request, host.auth)
        assert (code, info.reason, info.metadata["quota"], info.metadata["limit"]) == (
            EXHAUSTED,
            "QUOTA_EXCEEDED",
            "open_lobbies",
            str(quota),
        )
        public = {
            lobby.lobby_id for lobby in lobbies[:-1]
        }  # (on a Cluster, other tests' lobbies are listed too)
        shown = [lobby for lobby in listed(other).lobbies if lobby.lobby_id in public]
        assert len(shown) == quota - 1, "one player cannot fill the first page"
        assert create(other, 2).lobby_id, "another player's lobbies are counted apart"
        leave = gateway_pb2.LeaveLobbyRequest(lobby_id=lobbies[0].lobby_id)
        host.lobbies.LeaveLobby(leave, metadata=host.auth, timeout=RPC_TIMEOUT)
        lobbies[0] = create(host, 2)  # leaving closed one: there is room for another
        host.lobbies.AddBot(
            gateway_pb2.AddBotRequest(lobby_id=lobbies[1].lobby_id), metadata=host.auth, timeout=RPC_TIMEOUT
        )
        start(
            host,
            host.lobbies.GetLobby(
                gateway_pb2.GetLobbyRequest(lobby_id=lobbies[1].lobby_id), metadata=host.auth
            ).lobby,
        )
        assert create(host, 2).lobby_id, "a started lobby is no longer open"
        code, _ = refused(host.lobbies.CreateLobby, request, host.auth)
        assert code == EXHAUSTED

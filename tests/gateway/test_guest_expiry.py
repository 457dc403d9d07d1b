"""Guests are temporary, through a real gateway and a real Redis (one node and a Cluster): every key of
a guest expires together once it idles, a call renews it, a live game keeps it, a registered account
is kept."""

from __future__ import annotations

import time
from collections.abc import Callable

import grpc
from boardgame.gateway.v1 import gateway_pb2

from live import guests, keys
from live.connection import sync_client
from live.settings import Settings
from tests.gateway._support_accounts import RPC_TIMEOUT, guest, me, own_gateway, refused, unique
from tests.gateway.support import Client, GatewayProcess
from tests.titles import GAME, TITLE

SECONDS = 3  # the idle period of these tests' own gateways


def stored_keys(store, player_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The guest's keys that exist (every title's rating included)."""
    return [key for key in guests.keys_of(player_id, [TITLE]) if store.exists(key)]


def register(client: Client) -> gateway_pb2.Player:
    """Register a named account as the client and keep its token."""
    request = gateway_pb2.RegisterRequest(username=unique("kept"), password="correct horse")
    session = client.accounts.Register(request, timeout=RPC_TIMEOUT).session
    client.token = session.token
    return session.player


def wait_until(done: Callable[[], bool], seconds: float) -> bool:
    """Whether `done` came true within `seconds`."""
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.1)
    return True


def play_a_game(clients: list[Client]) -> str:
    """A game of TITLE started from a lobby of the first client with the others seated; its id."""
    seats = max(GAME.info.min_players, len(clients))
    host, *others = clients
    lobby = host.lobbies.CreateLobby(
        gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=seats), metadata=host.auth, timeout=RPC_TIMEOUT
    ).lobby
    for other in others:
        other.lobbies.JoinLobby(
            gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id), metadata=other.auth, timeout=RPC_TIMEOUT
        )
    for _ in range(seats - len(clients)):
        host.lobbies.AddBot(
            gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id), metadata=host.auth, timeout=RPC_TIMEOUT
        )
    request = gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id)
    return host.lobbies.StartGame(request, metadata=host.auth, timeout=RPC_TIMEOUT).game_id


def test_by_default_a_guest_idles_as_long_as_its_token_lasts(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    assert Settings().guest_idle_seconds == Settings().token_ttl_seconds == 30 * 24 * 3600
    assert Settings.from_env({"GUEST_IDLE_SECONDS": "60"}).guest_idle_seconds == 60
    store = sync_client(gateway.settings.redis_url)
    try:
        player = me(guest(new_client))
        ttl = store.ttl(keys.player(player.player_id))
        assert 30 * 24 * 3600 - 60 < ttl <= 30 * 24 * 3600, ttl
        registered = register(new_client())
        assert store.ttl(keys.player(registered.player_id)) == -1, "a registered account is kept"
    finally:
        store.close()


def test_a_guest_idle_past_the_period_is_gone_with_all_its_keys(
    redis_url: str, rules: dict[str, str]
) -> None:
    with own_gateway(redis_url, rules, guest_idle_seconds=SECONDS) as own:
        idle, account = guest(own.make_client), own.make_client()
        player = me(idle)
        kept = register(account)
        idle.lobbies.CreateLobby(
            gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=GAME.info.min_players),
            metadata=idle.auth,
            timeout=RPC_TIMEOUT,
        )
        time.sleep(SECONDS / 5)  # past the renewal interval (a tenth of the period)
        assert me(idle) == player  # its keys expire together: the lobby's index too
        found = [key.decode() for key in own.store.scan_iter(match=f"*{{{player.player_id}}}*")]
        assert all(own.store.ttl(key) > 0 for key in found), "sessions and rate counters expire on their own"
        found = stored_keys(own.store, player.player_id)
        assert found == [keys.player(player.player_id), keys.hosted_lobbies(player.player_id)]
        assert all(0 < own.store.ttl(key) <= SECONDS for key in found), {k: own.store.ttl(k) for k in found}
        assert wait_until(lambda: not stored_keys(own.store, player.player_id), SECONDS + 5)
        code, info = refused(idle.accounts.GetMe, gateway_pb2.GetMeRequest(), idle.auth)
        assert (code, info.reason) == (grpc.StatusCode.UNAUTHENTICATED, "UNAUTHENTICATED")
        assert me(account) == kept, "a registered account outlives it"
        assert own.store.ttl(keys.player(kept.player_id)) == -1


def test_a_call_renews_a_guest(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules, guest_idle_seconds=2 * SECONDS) as own:
        active = guest(own.make_client)
        record = f"player:{{{me(active).player_id}}}"
        time.sleep(SECONDS + 0.5)
        assert 0 < own.store.ttl(record) <= SECONDS
        me(active)
        assert own.store.ttl(record) > SECONDS, "renewed"


def test_a_guest_in_a_live_game_is_kept_however_long_it_idles(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules, guest_idle_seconds=SECONDS) as own:
        host, seated = guest(own.make_client, "host"), guest(own.make_client, "seated")
        seated_id = me(seated).player_id
        play_a_game([host, seated])
        found = stored_keys(own.store, seated_id)
        assert all(own.store.ttl(key) == -1 for key in found), {k: own.store.ttl(k) for k in found}
        time.sleep(SECONDS + 1)
        assert me(seated).player_id == seated_id, "a guest sitting in a live game never expires"

"""A token that stops signing in stops everything at once, on every gateway replica: a watch stream of a
token signed out ends (UNAUTHENTICATED) rather than delivering the next move, and revoking an
operator's API key signs out every token it issued, their streams included."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from gateway.auth import create_api_key, digest
from live import keys
from live.connection import sync_client
from tests.gateway._support_accounts import RPC_TIMEOUT, guest, me, refused, unique
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game
from tests.titles import TITLE

UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
PASSWORD = "correct horse"


@pytest.fixture
def replica(redis_url: str, rules: dict[str, str]) -> Iterator[GatewayProcess]:
    """A second gateway on the session's Redis."""
    with GatewayProcess(gateway_settings(redis_url, rules)) as process:
        yield process


def watch(client: Client, game_id: str):  # type: ignore[no-untyped-def]
    """A watch stream past its first message (the current view)."""
    stream = client.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id), metadata=client.auth, timeout=20
    )
    assert next(stream).game.game_id == game_id
    return stream


def move(players: list[Client], game_id: str) -> int:
    """Play the first legal action of the acting seat; the version it made."""
    for player in players:
        view = player.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=player.auth).game
        if view.legal_actions:
            request = gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=view.legal_actions[0].action,
                expected_version=view.version,
                request_id=unique("r"),
            )
            return player.games.SubmitAction(request, metadata=player.auth, timeout=RPC_TIMEOUT).version
    raise AssertionError("nobody may act")


def ended_unauthenticated(stream) -> None:  # type: ignore[no-untyped-def]
    """The stream's next outcome is its end with UNAUTHENTICATED, not another message."""
    with pytest.raises(grpc.RpcError) as raised:
        update = next(stream)
        raise AssertionError(f"the stream went on delivering: version {update.game.version}")
    assert raised.value.code() == UNAUTHENTICATED, raised.value


def test_signing_out_ends_that_tokens_watch_streams_on_every_replica(
    gateway: GatewayProcess, replica: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    username = unique("watcher")
    first = new_client()
    first.token = first.accounts.Register(
        gateway_pb2.RegisterRequest(username=username, password=PASSWORD)
    ).session.token
    second = new_client()
    second.token = second.accounts.SignIn(
        gateway_pb2.SignInRequest(username=username, password=PASSWORD)
    ).session.token
    opponent = guest(new_client, "opponent")
    game_id = new_game(gateway, TITLE, [first, opponent])
    doomed, kept = watch(first, game_id), watch(second, game_id)
    with patient_channel(replica.address) as channel:
        Client(channel, token=first.token).accounts.SignOut(
            gateway_pb2.SignOutRequest(), metadata=first.auth, timeout=RPC_TIMEOUT
        )
    version = move([second, opponent], game_id)
    ended_unauthenticated(doomed)
    assert next(kept).game.version == version, "the player's other token watches on"
    kept.cancel()


def test_revoking_an_operator_key_signs_out_every_token_it_issued(
    gateway: GatewayProcess, client: Client, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    redis = gateway.app.redis  # type: ignore[union-attr]
    revoked, kept = gateway.run(create_api_key(redis, "acme")), gateway.run(create_api_key(redis, "acme"))
    issue = client.accounts.IssuePlayerToken

    def issued(key: str) -> Client:
        request = gateway_pb2.IssuePlayerTokenRequest(external_id=unique("user"), display_name="Ivy")
        player = new_client()
        player.token = issue(request, metadata=(("x-api-key", key),), timeout=RPC_TIMEOUT).session.token
        return player

    players = [issued(revoked) for _ in range(3)]
    survivor = issued(kept)
    game_id = new_game(gateway, TITLE, [players[0], survivor])
    stream = watch(players[0], game_id)
    done = subprocess.run(
        [sys.executable, "-m", "gateway.admin", "revoke-api-key", f"--key={revoked}"],
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    assert "3 token(s)" in done.stdout
    for player in players:
        code, info = refused(player.accounts.GetMe, gateway_pb2.GetMeRequest(), player.auth)
        assert (code, info.reason) == (UNAUTHENTICATED, "UNAUTHENTICATED")
    ended_unauthenticated(stream)
    assert me(survivor).display_name == "Ivy", "another key's tokens live on"
    request = gateway_pb2.IssuePlayerTokenRequest(external_id="late", display_name="Late")
    assert refused(issue, request, (("x-api-key", revoked),))[0] == UNAUTHENTICATED


def test_a_stream_whose_token_expires_ends_when_its_lease_is_renewed(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    """No message says a token expired: each replica's renewal of its streams' leases (every
    RENEW_SECONDS) finds the session gone, and ends the stream; the others' leases are renewed."""
    player, opponent = guest(new_client, "expiring"), guest(new_client, "opponent")
    game_id = new_game(gateway, TITLE, [player, opponent])
    doomed, kept = watch(player, game_id), watch(opponent, game_id)
    store = sync_client(redis_url)
    player_id, opponent_id = me(player).player_id, me(opponent).player_id
    assert store.pexpire(keys.session(player_id, digest(player.token)), 1)
    (lease_before,) = store.zrange(keys.watch_leases(opponent_id), 0, -1, withscores=True)
    time.sleep(0.01)
    gateway.run(gateway.gateway.leases.renew())
    ended_unauthenticated(doomed)
    (lease_after,) = store.zrange(keys.watch_leases(opponent_id), 0, -1, withscores=True)
    assert lease_after[1] > lease_before[1], "a live stream's lease runs on"
    assert store.zcard(keys.watch_leases(player_id)) == 0, "the ended stream gave its place back"
    kept.cancel()
    store.close()

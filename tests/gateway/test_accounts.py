"""Accounts through a real gateway and a real Redis: guests, named accounts, tokens (stored hashed,
revoked, expired), the rate limit, operators' API keys, and the catalogue."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import time

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from gateway import auth
from live import keys
from live.connection import sync_client
from services.common import registry
from tests.gateway._support_accounts import (
    RPC_TIMEOUT,
    at_a_second_start,
    guest,
    me,
    own_gateway,
    refused,
    unique,
)
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE

UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
INVALID = grpc.StatusCode.INVALID_ARGUMENT


def register(client: Client, username: str, password: str = "correct horse", name: str = "") -> None:
    """Register a named account and keep its token."""
    request = gateway_pb2.RegisterRequest(username=username, password=password, display_name=name)
    client.token = client.accounts.Register(request).session.token


def every_stored_value(store: redis.Redis) -> list[bytes]:
    """Every key and every value of every key in the database, as bytes."""
    found: list[bytes] = []
    for key in store.scan_iter(count=1000):
        found.append(key)
        kind = store.type(key)
        if kind == b"string":
            found.append(store.get(key))
        elif kind == b"hash":
            for field, value in store.hgetall(key).items():
                found.extend((field, value))
        elif kind == b"zset":
            found.extend(store.zrange(key, 0, -1))
        elif kind == b"set":
            found.extend(store.smembers(key))
        elif kind == b"list":
            found.extend(store.lrange(key, 0, -1))
        elif kind == b"stream":
            for _, fields in store.xrange(key):
                for field, value in fields.items():
                    found.extend((field, value))
    return found


def test_a_guest_is_signed_in_and_knows_who_it_is(client: Client) -> None:
    session = client.sign_in_as_guest("  Ada  ")
    assert session.player.display_name == "Ada"
    assert session.player.guest and not session.player.bot
    assert abs(session.expires_at.seconds - (time.time() + 30 * 24 * 3600)) < 60
    assert me(client) == session.player


@pytest.mark.parametrize("name", ["", "   ", "x" * 33, "tab\there"])
def test_a_guest_needs_a_printable_name_of_1_to_32_characters(client: Client, name: str) -> None:
    code, info = refused(client.accounts.CreateGuest, gateway_pb2.CreateGuestRequest(display_name=name))
    assert (code, info.reason) == (INVALID, "INVALID_DISPLAY_NAME")


def test_register_sign_in_and_sign_out(new_client) -> None:  # type: ignore[no-untyped-def]
    username = unique("ada")
    first, second = new_client(), new_client()
    register(first, username, name="Ada L.")
    player = me(first)
    assert (player.display_name, player.guest) == ("Ada L.", False)

    session = second.accounts.SignIn(
        gateway_pb2.SignInRequest(username=username.upper(), password="correct horse")
    ).session
    second.token = session.token
    assert session.token != first.token
    assert me(second).player_id == player.player_id

    first.accounts.SignOut(gateway_pb2.SignOutRequest(), metadata=first.auth)
    code, info = refused(first.accounts.GetMe, gateway_pb2.GetMeRequest(), first.auth)
    assert (code, info.reason) == (UNAUTHENTICATED, "UNAUTHENTICATED")
    assert me(second).player_id == player.player_id, "signing one token out leaves the others"


def test_a_display_name_defaults_to_the_user_name(client: Client) -> None:
    username = unique("bob")
    register(client, username)
    assert me(client).display_name == username


@pytest.mark.parametrize(
    ("username", "password", "reason"),
    [
        ("ab", "long enough", "INVALID_USERNAME"),
        ("x" * 33, "long enough", "INVALID_USERNAME"),
        ("has space", "long enough", "INVALID_USERNAME"),
        ("bang!", "long enough", "INVALID_USERNAME"),
        ("fine_name", "7 chars", "INVALID_PASSWORD"),
        ("fine_name", "p" * 129, "INVALID_PASSWORD"),
    ],
)
def test_register_checks_user_name_and_password(
    client: Client, username: str, password: str, reason: str
) -> None:
    request = gateway_pb2.RegisterRequest(username=username, password=password)
    code, info = refused(client.accounts.Register, request)
    assert (code, info.reason) == (INVALID, reason)
    assert info.metadata["field"] == ("username" if reason == "INVALID_USERNAME" else "password")


def test_a_user_name_is_taken_whatever_its_case(new_client) -> None:  # type: ignore[no-untyped-def]
    username = unique("Carol")
    register(new_client(), username)
    request = gateway_pb2.RegisterRequest(username=username.lower(), password="another password")
    code, info = refused(new_client().accounts.Register, request)
    assert (code, info.reason) == (grpc.StatusCode.ALREADY_EXISTS, "USERNAME_TAKEN")


def test_concurrent_registrations_of_one_name_make_one_account(client: Client, redis_url: str) -> None:
    username = unique("race")
    request = gateway_pb2.RegisterRequest(username=username, password="a password")
    calls = [client.accounts.Register.future(request, timeout=RPC_TIMEOUT) for _ in range(6)]
    codes = [call.code() for call in calls]
    assert codes.count(grpc.StatusCode.OK) == 1
    assert codes.count(grpc.StatusCode.ALREADY_EXISTS) == 5
    winner = next(call.result() for call in calls if call.code() == grpc.StatusCode.OK)
    store = sync_client(redis_url)
    assert store.get(keys.username(username)).decode() == winner.session.player.player_id
    store.close()


def test_a_wrong_password_and_an_unknown_name_are_refused_alike(client: Client) -> None:
    username = unique("dave")
    register(client, username, password="right password")
    wrong_password = refused(
        client.accounts.SignIn, gateway_pb2.SignInRequest(username=username, password="wrong password")
    )
    unknown_name = refused(
        client.accounts.SignIn,
        gateway_pb2.SignInRequest(username=unique("nobody"), password="right password"),
    )
    assert wrong_password[0] == unknown_name[0] == UNAUTHENTICATED
    assert wrong_password[1] == unknown_name[1]
    code, _ = refused(client.accounts.SignIn, gateway_pb2.SignInRequest(username=username))
    assert code == INVALID


def test_passwords_are_stored_as_salted_scrypt_hashes(new_client, redis_url: str) -> None:  # type: ignore[no-untyped-def]
    first, second = new_client(), new_client()
    register(first, unique("erin"), password="same password")
    register(second, unique("frank"), password="same password")
    store = sync_client(redis_url)
    hashes = [store.get(keys.password(me(client).player_id)) for client in (first, second)]
    store.close()
    assert all(stored.startswith(b"scrypt$") and b"same password" not in stored for stored in hashes)
    assert hashes[0] != hashes[1], "each password gets its own salt"


@pytest.mark.parametrize(
    "metadata",
    [
        (),
        (("authorization", "Basic dXNlcjpwYXNz"),),
        (("authorization", "Bearer "),),
        (("authorization", "Bearer not-a-token-anyone-was-given"),),
    ],
    ids=["no token", "not bearer", "empty bearer", "unknown token"],
)
def test_calls_without_a_valid_token_are_unauthenticated(client: Client, metadata: tuple) -> None:  # type: ignore[type-arg]
    for call, request in [
        (client.accounts.GetMe, gateway_pb2.GetMeRequest()),
        (client.accounts.SignOut, gateway_pb2.SignOutRequest()),
        (client.catalog.ListTitles, gateway_pb2.ListTitlesRequest()),
        (client.lobbies.ListLobbies, gateway_pb2.ListLobbiesRequest()),
        (client.leaderboard.GetLeaderboard, gateway_pb2.GetLeaderboardRequest(title=TITLE)),
    ]:
        code, info = refused(call, request, metadata)
        assert (code, info.reason) == (UNAUTHENTICATED, "UNAUTHENTICATED")


@ONE_NODE  # it finds no session left: an empty database of its own
def test_an_expired_token_is_unauthenticated(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules, token_ttl_seconds=1) as own:
        client = guest(own.make_client)
        assert me(client).display_name == "guest"
        time.sleep(1.5)
        code, info = refused(client.accounts.GetMe, gateway_pb2.GetMeRequest(), client.auth)
        assert (code, info.reason) == (UNAUTHENTICATED, "UNAUTHENTICATED")
        assert not list(own.store.scan_iter(match="session:*"))


def test_the_rate_limit_counts_calls_per_player_per_second(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules, rate_limits={"read": 3}) as own:
        hasty, patient = guest(own.make_client), guest(own.make_client)
        codes = []
        at_a_second_start()
        for _ in range(12):
            try:
                hasty.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=hasty.auth, timeout=RPC_TIMEOUT)
                codes.append(grpc.StatusCode.OK)
            except grpc.RpcError as error:
                codes.append(error.code())
        assert set(codes) == {grpc.StatusCode.OK, grpc.StatusCode.RESOURCE_EXHAUSTED}
        assert codes.count(grpc.StatusCode.OK) == 3, "3 a second"
        code, info = refused(hasty.accounts.GetMe, gateway_pb2.GetMeRequest(), hasty.auth)
        assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
        assert me(patient).display_name == "guest", "another player's calls are counted apart"
        time.sleep(1.1)
        assert me(hasty).display_name == "guest"


def test_a_forged_token_naming_a_player_signs_nobody_in_and_costs_them_nothing(
    redis_url: str, rules: dict[str, str]
) -> None:
    with own_gateway(redis_url, rules, rate_limits={"read": 3}) as own:
        victim = guest(own.make_client)
        player_id = me(victim).player_id
        assert victim.token.startswith(f"{player_id}.")
        forged = (("authorization", f"Bearer {player_id}.not-the-secret"),)
        for _ in range(10):
            code, info = refused(victim.accounts.GetMe, gateway_pb2.GetMeRequest(), forged)
            assert (code, info.reason) == (UNAUTHENTICATED, "UNAUTHENTICATED")
        time.sleep(1.1)
        assert [me(victim).player_id for _ in range(3)] == [player_id] * 3, "forged calls were not counted"


def test_tokens_and_api_keys_are_stored_only_hashed(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules) as own:
        store = own.store
        client = guest(own.make_client)
        register(own.make_client(), unique("gina"))
        api_key = create_api_key(own.redis_url)
        issued = client.accounts.IssuePlayerToken(
            gateway_pb2.IssuePlayerTokenRequest(external_id="user-1", display_name="Hal"),
            metadata=(("x-api-key", api_key),),
        ).session
        stored = every_stored_value(store)
        for secret in (client.token, issued.token, api_key):
            assert not any(secret.encode() in value for value in stored)
        session = keys.session(me(client).player_id, hashlib.sha256(client.token.encode()).hexdigest())
        assert store.get(session) is not None
        assert store.ttl(session) > 0
        assert store.get(keys.api_key(hashlib.sha256(api_key.encode()).hexdigest())) == b"acme"


def create_api_key(url: str, operator: str = "acme") -> str:
    """A new operator API key, made with the admin command line as an operator would."""
    environment = {**os.environ, "REDIS_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "gateway.admin", "create-api-key", "--operator", operator],
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout.strip()


def test_an_operator_signs_its_own_users_in(gateway: GatewayProcess, client: Client, redis_url: str) -> None:
    api_key = create_api_key(redis_url)
    operator = (("x-api-key", api_key),)
    external_id = unique("user")
    issue = client.accounts.IssuePlayerToken

    def issued(external: str, name: str) -> gateway_pb2.IssuePlayerTokenResponse:
        request = gateway_pb2.IssuePlayerTokenRequest(external_id=external, display_name=name)
        return issue(request, metadata=operator, timeout=RPC_TIMEOUT)

    first = issued(external_id, "Ivy")
    again = issued(external_id, "Ivy B.")
    other = issued(unique("user"), "Jo")
    assert first.session.player.player_id == again.session.player.player_id
    assert other.session.player.player_id != first.session.player.player_id
    assert first.session.token != again.session.token
    client.token = first.session.token
    assert me(client).display_name == "Ivy B."

    request = gateway_pb2.IssuePlayerTokenRequest(external_id=external_id, display_name="Ivy")
    for metadata in [(), (("x-api-key", "made-up"),), client.auth]:
        code, info = refused(issue, request, metadata)
        assert code == UNAUTHENTICATED
    code, info = refused(issue, gateway_pb2.IssuePlayerTokenRequest(display_name="Ivy"), operator)
    assert (code, info.reason) == (INVALID, "INVALID_EXTERNAL_ID")
    code, info = refused(issue, gateway_pb2.IssuePlayerTokenRequest(external_id="u"), operator)
    assert (code, info.reason) == (INVALID, "INVALID_DISPLAY_NAME")


def test_the_admin_command_refuses_a_bad_operator_name(redis_url: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gateway.admin", "create-api-key", "--operator", "a:b"],
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "':'" in done.stderr


def test_the_catalogue_lists_every_title_by_name(client: Client, rules: dict[str, str]) -> None:
    client.sign_in_as_guest("reader")
    titles = client.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=client.auth).titles
    names = [title.name for title in titles]
    assert names == sorted(rules)
    for title in titles:
        info = registry.get(title.name).info
        assert (title.min_players, title.max_players) == (info.min_players, info.max_players)
        assert [option.name for option in title.options] == [option.name for option in info.options]


@pytest.mark.parametrize(
    "name",
    [
        "Heuristic bot 2",
        "Hard bot 3",
        "medium BOT",
        "random BOT",
        "Search_bot",
        "\uff33\uff25\uff21\uff32\uff23\uff28 \uff22\uff2f\uff34 1",  # full-width letters
        "Random-Bot",
        "Admin",
        "s y s t e m",
        "R\u0430ndom bot 1",  # a Cyrillic a
        "\u0430dmin",  # a Cyrillic a
        "Heur\u0456stic bot",  # a Cyrillic i
        "\u0391DMIN",  # a Greek capital alpha
        "\u0405\u0443stem",  # a Cyrillic S and y
        "adrnin",  # r and n, drawn as an m
        "\U0001d400\U0001d41d\U0001d426\U0001d422\U0001d427",  # mathematical bold letters
    ],
)
def test_a_bots_name_or_a_reserved_one_is_refused(gateway: GatewayProcess, client: Client, name: str) -> None:
    code, info = refused(client.accounts.CreateGuest, gateway_pb2.CreateGuestRequest(display_name=name))
    assert (code, info.reason, info.metadata["field"]) == (INVALID, "RESERVED_NAME", "display_name")
    register = gateway_pb2.RegisterRequest(username=unique("named"), password="a password", display_name=name)
    assert refused(client.accounts.Register, register)[1].reason == "RESERVED_NAME"
    key = gateway.run(auth.create_api_key(gateway.app.redis, "acme"))  # type: ignore[union-attr]
    issue = gateway_pb2.IssuePlayerTokenRequest(external_id=unique("user"), display_name=name)
    assert (
        refused(client.accounts.IssuePlayerToken, issue, (("x-api-key", key),))[1].reason == "RESERVED_NAME"
    )


def test_names_near_a_bots_are_free_and_the_reserved_list_is_configured(
    client: Client, redis_url: str, rules: dict[str, str]
) -> None:
    for name in ("Robot", "Botany", "Heuristic", "Randy bot"):
        assert client.sign_in_as_guest(name).player.display_name == name
    request = gateway_pb2.RegisterRequest(username="Moderator", password="a password")
    assert refused(client.accounts.Register, request)[1].reason == "RESERVED_NAME", "user names too"
    with own_gateway(redis_url, rules, reserved_names=("Referee",)) as own:
        player = own.make_client()
        assert player.sign_in_as_guest("admin").player.display_name == "admin", (
            "the list replaces the defaults"
        )
        code, info = refused(
            player.accounts.CreateGuest, gateway_pb2.CreateGuestRequest(display_name="REFEREE")
        )
        assert (code, info.reason) == (INVALID, "RESERVED_NAME")
        bot = gateway_pb2.CreateGuestRequest(display_name="Heuristic bot")
        assert refused(player.accounts.CreateGuest, bot)[1].reason == "RESERVED_NAME", "bots' names always"

"""Signing in under attack, with the settings a user gets: wrong passwords back off per account and per
address, a taken name is refused as slowly as a registration and counts as a failure, and the calls
that sign in (CreateGuest, Register, SignIn, IssuePlayerToken) are rate limited per address or per
API key."""

from __future__ import annotations

import time
from collections.abc import Iterator

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from gateway.auth import create_api_key
from live.settings import DEFAULT_RATE_LIMITS, Settings
from services.common.status import error_info
from tests.gateway._support_accounts import (
    RPC_TIMEOUT,
    OwnGateway,
    at_a_second_start,
    in_one_second,
    own_gateway,
    unique,
)
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client
from tests.gateway.test_rate_limits import retry_info

PASSWORD = "correct horse"
EXHAUSTED = grpc.StatusCode.RESOURCE_EXHAUSTED
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
DEFAULTS = Settings()
# Of each kind, timed in turns: the fastest of each is compared, so a slow one (a busy machine) tells
# nothing on its own.
TIMED_REGISTRATIONS = 6


@pytest.fixture
def own(redis_url: str, rules: dict[str, str]) -> Iterator[OwnGateway]:
    with own_gateway(redis_url, rules) as own:
        yield own


@pytest.fixture
def patient(own: OwnGateway) -> Iterator[Client]:
    """A client of the own gateway that waits out RATE_LIMITED (not SIGN_IN_THROTTLED)."""
    with patient_channel(own.gateway.address) as channel:
        yield Client(channel)


def register(client: Client, username: str) -> None:
    client.accounts.Register(
        gateway_pb2.RegisterRequest(username=username, password=PASSWORD), timeout=RPC_TIMEOUT
    )


def sign_in(client: Client, username: str, password: str) -> tuple[grpc.StatusCode, str, int]:
    """The code, ErrorInfo reason and retry_after_ms (0: none) of a sign-in."""
    request = gateway_pb2.SignInRequest(username=username, password=password)
    try:
        client.accounts.SignIn(request, timeout=RPC_TIMEOUT)
    except grpc.RpcError as error:
        info = error_info(error)
        assert info is not None and error.details()
        if info.reason == "SIGN_IN_THROTTLED":
            retry = retry_info(error)
            assert retry is not None and "retry in" in error.details()
            assert retry.retry_delay.ToMilliseconds() == int(info.metadata["retry_after_ms"])
        return error.code(), info.reason, int(info.metadata.get("retry_after_ms", "0"))
    return grpc.StatusCode.OK, "", 0


def test_wrong_passwords_lock_the_account_for_longer_each_time(patient: Client) -> None:
    victim, bystander = unique("victim"), unique("bystander")
    register(patient, victim)
    register(patient, bystander)
    allowed = DEFAULTS.sign_in_failures_per_account
    for _ in range(allowed):
        assert sign_in(patient, victim, "wrong password")[:2] == (UNAUTHENTICATED, "UNAUTHENTICATED")
    code, reason, first_lock = sign_in(patient, victim, PASSWORD)
    assert (code, reason) == (EXHAUSTED, "SIGN_IN_THROTTLED"), "locked, even with the right password"
    assert 0 < first_lock <= 1000
    assert sign_in(patient, bystander, PASSWORD)[0] == grpc.StatusCode.OK, "another account of the address"
    time.sleep(first_lock / 1000 + 0.05)
    assert sign_in(patient, victim, "wrong again")[0] == UNAUTHENTICATED, "tried once the lock ended"
    code, reason, second_lock = sign_in(patient, victim, PASSWORD)
    assert (code, reason) == (EXHAUSTED, "SIGN_IN_THROTTLED")
    assert 1000 < second_lock <= 2000, "the lock doubles with each failure past the allowance"
    time.sleep(second_lock / 1000 + 0.05)
    assert sign_in(patient, victim, PASSWORD)[0] == grpc.StatusCode.OK
    assert sign_in(patient, victim, "wrong password")[1] == "UNAUTHENTICATED", "the right password cleared it"


ATTACKER, OWNER = "203.0.113.9", "198.51.100.7"  # two addresses, as a trusted proxy forwards them


def sign_in_from(client: Client, address: str, username: str, password: str) -> tuple[grpc.StatusCode, str]:
    """The code and ErrorInfo reason of a sign-in from `address`."""
    request = gateway_pb2.SignInRequest(username=username, password=password)
    forwarded = (("x-forwarded-for", address),)
    try:
        client.accounts.SignIn(request, metadata=forwarded, timeout=RPC_TIMEOUT)
    except grpc.RpcError as error:
        info = error_info(error)
        assert info is not None
        return error.code(), info.reason
    return grpc.StatusCode.OK, ""


def test_wrong_passwords_from_one_address_never_lock_the_owner_out_from_another(
    redis_url: str, rules: dict[str, str]
) -> None:
    """An attacker's wrong passwords lock the attacker's address for that account, doubling as they
    go on, while the owner signs in from their own address all along."""
    with (
        own_gateway(redis_url, rules, client_address_header="x-forwarded-for") as own,
        patient_channel(own.gateway.address) as channel,
    ):
        client = Client(channel)
        register(client, victim := unique("victim"))
        for _ in range(DEFAULTS.sign_in_failures_per_account + 1):
            sign_in_from(client, ATTACKER, victim, "a guess 123")
        assert sign_in_from(client, ATTACKER, victim, PASSWORD) == (EXHAUSTED, "SIGN_IN_THROTTLED")
        assert sign_in_from(client, OWNER, victim, PASSWORD) == (grpc.StatusCode.OK, ""), (
            "the owner's own address is not locked"
        )
        assert sign_in_from(client, ATTACKER, victim, PASSWORD) == (EXHAUSTED, "SIGN_IN_THROTTLED"), (
            "the owner's sign-in does not lift the attacker's lock"
        )
        for _ in range(DEFAULTS.sign_in_failures_per_account - 1):
            assert sign_in_from(client, OWNER, victim, "a typo")[0] == UNAUTHENTICATED
        assert sign_in_from(client, OWNER, victim, PASSWORD)[0] == grpc.StatusCode.OK, (
            "the owner's typos are counted for the owner's address alone"
        )


def test_failures_from_one_address_lock_its_sign_ins_and_registrations(patient: Client) -> None:
    """Wrong passwords spread over many names, and registrations of taken names, count for the address."""
    taken = unique("taken")
    register(patient, taken)
    allowance = DEFAULTS.sign_in_failures_per_address
    per_name = DEFAULTS.sign_in_failures_per_account - 1  # no account of its own locks
    tried = 0
    while tried < allowance - 3:
        name = unique("guessed")
        for _ in range(min(per_name, allowance - 3 - tried)):
            assert sign_in(patient, name, "a guess 123")[0] == UNAUTHENTICATED
            tried += 1
    for _ in range(3):
        request = gateway_pb2.RegisterRequest(username=taken, password="another password")
        with pytest.raises(grpc.RpcError) as raised:
            patient.accounts.Register(request, timeout=RPC_TIMEOUT)
        assert raised.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert sign_in(patient, taken, PASSWORD)[:2] == (EXHAUSTED, "SIGN_IN_THROTTLED")
    with pytest.raises(grpc.RpcError) as raised:
        register(patient, unique("fresh"))
    assert raised.value.code() == EXHAUSTED
    assert (info := error_info(raised.value)) is not None and info.reason == "SIGN_IN_THROTTLED"


def test_a_taken_name_is_refused_only_as_fast_as_a_registration(patient: Client) -> None:
    taken = unique("taken")
    register(patient, taken)
    free, refused = [], []
    for _ in range(TIMED_REGISTRATIONS):
        started = time.perf_counter()
        register(patient, unique("free"))
        free.append(time.perf_counter() - started)
        request = gateway_pb2.RegisterRequest(username=taken, password="another password")
        started = time.perf_counter()
        with pytest.raises(grpc.RpcError) as raised:
            patient.accounts.Register(request, timeout=RPC_TIMEOUT)
        refused.append(time.perf_counter() - started)
        assert raised.value.code() == grpc.StatusCode.ALREADY_EXISTS
    assert min(refused) > 0.5 * min(free), f"taken {refused} vs free {free}: the refusal gives the name away"


def burst(call, requests: list, metadata=()) -> list[grpc.StatusCode]:  # type: ignore[no-untyped-def,type-arg]
    """The codes of calls sent together, as they come back."""
    futures = [call.future(request, metadata=metadata, timeout=RPC_TIMEOUT) for request in requests]
    codes = []
    for future in futures:
        error = future.exception()
        codes.append(grpc.StatusCode.OK if error is None else error.code())
        if error is not None:
            info = error_info(error)
            assert error.code() == EXHAUSTED and info is not None and info.reason == "RATE_LIMITED"
    return codes


def test_new_guests_and_sign_ins_are_rate_limited_per_address(own: OwnGateway) -> None:
    plain = own.make_client()
    with patient_channel(own.gateway.address) as channel:
        register(Client(channel), name := unique("named"))
    limit = DEFAULT_RATE_LIMITS["guest"]
    guests = in_one_second(
        lambda: burst(
            plain.accounts.CreateGuest, [gateway_pb2.CreateGuestRequest(display_name="g")] * (limit + 5)
        )
    )
    assert guests.count(grpc.StatusCode.OK) == limit, guests
    limit = DEFAULT_RATE_LIMITS["sign_in"]
    request = gateway_pb2.SignInRequest(username=name, password=PASSWORD)
    signed = in_one_second(lambda: burst(plain.accounts.SignIn, [request] * (limit + 2)))
    assert signed.count(grpc.StatusCode.OK) == limit, signed


def test_an_operator_key_issues_a_limited_number_of_tokens_a_second(own: OwnGateway) -> None:
    key = own.gateway.run(create_api_key(own.gateway.app.redis, "acme"))  # type: ignore[union-attr]
    other = own.gateway.run(create_api_key(own.gateway.app.redis, "globex"))  # type: ignore[union-attr]
    plain = own.make_client()
    limit = DEFAULT_RATE_LIMITS["operator"]
    requests = [
        gateway_pb2.IssuePlayerTokenRequest(external_id=f"u{i}", display_name="U") for i in range(limit + 10)
    ]
    codes = in_one_second(lambda: burst(plain.accounts.IssuePlayerToken, requests, (("x-api-key", key),)))
    assert codes.count(grpc.StatusCode.OK) == limit, codes
    assert burst(plain.accounts.IssuePlayerToken, requests[:1], (("x-api-key", other),)) == [
        grpc.StatusCode.OK
    ]


def test_behind_a_proxy_the_address_is_the_one_it_forwards(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules, client_address_header="x-forwarded-for") as own:
        plain = own.make_client()
        limit = DEFAULT_RATE_LIMITS["guest"]
        at_a_second_start()
        request = gateway_pb2.CreateGuestRequest(display_name="g")
        first = burst(plain.accounts.CreateGuest, [request] * (limit + 1), (("x-forwarded-for", "10.0.0.1"),))
        second = burst(
            plain.accounts.CreateGuest, [request] * limit, (("x-forwarded-for", "203.0.113.9, 10.0.0.2"),)
        )
        assert first.count(grpc.StatusCode.OK) == limit and second.count(grpc.StatusCode.OK) == limit


def test_the_new_settings_are_read_from_their_variables() -> None:
    settings = Settings.from_env(
        {
            "RATE_LIMIT_GUEST_PER_SECOND": "3",
            "RATE_LIMIT_SIGN_IN_PER_SECOND": "4",
            "RATE_LIMIT_OPERATOR_PER_SECOND": "6",
            "WATCH_STREAMS_PER_PLAYER": "2",
            "OPEN_LOBBIES_PER_PLAYER": "1",
            "SIGN_IN_FAILURES_PER_ACCOUNT": "7",
            "SIGN_IN_FAILURES_PER_ADDRESS": "8",
            "SIGN_IN_LOCKOUT_SECONDS": "9",
            "RESERVED_NAMES": "referee, , Umpire",
            "CLIENT_ADDRESS_HEADER": "X-Forwarded-For",
        }
    )
    assert [settings.rate_limit(name) for name in ("guest", "sign_in", "operator")] == [3, 4, 6]
    assert (settings.watch_streams_per_player, settings.open_lobbies_per_player) == (2, 1)
    assert (
        settings.sign_in_failures_per_account,
        settings.sign_in_failures_per_address,
        settings.sign_in_lockout_seconds,
    ) == (7, 8, 9)
    assert settings.reserved_names == ("referee", "Umpire")
    assert settings.client_address_header == "x-forwarded-for"
    assert Settings.from_env({}).reserved_names == DEFAULTS.reserved_names

"""`bg` waits and tries again when the gateway refuses a call for its rate limit, against a gateway
with the rate limit a user gets."""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import replace

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from cli.client import DEFAULT_RETRY_AFTER_MS, RETRY_AFTER_KEY, Client, retry_after
from live.settings import DEFAULT_RATE_LIMITS
from services.common.status import error_info
from tests.gateway.support import GatewayProcess

READ_LIMIT = DEFAULT_RATE_LIMITS["read"]  # GetMe is a read


@pytest.fixture
def limited(gateway: GatewayProcess) -> Iterator[GatewayProcess]:
    """A gateway on the same Redis and rules services with the default rate limits."""
    settings = replace(gateway.settings, rate_limits=dict(DEFAULT_RATE_LIMITS))
    with GatewayProcess(settings) as process:
        yield process


def signed_in(address: str) -> Client:
    """A `bg` client signed in as a new guest."""
    client = Client(address, "", io.StringIO(), io.StringIO())
    request = gateway_pb2.CreateGuestRequest(display_name="Quick")
    client.token = client.call(client.accounts.CreateGuest, request, signed_in=False).session.token
    return client


def test_bg_backs_off_on_rate_limited_and_every_call_goes_through(limited: GatewayProcess) -> None:
    client = signed_in(limited.address)
    calls = 3 * READ_LIMIT
    names = {
        client.call(client.accounts.GetMe, gateway_pb2.GetMeRequest()).player.display_name
        for _ in range(calls)
    }
    assert names == {"Quick"}
    assert client.waits, f"{calls} calls at once must meet the limit of {READ_LIMIT} a second"
    assert all(0 < wait <= DEFAULT_RETRY_AFTER_MS / 1000 for wait in client.waits)
    client.channel.close()


def test_the_wait_is_the_gateways_retry_after_else_a_second(limited: GatewayProcess) -> None:
    client = signed_in(limited.address)
    with pytest.raises(grpc.RpcError) as raised:
        for _ in range(3 * READ_LIMIT):
            client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth)
    info = error_info(raised.value)
    assert info is not None and info.reason == "RATE_LIMITED"
    told = info.metadata.get(RETRY_AFTER_KEY)
    assert retry_after(raised.value) == (int(told) if told else DEFAULT_RETRY_AFTER_MS) / 1000
    client.channel.close()

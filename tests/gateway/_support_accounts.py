"""Helpers for the account, lobby and leaderboard tests: refusals with their ErrorInfo, signed-in
clients, and gateways of their own on a Redis database of their own (for exact listings and for
settings the session's gateway does not have)."""

from __future__ import annotations

import contextlib
import itertools
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2
from google.rpc import error_details_pb2

from live.connection import sync_client
from live.settings import cluster_url
from services.common.status import error_info
from tests.gateway.support import Client, GatewayProcess, gateway_settings

RPC_TIMEOUT = 10.0
Metadata = tuple[tuple[str, str], ...]

# Database 0 belongs to the session's gateway; the others are handed out in turn.
_databases = itertools.cycle(range(1, 16))


def refused(
    call: Callable[..., Any], request: Any, metadata: Metadata = ()
) -> tuple[grpc.StatusCode, error_details_pb2.ErrorInfo]:
    """The code and ErrorInfo of a call that must fail; fails the test if it succeeds."""
    with pytest.raises(grpc.RpcError) as raised:
        call(request, metadata=metadata, timeout=RPC_TIMEOUT)
    error = raised.value
    info = error_info(error)
    assert info is not None, f"{error.code()} without ErrorInfo: {error.details()}"
    assert error.details(), "a refusal must carry a readable message"
    return error.code(), info


def unique(prefix: str) -> str:
    """A name no other test uses."""
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def at_a_second_start() -> None:
    """Wait until just after a wall-clock second begins, so that a short burst of calls all fall in
    one second of the per-player rate counter."""
    time.sleep(1.01 - time.time() % 1)


T = TypeVar("T")


def in_one_second(send: Callable[[], T], tries: int = 5) -> T:
    """What `send` returns, from a try that began and ended within one wall-clock second (a burst
    straddling two seconds meets two windows of a rate counter); a loaded machine may need a few."""
    for _ in range(tries):
        at_a_second_start()
        began = int(time.time())
        result = send()
        if int(time.time()) == began:
            return result
    raise AssertionError(f"no burst of calls fitted in one second in {tries} tries")


def guest(make_client: Callable[[], Client], name: str = "guest") -> Client:
    """A new client signed in as a new guest."""
    client = make_client()
    client.sign_in_as_guest(name)
    return client


def me(client: Client) -> gateway_pb2.Player:
    """The client's signed-in player."""
    return client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth).player


@dataclass
class OwnGateway:
    """A gateway of a test's own, its Redis database, and a factory of its clients."""

    gateway: GatewayProcess
    store: redis.Redis
    redis_url: str
    make_client: Callable[[], Client]


@contextlib.contextmanager
def own_gateway(redis_url: str, rules: dict[str, str], **changes: object) -> Iterator[OwnGateway]:
    """A gateway with these setting changes on an emptied Redis database of its own (on a Cluster,
    which has one database only, on the session's: a test needing an empty Redis runs on one node)."""
    own = not cluster_url(redis_url)
    url = f"{redis_url.rsplit('/', 1)[0]}/{next(_databases)}" if own else redis_url
    store = sync_client(url)
    if own:
        store.flushdb()
    else:
        _forget_addresses(store)
    channels: list[grpc.Channel] = []
    try:
        with GatewayProcess(gateway_settings(url, rules, **changes)) as gateway:

            def make_client() -> Client:
                channel = grpc.insecure_channel(gateway.address)
                channels.append(channel)
                return Client(channel)

            yield OwnGateway(gateway, store, url, make_client)
            for channel in channels:
                channel.close()
    finally:
        if own:
            store.flushdb()
        else:
            _forget_addresses(store)
        store.close()


# What a Cluster's shared database remembers of this machine's address between two gateways of their
# own: its sign-in failures and locks and its rate counters (every test's clients share 127.0.0.1).
ADDRESS_KEYS = ("signin:*", "rate:{address:*")


def _forget_addresses(store: Any) -> None:
    for pattern in ADDRESS_KEYS:
        for key in list(store.scan_iter(match=pattern)):
            store.delete(key)

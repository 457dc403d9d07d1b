"""Helpers for talking to a real rules server over a real channel, and reading its metrics."""

from __future__ import annotations

import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2_grpc
from google.rpc import error_details_pb2
from prometheus_client.parser import text_string_to_metric_families

from services.common.game import Game
from services.common.server import create_server
from services.common.status import error_info

RPC_TIMEOUT = 10.0


@contextmanager
def serving(game: Game) -> Iterator[grpc.Channel]:
    """A started rules server for `game` on a free loopback port, and a ready channel to it."""
    server, port = create_server("127.0.0.1:0", game, max_workers=2)
    server.start()
    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        grpc.channel_ready_future(channel).result(timeout=RPC_TIMEOUT)
        yield channel
    finally:
        channel.close()
        server.stop(None).wait()


def stub(channel: grpc.Channel) -> rules_pb2_grpc.RulesServiceStub:
    """A RulesService client on `channel`."""
    return rules_pb2_grpc.RulesServiceStub(channel)


def refused(call: Callable[..., Any], request: Any) -> tuple[grpc.StatusCode, error_details_pb2.ErrorInfo]:
    """The status code and ErrorInfo of a call that must fail; fails the test if it succeeds."""
    with pytest.raises(grpc.RpcError) as raised:
        call(request, timeout=RPC_TIMEOUT)
    error = raised.value
    info = error_info(error)
    assert info is not None, f"{error.code()} without ErrorInfo: {error.details()}"
    assert info.domain == "boardgame"
    assert error.details(), "the status must carry a readable message"
    return error.code(), info


def scrape(port: int) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    """Every sample served on http://127.0.0.1:`port`/metrics, keyed by (name, labels)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=RPC_TIMEOUT) as response:
        assert response.status == 200
        text = response.read().decode()
    samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples[(sample.name, frozenset(sample.labels.items()))] = sample.value
    return samples


def handled(samples: dict[tuple[str, frozenset[tuple[str, str]]], float], method: str, code: str) -> float:
    """How many RulesService `method` calls ended with `code`, per scraped samples."""
    labels = frozenset(
        {
            ("grpc_service", "boardgame.rules.v1.RulesService"),
            ("grpc_method", method),
            ("grpc_code", code),
        }
    )
    return samples.get(("grpc_server_handled_total", labels), 0.0)

"""Helpers for talking to a real rules server over a real channel, and reading its metrics."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2_grpc
from google.rpc import error_details_pb2
from prometheus_client.parser import text_string_to_metric_families

from deploy.local import python_path
from services.common.game import Game
from services.common.server import create_server
from services.common.status import error_info

RPC_TIMEOUT = 10.0
ROOT = Path(__file__).resolve().parents[2]


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


def read_json_line(stream: Any, message: str) -> dict[str, Any]:
    """The next JSON log line whose message is `message`, skipping others."""
    other_lines = []
    for line in stream:
        try:
            entry: dict[str, Any] = json.loads(line)
        except json.JSONDecodeError:
            other_lines.append(line)
            continue
        if entry.get("message") == message:
            return entry
    raise AssertionError(f"the process ended without logging {message!r}: {''.join(other_lines)}")


@contextmanager
def service_process(
    module: str, variables: Mapping[str, str], cwd: Path | str = "/"
) -> Iterator[tuple[subprocess.Popen[str], dict[str, Any]]]:
    """`python -m module` (a rules service) with these environment variables besides ours, once it
    logged "rules service listening": the process and that log line. Killed on the way out if it
    still runs."""
    env = {**os.environ, "PYTHONPATH": python_path(os.environ), **variables}
    process = subprocess.Popen(
        [sys.executable, "-m", module],
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        yield process, read_json_line(process.stderr, "rules service listening")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        assert process.stderr is not None
        process.stderr.close()

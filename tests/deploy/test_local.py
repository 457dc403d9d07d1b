"""The local launcher: its process table, and a real run stopped by SIGTERM."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy import local
from services.common.registry import GAME_MODULES

ROOT = Path(__file__).resolve().parents[2]


def free_port_run(count: int) -> int:
    """The first of `count` consecutive loopback ports that are free right now."""
    for _ in range(50):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            base = probe.getsockname()[1]
        if base + count > 65535:
            continue
        try:
            for port in range(base, base + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return base
    raise RuntimeError("no run of free ports")


def test_plan_has_one_rules_row_per_registered_game(tmp_path: Path) -> None:
    environ = {"REDIS_URL": "redis://elsewhere:6379/0", "RULES_BASE_PORT": "6000", "DATA_DIR": str(tmp_path)}
    every_row, notes = local.plan(environ)
    rows = [row for row in every_row if "RULES_ADDRESS" in row.env]
    assert [row.name for row in rows] == [module.rsplit(".", 1)[-1] for module in GAME_MODULES]
    assert [row.env["RULES_ADDRESS"] for row in rows] == [f"127.0.0.1:{6000 + i}" for i in range(len(rows))]
    assert [row.env["METRICS_PORT"] for row in rows] == [str(9101 + i) for i in range(len(rows))]
    assert all(row.argv[1:] == ["-m", module] for row, module in zip(rows, GAME_MODULES, strict=True))
    assert any("REDIS_URL" in note for note in notes)
    gateway = every_row[-1]
    assert gateway.name == "gateway" and gateway.argv[1:] == ["-m", "gateway"]
    assert gateway.env["RULES_ADDRESSES"] == ",".join(row.env["RULES_ADDRESS"] for row in rows)


def test_plan_starts_a_persistent_redis_first(tmp_path: Path) -> None:
    rows, _ = local.plan({"REDIS_PORT": "7000", "DATA_DIR": str(tmp_path)})
    redis = rows[0]
    assert redis.name == "redis" and redis.gate
    assert redis.argv[redis.argv.index("--appendonly") + 1] == "yes"
    assert redis.argv[redis.argv.index("--dir") + 1] == str(tmp_path / "redis")
    assert all(row.env["REDIS_URL"] == "redis://127.0.0.1:7000/0" for row in rows)


def test_json_log_lines_become_readable() -> None:
    line = '{"time": "t", "level": "info", "logger": "x", "message": "listening", "port": 1}'
    assert local.readable(line) == "INFO    listening port=1"
    assert local.readable("plain text") == "plain text"


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    """A running `python -m deploy.local` on free ports, with its data in a temporary folder."""
    games = len(GAME_MODULES)
    base = free_port_run(2 * games + 1)
    env = {
        **os.environ,
        "RULES_BASE_PORT": str(base),
        "METRICS_BASE_PORT": str(base + games),
        "REDIS_PORT": str(base + 2 * games),
        "DATA_DIR": str(tmp_path),
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
    }
    env.pop("REDIS_URL", None)
    process = subprocess.Popen(
        [sys.executable, "-m", "deploy.local"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        yield process, env
    finally:
        if process.poll() is None:  # let the launcher stop its rows, each in a session of its own
            process.terminate()
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        assert process.stdout is not None
        process.stdout.close()


def test_launcher_starts_every_service_and_stops_on_sigterm(
    launcher: tuple[subprocess.Popen[str], dict[str, str]],
) -> None:
    process, env = launcher
    assert process.stdout is not None
    output = []
    for line in process.stdout:
        output.append(line)
        if line.strip() == "launcher | ready":
            break
    else:
        pytest.fail("the launcher ended before it was ready:\n" + "".join(output))
    for index in range(len(GAME_MODULES)):
        with grpc.insecure_channel(f"127.0.0.1:{int(env['RULES_BASE_PORT']) + index}") as channel:
            response = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert response.status == health_pb2.HealthCheckResponse.SERVING
    assert local.redis_answers("127.0.0.1", int(env["REDIS_PORT"]))
    process.send_signal(signal.SIGTERM)
    rest = process.stdout.read()
    assert process.wait(timeout=30) == 0, rest
    assert rest.rstrip().endswith("launcher | stopped"), rest

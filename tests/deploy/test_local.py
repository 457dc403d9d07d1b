"""The local launcher: its process table, and a real run stopped by SIGTERM."""

from __future__ import annotations

import contextlib
import io
import os
import queue
import signal
import socket
import stat
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy import durability, local, ports, postgres, probe
from deploy.restarts import RestartPolicy, Restarts
from services.common.registry import GAME_MODULES
from tests.gateway.browser_client import BrowserClient

ROOT = Path(__file__).resolve().parents[2]


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


def test_plan_gives_the_archive_queue_a_worker_of_its_own_when_games_are_archived(tmp_path: Path) -> None:
    environ = {"REDIS_URL": "redis://elsewhere:6379/0", "DATA_DIR": str(tmp_path)}
    rows, _ = local.plan({**environ, "DATABASE_URL": "postgresql://elsewhere/boardgame"})
    by_name = {row.name: row for row in rows}
    assert by_name["workers"].env["WORKER_QUEUES"] == "celery"
    archiver = by_name["archiver"]
    assert archiver.argv[1:3] == ["-m", "workers"]
    assert (archiver.env["WORKER_QUEUES"], archiver.env["WORKER_BEAT"]) == ("archive", "0")
    assert archiver.env["METRICS_PORT"] == "9098"


def test_plan_starts_a_persistent_redis_first(tmp_path: Path) -> None:
    rows, _ = local.plan({"REDIS_PORT": "7000", "DATA_DIR": str(tmp_path)})
    redis = rows[0]
    assert redis.name == "redis" and redis.gate
    assert redis.argv[redis.argv.index("--appendonly") + 1] == "yes"
    assert redis.argv[redis.argv.index("--appendfsync") + 1] == "always"  # zero loss unless asked
    rows, _ = local.plan({"REDIS_PORT": "7000", "DATA_DIR": str(tmp_path), "REDIS_APPENDFSYNC": "everysec"})
    assert rows[0].argv[rows[0].argv.index("--appendfsync") + 1] == "everysec"
    with pytest.raises(ValueError, match="REDIS_APPENDFSYNC must be one of always, everysec"):
        durability.appendfsync({"REDIS_APPENDFSYNC": "never"})
    assert redis.argv[redis.argv.index("--dir") + 1] == str(tmp_path / "redis")
    assert all(row.env["REDIS_URL"] == "redis://127.0.0.1:7000/0" for row in rows)


def test_json_log_lines_become_readable() -> None:
    line = '{"time": "t", "level": "info", "logger": "x", "message": "listening", "port": 1}'
    assert local.readable(line) == "INFO    listening port=1"
    assert local.readable("plain text") == "plain text"


def launcher_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a launcher on a run of free ports (none of its defaults), data in tmp_path."""
    env = {
        **os.environ,
        **local.port_layout(ports.free_run(local.PORT_COUNT)),
        "DATA_DIR": str(tmp_path),
        "NO_COLOR": "1",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "gen")]),
    }
    env.pop("REDIS_URL", None)
    env.pop("DATABASE_URL", None)
    if postgres.as_root():  # the server's own user must reach its data directory in tmp_path
        for folder in [tmp_path, *tmp_path.parents]:
            folder.chmod(folder.stat().st_mode | stat.S_IXOTH)
    return env


def launcher_ports(env: Mapping[str, str]) -> list[int]:
    """Every port the launcher of `env` hands out."""
    return list(range(int(env["RULES_BASE_PORT"]), int(env["RULES_BASE_PORT"]) + local.PORT_COUNT))


def listeners(env: Mapping[str, str]) -> dict[int, tuple[int, str] | None]:
    """The launcher's ports that something listens on, with the process when it can be seen."""
    return {port: ports.listener(port) for port in launcher_ports(env) if ports.taken("", port)}


def wait_until_nothing_listens(
    env: Mapping[str, str], timeout: float = 45
) -> dict[int, tuple[int, str] | None]:
    """Wait until none of the launcher's ports is held; what still listens after `timeout`."""
    deadline = time.monotonic() + timeout
    while (left := listeners(env)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return left


def start_launcher(env: Mapping[str, str]) -> subprocess.Popen[str]:
    """`python -m deploy.local` with its output (stdout and stderr) on one pipe."""
    return subprocess.Popen(
        [sys.executable, "-m", "deploy.local"],
        cwd=ROOT,
        env=dict(env),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def read_until_ready(process: subprocess.Popen[str]) -> list[str]:
    """The launcher's lines up to its `ready` line; fails if it ends first."""
    assert process.stdout is not None
    output = []
    for line in process.stdout:
        output.append(line)
        if line.strip() == "launcher | ready":
            return output
    pytest.fail("the launcher ended before it was ready:\n" + "".join(output))


@pytest.fixture
def launcher(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, str]]]:
    """A running `python -m deploy.local` on free ports, with its data in a temporary folder; after the
    test, whatever it left listening is killed (and the test that left it fails on its own)."""
    env = launcher_env(tmp_path)
    process = start_launcher(env)
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
        for found in listeners(env).values():
            if found is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(found[0], signal.SIGKILL)


def test_launcher_starts_every_service_and_stops_on_sigterm(
    launcher: tuple[subprocess.Popen[str], dict[str, str]],
) -> None:
    process, env = launcher
    assert process.stdout is not None
    read_until_ready(process)
    for index in range(len(GAME_MODULES)):
        with grpc.insecure_channel(f"127.0.0.1:{int(env['RULES_BASE_PORT']) + index}") as channel:
            response = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=10)
            assert response.status == health_pb2.HealthCheckResponse.SERVING
    assert local.redis_answers("127.0.0.1", int(env["REDIS_PORT"]))
    assert postgres.answers(postgres.url("127.0.0.1", int(env["POSTGRES_PORT"])))
    assert (Path(env["DATA_DIR"]) / "postgres" / "PG_VERSION").exists(), "its own data directory"
    browser = BrowserClient(f"http://127.0.0.1:{env['WEB_PORT']}")
    guest = gateway_pb2.CreateGuestRequest(display_name="browser")
    browser.token = browser.call("AccountService", "CreateGuest", guest).session.token
    titles = browser.call("CatalogService", "ListTitles", gateway_pb2.ListTitlesRequest()).titles
    assert sorted(title.name for title in titles) == sorted(m.rsplit(".", 1)[-1] for m in GAME_MODULES)
    process.send_signal(signal.SIGTERM)
    rest = process.stdout.read()
    assert process.wait(timeout=30) == 0, rest
    assert rest.rstrip().endswith("launcher | stopped"), rest
    assert wait_until_nothing_listens(env) == {}


def test_a_closed_stdout_neither_stops_the_launcher_nor_leaves_its_processes_running(
    launcher: tuple[subprocess.Popen[str], dict[str, str]],
) -> None:
    process, env = launcher
    assert process.stdout is not None
    for _ in range(2):  # as `python -m deploy.local | head -2`
        process.stdout.readline()
    process.stdout.close()
    gateway = f"127.0.0.1:{env['GATEWAY_PORT']}"
    deadline = time.monotonic() + 90
    while not probe.serving(gateway, "", 1) and time.monotonic() < deadline:
        assert process.poll() is None, f"the launcher died with code {process.returncode}"
        time.sleep(0.5)
    assert probe.serving(gateway, "", 1), "the gateway never served"
    time.sleep(2)  # more lines written into the closed pipe
    assert process.poll() is None, f"the launcher died with code {process.returncode}"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=60) == 0
    assert wait_until_nothing_listens(env) == {}


def test_a_killed_launcher_takes_its_processes_with_it(
    launcher: tuple[subprocess.Popen[str], dict[str, str]],
) -> None:
    process, env = launcher
    read_until_ready(process)
    assert len(listeners(env)) == len(launcher_ports(env))
    process.kill()
    process.wait()
    assert wait_until_nothing_listens(env) == {}


def test_a_taken_port_is_named_with_its_process_and_nothing_starts(tmp_path: Path) -> None:
    env = launcher_env(tmp_path)
    port = int(env["GATEWAY_PORT"])
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        process = start_launcher(env)
        output, _ = process.communicate(timeout=60)
        assert process.returncode == 1, output
        assert f"port {port} (gateway, from GATEWAY_PORT) is taken by pid {os.getpid()} (" in output
        assert "or set GATEWAY_PORT to a free port" in output
        assert "launcher | nothing started" in output
        assert "ready" not in output
        assert listeners(env) == {port: (os.getpid(), ports.listener(port)[1])}  # type: ignore[index]


def test_restarts_pause_longer_after_each_quick_failure_and_give_up_after_the_last() -> None:
    restarts = Restarts(RestartPolicy(first_delay_seconds=0.5, max_delay_seconds=3, max_quick_failures=5))
    assert [restarts.after_exit(1.0) for _ in range(4)] == [0.5, 1.0, 2.0, 3.0]
    assert restarts.after_exit(60.0) == 0.5  # a long run: its death starts the count again
    assert [restarts.after_exit(1.0) for _ in range(4)] == [0.5, 1.0, 2.0, 3.0]
    assert restarts.after_exit(1.0) is None


def test_a_process_dying_at_once_again_and_again_is_restarted_then_given_up_on(tmp_path: Path) -> None:
    row = local.Row(
        name="flaky",
        argv=[sys.executable, "-c", "import sys, time; time.sleep(0.3); sys.exit(3)"],
        ready=lambda: True,
        endpoints=[],
        ports=[],
    )
    out = io.StringIO()
    environ = {"RESTART_FIRST_DELAY_SECONDS": "0.05", "RESTART_MAX_QUICK_FAILURES": "3"}
    assert local.Launcher([row], environ, out).run(ready_timeout=10) == 1
    lines = out.getvalue().splitlines()
    restarted = [line for line in lines if "flaky exited with code 3 after 0." in line]
    assert len(restarted) == 3, lines
    assert restarted[0].endswith("; starting it again in 0.05 s (restart 1)"), lines
    assert restarted[1].endswith("; starting it again in 0.1 s (restart 2)"), lines
    assert restarted[2].endswith(
        ": 3 quick failures in a row (each within 10 s of its start); giving up, stopping"
    ), lines
    assert lines[-1] == "launcher | stopped"


class Lines:
    """The launcher's output lines, read by a thread, waited for with a timeout."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, args=(process,), daemon=True).start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stdout is not None
        for line in process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def until(self, wanted: str, timeout: float = 90) -> str:
        """The first line from now that contains `wanted`; fails if the output ends or time runs out."""
        deadline = time.monotonic() + timeout
        while (left := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                break
            if line is None:
                break
            self.seen.append(line)
            if wanted in line:
                return line
        pytest.fail(f"no line with {wanted!r}:\n" + "\n".join(self.seen))


def test_a_killed_rules_service_worker_or_gateway_is_started_again_and_serves(
    launcher: tuple[subprocess.Popen[str], dict[str, str]],
) -> None:
    process, env = launcher
    lines = Lines(process)
    lines.until("launcher | ready")
    rules = f"127.0.0.1:{env['RULES_BASE_PORT']}"
    gateway = f"127.0.0.1:{env['GATEWAY_PORT']}"
    rules_name = GAME_MODULES[0].rsplit(".", 1)[-1]
    for name, port in (
        (rules_name, int(env["RULES_BASE_PORT"])),
        ("workers", int(env["WORKER_METRICS_PORT"])),  # the worker's main process serves /metrics
        ("gateway", int(env["GATEWAY_PORT"])),
    ):
        found = ports.listener(port)
        assert found is not None, name
        os.kill(found[0], signal.SIGKILL)
        died = lines.until(f"launcher | {name} exited with code -9 (SIGKILL) after ")
        assert died.endswith("; starting it again in 0.5 s (restart 1)"), died
        lines.until(f"launcher | {name} is back (pid ")
        new = ports.listener(port)
        assert new is not None and new[0] != found[0], name
    assert probe.serving(rules, "", 5) and probe.serving(gateway, "", 5)
    assert process.poll() is None
    process.send_signal(signal.SIGTERM)
    lines.until("launcher | stopped")
    assert process.wait(timeout=60) == 0
    assert wait_until_nothing_listens(env) == {}


def test_every_redis_the_deploy_files_start_fsyncs_as_make_run_does() -> None:
    wanted = f'"--appendfsync", "{durability.DEFAULT_APPENDFSYNC}"'
    for path in (
        "deploy/docker-compose.yml",
        "deploy/templates/docker-compose.yml",
        "deploy/k8s/base/redis.yaml",
    ):
        assert wanted in (ROOT / path).read_text(), path

"""Local launcher (`make run`): every process of the backend on this machine, logs interleaved.

The processes are rows of one table (`plan`): a local Redis with AOF persistence, fsynced before each
write is answered unless REDIS_APPENDFSYNC says otherwise (`deploy.durability`; unless REDIS_URL
points at one already), a local PostgreSQL for finished games (unless DATABASE_URL does; see
`deploy.postgres`), then one rules service per registered game on ports RULES_BASE_PORT + i
with /metrics on METRICS_BASE_PORT + i, the Celery worker with its clock sweep (metrics on
WORKER_METRICS_PORT, 9099) and, with a PostgreSQL, the worker of the archive queue (ARCHIVER_METRICS_PORT,
9098), then the gateway on GATEWAY_PORT (browsers and the web client on
WEB_PORT, metrics on GATEWAY_METRICS_PORT).

Before starting anything, the launcher checks that every port it will hand out is free, and names the
process holding any that is not. It prints `ready` only once every process answers its health check
(Redis PING, gRPC health of the rules services and the gateway, a Celery ping of the worker), prints
where everything listens, and stops everything on Ctrl-C, SIGTERM or SIGHUP. A process that dies
once the suite is ready is started again after a pause that grows while it keeps failing at once
(`deploy.restarts`; the launcher says which process, its exit code and the pause), and the launcher
gives up, stopping everything, only after a bounded number of quick failures in a row. Its processes
die with it however it dies (Linux: they get SIGTERM when it exits), and a closed stdout
(`make run | head`) only silences it.

Environment: LOCAL_HOST (default 127.0.0.1), RULES_BASE_PORT (50051), METRICS_BASE_PORT (9101),
GATEWAY_PORT (50050), WEB_PORT (8080), GATEWAY_METRICS_PORT (9100), WORKER_METRICS_PORT (9099),
ARCHIVER_METRICS_PORT (9098),
REDIS_URL (use this Redis, start none), REDIS_PORT (6379), DATABASE_URL (use this PostgreSQL, start
none), POSTGRES_PORT (5432), DATA_DIR (./data), READY_TIMEOUT_SECONDS (30), INSTALL_PACKAGES (1:
install Debian's redis-server and postgresql when missing and running as root; 0: never; see
deploy.programs), REDIS_APPENDFSYNC (always; see deploy.durability) and the RESTART_* variables of
`deploy.restarts`.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import IO, Any

from deploy import durability, ports, programs
from deploy import postgres as local_postgres
from deploy.probe import serving
from deploy.restarts import RestartPolicy, Restarts, exit_text
from live.queues import ARCHIVE_QUEUE, DEFAULT_QUEUE, QUEUES
from services.common.registry import GAME_MODULES
from services.common.servicer import SERVICE_NAME

ROOT = Path(__file__).resolve().parent.parent
READY_PROBE_TIMEOUT_SECONDS = 1.0
STOP_TIMEOUT_SECONDS = 15.0
PR_SET_PDEATHSIG = 1  # prctl(2): the signal a process gets when the thread that started it ends
LIBC = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
COLORS = ("\033[36m", "\033[33m", "\033[35m", "\033[32m", "\033[34m", "\033[31m")
RESET = "\033[0m"


def python_path(environ: Mapping[str, str]) -> str:
    """The PYTHONPATH of a child `python -m` of the suite: the repository and its generated code
    first, then what `environ` had."""
    paths = [str(ROOT), str(ROOT / "gen"), environ.get("PYTHONPATH", "")]
    return os.pathsep.join(path for path in paths if path)


@dataclass(frozen=True)
class Port:
    """A port a row's process binds ("" host: every interface), and the setting that picks it."""

    host: str
    number: int
    setting: str


@dataclass
class Row:
    """One process of the table: how to start it, how to tell it is ready, where it listens."""

    name: str
    argv: list[str]
    ready: Callable[[], bool]
    endpoints: list[str]
    ports: list[Port]
    env: dict[str, str] = field(default_factory=dict)
    gate: bool = False  # later rows start only once this one is ready
    process: subprocess.Popen[str] | None = None
    started_at: float = 0.0  # time.monotonic() of the process's start
    restart_at: float | None = None  # when it is to be started again, while it is dead
    recovering: bool = False  # started again, not ready yet


def redis_answers(host: str, port: int) -> bool:
    """Whether a Redis server on host:port answers PING."""
    try:
        with socket.create_connection((host, port), timeout=1) as conn:
            conn.sendall(b"PING\r\n")
            return conn.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def rules_serving(address: str) -> bool:
    """Whether the rules service at `address` reports SERVING over gRPC health."""
    return serving(address, SERVICE_NAME, READY_PROBE_TIMEOUT_SECONDS)


class WorkerPing:
    """Whether the Celery worker named `node` answers a ping over the broker of `environ`."""

    def __init__(self, environ: Mapping[str, str], node: str) -> None:
        self.environ = dict(environ)
        self.node = node

    @functools.cached_property
    def control(self) -> Any:
        """Celery's remote control on the worker's broker (TLS options included), made on first use."""
        from celery import Celery

        from live.settings import Settings

        settings = Settings.from_env(self.environ)
        app = Celery("launcher", broker=settings.broker_url, set_as_current=False)
        app.conf.broker_use_ssl = settings.redis_tls.options(settings.broker_url)
        app.conf.broker_connection_timeout = READY_PROBE_TIMEOUT_SECONDS
        return app.control

    def __call__(self) -> bool:
        try:
            replies = self.control.ping([self.node], timeout=READY_PROBE_TIMEOUT_SECONDS, limit=1)
        except Exception:  # the broker is not there yet: not ready
            return False
        return bool(replies)


def plan(environ: Mapping[str, str]) -> tuple[list[Row], list[str]]:
    """The processes to start, in start order, and notes for the person running the launcher."""
    host = environ.get("LOCAL_HOST", "127.0.0.1")
    rules_base = int(environ.get("RULES_BASE_PORT", "50051"))
    metrics_base = int(environ.get("METRICS_BASE_PORT", "9101"))
    data_dir = Path(environ.get("DATA_DIR", str(ROOT / "data")))
    rows: list[Row] = []
    notes: list[str] = []
    redis_notes: list[str] = []
    shared_env: dict[str, str] = {}

    if environ.get("REDIS_URL"):
        notes.append(f"Redis: using REDIS_URL={environ['REDIS_URL']}; no local Redis started.")
    elif binary := programs.installed("redis-server", environ, redis_notes):
        redis_port = int(environ.get("REDIS_PORT", "6379"))
        fsync = durability.appendfsync(environ)
        redis_dir = data_dir / "redis"
        redis_dir.mkdir(parents=True, exist_ok=True)
        shared_env["REDIS_URL"] = f"redis://{host}:{redis_port}/0"
        rows.append(
            Row(
                name="redis",
                argv=[
                    binary,
                    "--bind",
                    host,
                    "--port",
                    str(redis_port),
                    "--dir",
                    str(redis_dir),
                    *durability.persistence_args(fsync),
                ],
                ready=functools.partial(redis_answers, host, redis_port),
                endpoints=[shared_env["REDIS_URL"], f"AOF persistence (appendfsync {fsync}) in {redis_dir}"],
                ports=[Port(host, redis_port, "REDIS_PORT")],
                gate=True,
            )
        )
    else:
        notes.append(
            "Redis: REDIS_URL is not set and no Redis runs: the rules services do not need it; the "
            f"gateway and workers do. {programs.missing_hint('redis-server')} Or set REDIS_URL."
        )
    notes[:0] = [f"Redis: {note}" for note in redis_notes]
    rows.extend(postgres_rows(environ, host, data_dir, shared_env, notes))

    for index, module in enumerate(GAME_MODULES):
        address = f"{host}:{rules_base + index}"
        metrics_port = metrics_base + index
        rows.append(
            Row(
                name=module.rsplit(".", 1)[-1],
                argv=[sys.executable, "-m", module],
                ready=functools.partial(rules_serving, address),
                endpoints=[f"gRPC {address}", f"metrics http://{host}:{metrics_port}/metrics"],
                ports=[
                    Port(host, rules_base + index, "RULES_BASE_PORT"),
                    Port("", metrics_port, "METRICS_BASE_PORT"),
                ],
                env={"RULES_ADDRESS": address, "METRICS_PORT": str(metrics_port)},
            )
        )
    gateway_port = int(environ.get("GATEWAY_PORT", "50050"))
    gateway_address = f"{host}:{gateway_port}"
    gateway_metrics = int(environ.get("GATEWAY_METRICS_PORT", "9100"))
    web_port = int(environ.get("WEB_PORT", "8080"))
    rules_addresses = ",".join(row.env["RULES_ADDRESS"] for row in rows if "RULES_ADDRESS" in row.env)
    archiving = bool(environ.get("DATABASE_URL") or shared_env.get("DATABASE_URL"))
    workers = worker_row(
        environ,
        host,
        shared_env,
        name="workers",
        what="bot turns, turn clocks",
        metrics=("WORKER_METRICS_PORT", 9099),
        env={
            "RULES_ADDRESSES": rules_addresses,
            "WORKER_QUEUES": DEFAULT_QUEUE if archiving else ",".join(QUEUES),
        },
    )
    rows.append(workers)
    if archiving:
        rows.append(archiver_row(environ, host, shared_env, rules_addresses))
    rows.append(
        Row(
            name="gateway",
            argv=[sys.executable, "-m", "gateway"],
            ready=functools.partial(serving, gateway_address, "", READY_PROBE_TIMEOUT_SECONDS),
            endpoints=[
                f"gRPC {gateway_address}",
                f"web client and browsers (Connect, gRPC-Web) http://{host}:{web_port}/",
                f"metrics http://{host}:{gateway_metrics}/metrics",
            ],
            ports=[
                Port(host, gateway_port, "GATEWAY_PORT"),
                Port(host, web_port, "WEB_PORT"),
                Port("", gateway_metrics, "GATEWAY_METRICS_PORT"),
            ],
            env={
                "GATEWAY_ADDRESS": gateway_address,
                "WEB_ADDRESS": f"{host}:{web_port}",
                "RULES_ADDRESSES": rules_addresses,
                "METRICS_PORT": str(gateway_metrics),
            },
        )
    )
    for row in rows:
        row.env = {**shared_env, **row.env}
    return rows, notes


# The launcher's port variables past the rules services' two runs (gRPC, then metrics), in the order
# `port_layout` gives them consecutive ports.
PORT_VARIABLES = (
    "REDIS_PORT",
    "GATEWAY_PORT",
    "GATEWAY_METRICS_PORT",
    "WORKER_METRICS_PORT",
    "POSTGRES_PORT",
    "WEB_PORT",
    "ARCHIVER_METRICS_PORT",
)
PORT_COUNT = 2 * len(GAME_MODULES) + len(PORT_VARIABLES)  # how many ports one launcher hands out


def port_layout(base: int) -> dict[str, str]:
    """Every port variable the launcher reads, set to the PORT_COUNT consecutive ports from `base`:
    a launcher on none of its defaults (a test's or a chaos run's, beside another one)."""
    games = len(GAME_MODULES)
    layout = {"RULES_BASE_PORT": base, "METRICS_BASE_PORT": base + games}
    layout |= {name: base + 2 * games + index for index, name in enumerate(PORT_VARIABLES)}
    return {name: str(port) for name, port in layout.items()}


def worker_row(
    environ: Mapping[str, str],
    host: str,
    shared_env: dict[str, str],
    *,
    name: str,
    what: str,
    metrics: tuple[str, int],
    env: dict[str, str],
) -> Row:
    """A `python -m workers` process: its row, its Celery node named after this launcher (the node the
    ping asks, no other), its metrics on the port of the variable `metrics` names (or its default)."""
    variable, default = metrics
    metrics_port = int(environ.get(variable, str(default)))
    node = f"{name}-{os.getpid()}"
    return Row(
        name=name,
        argv=[sys.executable, "-m", "workers", f"--hostname={node}@%h"],
        ready=WorkerPing({**environ, **shared_env}, f"{node}@{socket.gethostname()}"),
        endpoints=[what, f"metrics http://{host}:{metrics_port}/metrics"],
        ports=[Port("", metrics_port, variable)],
        env={"METRICS_PORT": str(metrics_port), **env},
    )


def archiver_row(environ: Mapping[str, str], host: str, shared_env: dict[str, str], rules: str) -> Row:
    """The worker of the `archive` queue (`live.queues`: scoring and archiving): its own process, so
    that PostgreSQL stopped or slow never holds a process the bot turns need."""
    return worker_row(
        environ,
        host,
        shared_env,
        name="archiver",
        what="scoring and archive of finished games",
        metrics=("ARCHIVER_METRICS_PORT", 9098),
        env={
            "RULES_ADDRESSES": rules,
            "WORKER_QUEUES": ARCHIVE_QUEUE,
            "WORKER_BEAT": "0",
            "WORKER_CONCURRENCY": "1",
        },
    )


def postgres_rows(
    environ: Mapping[str, str], host: str, data_dir: Path, shared_env: dict[str, str], notes: list[str]
) -> list[Row]:
    """The local PostgreSQL of finished games (`deploy.postgres`), unless DATABASE_URL names one; its
    DATABASE_URL goes into `shared_env`."""
    if environ.get("DATABASE_URL"):
        notes.append("PostgreSQL: using DATABASE_URL; no local PostgreSQL started.")
        return []
    found: list[str] = []
    binary = programs.installed("postgres", environ, found)
    notes.extend(f"PostgreSQL: {note}" for note in found)
    if binary is None:
        notes.append(
            "PostgreSQL: DATABASE_URL is not set and none is installed: finished games stay in Redis. "
            f"{programs.missing_hint('postgres')}"
        )
        return []
    port = int(environ.get("POSTGRES_PORT", "5432"))
    data = data_dir / "postgres"
    url = local_postgres.url(host, port)
    shared_env["DATABASE_URL"] = url
    return [
        Row(
            name="postgres",
            argv=[sys.executable, "-m", "deploy.postgres", str(data), host, str(port)],
            ready=functools.partial(local_postgres.answers, url),
            endpoints=[url, f"data in {data}"],
            ports=[Port(host, port, "POSTGRES_PORT")],
            gate=True,
        )
    ]


class Launcher:
    """Starts the rows, relays their output with a name prefix, and stops them in reverse order."""

    def __init__(self, rows: list[Row], environ: Mapping[str, str], out: IO[str]) -> None:
        self.rows = rows
        self.environ = dict(environ)
        self.out = out
        self.color = out.isatty() and "NO_COLOR" not in environ
        self.width = max([len("launcher"), *(len(row.name) for row in rows)])
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.serving = threading.Event()  # set once every row answered: "ready"
        self.stopped = False
        self.relays: list[threading.Thread] = []
        self.policy = RestartPolicy.from_env(environ)
        self.restarts = {row.name: Restarts(self.policy) for row in rows}

    def say(self, name: str, text: str, index: int = -1) -> None:
        """Print one line with a name prefix, never interleaved within the line."""
        prefix = f"{name:>{self.width}} |"
        if self.color and index >= 0:
            prefix = f"{COLORS[index % len(COLORS)]}{prefix}{RESET}"
        with self.lock:
            while True:
                try:
                    print(f"{prefix} {text}", file=self.out, flush=True)
                    return
                except (OSError, ValueError):  # nobody reads our output any more (`| head`, `| tee` gone)
                    self.out = fallback(self.out)

    def start(self, index: int, row: Row) -> None:
        """Start one row's process and relay its output."""
        env = {**self.environ, "PYTHONUNBUFFERED": "1", "PYTHONPATH": python_path(self.environ), **row.env}
        row.process = subprocess.Popen(
            row.argv,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            # Own session: Ctrl-C reaches only the launcher, which then stops everything in order.
            start_new_session=True,
            preexec_fn=functools.partial(die_with, os.getpid()) if LIBC is not None else None,
        )
        row.started_at = time.monotonic()
        relay = threading.Thread(target=self.relay, args=(index, row), name=f"relay-{row.name}", daemon=True)
        relay.start()
        self.relays.append(relay)

    def relay(self, index: int, row: Row) -> None:
        """Copy a process's output lines to ours, making JSON log lines readable."""
        assert row.process is not None and row.process.stdout is not None
        for line in row.process.stdout:
            self.say(row.name, readable(line.rstrip("\n")), index)

    def wait_ready(self, row: Row, timeout: float) -> bool:
        """Wait until `row` is ready; False if it exited, the launcher is stopping, or time ran out."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not self.stopping.is_set():
            assert row.process is not None
            if row.process.poll() is not None:
                self.say("launcher", f"{row.name} exited with code {row.process.returncode} while starting")
                return False
            if row.ready():
                return True
            self.stopping.wait(0.2)
        if not self.stopping.is_set():
            self.say("launcher", f"{row.name} was not ready within {timeout:.0f} s")
        return False

    def taken_ports(self) -> list[str]:
        """A line for each port a row would bind that something else holds, naming that process."""
        lines = []
        for row in self.rows:
            for port in row.ports:
                if not ports.taken(port.host, port.number):
                    continue
                found = ports.listener(port.number)
                holder = f"pid {found[0]} ({found[1]})" if found else "a process this user cannot see"
                lines.append(
                    f"port {port.number} ({row.name}, from {port.setting}) is taken by {holder}: stop it, "
                    f"or set {port.setting} to a free port"
                )
        return lines

    def run(self, ready_timeout: float) -> int:
        """Start every row, wait until a signal or a process exits, stop everything; the exit code."""
        taken = self.taken_ports()
        if taken:
            for line in taken:
                self.say("launcher", line)
            self.say("launcher", "nothing started")
            return 1
        try:
            return self.stop(self.serve(ready_timeout))
        finally:
            self.stop(1)  # an exception on the way: the processes must not outlive the launcher

    def answering(self) -> bool:
        """Whether every row's process runs and answers its health check right now."""
        for row in self.rows:
            assert row.process is not None
            if row.process.poll() is not None or not row.ready():
                self.say("launcher", f"{row.name} stopped answering its health check")
                return False
        return True

    def serve(self, ready_timeout: float) -> int:
        """Start every row, say ready once all answer, and wait for a signal or a process's exit; the
        exit code."""
        for index, row in enumerate(self.rows):
            self.start(index, row)
            if row.gate and not self.wait_ready(row, ready_timeout):
                return 0 if self.stopping.is_set() else 1
        for row in self.rows:
            if not self.wait_ready(row, ready_timeout):
                return 0 if self.stopping.is_set() else 1
        if not self.answering():
            return 1
        self.say("launcher", "ready")
        self.serving.set()
        for row in self.rows:
            self.say("launcher", f"  {row.name:<{self.width}}  " + "   ".join(row.endpoints))
        for line in usage(self.rows):
            self.say("launcher", line)
        while not self.stopping.wait(0.2):
            for index, row in enumerate(self.rows):
                if not self.supervise(index, row):
                    return 1
        return 0

    def supervise(self, index: int, row: Row) -> bool:
        """Look after one row once the suite is ready: notice its process's death, start it again when
        its pause is over, say when it answers again; False once the row has failed too often."""
        process = row.process
        assert process is not None
        now = time.monotonic()
        if row.restart_at is not None:
            if now >= row.restart_at:
                row.restart_at = None
                self.start(index, row)
                row.recovering = True
            return True
        code = process.poll()
        if code is None:
            if row.recovering and row.ready():
                row.recovering = False
                self.say("launcher", f"{row.name} is back (pid {process.pid})")
            return True
        signal_group(process, signal.SIGKILL)  # children that outlived it (a worker's pool)
        ran = now - row.started_at
        restarts = self.restarts[row.name]
        delay = restarts.after_exit(ran)
        if delay is None:
            self.say(
                "launcher",
                f"{row.name} exited with {exit_text(code)} after {ran:.1f} s: {restarts.quick_failures} "
                f"quick failures in a row (each within {self.policy.quick_seconds:g} s of its start); "
                "giving up, stopping",
            )
            return False
        self.say(
            "launcher",
            f"{row.name} exited with {exit_text(code)} after {ran:.1f} s; starting it again in "
            f"{delay:g} s (restart {restarts.count})",
        )
        row.restart_at = now + delay
        return True

    def stop(self, code: int) -> int:
        """Stop every started process, last started first (once); `code`, or 1 if one would not stop."""
        self.stopping.set()
        if self.stopped:
            return code
        self.stopped = True
        for row in reversed(self.rows):
            process = row.process
            if process is None or process.poll() is not None:
                continue
            self.say("launcher", f"stopping {row.name}")
            signal_group(process, signal.SIGTERM)
            try:
                process.wait(timeout=STOP_TIMEOUT_SECONDS)
            except subprocess.TimeoutExpired:
                self.say("launcher", f"{row.name} did not stop in {STOP_TIMEOUT_SECONDS:.0f} s; killing it")
                signal_group(process, signal.SIGKILL)
                process.wait()
                code = 1
            signal_group(process, signal.SIGKILL)  # children that outlived their parent (worker pools)
        for relay in self.relays:
            relay.join(timeout=2)
        self.say("launcher", "stopped")
        return code


def fallback(broken: IO[str]) -> IO[str]:
    """Where to write once `broken` cannot be written: stderr if that is another stream, else nowhere.
    The broken stream's descriptor is pointed at /dev/null, so flushing it (at exit too) succeeds."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), broken.fileno())
    if broken is not sys.stderr:
        return sys.stderr
    return open(os.devnull, "w")  # kept open for the launcher's lifetime


def die_with(launcher_pid: int) -> None:
    """In a row's process, before it runs: get SIGTERM when the launcher exits, however it exits."""
    assert LIBC is not None
    # prctl(2) is variadic: its argument is passed as the unsigned long it reads, and a refusal is loud
    # (raised here, Popen raises it in the launcher) rather than a process that outlives the launcher.
    if LIBC.prctl(ctypes.c_int(PR_SET_PDEATHSIG), ctypes.c_ulong(signal.SIGTERM)) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != launcher_pid:  # it died before the line above
        os.kill(os.getpid(), signal.SIGTERM)


def signal_group(process: subprocess.Popen[str], signum: int) -> None:
    """Send `signum` to a row's whole process group (each row runs in a session of its own)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signum)


def readable(line: str) -> str:
    """A JSON log line as "level message key=value ..."; any other line unchanged."""
    if not line.startswith("{"):
        return line
    try:
        entry = json.loads(line)
    except json.JSONDecodeError:
        return line
    if not isinstance(entry, dict) or "message" not in entry:
        return line
    level = str(entry.pop("level", "")).upper()
    message = entry.pop("message")
    entry.pop("time", None)
    entry.pop("logger", None)
    exception = entry.pop("exception", None)
    fields = " ".join(f"{key}={value}" for key, value in entry.items())
    text = f"{level:<7} {message} {fields}".rstrip()
    return f"{text}\n{exception}" if exception else text


def usage(rows: list[Row]) -> list[str]:
    """Lines telling where the gateway listens and how to play, or how to call a rules service."""
    gateway = next((row for row in rows if row.env.get("GATEWAY_ADDRESS")), None)
    # `buf` comes with `make setup`; it learns the messages from the servers' reflection.
    curl = "node_modules/.bin/buf curl --protocol grpc --http2-prior-knowledge"
    if gateway is not None:
        address = gateway.env["GATEWAY_ADDRESS"]
        title = GAME_MODULES[0].rsplit(".", 1)[-1]  # the first registered title, as an example
        return [
            f"The gateway listens on {address}. Play in another terminal with the `bg` client:",
            f"  .venv/bin/bg --gateway {address} guest YOUR_NAME",
            "  .venv/bin/bg titles",
            f"  .venv/bin/bg new {title} --seats 3 --bots 2 --play",
            f"  .venv/bin/bg leaderboard {title}",
            f"Or play in a browser: http://{gateway.env['WEB_ADDRESS']}/",
            "Other clients: generate one from protos/ (docs/clients.md), or call the gateway with buf curl:",
            f"  {curl} --list-services http://{address}",
            f'  {curl} -d \'{{"displayName": "Ada"}}\' '
            f"http://{address}/boardgame.gateway.v1.AccountService/CreateGuest",
            "Ctrl-C stops everything.",
        ]
    rules = [row for row in rows if row.env.get("RULES_ADDRESS")]
    if not rules:
        return []
    address = rules[0].env["RULES_ADDRESS"]
    return [
        "Call a rules service with buf curl:",
        f"  {curl} --list-services http://{address}",
        f"  {curl} http://{address}/{SERVICE_NAME}/GetGameInfo",
        "or from Python with the stubs in gen/ (docs/rules-service.md).",
        "Ctrl-C stops everything.",
    ]


def main(environ: Mapping[str, str] = os.environ) -> int:
    """Run the launcher until Ctrl-C or SIGTERM; the exit code."""
    rows, notes = plan(environ)
    launcher = Launcher(rows, environ, sys.stdout)
    for note in notes:
        launcher.say("launcher", note)

    def request_stop(signum: int, frame: FrameType | None) -> None:
        launcher.stopping.set()

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, request_stop)
    return launcher.run(float(environ.get("READY_TIMEOUT_SECONDS", "30")))


if __name__ == "__main__":
    sys.exit(main())

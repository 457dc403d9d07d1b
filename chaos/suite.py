"""The backend's real processes under the local launcher (`deploy.local`), which starts again whatever
dies: Redis with its AOF, PostgreSQL, every registered title's rules service, the worker, and two
gateway replicas, all on free ports, with their output in one log file. `victims` names what may be killed."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from deploy import local, ports, postgres
from deploy.probe import serving
from services.common.registry import GAME_MODULES

GATEWAYS = 2
READY_TIMEOUT_SECONDS = 120.0
WORKER_CONCURRENCY = 2
START_TRIES = 3
POOL_TRIES = 5
POOL_TIMEOUT_SECONDS = 2.0


@dataclass
class Suite:
    """The running suite: the launcher, its rows by name, where to reach it, its data folder."""

    launcher: local.Launcher
    rows: dict[str, local.Row]
    environ: dict[str, str]
    redis_url: str
    gateways: list[str]
    data_dir: Path
    log: IO[str]

    def pid(self, name: str) -> int | None:
        """The pid of a row's process while it runs, else None."""
        process = self.rows[name].process
        return process.pid if process is not None and process.poll() is None else None

    def back(self, name: str) -> bool:
        """Whether a row's process runs and answers its health check after a restart."""
        row = self.rows[name]
        return self.pid(name) is not None and row.restart_at is None and not row.recovering

    def pool_pids(self) -> list[int]:
        """The worker's pool processes, as the worker itself reports them (none if it does not answer
        within a few tries: it is busy or away)."""
        ping = self.rows["workers"].ready
        assert isinstance(ping, local.WorkerPing)
        for _ in range(POOL_TRIES):
            with contextlib.suppress(Exception):
                stats = ping.control.inspect([ping.node], timeout=POOL_TIMEOUT_SECONDS).stats() or {}
                if stats:
                    return [int(pid) for reply in stats.values() for pid in reply["pool"]["processes"]]
        return []

    def rules_rows(self) -> list[str]:
        """The names of the rules services' rows, one per registered title."""
        return [module.rsplit(".", 1)[-1] for module in GAME_MODULES]

    def gateway_rows(self) -> list[str]:
        """The names of the gateway replicas' rows."""
        return [name for name in self.rows if name.startswith("gateway")]


def environment(data_dir: Path, extra: Mapping[str, str]) -> dict[str, str]:
    """The launcher's environment: every port free (none of its defaults), quiet logs, a pool of two."""
    base = ports.free_run(local.PORT_COUNT + 3 * (GATEWAYS - 1))  # the replicas' ports come after
    environ = {
        **os.environ,
        **local.port_layout(base),
        "DATA_DIR": str(data_dir),
        "NO_COLOR": "1",
        "LOG_LEVEL": "WARNING",
        "WORKER_CONCURRENCY": str(WORKER_CONCURRENCY),
        **extra,
    }
    environ.pop("REDIS_URL", None)
    environ.pop("DATABASE_URL", None)
    return environ


def replica(gateway: local.Row, number: int, port: int, metrics_port: int, web_port: int) -> local.Row:
    """Another gateway row like `gateway`, on its own ports (gRPC, metrics, browser)."""
    host = gateway.env["GATEWAY_ADDRESS"].rsplit(":", 1)[0]
    address = f"{host}:{port}"
    return dataclasses.replace(
        gateway,
        name=f"gateway-{number}",
        ready=functools.partial(serving, address, "", local.READY_PROBE_TIMEOUT_SECONDS),
        endpoints=[f"gRPC {address}", f"metrics http://{host}:{metrics_port}/metrics"],
        ports=[
            local.Port(host, port, "GATEWAY_PORT"),
            local.Port(host, web_port, "WEB_PORT"),
            local.Port("", metrics_port, "GATEWAY_METRICS_PORT"),
        ],
        env={
            **gateway.env,
            "GATEWAY_ADDRESS": address,
            "METRICS_PORT": str(metrics_port),
            "WEB_ADDRESS": f"{host}:{web_port}",
        },
        process=None,
    )


@contextlib.contextmanager
def running(extra: Mapping[str, str] | None = None) -> Iterator[Suite]:
    """The whole suite under a launcher in a thread of this process, stopped on the way out. A suite
    that does not start (another process took one of its free ports first) is started again on other
    ports, START_TRIES times in all."""
    for attempt in range(1, START_TRIES + 1):
        with tempfile.TemporaryDirectory(prefix="chaos-") as folder:
            data_dir = Path(folder)
            if postgres.as_root():  # the server's own user must reach its data directory in here
                data_dir.chmod(data_dir.stat().st_mode | stat.S_IXOTH)
            environ = environment(data_dir, extra or {})
            rows, _ = local.plan(environ)
            gateway = rows[-1]
            after = int(environ["RULES_BASE_PORT"]) + local.PORT_COUNT  # past the launcher's ports
            for number in range(2, GATEWAYS + 1):
                first = after + 3 * (number - 2)
                rows.append(replica(gateway, number, first, first + 1, first + 2))
            with open(data_dir / "launcher.log", "w") as log:
                launcher = local.Launcher(rows, environ, log)
                thread = threading.Thread(target=launcher.run, args=(READY_TIMEOUT_SECONDS,), daemon=True)
                thread.start()
                try:
                    while not launcher.serving.wait(0.5) and thread.is_alive():
                        pass
                    if not launcher.serving.is_set():
                        if attempt < START_TRIES:
                            continue
                        raise RuntimeError("the suite did not start:\n" + tail(data_dir / "launcher.log"))
                    yield Suite(
                        launcher=launcher,
                        rows={row.name: row for row in rows},
                        environ=environ,
                        redis_url=rows[0].env["REDIS_URL"],
                        gateways=[
                            row.env["GATEWAY_ADDRESS"] for row in rows if row.name.startswith("gateway")
                        ],
                        data_dir=data_dir,
                        log=log,
                    )
                    return
                finally:
                    launcher.stopping.set()
                    thread.join(local.STOP_TIMEOUT_SECONDS * len(rows))
                    launcher.stop(0)


def tail(path: Path, lines: int = 40) -> str:
    """The last lines of a file."""
    with contextlib.suppress(OSError):
        return "\n".join(path.read_text().splitlines()[-lines:])
    return ""


def around(path: Path, needle: str, after: int = 40) -> str:
    """The lines of a file from the first holding `needle` (a logged failure's traceback), or ""."""
    with contextlib.suppress(OSError):
        lines = path.read_text().splitlines()
        first = next((i for i, line in enumerate(lines) if needle in line), None)
        if first is not None:
            return "\n".join(lines[first : first + after])
    return ""


def kill(pid: int) -> None:
    """kill -9 one process (gone already: nothing to do)."""
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)

"""`python -m workers` as `make run` and the deployments start it, with its log read back: a fatal
start-up error exits non-zero with the reason, and the clock sweep that runs every second stays out
of the INFO log while other tasks stay in it."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import urllib.request
from collections.abc import Mapping
from pathlib import Path

from celery import Celery

from deploy.throwaway import free_port, redis_server
from tests.workers.support import wait_for

ROOT = Path(__file__).resolve().parents[2]
SWEEPS = 3  # sweeps the metrics count before the log is read


def run_worker(log: Path, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """`python -m workers` with one child process, its whole output (JSON log lines) into `log`."""
    with log.open("wb") as out:
        return subprocess.Popen(
            [sys.executable, "-m", "workers"],
            cwd=ROOT,
            env={**os.environ, "WORKER_CONCURRENCY": "1", "LOG_LEVEL": "INFO", "METRICS_PORT": "off", **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def log_lines(log: Path) -> list[dict[str, str]]:
    """The JSON lines of a worker's log."""
    return [json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")]


def succeeded(port: int, task: str) -> float:
    """How many `task`s succeeded, from the worker's /metrics (0 while they are not served yet)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
            text = response.read().decode()
    except OSError:
        return 0.0
    found = re.search(rf'^worker_tasks_total{{outcome="success",task="{task}"}} (\S+)$', text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def test_a_redis_url_celery_cannot_use_exits_non_zero_with_the_reason(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    # Celery's worker only logs "Unrecoverable error" for this URL (its database is not a number).
    worker = run_worker(log, {"REDIS_URL": "redis://127.0.0.1:1/zero"})
    assert worker.wait(60) != 0
    critical = [line["message"] for line in log_lines(log) if line["level"] == "critical"]
    assert critical and "invalid literal for int() with base 10: 'zero'" in critical[0], log.read_text()


def test_a_bad_setting_exits_non_zero_with_a_line_naming_it(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    worker = run_worker(log, {"REDIS_URL": "rediss://127.0.0.1:1/0", "REDIS_TLS_CERT_REQS": "maybe"})
    assert worker.wait(60) != 0
    critical = [line["message"] for line in log_lines(log) if line["level"] == "critical"]
    assert critical == [
        "worker failed: REDIS_TLS_CERT_REQS must be one of required, optional, none, not 'maybe'"
    ]


def test_a_cluster_without_a_broker_of_its_own_exits_non_zero_saying_so(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    worker = run_worker(log, {"REDIS_URL": "redis+cluster://127.0.0.1:1", "CELERY_BROKER_URL": ""})
    assert worker.wait(60) != 0
    critical = [line["message"] for line in log_lines(log) if line["level"] == "critical"]
    assert critical and "set CELERY_BROKER_URL to a plain Redis" in critical[0], log.read_text()


def test_clock_sweeps_log_at_debug_and_other_tasks_at_info(tmp_path: Path) -> None:
    log = tmp_path / "worker.log"
    port = free_port()
    with redis_server() as url:
        worker = run_worker(log, {"REDIS_URL": url, "RULES_ADDRESSES": "", "METRICS_PORT": str(port)})
        client = Celery("test", broker=url, set_as_current=False)
        try:
            wait_for(lambda: succeeded(port, "workers.sweep_clocks") >= SWEEPS, 60, f"{SWEEPS} clock sweeps")
            client.send_task("workers.on_deadline", args=["no-such-game"])
            wait_for(lambda: succeeded(port, "workers.on_deadline") >= 1, 60, "the deadline task")
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            assert worker.wait(30) == 0
            client.close()
    info = [line["message"] for line in log_lines(log) if line["level"] == "info"]
    assert not [message for message in info if "sweep_clocks" in message], log.read_text()
    deadline = [message for message in info if "workers.on_deadline" in message]
    assert len(deadline) == 2 and "received" in deadline[0] and "succeeded" in deadline[1], info

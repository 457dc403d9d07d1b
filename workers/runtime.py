"""One event loop and one `Table` (Redis + rules services) per worker process, made on first use.

Celery tasks are plain functions; each runs its coroutine to completion on the process's loop. The
loop is per process and thread, so a prefork child, a solo worker and a test worker thread each get
their own, and nothing made before a fork is used after it.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from live.settings import Settings
from live.table import Table, connect
from workers.settings import WorkerSettings

T = TypeVar("T")


@dataclass
class Runtime:
    """A process's loop, live table and worker settings."""

    loop: asyncio.AbstractEventLoop
    app: Table
    settings: WorkerSettings
    pid: int


_local = threading.local()
_override: tuple[Settings, WorkerSettings] | None = None


def configure(settings: Settings, worker: WorkerSettings) -> None:
    """Use these settings instead of the environment's for runtimes made from now on (tests)."""
    global _override
    _override = (settings, worker)


def current() -> Runtime:
    """This process's (and thread's) runtime, connected on first use."""
    runtime: Runtime | None = getattr(_local, "runtime", None)
    if runtime is not None and runtime.pid == os.getpid():
        return runtime
    settings, worker = _override or (Settings.from_env(), WorkerSettings.from_env())
    loop = asyncio.new_event_loop()
    app = loop.run_until_complete(connect(settings))
    runtime = Runtime(loop, app, worker, os.getpid())
    _local.runtime = runtime
    return runtime


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine on this process's loop."""
    return current().loop.run_until_complete(coroutine)


def close() -> None:
    """Close this thread's runtime, if any (worker shutdown)."""
    runtime: Runtime | None = getattr(_local, "runtime", None)
    if runtime is None or runtime.pid != os.getpid():
        return
    runtime.loop.run_until_complete(runtime.app.rules.close())
    runtime.loop.run_until_complete(runtime.app.redis.aclose())
    if runtime.app.archive is not None:
        runtime.loop.run_until_complete(runtime.app.archive.close())
    runtime.loop.close()
    _local.runtime = None

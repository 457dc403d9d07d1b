"""Worker entry point: `python -m workers` runs a Celery worker with an embedded beat (the clock sweep).

Environment: REDIS_URL, RULES_ADDRESSES and CELERY_BROKER_URL (see live.settings), the bot budget
(see workers.settings), WORKER_CONCURRENCY (processes; default: one per CPU), WORKER_BEAT (default 1;
0 runs no sweep here, for extra workers: a second sweep is harmless, only redundant), WORKER_QUEUES
(comma-separated, default `celery,archive`: `workers.app` says which tasks go where), METRICS_PORT
(/metrics of every worker process, summed), LOG_LEVEL.

Any fatal start-up error (a bad setting, a Redis URL Celery cannot use) is logged and exits 1: Celery's
own worker only logs its "Unrecoverable error", so its exit code is passed on rather than dropped.
"""

from __future__ import annotations

import logging
import os
import sys
import tempfile
from collections.abc import Mapping

from live.queues import QUEUES
from services.common.logs import configure_logging

log = logging.getLogger("workers")


def main(argv: list[str] | None = None) -> int:
    """Run the worker until SIGTERM (warm shutdown: running tasks finish) or SIGINT; the exit code."""
    configure_logging()
    try:
        args = prepare(argv if argv is not None else sys.argv[1:])
        from celery.bin.celery import celery as celery_command

        # Out of standalone mode, Celery's CLI returns the worker's exit code (`worker_main` drops it).
        code = celery_command.main(args=["--app", "workers.app:celery", *args], standalone_mode=False)
    except Exception as error:
        log.critical("worker failed: %s", error, exc_info=True)
        return 1
    return code if isinstance(code, int) else 0


def prepare(extra: list[str]) -> list[str]:
    """Start the metrics server if asked; Celery's command line for this worker."""
    # prometheus_client picks its multiprocess mode when first imported: set the directory before.
    if os.environ.get("METRICS_PORT", "").strip().lower() not in ("", "off"):
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="worker-metrics-"))
    import prometheus_client
    from prometheus_client import multiprocess

    from live.settings import Settings
    from services.common.metrics import metrics_port_from_env
    from workers.metrics import QueueDepth

    port = metrics_port_from_env(os.environ)
    if port is not None:
        registry = prometheus_client.CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        settings = Settings.from_env()
        broker = settings.broker_url
        registry.register(QueueDepth(broker, QUEUES, settings.redis_tls.options(broker)))
        prometheus_client.start_http_server(port, registry=registry)
    args = [
        "worker",
        f"--loglevel={os.environ.get('LOG_LEVEL', 'INFO')}",
        f"--concurrency={os.environ.get('WORKER_CONCURRENCY', os.cpu_count() or 1)}",
        "--without-gossip",
        "--without-mingle",
        f"--queues={queues(os.environ)}",
        *extra,
    ]
    if os.environ.get("WORKER_BEAT", "1") != "0":
        args.append("--beat")
    return args


def queues(environ: Mapping[str, str]) -> str:
    """The queues of WORKER_QUEUES (default: all of `live.queues.QUEUES`), checked; ValueError for an
    unknown one."""
    import workers.app  # noqa: F401  (reads the settings now, so a bad one is a start-up error)

    named = [q.strip() for q in environ.get("WORKER_QUEUES", ",".join(QUEUES)).split(",") if q.strip()]
    unknown = [q for q in named if q not in QUEUES]
    if unknown or not named:
        given = environ.get("WORKER_QUEUES")
        raise ValueError(f"WORKER_QUEUES names queues of {', '.join(QUEUES)}, not {given!r}")
    return ",".join(named)


if __name__ == "__main__":
    sys.exit(main())

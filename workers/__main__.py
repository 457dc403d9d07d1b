"""Worker entry point: `python -m workers` runs a Celery worker with an embedded beat (the clock sweep).

Environment: REDIS_URL, RULES_ADDRESSES and CELERY_BROKER_URL (see gateway.settings), the bot budget
(see workers.settings), WORKER_CONCURRENCY (processes; default: one per CPU), WORKER_BEAT (default 1;
0 runs no sweep here, for extra workers: a second sweep is harmless, only redundant), METRICS_PORT
(/metrics of every worker process, summed), LOG_LEVEL.
"""

from __future__ import annotations

import os
import sys
import tempfile

from services.common.logs import configure_logging


def main(argv: list[str] | None = None) -> int:
    """Run the worker until SIGTERM (warm shutdown: running tasks finish) or SIGINT."""
    configure_logging()
    # prometheus_client picks its multiprocess mode when first imported: set the directory before.
    if os.environ.get("METRICS_PORT", "").strip().lower() not in ("", "off"):
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", tempfile.mkdtemp(prefix="worker-metrics-"))
    import prometheus_client
    from prometheus_client import multiprocess

    from gateway.settings import Settings
    from services.common.metrics import metrics_port_from_env
    from workers.app import celery
    from workers.metrics import QueueDepth

    port = metrics_port_from_env(os.environ)
    if port is not None:
        registry = prometheus_client.CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)
        settings = Settings.from_env()
        registry.register(QueueDepth(settings.broker_url, ("celery",)))
        prometheus_client.start_http_server(port, registry=registry)
    args = [
        "worker",
        f"--loglevel={os.environ.get('LOG_LEVEL', 'INFO')}",
        f"--concurrency={os.environ.get('WORKER_CONCURRENCY', os.cpu_count() or 1)}",
        "--without-gossip",
        "--without-mingle",
        *(argv if argv is not None else sys.argv[1:]),
    ]
    if os.environ.get("WORKER_BEAT", "1") != "0":
        args.append("--beat")
    celery.worker_main(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Worker metrics: tasks by name and outcome with latency, bot think time, timeouts, finalized games,
and the broker's queue depth (read from Redis when scraped).

Celery's prefork children each count in their own process, so `python -m workers` runs
prometheus_client in multiprocess mode (PROMETHEUS_MULTIPROC_DIR) and the main process serves the sum.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import prometheus_client
import redis
from celery import signals
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

TASKS = prometheus_client.Counter(
    "worker_tasks_total", "Tasks finished, by task name and outcome.", ["task", "outcome"]
)
TASK_SECONDS = prometheus_client.Histogram(
    "worker_task_seconds",
    "Task run time, by task name.",
    ["task"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 120.0),
)
BOT_THINK_SECONDS = prometheus_client.Histogram(
    "worker_bot_think_seconds",
    "Time a bot took to choose a move, by title and bot level (random, easy, medium, hard).",
    ["title", "strength"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
TIMEOUTS = prometheus_client.Counter(
    "worker_turn_timeouts_total", "Turns whose clock ran out, by title.", ["title"]
)
GAMES_FINALIZED = prometheus_client.Counter(
    "worker_games_finalized_total", "Finished games scored and rated, by title.", ["title"]
)
GAMES_ARCHIVED = prometheus_client.Counter(
    "worker_games_archived_total", "Scored games copied to PostgreSQL, their Redis keys set to expire."
)

_started: dict[str, float] = {}


@signals.task_prerun.connect
def _task_started(task_id: str | None = None, **_: Any) -> None:
    if task_id:
        _started[task_id] = time.perf_counter()


@signals.task_postrun.connect
def _task_finished(task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any) -> None:
    started = _started.pop(task_id or "", None)
    name = getattr(task, "name", "unknown")
    if started is not None:
        TASK_SECONDS.labels(name).observe(time.perf_counter() - started)
    TASKS.labels(name, (state or "unknown").lower()).inc()  # success, failure, retry


class QueueDepth(Collector):
    """The number of messages waiting in each broker queue (a Redis list per queue)."""

    def __init__(self, redis_url: str, queues: tuple[str, ...], tls: dict[str, Any] | None = None) -> None:
        self.client = redis.Redis.from_url(redis_url, socket_timeout=1, **(tls or {}))
        self.queues = queues

    def collect(self) -> Iterator[GaugeMetricFamily]:
        """One gauge sample per queue."""
        family = GaugeMetricFamily(
            "worker_queue_depth", "Messages waiting in a broker queue.", labels=["queue"]
        )
        for queue in self.queues:
            try:
                family.add_metric([queue], float(self.client.llen(queue)))
            except redis.RedisError:
                continue
        yield family

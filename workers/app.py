"""The Celery app: broker and results on Redis, late acknowledgement, and the beat schedule that sweeps
the turn clocks, the inbox's deadline reminders, the commits' outboxes and the tournaments' due checks
every second (and, every minute, finds scored games whose archival was lost).

The end of a game (its scoring, and whatever asks PostgreSQL: the archival and the sweep for lost
ones) goes to a queue of its own, `archive`; everything else to `celery` (`live.queues`). A worker
takes the queues of WORKER_QUEUES, both by default; the shipped deployments run one worker for
`celery` and an archiver for `archive`, so a slow or stopped database never holds a process that bot
turns need. A worker taking both still only loses a bounded wait now and then to a stopped database
(`live.postgres`).

Tasks are acknowledged after they ran (`acks_late`) and requeued when their worker process dies
(`reject_on_worker_lost`); a worker takes one message at a time (prefetch 1), so a killed worker holds
at most the task it was running. Every task is idempotent, so a redelivery is harmless. Nothing is
scheduled with a long countdown (a few seconds at most): the Redis broker would redeliver a long one
after its visibility timeout.

The sweep runs every second, so Celery's INFO lines about it (beat sending it, the worker receiving it,
its success) are logged at DEBUG; every other task's stay at INFO.
"""

from __future__ import annotations

import logging
import os
import tempfile

from celery import Celery

from live import queues
from live.queues import DEFAULT_QUEUE, SWEEP_ARCHIVE
from live.settings import Settings
from workers.settings import WorkerSettings

SWEEP_SECONDS = 1.0
# The workers' own tasks; those the write path queues (bot turns, scoring, deadlines) are named in
# `live.clocks`, so that the gateway sends them without naming the workers.
SWEEP_CLOCKS = "workers.sweep_clocks"
PLAY_GAME = "workers.play_game"
SWEEP_REMINDERS = "workers.sweep_reminders"
SWEEP_OUTBOX = "workers.sweep_outbox"
RECOVER_TURNS = "workers.recover_turns"  # queued by a worker when it is ready (`workers.recovery`)
SWEEP_TOURNAMENTS = "workers.sweep_tournaments"  # the tournaments' due checks (`live.tournaments.rounds`)
ARCHIVE_SWEEP_SECONDS = 60.0
# run by beat every SWEEP_SECONDS (the clocks, the inbox reminders, the outbox, the tournaments' checks),
# ARCHIVE_SWEEP_SECONDS (archive)
ROUTINE_TASKS = (SWEEP_CLOCKS, SWEEP_REMINDERS, SWEEP_OUTBOX, SWEEP_TOURNAMENTS, SWEEP_ARCHIVE)
TASK_LOGGERS = ("celery.beat", "celery.worker.strategy", "celery.app.trace")  # sent, received, finished


class RoutineAtDebug(logging.Filter):
    """Turns a task logger's INFO line about a routine task into a DEBUG line."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, lowered to DEBUG (and then kept only if its logger logs DEBUG) when routine."""
        if record.levelno != logging.INFO or not any(task in record.getMessage() for task in ROUTINE_TASKS):
            return True
        record.levelno, record.levelname = logging.DEBUG, logging.getLevelName(logging.DEBUG)
        return logging.getLogger(record.name).isEnabledFor(logging.DEBUG)


def create_app(settings: Settings, worker: WorkerSettings) -> Celery:
    """A Celery app on the settings' Redis with every task of `workers.tasks`."""
    broker = settings.broker_url
    app = Celery("workers", broker=broker, backend=broker, include=["workers.tasks"])
    app.conf.update(
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        task_ignore_result=True,
        task_default_queue=DEFAULT_QUEUE,
        task_routes=queues.routes(),
        task_serializer="json",
        result_serializer="json",
        accept_content=["json"],
        result_expires=3600,
        worker_prefetch_multiplier=1,
        worker_hijack_root_logger=False,
        broker_connection_retry_on_startup=True,
        broker_use_ssl=settings.redis_tls.options(broker),
        redis_backend_use_ssl=settings.redis_tls.options(broker),
        broker_transport_options={
            "visibility_timeout": worker.visibility_timeout_seconds,
            # Look for tasks of dead workers (unacknowledged past the visibility timeout) every 5 s.
            "unacked_restore_interval": 5,
            "unacked_restore_throttle": 1,
        },
        result_backend_transport_options={"visibility_timeout": worker.visibility_timeout_seconds},
        beat_schedule={
            "sweep-clocks": {
                "task": SWEEP_CLOCKS,
                "schedule": SWEEP_SECONDS,
                "options": {"expires": 5 * SWEEP_SECONDS},
            },
            "sweep-reminders": {
                "task": SWEEP_REMINDERS,
                "schedule": SWEEP_SECONDS,
                "options": {"expires": 5 * SWEEP_SECONDS},
            },
            "sweep-outbox": {
                "task": SWEEP_OUTBOX,
                "schedule": SWEEP_SECONDS,
                "options": {"expires": 5 * SWEEP_SECONDS},
            },
            "sweep-tournaments": {
                "task": SWEEP_TOURNAMENTS,
                "schedule": SWEEP_SECONDS,
                "options": {"expires": 5 * SWEEP_SECONDS},
            },
            "sweep-archive": {
                "task": SWEEP_ARCHIVE,
                "schedule": ARCHIVE_SWEEP_SECONDS,
                "options": {"expires": ARCHIVE_SWEEP_SECONDS},
            },
        },
        beat_schedule_filename=os.path.join(tempfile.gettempdir(), f"workers-beat-{os.getpid()}"),
    )
    return app


for _name in TASK_LOGGERS:
    logging.getLogger(_name).addFilter(RoutineAtDebug())
celery = create_app(Settings.from_env(), WorkerSettings.from_env())

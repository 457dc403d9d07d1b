"""The workers' Celery queues, by name, and the queue of each task that does not go to the default one
(imported by the write path, the workers, the launcher and the deployments' checks, without Celery).

`archive` (ARCHIVE_QUEUE) takes the end of a game: its scoring (`workers.finalize`, sent by the write
path) and whatever asks PostgreSQL (the archival of games and tournaments, and the sweep for lost
ones); `celery` (Celery's default) the rest, bot turns first among them. The shipped deployments run
a worker for each, so a slow or stopped database never delays a bot turn.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_QUEUE = "celery"
ARCHIVE_QUEUE = "archive"
QUEUES = (DEFAULT_QUEUE, ARCHIVE_QUEUE)

FINALIZE = "workers.finalize"  # the scoring of a finished game, sent by the write path
ARCHIVE_GAME = "workers.archive_game"  # queued by `finalize` when DATABASE_URL names an archive
SWEEP_ARCHIVE = "workers.sweep_archive"
ADVANCE_TOURNAMENT = "workers.advance_tournament"  # a tournament's next step (`live.tournaments.rounds`)
ARCHIVE_TOURNAMENT = "workers.archive_tournament"  # a finished tournament to PostgreSQL
TASK_QUEUES: Mapping[str, str] = dict.fromkeys(
    (FINALIZE, ARCHIVE_GAME, SWEEP_ARCHIVE, ARCHIVE_TOURNAMENT), ARCHIVE_QUEUE
)


def routes() -> dict[str, dict[str, str]]:
    """TASK_QUEUES as Celery's `task_routes` take them (the sender's and the workers' alike)."""
    return {task: {"queue": queue} for task, queue in TASK_QUEUES.items()}

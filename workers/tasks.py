"""The Celery tasks: thin, idempotent, taking ids only; the logic is in plain functions elsewhere.

A bot turn or a deadline that meets an outage (a rules service or Redis restarting: UNAVAILABLE) is
tried again after a growing pause (OUTAGE_RETRY_SECONDS doubled, at most OUTAGE_RETRY_MAX_SECONDS,
OUTAGE_RETRIES times), rather than waiting for the game's watchdog: being idempotent, a second try
is harmless, and a game's bots pause for the outage only."""

from __future__ import annotations

import logging
import os
import signal
from collections.abc import Coroutine
from typing import Any, TypeVar

import grpc
from celery import Task, platforms, signals

from live import archiving, clocks, outbox, reminders, takebacks
from live.connection import UNREACHABLE
from live.errors import GatewayError
from live.queues import ADVANCE_TOURNAMENT, ARCHIVE_GAME, ARCHIVE_TOURNAMENT, SWEEP_ARCHIVE
from live.tournaments import archive as tournament_archive
from live.tournaments import rounds, store
from workers import metrics, recovery, runtime, scoring, selfplay, turns
from workers.app import (
    PLAY_GAME,
    RECOVER_TURNS,
    SWEEP_CLOCKS,
    SWEEP_OUTBOX,
    SWEEP_REMINDERS,
    SWEEP_TOURNAMENTS,
    celery,
)

FINALIZE_RETRIES = 20  # backing off 0.5, 1, 2 ... s up to FINALIZE_RETRY_MAX_SECONDS: about 8 minutes
FINALIZE_RETRY_MAX_SECONDS = 30

__all__ = [
    "advance_tournament",
    "archive_game",
    "archive_tournament",
    "finalize",
    "metrics",
    "on_deadline",
    "play_game",
    "recover_turns",
    "sweep_archive",
    "sweep_clocks",
    "sweep_outbox",
    "sweep_reminders",
    "sweep_tournaments",
    "take_turn",
    "takeback_due",
]

T = TypeVar("T")
log = logging.getLogger(__name__)
OUTAGE_RETRY_SECONDS = 0.5
OUTAGE_RETRY_MAX_SECONDS = 5.0
OUTAGE_RETRIES = 12  # about a minute in all
_main_pid = 0  # the worker's main process, as its embedded beat process knows it


def through_outages(
    task: Task,
    coroutine: Coroutine[Any, Any, T],
    retries: int = OUTAGE_RETRIES,
    longest_pause: float = OUTAGE_RETRY_MAX_SECONDS,
) -> T:
    """Run a task's coroutine; on an outage, have Celery run the task again later (see above)."""
    try:
        return runtime.run(coroutine)
    except (GatewayError, *UNREACHABLE) as error:
        outage = not isinstance(error, GatewayError) or error.code == grpc.StatusCode.UNAVAILABLE
        if outage:
            retry_later(task, retries, longest_pause)
        raise


def retry_later(task: Task, retries: int, longest_pause: float) -> None:
    """For a task that met an outage: have Celery run it again after a growing pause (raising its
    Retry), unless it was tried `retries` times already."""
    if task.request.retries < retries:
        pause = min(longest_pause, OUTAGE_RETRY_SECONDS * 2**task.request.retries)
        task.retry(countdown=pause, max_retries=retries)


@celery.task(name=clocks.TAKE_TURN, bind=True)
def take_turn(self: Task, game_id: str, version: int) -> bool:
    """Play the bot's move at `version` if a bot is to act then; a no-op once the game moved on."""
    rt = runtime.current()
    return through_outages(self, turns.take_turn(rt.app, game_id, version, rt.settings.budget))


@celery.task(name=clocks.FINALIZE, bind=True)
def finalize(self: Task, game_id: str) -> bool:
    """Score and rate a finished game once, then, with an archive, queue its archival (also when it
    was scored before: an archival that failed is tried again), and only then remove the game's
    `score` watchdog (`live.clocks`): a run lost on the way (its retry refused by a Redis restarting,
    its worker killed) is queued again when the watchdog falls due. Its retries ride out longer outages
    (a Cluster failing over) than a bot turn's, and its steps resume where a run stopped. A
    tournament's table has its result counted before the watchdog goes (`live.tournaments.rounds`)."""
    app = runtime.current().app
    scored = through_outages(
        self, scoring.finalize(app, game_id), FINALIZE_RETRIES, FINALIZE_RETRY_MAX_SECONDS
    )
    if app.archive is not None:
        archive_game.delay(game_id)
    through_outages(self, rounds.game_scored(app, game_id), FINALIZE_RETRIES, FINALIZE_RETRY_MAX_SECONDS)
    through_outages(self, clocks.scored(app.redis, game_id), FINALIZE_RETRIES, FINALIZE_RETRY_MAX_SECONDS)
    return scored


@celery.task(name=ARCHIVE_GAME, bind=True)
def archive_game(self: Task, game_id: str) -> bool:
    """Copy a scored game to PostgreSQL and let its Redis keys expire (`live.archiving`); idempotent.
    With the database down it gives up at once (the outage is logged once, `live.postgres`): the game
    stays whole in Redis and `sweep_archive` queues it again. Redis out of reach (restarting, its
    connections gone stale) is ridden out as a bot turn does, since the sweep would come a minute or
    two later."""
    try:
        archived = runtime.run(archiving.archive(runtime.current().app, game_id))
    except GatewayError as error:
        if error.code != grpc.StatusCode.UNAVAILABLE:
            raise
        log.info("archival of %s put off: %s", game_id, error)
        return False
    except UNREACHABLE:
        retry_later(self, OUTAGE_RETRIES, OUTAGE_RETRY_MAX_SECONDS)
        raise
    if archived:
        metrics.GAMES_ARCHIVED.inc()
    return archived


@celery.task(name=clocks.ON_DEADLINE, bind=True)
def on_deadline(self: Task, game_id: str) -> str:
    """Handle a game whose clock entry is due: timeout, lost bot turn or lost dispatch."""
    rt = runtime.current()
    return through_outages(self, turns.on_deadline(rt.app, game_id, rt.settings.budget))


@celery.task(name=takebacks.TAKEBACK_DUE, bind=True)
def takeback_due(self: Task, game_id: str, takeback_id: str) -> str:
    """End a takeback request whose deadline passed, or carry it out if every seat accepted
    (`live.takebacks`); what was done."""
    return through_outages(self, takebacks.expire(runtime.current().app, game_id, takeback_id))


@celery.task(name=SWEEP_CLOCKS)
def sweep_clocks() -> int:
    """Queue `on_deadline` for every due game, and `takeback_due` for every takeback request whose
    deadline passed (run every second by beat); the number queued."""
    app = runtime.current().app
    due = runtime.run(clocks.due_games(app.redis))
    for game_id in due:
        on_deadline.delay(game_id)
    lapsing = runtime.run(takebacks.due(app))
    for game_id, takeback_id in lapsing:
        takeback_due.delay(game_id, takeback_id)
    return len(due) + len(lapsing)


@celery.task(name=SWEEP_REMINDERS)
def sweep_reminders() -> int:
    """Send the inbox's due deadline-near reminders (run every second by beat); the number sent."""
    return runtime.run(reminders.send_due(runtime.current().app.redis))


@celery.task(name=SWEEP_OUTBOX)
def sweep_outbox() -> int:
    """Perform the commits' follow-ups their committer left unperformed (`live.outbox`; run every
    second by beat); the number performed."""
    return runtime.run(outbox.sweep(runtime.current().app))


@celery.task(name=SWEEP_ARCHIVE)
def sweep_archive() -> int:
    """Queue `archive_game` for every scored game whose archival was lost (run every minute by beat);
    the number queued."""
    lost = runtime.run(archiving.unarchived(runtime.current().app, clocks.now_ms()))
    for game_id in lost:
        archive_game.delay(game_id)
    return len(lost)


@celery.task(name=ADVANCE_TOURNAMENT, bind=True)
def advance_tournament(self: Task, tournament_id: str) -> str:
    """Take a tournament as far as it goes now: results, the next round, its tables, its deadline
    (`live.tournaments.rounds.advance`); idempotent."""
    return through_outages(self, rounds.advance(runtime.current().app, tournament_id))


@celery.task(name=ARCHIVE_TOURNAMENT, bind=True)
def archive_tournament(self: Task, tournament_id: str) -> bool:
    """Copy a finished tournament to PostgreSQL (`live.tournaments.archive`); idempotent. With the
    database down it gives up at once, as `archive_game` does: the tournament's check queues it again."""
    try:
        return runtime.run(tournament_archive.archive(runtime.current().app, tournament_id))
    except GatewayError as error:
        if error.code != grpc.StatusCode.UNAVAILABLE:
            raise
        log.info("archival of tournament %s put off: %s", tournament_id, error)
        return False
    except UNREACHABLE:
        retry_later(self, OUTAGE_RETRIES, OUTAGE_RETRY_MAX_SECONDS)
        raise


@celery.task(name=SWEEP_TOURNAMENTS)
def sweep_tournaments() -> int:
    """Queue `advance_tournament` for every tournament whose check is due (run every second by beat);
    the number queued."""
    due = runtime.run(store.due_checks(runtime.current().app.redis, clocks.now_ms()))
    for tournament_id in due:
        advance_tournament.delay(tournament_id)
    return len(due)


@celery.task(name=RECOVER_TURNS)
def recover_turns(started_ms: int) -> int:
    """Make due the bot turns lost before a worker's start (`workers.recovery`); the number made due."""
    return len(runtime.run(recovery.make_lost_turns_due(runtime.current().app.redis, started_ms)))


@signals.worker_ready.connect
def _recover_lost_turns(**_: Any) -> None:
    """A worker just started: look for the bot turns a dead worker took along, at once and once more
    when the turns queued just before the start are GRACE_MS old (`workers.recovery`)."""
    started = clocks.now_ms()
    recover_turns.apply_async((started,))
    recover_turns.apply_async((started,), countdown=recovery.GRACE_MS / 1000)


@celery.task(name=PLAY_GAME, ignore_result=False)
def play_game(title: str, strengths: list[str], seed: str, search_seconds: float) -> dict[str, Any]:
    """Play one bot-vs-bot game in-process (batch self-play) and return its summary."""
    return selfplay.play(title, strengths, seed, search_seconds).as_dict()


@signals.worker_process_shutdown.connect
def _close_runtime(**_: Any) -> None:
    runtime.close()


@signals.worker_init.connect
def _note_the_main_process(**_: Any) -> None:
    global _main_pid
    _main_pid = os.getpid()


@signals.beat_embedded_init.connect
def _end_with_the_worker(**_: Any) -> None:
    """The embedded beat process dies with its worker's main process, as the pool processes do (Celery
    sets that for them only): a main process killed left its beat sweeping on, for good. A main process
    gone before this ran (the beat is an orphan already) is followed at once."""
    platforms.set_pdeathsig("SIGKILL")
    if os.getppid() != _main_pid:
        os.kill(os.getpid(), signal.SIGKILL)

"""The Celery tasks: thin, idempotent, taking ids only; the logic is in plain functions elsewhere."""

from __future__ import annotations

from typing import Any

from celery import signals

from live import archive, clocks, reminders
from workers import metrics, runtime, scoring, selfplay, turns
from workers.app import ARCHIVE_GAME, PLAY_GAME, SWEEP_ARCHIVE, SWEEP_CLOCKS, SWEEP_REMINDERS, celery

__all__ = [
    "archive_game",
    "finalize",
    "metrics",
    "on_deadline",
    "play_game",
    "sweep_archive",
    "sweep_clocks",
    "sweep_reminders",
    "take_turn",
]


@celery.task(name=clocks.TAKE_TURN)
def take_turn(game_id: str, version: int) -> bool:
    """Play the bot's move at `version` if a bot is to act then; a no-op once the game moved on."""
    rt = runtime.current()
    return runtime.run(turns.take_turn(rt.app, game_id, version, rt.settings.budget))


@celery.task(name=clocks.FINALIZE)
def finalize(game_id: str) -> bool:
    """Score and rate a finished game once; then, with an archive, queue its archival (also when it
    was scored before: an archival that failed is tried again)."""
    app = runtime.current().app
    scored = runtime.run(scoring.finalize(app, game_id))
    if app.archive is not None:
        archive_game.delay(game_id)
    return scored


@celery.task(name=ARCHIVE_GAME)
def archive_game(game_id: str) -> bool:
    """Copy a scored game to PostgreSQL and let its Redis keys expire (`live.archive`); idempotent."""
    archived = runtime.run(archive.archive(runtime.current().app, game_id))
    if archived:
        metrics.GAMES_ARCHIVED.inc()
    return archived


@celery.task(name=clocks.ON_DEADLINE)
def on_deadline(game_id: str) -> str:
    """Handle a game whose clock entry is due: timeout, lost bot turn or lost dispatch."""
    rt = runtime.current()
    return runtime.run(turns.on_deadline(rt.app, game_id, rt.settings.budget))


@celery.task(name=SWEEP_CLOCKS)
def sweep_clocks() -> int:
    """Queue `on_deadline` for every due game (run every second by beat); the number queued."""
    due = runtime.run(clocks.due_games(runtime.current().app.redis))
    for game_id in due:
        on_deadline.delay(game_id)
    return len(due)


@celery.task(name=SWEEP_REMINDERS)
def sweep_reminders() -> int:
    """Send the inbox's due deadline-near reminders (run every second by beat); the number sent."""
    return runtime.run(reminders.send_due(runtime.current().app.redis))


@celery.task(name=SWEEP_ARCHIVE)
def sweep_archive() -> int:
    """Queue `archive_game` for every scored game whose archival was lost (run every minute by beat);
    the number queued."""
    lost = runtime.run(archive.unarchived(runtime.current().app, clocks.now_ms()))
    for game_id in lost:
        archive_game.delay(game_id)
    return len(lost)


@celery.task(name=PLAY_GAME, ignore_result=False)
def play_game(title: str, strengths: list[str], seed: str, search_seconds: float) -> dict[str, Any]:
    """Play one bot-vs-bot game in-process (batch self-play) and return its summary."""
    return selfplay.play(title, strengths, seed, search_seconds).as_dict()


@signals.worker_process_shutdown.connect
def _close_runtime(**_: Any) -> None:
    runtime.close()

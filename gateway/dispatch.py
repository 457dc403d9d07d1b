"""What follows a commit: nothing without workers; with workers, Celery tasks queued by name."""

from __future__ import annotations

from gateway.app import Dispatcher, NoDispatch
from gateway.settings import Settings


def dispatcher_from_settings(settings: Settings) -> Dispatcher:
    """The dispatcher the settings ask for."""
    return NoDispatch()

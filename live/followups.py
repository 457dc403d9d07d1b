"""A commit and what follows it run to their end, even when the caller is cancelled.

A client that hangs up (or whose connection drops) cancels its call's task wherever it is. Once a
move, a hand-over or a new game is sent to Redis to be committed, the players' game lists, the clock
entry's due time and the next bot turn or scoring must follow it: cancelled in between, the game
would wait for the workers' sweep to notice (`live.clocks.BOT_WATCHDOG_MS`). `Followups.run` runs
that work as a task of its own, shielded from the caller's cancellation; the caller is still
cancelled at once. The tasks left running are waited for at shutdown (`drain`), and a failure that
no caller is left to see is logged.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")


class Followups:
    """The commits (with what follows each) of one process, each seen through to its end."""

    def __init__(self) -> None:
        self.running: set[asyncio.Task[Any]] = set()

    async def run(self, work: Coroutine[Any, Any, T]) -> T:
        """`work`'s result; cancelling the caller leaves `work` running to its end."""
        task = asyncio.ensure_future(work)
        self.running.add(task)
        task.add_done_callback(self.running.discard)
        try:
            return await asyncio.shield(task)
        except asyncio.CancelledError:
            if not task.done():
                task.add_done_callback(_log_failure)
            raise

    async def drain(self) -> None:
        """Wait for the work still running (at shutdown)."""
        if self.running:
            await asyncio.wait(set(self.running))


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("a commit's follow-up failed after its caller left", exc_info=error)

"""A commit and what follows it run to their end, even when the caller is cancelled; and a game's
follow-ups run in commit order.

A client that hangs up (or whose connection drops) cancels its call's task wherever it is. Once a
move, a hand-over or a new game is sent to Redis to be committed, the follow-ups its commit wrote to
the game's outbox (`live.outbox`) should be performed at once rather than when the workers' sweep
finds them. `Followups.run` runs that work as a task of its own, shielded from the caller's
cancellation; the caller is still cancelled at once. `Followups.after` runs a game's follow-ups behind
its earlier ones: at once (awaited) by default, or after the mover's reply when `background` is set
(the gateway). The tasks left running are waited for at shutdown (`drain`), and a failure that no
caller is left to see is logged.
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

    def __init__(self, background: bool = False) -> None:
        self.background = background
        self.running: set[asyncio.Task[Any]] = set()
        self.last: dict[str, asyncio.Task[None]] = {}  # game id -> its latest follow-ups

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

    async def after(self, game_id: str, work: Coroutine[Any, Any, None]) -> None:
        """Run `work` behind the game's earlier follow-ups: awaited, or (`background`) scheduled. A
        failure is logged, never raised: the entry stays in the outbox for the sweep."""
        previous = self.last.get(game_id)
        if not self.background:
            await self._behind(previous, work)
            return
        task = asyncio.create_task(self._behind(previous, work))
        self.last[game_id] = task
        task.add_done_callback(lambda done: self._forget(game_id, done))

    def _forget(self, game_id: str, done: asyncio.Task[None]) -> None:
        if self.last.get(game_id) is done:
            del self.last[game_id]

    @staticmethod
    async def _behind(previous: asyncio.Task[None] | None, work: Coroutine[Any, Any, None]) -> None:
        if previous is not None:
            await asyncio.wait([previous])
        try:
            await work
        except Exception:
            log.exception("a commit's follow-ups failed; the outbox sweep performs them")

    async def drain(self) -> None:
        """Wait for the work still running (at shutdown)."""
        pending = set(self.running) | set(self.last.values())
        if pending:
            await asyncio.wait(pending)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("a commit's follow-up failed after its caller left", exc_info=error)

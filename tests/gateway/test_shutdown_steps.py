"""The gateway's shutdown runs its steps (stop the server, the streams' work, the rules channels, Redis,
the archive) each for at most a bound, and goes on: a step that overruns is cancelled and left, even
one that does not end when cancelled (as a close stuck on a Redis node may not), and a step that fails
is logged; `asyncio.wait_for`, used before, waited for such a step for good."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from gateway.server import run_bounded

BOUND = 0.3  # the gateway's is SHUTDOWN_STEP_SECONDS; a test of the mechanism needs no 10 s wait


async def stubborn() -> None:
    """A close that ignores being cancelled."""
    while True:
        try:
            await asyncio.sleep(60)
        except asyncio.CancelledError:
            continue


async def failing() -> None:
    raise ConnectionError("the node went away")


def test_a_step_that_ignores_cancelling_is_left_and_the_next_steps_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ran: list[str] = []

    async def quick() -> None:
        ran.append("quick")

    async def shut_down() -> list[str]:
        steps = [("Redis", stubborn), ("the archive", failing), ("the rules channels", quick)]
        return await asyncio.wait_for(run_bounded(steps, BOUND), 10 * BOUND)

    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="gateway.server"):
        loop = asyncio.new_event_loop()
        try:
            abandoned = loop.run_until_complete(shut_down())
        finally:
            loop.close()
    assert abandoned == ["Redis"] and ran == ["quick"]
    assert time.monotonic() - started < 5 * BOUND
    logged = [record.getMessage() for record in caplog.records]
    assert any("closing Redis took over" in line and "abandoned" in line for line in logged), logged
    assert any("closing the archive failed" in line and "node went away" in line for line in logged), logged

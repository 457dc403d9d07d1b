"""The matcher meeting Redis out of reach says so once per outage, not with a traceback every tick
(a gateway started before its Redis logged one every 250 ms); one that reaches Redis logs nothing."""

from __future__ import annotations

import asyncio
import logging

import pytest

from deploy.throwaway import free_port, redis_server
from gateway.matchmaking import Matcher
from live.table import connect
from tests.gateway.support import gateway_settings

TICKS = 8


def test_the_matcher_logs_an_outage_once(rules: dict[str, str], caplog: pytest.LogCaptureFixture) -> None:
    async def run(url: str) -> None:
        app = await connect(gateway_settings(url, rules))
        matcher = Matcher(app)
        matcher.start()
        await asyncio.sleep(TICKS * app.settings.match_tick_seconds)
        await matcher.close()
        await app.redis.aclose()

    caplog.set_level(logging.WARNING, logger="gateway.matchmaking")
    asyncio.run(run(f"redis://127.0.0.1:{free_port()}/0"))
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 1 and "out of reach" in messages[0], messages
    assert not any(record.exc_info for record in caplog.records)

    caplog.clear()
    with redis_server() as url:
        asyncio.run(run(url))
    assert not caplog.records, "a matcher that reaches Redis logs nothing"

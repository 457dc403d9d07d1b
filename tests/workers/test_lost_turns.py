"""A worker's main process killed: its pool and beat processes die with it, and the bot turns it took
along are found by the next worker to start (`workers.recovery`) instead of being left to the 30 s
watchdog. The process tests run on a Redis of their own (in each mode), so no other test's worker sees
their tasks."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from deploy import throwaway
from live import clocks, keys
from live.connection import sync_client
from live.settings import Settings
from tests import redis_modes
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.titles import TITLE
from tests.workers.support import bot_seat, new_game, start_bot_worker, wait_for
from tests.workers.test_kill import running_tasks
from workers import recovery

SLOW_SEARCH_SECONDS = 5.0  # the first worker's turn is still being taken when it is killed
QUICK_SEARCH_SECONDS = 0.01
RESUME_SECONDS = 15.0  # well below the watchdog's 30 s, with room for a slow start on a busy machine


@pytest.fixture(scope="module")
def own_settings(redis_mode: str, rules: dict[str, str]) -> Iterator[Settings]:
    with redis_modes.throwaway(redis_mode) as url:
        yield gateway_settings(url, rules)


@pytest.fixture(scope="module")
def own_gateway(own_settings: Settings) -> Iterator[GatewayProcess]:
    with GatewayProcess(own_settings) as process:
        yield process


def session_pids(session: int) -> list[int]:
    """The processes still running in a session (a worker's main process and its pool)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[3]) == session and fields[0] != "Z":
            pids.append(int(stat.parent.name))
    return pids


def stop_worker(process: subprocess.Popen[bytes], signum: int) -> None:
    """Stop a worker process and whatever of its session outlived its main process."""
    throwaway.stop_worker_process(process, signum)
    for pid in session_pids(process.pid):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def test_the_pool_and_beat_processes_die_with_the_main_process(own_settings: Settings) -> None:
    worker = start_bot_worker(own_settings, QUICK_SEARCH_SECONDS)
    try:
        wait_for(lambda: len(session_pids(worker.pid)) == 3, 60, "the main, pool and beat processes")
        os.kill(worker.pid, signal.SIGKILL)
        worker.wait(10)
        wait_for(lambda: not session_pids(worker.pid), 10, "the pool and beat processes to die")
    finally:
        stop_worker(worker, signal.SIGKILL)


def test_a_worker_started_after_a_main_process_kill_resumes_its_bot_turn_at_once(
    own_settings: Settings, own_gateway: GatewayProcess
) -> None:
    client = sync_client(own_settings.redis_url)
    broker = redis.Redis.from_url(own_settings.broker_url)
    first = start_bot_worker(own_settings, SLOW_SEARCH_SECONDS)
    second = None
    try:
        seats = [bot_seat(own_gateway, 0, "search"), bot_seat(own_gateway, 1, "search")]
        game_id = new_game(own_gateway, TITLE, seats)
        wait_for(lambda: clocks.TAKE_TURN in running_tasks(broker), 60, "the first worker to take a turn")
        version = int(client.get(keys.game_version(game_id)))
        os.kill(first.pid, signal.SIGKILL)  # the main process only, as a crash or the OOM killer would
        killed = time.monotonic()
        first.wait(10)
        wait_for(lambda: not session_pids(first.pid), 10, "the pool and beat processes to die")
        assert int(client.get(keys.game_version(game_id))) == version, "the turn finished before the kill"
        assert clocks.TAKE_TURN in running_tasks(broker), "the killed worker's turn is not held"

        second = start_bot_worker(own_settings, QUICK_SEARCH_SECONDS)
        wait_for(
            lambda: int(client.get(keys.game_version(game_id))) > version,
            killed + RESUME_SECONDS - time.monotonic(),
            "the new worker to play the lost turn",
        )
        print(f"resumed {time.monotonic() - killed:.1f} s after the kill")
    finally:
        stop_worker(first, signal.SIGKILL)
        if second is not None:
            stop_worker(second, signal.SIGTERM)
        client.close()
        broker.close()


def test_only_bot_turns_queued_before_the_start_and_a_grace_ago_are_made_due(
    gateway: GatewayProcess, redis_client: redis.Redis
) -> None:
    # An hour ahead, so the session's clock sweep (due entries only) never takes these entries.
    now = clocks.now_ms() + 3_600_000
    started = now - 1_000
    queued = {
        "lost": (clocks.KIND_BOT, started - 5_000),
        "just before the start": (clocks.KIND_BOT, started - 1),
        "after the start": (clocks.KIND_BOT, started + 500),
        "a human's clock": (clocks.KIND_CLOCK, started - 5_000),
        "a periodic check": (clocks.KIND_WATCH, started - 5_000),
    }
    games = {case: f"recovery-{case.replace(' ', '-')}-{now}" for case in queued}
    for case, (kind, at) in queued.items():
        due = at + clocks.BOT_WATCHDOG_MS
        redis_client.hset(keys.game_clock(games[case]), mapping={"version": 3, "kind": kind, "due": due})
        redis_client.zadd(keys.deadlines(), {games[case]: due})
    try:
        app = gateway.app
        assert app is not None
        made = gateway.run(recovery.make_lost_turns_due(app.redis, started, now))
        assert made == [games["lost"]]
        assert redis_client.hget(keys.game_clock(games["lost"]), "due") == str(now).encode()
        assert redis_client.zscore(keys.deadlines(), games["lost"]) == now

        later = now + recovery.GRACE_MS  # the second look, once the turns queued before the start are old
        made = gateway.run(recovery.make_lost_turns_due(app.redis, started, later))
        assert made == [games["just before the start"]]
        for case in ("after the start", "a human's clock", "a periodic check"):
            kind, at = queued[case]
            assert redis_client.zscore(keys.deadlines(), games[case]) == at + clocks.BOT_WATCHDOG_MS
    finally:
        redis_client.zrem(keys.deadlines(), *games.values())
        for game_id in games.values():
            redis_client.delete(keys.game_clock(game_id))

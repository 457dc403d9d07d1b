"""A PostgreSQL that stops answering never holds up bot play: its postmaster and backends are stopped
(SIGSTOP, as a hung server or a cut network looks) while bots play, and the bot games go on at a
good part of their pace; the outage shows on the worker's `archive_up` and in its log, and once the
database answers again games are archived again.

The worker is `python -m workers` with the settings a user gets, and so the hardest case: one pool of
one process per CPU taking both queues (the shipped deployments give the archive queue a worker of
its own). Before, each archival stuck on the stopped database held a pool process for good, and the
bots stopped within seconds."""

from __future__ import annotations

import os
import signal
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from deploy import ports
from deploy import postgres as local_postgres
from deploy.throwaway import (
    free_port,
    postgres_server,
    redis_server,
    start_worker_process,
    stop_worker_process,
)
from live import keys
from live.store import STATUS_FINISHED
from services.common import playout, registry
from services.common.rng import Rng
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.workers.support import bot_seat, new_game, wait_for


def shortest_title() -> str:
    """The title whose two-seat game between random players ends soonest: games end every few
    seconds, so archivals keep coming."""

    def length(name: str) -> int:
        return playout.random_playout(registry.get(name), SEATS, b"outage", rng=Rng(1)).steps

    return min(registry.games(), key=length)


SEATS = 2
TITLE = shortest_title()
TABLES = 4  # bot games kept going at once
WINDOW_SECONDS = 12.0  # how long moves are counted, before the stop and during it
SETTLE_SECONDS = 6.0  # after the stop, time for the workers to meet it (a bounded wait at most)
KEPT_PACE = 0.3  # the least share of the pace before the stop that bot play keeps during it


class Tables:
    """TABLES games of random bots, each replaced by a new one once it ends; counts their moves."""

    def __init__(self, gateway: GatewayProcess, client: redis.Redis) -> None:
        self.gateway, self.client = gateway, client
        self.games: list[str] = []
        self.finished: list[str] = []

    def version(self, game_id: str) -> int:
        return int(self.client.get(keys.game_version(game_id)) or 0)

    def keep_going(self) -> None:
        """Start new games in place of the finished ones."""
        for game_id in list(self.games):
            if self.client.hget(keys.game_meta(game_id), "status") == STATUS_FINISHED.encode():
                self.games.remove(game_id)
                self.finished.append(game_id)
        while len(self.games) < TABLES:
            seats = [bot_seat(self.gateway, seat, "random") for seat in range(SEATS)]
            self.games.append(new_game(self.gateway, TITLE, seats))

    def moves(self) -> int:
        """Every move so far of every game started."""
        return sum(self.version(game_id) for game_id in self.games + self.finished)

    def moves_over(self, seconds: float) -> int:
        """The moves made over the next `seconds`, keeping the tables going."""
        start, deadline = self.moves(), time.monotonic() + seconds
        while time.monotonic() < deadline:
            self.keep_going()
            time.sleep(0.2)
        return self.moves() - start

    def archived(self, games: list[str]) -> list[str]:
        return [game_id for game_id in games if self.client.exists(keys.game_archived(game_id))]


def database_processes(url: str) -> list[int]:
    """The postmaster of the database at `url` and its children (backends, background processes)."""
    found = ports.listener(int(url.rsplit(":", 1)[1].split("/")[0]))
    assert found is not None, "the test's PostgreSQL listens"
    postmaster = found[0]
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == postmaster:
                children.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return [postmaster, *children]


def archive_up(metrics_port: int) -> float:
    """The worker's `archive_up` (what its processes saw last)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=5) as reply:
        for line in reply.read().decode().splitlines():
            if line.startswith("archive_up"):
                return float(line.split()[-1])
    raise AssertionError("the worker serves no archive_up")


@pytest.fixture
def database() -> Iterator[str]:
    with postgres_server() as url:
        assert local_postgres.answers(url)
        yield url


def test_a_stopped_database_never_stops_bot_play_and_shows_on_a_metric_and_in_the_log(
    rules: dict[str, str], database: str
) -> None:
    metrics_port = free_port()
    with (
        redis_server() as url,
        GatewayProcess(gateway_settings(url, rules, database_url=database)) as gateway,
        tempfile.TemporaryFile() as log,
    ):
        client = redis.Redis.from_url(url)
        worker = start_worker_process(
            url,
            ",".join(rules.values()),
            {
                "DATABASE_URL": database,
                "WORKER_CONCURRENCY": str(os.cpu_count() or 1),  # the default, one per CPU
                "METRICS_PORT": str(metrics_port),
                "LOG_LEVEL": "INFO",
                "BOT_SEARCH_SECONDS": "0.01",
            },
            log=log,
        )
        stopped: list[int] = []
        try:
            tables = Tables(gateway, client)
            tables.keep_going()
            wait_for(
                lambda: (tables.keep_going(), len(tables.archived(tables.finished)) >= 4)[1],
                120,
                "a few games archived before the stop",
            )
            before = tables.moves_over(WINDOW_SECONDS)
            stopped = database_processes(database)
            for pid in stopped:
                os.kill(pid, signal.SIGSTOP)
            tables.moves_over(SETTLE_SECONDS)
            during = tables.moves_over(WINDOW_SECONDS)
            up_while_stopped = archive_up(metrics_port)
            for pid in stopped:
                os.kill(pid, signal.SIGCONT)
            stopped = []
            assert before > 0
            assert during >= KEPT_PACE * before, f"{during} moves while stopped, {before} before"
            assert up_while_stopped == 0
            resumed = len(tables.finished)
            wait_for(
                lambda: (tables.keep_going(), tables.archived(tables.finished[resumed:]))[1],
                120,
                "a game finished after the database resumed archived",
            )
            wait_for(lambda: archive_up(metrics_port) == 1, 30, "archive_up back to 1")
            log.seek(0)
            lines = log.read().decode(errors="replace")
            assert "the archive of finished games is unreachable" in lines
            assert "the archive of finished games answers again" in lines
            assert game_over_views(gateway, tables.finished[0])
        finally:
            for pid in stopped:
                os.kill(pid, signal.SIGCONT)
            stop_worker_process(worker)
            client.close()


def game_over_views(gateway: GatewayProcess, game_id: str) -> bool:
    """Whether a finished game reads as finished (from Redis or the archive)."""
    meta = gateway.run(gateway.app.store.meta(game_id))  # type: ignore[union-attr]
    return meta is not None and meta.status == STATUS_FINISHED and meta.record.title == TITLE

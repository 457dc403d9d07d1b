"""Worker benchmarks: bot strength from self-play, bot turn latency through the move path, and
self-play throughput of two real worker processes.

- Strength: in-process games (two local processes), 2 players, seats rotated every game: heuristic
  against random, and search (a time budget per move) against heuristic.
- Latency: a throwaway redis-server, every rules service, two `python -m workers` processes, and
  all-bot games of random bots started one at a time through `live.games.start_game`. The time of
  every commit is taken from the game's pub/sub channel; a bot turn's latency is the time from one
  commit to the next (the previous move's commit to the bot's), p50 and p99.
- Throughput: `play_game` tasks fanned out to the same two workers (random against heuristic).
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from boardgame.gateway.v1 import gateway_pb2

from bench import table, unpin, verdict
from bench.latency import percentile
from deploy import throwaway
from live import keys
from live.games import start_game
from live.settings import Settings
from live.table import connect
from workers.bots import HEURISTIC, RANDOM, SEARCH
from workers.simulate import jobs_for, run_local, run_on_workers, win_share

ROOT = Path(__file__).resolve().parent.parent
HEURISTIC_TARGET = 0.80
SEARCH_TARGET = 0.60
LATENCY_P50_TARGET_MS = 25.0
WORKER_PROCESSES = 2


@dataclass(frozen=True)
class Matchup:
    """A strength table row: `strong` against `weak` over `games` 2-player games."""

    title: str
    strong: str
    weak: str
    games: int
    wins: float
    target: float

    @property
    def rate(self) -> float:
        """The strong side's share of the wins."""
        return self.wins / self.games


def matchup(title: str, strong: str, weak: str, games: int, search_seconds: float, processes: int) -> Matchup:
    """Play `games` 2-player games of `strong` against `weak`, seats rotated, in local processes."""
    target = HEURISTIC_TARGET if strong == HEURISTIC else SEARCH_TARGET
    jobs = jobs_for(title, games, [strong, weak], 2, search_seconds, f"bench-{strong}-{weak}")
    wins = 0.0
    for summary in run_local(jobs, processes):
        wins += sum(win_share(summary, seat) for seat, s in enumerate(summary.strengths) if s == strong)
    return Matchup(title, strong, weak, games, wins, target)


def strength_table(titles: list[str], games: int, search_games: int, search_seconds: float) -> str:
    """Win rates from self-play: heuristic against random, search against heuristic."""
    rows = []
    for title in titles:
        for strong, weak, count in ((HEURISTIC, RANDOM, games), (SEARCH, HEURISTIC, search_games)):
            result = matchup(title, strong, weak, count, search_seconds, WORKER_PROCESSES)
            rows.append(
                [
                    title,
                    f"{strong} vs {weak}",
                    result.games,
                    f"{result.wins:g}",
                    f"{result.rate:.0%}",
                    f">= {result.target:.0%}",
                    verdict(result.rate >= result.target),
                ]
            )
    headers = ["game", "matchup", "games", "wins", "win rate", "target", "meets"]
    return table(
        f"(d) bot strength: 2-player self-play, seats rotated, search {search_seconds * 1000:.0f} ms/move",
        headers,
        rows,
    )


@contextlib.contextmanager
def deployment(workers: int) -> Iterator[Settings]:
    """A throwaway redis-server, every rules service and `workers` worker processes."""
    processes: list[subprocess.Popen[bytes]] = []
    with throwaway.redis_server() as url, throwaway.rules_servers() as rules:
        addresses = tuple(rules.values())
        settings = replace(Settings(), redis_url=url, rules_addresses=addresses)
        try:
            for _ in range(workers):
                processes.append(
                    throwaway.start_worker_process(url, ",".join(addresses), {"WORKER_BEAT": "0"})
                )
            yield settings
        finally:
            for process in processes:
                throwaway.stop_worker_process(process)


async def _bot_latencies(
    settings: Settings, title: str, games: int, players: int
) -> tuple[list[float], float]:
    """Commit-to-commit times (ms) of random-bot turns over `games` games, and the games per minute."""
    app = await connect(settings)
    pubsub = app.redis.pubsub()
    await pubsub.psubscribe(keys.game_channel("*"))
    latencies: list[float] = []
    started = time.perf_counter()
    try:
        for _ in range(games):
            seats = [
                gateway_pb2.GameSeat(
                    seat=s,
                    player=gateway_pb2.Player(player_id=f"bench-bot-{s}", bot=True),
                    bot_strength=gateway_pb2.BOT_STRENGTH_RANDOM,
                )
                for s in range(players)
            ]
            game_id = await start_game(
                app,
                title=title,
                player_count=players,
                options=[],
                seats=seats,
                clock=gateway_pb2.TurnClock(),
                lobby_id="",
            )
            channel = keys.game_channel(game_id).encode()
            last: float | None = None
            while not await app.redis.exists(keys.game_result(game_id)):
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None or message["channel"] != channel:
                    continue
                now = time.perf_counter()
                if last is not None:
                    latencies.append((now - last) * 1000)
                last = now
    finally:
        await pubsub.aclose()
        await app.rules.close()
        await app.redis.aclose()
    return latencies, games / (time.perf_counter() - started) * 60


def wait_for_workers(settings: Settings, timeout: float = 60.0) -> None:
    """Wait until the worker processes answer a ping."""
    from workers.app import celery

    celery.conf.update(broker_url=settings.redis_url, result_backend=settings.redis_url)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = celery.control.ping(timeout=1.0) or []
        if len(replies) >= WORKER_PROCESSES:
            return
    raise TimeoutError("the worker processes did not start")


def worker_tables(titles: list[str], latency_games: int, selfplay_games: int) -> str:
    """Tables (e) bot turn latency and (f) self-play throughput, on two real worker processes."""
    unpin()
    latency_rows = []
    throughput_rows = []
    with deployment(WORKER_PROCESSES) as settings:
        wait_for_workers(settings)
        for title in titles:
            latencies, per_minute = asyncio.run(_bot_latencies(settings, title, latency_games, 2))
            p50 = statistics.median(latencies)
            latency_rows.append(
                [
                    title,
                    2,
                    len(latencies),
                    f"{p50:.1f}",
                    f"{percentile(latencies, 0.99):.1f}",
                    f"<= {LATENCY_P50_TARGET_MS:g}",
                    verdict(p50 <= LATENCY_P50_TARGET_MS),
                    f"{per_minute:.1f}",
                ]
            )
            jobs = jobs_for(title, selfplay_games, [RANDOM, HEURISTIC], 2, 0.1, "bench-throughput")
            started = time.perf_counter()
            finished = sum(1 for _ in run_on_workers(jobs, 3600))
            throughput_rows.append(
                [
                    title,
                    "random vs heuristic",
                    2,
                    finished,
                    f"{finished / (time.perf_counter() - started) * 60:.1f}",
                ]
            )
    latency = table(
        "(e) random-bot turn latency, commit of the previous move to commit of the bot's move, 2 workers",
        ["game", "players", "turns", "p50 ms", "p99 ms", "target p50", "meets", "games/min via gateway"],
        latency_rows,
    )
    throughput = table(
        f"(f) self-play on {WORKER_PROCESSES} worker processes (play_game tasks, engine in-process)",
        ["game", "bots", "players", "games", "games/min"],
        throughput_rows,
    )
    return f"{latency}\n\n{throughput}"

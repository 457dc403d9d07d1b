"""kill -9 exactly between a game's last commit and its scoring, ROUNDS times each for a gateway, the
worker and Redis: every game must be scored and archived exactly once.

The suite runs with FAILPOINT=final-commit:stop (`live.failpoints`): whichever process commits a
game's last version stops itself right after the commit, before any of its follow-ups (the scoring's
queueing among them) is performed. The run then kills:

- a gateway: the one that committed the last move of a game its scripted players played (its client
  sends the move again to the other replica, under the same request id, and gets its first answer);
- the worker: the main process and pool of the worker whose pool process committed the last move of a
  game of bots;
- Redis: once its append-only file has had time to take the commit (the default policy fsyncs every
  second), after which the stopped committer is let go on against the Redis started again.

The launcher starts each again. The game must then be scored (its result written; every player's
rating counted one game more, no more) and archived (one row, one rating-history row a player) within
FOLLOW_TIMEOUT_SECONDS: the outbox sweep (`live.outbox`) performs the follow-ups the dead committer
wrote with its commit and never performed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
import redis
import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2

from bench import table, verdict
from bench.playouts import measure_playouts
from chaos import games, suite
from chaos.gateways import Gateways
from chaos.soak import tree
from live import failpoints, keys, outbox
from services.common import registry

GATEWAY, WORKER, REDIS = "gateway", "worker", "redis-server"
KINDS = (GATEWAY, WORKER, REDIS)
ROUNDS = 20
PLAYERS = 2
STOP_TIMEOUT_SECONDS = 180.0  # a game played to its last commit
# From the kill to the game scored and archived: the outbox sweep's grace, then its tasks riding out
# Redis restarting (about 11 s measured). Less than the settling time of the archive's own sweep, so
# an archival lost on the way, which only that sweep would find, fails the round.
FOLLOW_TIMEOUT_SECONDS = outbox.GRACE_MS / 1000 + 40
BACK_TIMEOUT_SECONDS = 90.0
FSYNC_WAIT_SECONDS = 1.5  # the append-only file takes a write within a second (everysec)
ENVIRONMENT = {failpoints.FAILPOINT_VARIABLE: f"{failpoints.FINAL_COMMIT}:stop"}


def quickest_title() -> str:
    """The title whose random games for PLAYERS take the fewest moves (the run plays many of them)."""
    steps = {}
    for name, game in registry.games().items():
        if PLAYERS in game.info.player_counts:
            rate = measure_playouts(game, PLAYERS, 0.0)
            steps[name] = rate.steps / rate.games
    return min(steps, key=steps.__getitem__)


@dataclass
class Outcome:
    """One kill: what was killed, and what became of its game."""

    kind: str
    game_id: str
    scored: bool = False
    counted_once: bool = False  # every player's rating counted the game once
    archived_once: bool = False  # one archived row, one rating-history row per player
    seconds: float = 0.0  # from the kill to the game scored and archived
    error: str = ""


@dataclass
class Report:
    """Every kill's outcome."""

    title: str
    outcomes: list[Outcome] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Whether every game was scored and archived exactly once."""
        return bool(self.outcomes) and all(
            o.scored and o.counted_once and o.archived_once and not o.error for o in self.outcomes
        )

    def render(self) -> str:
        """The report as a table, a row per kind of process killed."""
        rows = []
        for kind in KINDS:
            done = [o for o in self.outcomes if o.kind == kind]
            if not done:
                continue
            seconds = [o.seconds for o in done if o.scored]
            rows.append(
                [
                    kind,
                    len(done),
                    sum(o.scored for o in done),
                    sum(o.counted_once for o in done),
                    sum(o.archived_once for o in done),
                    f"{statistics.median(seconds):.1f} / {max(seconds):.1f}" if seconds else "-",
                    verdict(all(o.scored and o.counted_once and o.archived_once for o in done)),
                ]
            )
        headers = [
            "killed",
            "kills",
            "scored",
            "rated once",
            "archived once",
            "kill to archived s p50/max",
            "all",
        ]
        lines = [
            table(
                f"kill -9 between the last commit and the scoring: {self.title}, {PLAYERS} players",
                headers,
                rows,
            )
        ]
        lines += [f"{o.kind} {o.game_id}: {o.error}" for o in self.outcomes if o.error]
        return "\n".join(lines)


def state_of(pid: int) -> str:
    """A process's state letter (T: stopped), or '' once it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def committers(running: suite.Suite) -> list[int]:
    """The processes that commit: every gateway replica and the worker's processes."""
    pids = [running.pid(name) for name in running.gateway_rows()]
    worker = running.pid("workers")
    return [pid for pid in pids if pid is not None] + (tree(worker) if worker is not None else [])


async def stopped_committer(running: suite.Suite, playing: asyncio.Task[None]) -> int:
    """The process stopped at the failpoint (waiting while the game is played)."""
    deadline = time.monotonic() + STOP_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        for pid in committers(running):
            if state_of(pid) == "T":
                return pid
        if playing.done():
            playing.result()  # its failure, if it failed
            raise RuntimeError("the game ended with no committer stopped at its last commit")
        await asyncio.sleep(0.05)
    raise RuntimeError(f"no committer stopped within {STOP_TIMEOUT_SECONDS:.0f} s")


async def wait_back(running: suite.Suite, name: str) -> None:
    """Wait until the launcher has a row's process back and answering."""
    deadline = time.monotonic() + BACK_TIMEOUT_SECONDS
    while not running.back(name):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} was not back within {BACK_TIMEOUT_SECONDS:.0f} s")
        await asyncio.sleep(0.2)


async def kill(running: suite.Suite, kind: str, committer: int) -> None:
    """kill -9 what `kind` names, the committer being stopped at the failpoint."""
    if kind == GATEWAY:
        name = next(n for n in running.gateway_rows() if running.pid(n) == committer)
        suite.kill(committer)
        await wait_back(running, name)
    elif kind == WORKER:
        worker = running.pid("workers")
        assert worker is not None and committer in tree(worker), "the worker did not commit the last move"
        for pid in tree(worker):
            suite.kill(pid)
        await wait_back(running, "workers")
    else:
        await asyncio.sleep(FSYNC_WAIT_SECONDS)
        redis_pid = running.pid("redis")
        assert redis_pid is not None
        suite.kill(redis_pid)
        await wait_back(running, "redis")
        with contextlib.suppress(ProcessLookupError):
            os.kill(committer, signal.SIGCONT)


async def settled(client: aioredis.Redis, game_id: str) -> bool:
    """Whether the game is scored and archived (False while Redis is away)."""
    try:
        scored = await client.exists(keys.game_result(game_id))
        return bool(scored and await client.exists(keys.game_archived(game_id)))
    except redis.exceptions.ConnectionError:
        return False


async def found(client: aioredis.Redis, game_id: str) -> str:
    """What Redis holds of a game's end: status, outbox, mark, clock entry, due time, result."""
    status = await client.hget(keys.game_meta(game_id), "status")
    outbox = await client.xlen(keys.game_outbox(game_id))
    mark = await client.zscore(keys.outbox_marks(), game_id)
    entry = await client.hgetall(keys.game_clock(game_id))
    due = await client.zscore(keys.deadlines(), game_id)
    result = await client.exists(keys.game_result(game_id))
    return f"status {status!r}, outbox {outbox}, mark {mark}, clock {entry}, due {due}, result {result}"


async def ratings(client: aioredis.Redis, title: str, player_ids: set[str]) -> dict[str, int]:
    """The games each player's rating counts."""
    return {p: int(await client.hget(keys.rating(title, p), "games") or 0) for p in player_ids}


def archived_rows(database_url: str, game_id: str) -> tuple[int, int]:
    """The archive's rows of a game: (games, rating-history rows)."""
    with psycopg.connect(database_url) as conn:
        games_row = conn.execute(
            "SELECT count(*) FROM archived_games WHERE game_id = %s", (game_id,)
        ).fetchone()
        history = conn.execute(
            "SELECT count(*) FROM rating_history WHERE game_id = %s", (game_id,)
        ).fetchone()
    return (games_row[0] if games_row else 0), (history[0] if history else 0)


async def one_kill(running: suite.Suite, title: str, kind: str, number: int, database_url: str) -> Outcome:
    """Play a game to its last commit, kill what `kind` names there, and judge what follows."""
    client = aioredis.Redis.from_url(running.redis_url)
    gateways = Gateways(running.gateways)
    plan = games.Plan(title=title, seats=PLAYERS, config="default", options=(), humans=kind != WORKER)
    try:
        game_id, players = await games.open_game(gateways, plan, number)
        view = await gateways.call(
            games.Games, "GetGame", gateway_pb2.GetGameRequest(game_id=game_id), players[0]
        )
        player_ids = {seat.player.player_id for seat in view.game.seats}
        before = await ratings(client, title, player_ids)
        played = games.Played(plan, game_id, players[0])
        playing = asyncio.create_task(games.play(running.gateways, played, players, number, 0.0))
        outcome = Outcome(kind, game_id)
        try:
            committer = await stopped_committer(running, playing)
            await kill(running, kind, committer)
            killed = time.monotonic()
            deadline = killed + FOLLOW_TIMEOUT_SECONDS
            while not await settled(client, game_id):
                if time.monotonic() > deadline:
                    outcome.error = (
                        f"not scored and archived {FOLLOW_TIMEOUT_SECONDS:.0f} s after the kill; "
                        + await found(client, game_id)
                    )
                    return outcome
                await asyncio.sleep(0.2)
            outcome.seconds = time.monotonic() - killed
            outcome.scored = True
            after = await ratings(client, title, player_ids)
            outcome.counted_once = all(after[p] == before[p] + 1 for p in player_ids)
            rows, history = await asyncio.to_thread(archived_rows, database_url, game_id)
            outcome.archived_once = rows == 1 and history == len(player_ids)
            await asyncio.wait_for(playing, STOP_TIMEOUT_SECONDS)
        finally:
            playing.cancel()
            with contextlib.suppress(BaseException):
                await playing
        return outcome
    finally:
        await gateways.close()
        await client.aclose()


def database_url_of(running: suite.Suite) -> str:
    """The archive's URL, as the worker has it."""
    return next(row.env["DATABASE_URL"] for row in running.rows.values() if row.env.get("DATABASE_URL"))


async def run(running: suite.Suite, rounds: int, title: str, kinds: tuple[str, ...] = KINDS) -> Report:
    """`rounds` kills of each kind, one game each, one at a time."""
    report = Report(title)
    database_url = database_url_of(running)
    number = 0
    for _ in range(rounds):
        for kind in kinds:
            number += 1
            try:
                report.outcomes.append(await one_kill(running, title, kind, number, database_url))
            except Exception as error:
                report.outcomes.append(Outcome(kind, "", error=f"{type(error).__name__}: {error}"))
    return report


def final_commit(rounds: int = ROUNDS, kinds: tuple[str, ...] = KINDS) -> int:
    """Run it on a suite of its own (`rounds` kills of each of `kinds`) and print the report; the exit
    code (1: a game was not scored and archived exactly once)."""
    title = quickest_title()
    with suite.running(ENVIRONMENT) as running:
        report = asyncio.run(run(running, rounds, title, kinds))
        print(report.render())
        if not report.passed:
            print(suite.tail(running.data_dir / "launcher.log", 80))
            kept = Path(tempfile.mkdtemp(prefix="final-commit-")) / "launcher.log"
            shutil.copy(running.data_dir / "launcher.log", kept)
            print(f"\nthe whole log of every process: {kept}")
    return 0 if report.passed else 1

"""A chaos tournament: open every planned game, play them all while the killer kills processes, then
check what was left behind (`chaos.checks`) and print the figures."""

from __future__ import annotations

import asyncio
import statistics
import threading
import time
from collections import Counter
from dataclasses import dataclass

from bench import table, verdict
from chaos import checks, games, killer
from chaos.gateways import Gateways
from chaos.suite import Suite


@dataclass(frozen=True)
class Options:
    """The size of a run."""

    bot_games: int = 50
    human_games: int = 10
    kills: int = 20
    pause: tuple[float, float] = (0.5, 3.0)  # seconds between kills, at random
    seed: int = 1
    think: float = 0.3  # a scripted client's mean pause before a move, s: its games outlast the kills
    timeout: float = 1200.0  # seconds the games may take in all


@dataclass
class Report:
    """What a run did and found."""

    options: Options
    played: list[games.Played]
    killer: killer.Killer
    findings: checks.Findings
    seconds: float

    @property
    def clients(self) -> Counter[str]:
        """What the clients went through, summed over every game."""
        total: Counter[str] = Counter()
        for played in self.played:
            total.update(played.counts)
        return total

    def required(self) -> list[tuple[str, int, int, bool]]:
        """Each figure that decides the run: its name, value, requirement and whether it is met."""
        counts, games_count = self.findings.counts, len(self.played)
        every = [
            "games finished",
            "games scored",
            "games with one log entry per version",
            "games replayed bit for bit",
        ]
        rows = [(name, counts[name], games_count, counts[name] == games_count) for name in every]
        zero = (
            "request ids applied twice",
            "commits no client saw acknowledged",
            "clocks without a deadline",
            "acknowledged moves lost",
        )
        for name in zero:
            rows.append((name, counts[name], 0, counts[name] == 0))
        rows.append(("watch streams stalled", self.clients["stalls"], 0, self.clients["stalls"] == 0))
        kills = sum(self.killer.kills.values())
        rows.append(("processes killed", kills, self.options.kills, kills >= self.options.kills))
        survived = sum(self.killer.survived.values())
        rows.append(("kills survived", survived, kills, survived == kills and not self.killer.errors))
        return rows

    @property
    def passed(self) -> bool:
        """Whether every requirement is met and no fault was found."""
        faults = self.findings.faults or any(played.error for played in self.played)
        return all(met for *_, met in self.required()) and not faults

    def render(self) -> str:
        """The tables of the run."""
        counts, clients = self.findings.counts, self.clients
        bots = sum(1 for played in self.played if not played.plan.humans)
        title = (
            f"chaos: {bots} bot games and {len(self.played) - bots} with scripted clients over "
            f"{len({p.plan.title for p in self.played})} titles, {self.seconds:.0f} s"
        )
        rows: list[list[object]] = [
            [name, f"{value:,}", f"{'=' if name != 'processes killed' else '>='} {need:,}", verdict(met)]
            for name, value, need, met in self.required()
        ]
        rows += [
            ["moves logged", f"{counts['log entries']:,}", "-", "-"],
            ["moves acknowledged to clients", f"{counts['moves acknowledged']:,}", "-", "-"],
            ["moves refused (stale or out of turn)", f"{clients['moves refused']:,}", "-", "-"],
            ["client failovers to the other gateway", f"{clients['failovers']:,}", "-", "-"],
            ["watch streams reopened", f"{clients['watch reopened']:,}", "-", "-"],
            ["calls rate limited (waited, sent again)", f"{clients['rate limited']:,}", "-", "-"],
            [
                "longest pause of a bot game, s",
                f"{max((p.longest_pause for p in self.played), default=0):.1f}",
                "-",
                "-",
            ],
        ]
        kill_rows = [
            [
                kind,
                self.killer.kills[kind],
                self.killer.survived[kind],
                f"{statistics.median(self.killer.recovery[kind]):.1f}"
                if kind in self.killer.recovery
                else "-",
            ]
            for kind in self.killer.kills
        ]
        parts = [
            table(title, ["figure", "value", "required", "meets"], rows),
            table(
                "kills (kill -9), per process type",
                ["process", "kills", "back", "median s to back"],
                kill_rows,
            ),
        ]
        problems = [f"{p.game_id}: its clients failed: {p.error}" for p in self.played if p.error]
        problems += self.findings.faults + self.killer.errors
        if problems:
            parts.append("faults:\n" + "\n".join(f"  {line}" for line in problems[:50]))
        return "\n\n".join(parts)


async def tournament(suite: Suite, options: Options) -> Report:
    """Play the planned games on `suite` while processes are killed; check and report."""
    started = time.monotonic()
    host = Gateways(suite.gateways)
    played, players = [], []
    for number, plan in enumerate(games.plans(options.bot_games, options.human_games)):
        game_id, seated = await games.open_game(host, plan, number)
        played.append(games.Played(plan, game_id, seated[0]))
        players.append(seated)
    kills = killer.Killer(suite, options.kills, options.pause, options.seed)
    thread = threading.Thread(target=kills.run, name="killer", daemon=True)
    thread.start()
    try:
        plays = [
            asyncio.create_task(
                games.play(suite.gateways, game, seated, options.seed * 1000 + number, options.think)
            )
            for number, (game, seated) in enumerate(zip(played, players, strict=True))
        ]
        _, late = await asyncio.wait(plays, timeout=options.timeout)
        for task in late:
            task.cancel()
        await asyncio.gather(*plays, return_exceptions=True)
        for game, task in zip(played, plays, strict=True):
            if not task.cancelled() and task.exception() is not None:
                game.error = repr(task.exception())
    finally:
        kills.stop.set()
        await asyncio.to_thread(thread.join)
    findings = await checks.check_all(suite.redis_url, host, played)
    await host.close()
    return Report(options, played, kills, findings, time.monotonic() - started)

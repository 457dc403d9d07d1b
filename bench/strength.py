"""Strength tables with 95% Wilson intervals, seats rotated: every title at every bot level, and each
title that has an outside competition (`bench/<title>/competition.py`) against that competition's
agents (one of ours against copies of theirs).

    python -m bench.strength --games N [--title T ...] [--search-seconds S] [--competition DIR]

The competition rows need a checkout of the competition's repository (`--competition DIR` or the
variable its module names); without one they say how to get it and are not run.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from types import ModuleType

from bench import table
from services.common import registry
from services.common.playout import default_config
from services.common.rng import Rng
from workers.bots import HEURISTIC, RANDOM, SEARCH, Budget, choose_action

PROCESSES = 2
Z95 = 1.959963984540054
PAIRINGS = ((HEURISTIC, RANDOM), (SEARCH, RANDOM), (SEARCH, HEURISTIC))
OURS = (HEURISTIC, SEARCH)


def wilson(wins: float, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (ties count as shares of a win)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def rotations(lineup: Sequence[str], games: int) -> list[tuple[str, ...]]:
    """The seat order of each game: the lineup rotated by one seat per game."""
    n = len(lineup)
    return [tuple(lineup[(seat + k) % n] for seat in range(n)) for k in range(games)]


@dataclass(frozen=True)
class Task:
    title: str
    seats: tuple[str, ...]
    seed: int
    seconds: float


def play_ours(task: Task) -> list[float]:
    """One game of our bots; each seat's share of the win."""
    game = registry.get(task.title)
    state, _ = game.new_game(len(task.seats), default_config(game), f"strength-{task.seed}".encode())
    rngs = [Rng.from_seed(f"strength-{task.seed}-{s}".encode()) for s in range(len(task.seats))]
    budget = Budget(seconds=task.seconds)
    while not game.is_terminal(state):
        seat = game.acting_seats(state)[0]
        action = choose_action(game, state, seat, task.seats[seat], rngs[seat], budget)
        state, _ = game.apply(state, seat, action)
    winners = game.scores(state).winners
    return [1 / len(winners) if s in winners else 0.0 for s in range(len(task.seats))]


@dataclass
class Row:
    name: str
    games: int
    wins: float
    target: float | None = None
    note: str = ""

    def cells(self) -> list[object]:
        if not self.games:
            return [self.name, 0, "-", "-", "-", "-", self.note]
        lo, hi = wilson(self.wins, self.games)
        rate = self.wins / self.games
        target = f">= {self.target:.0%}" if self.target is not None else "-"
        return [
            self.name,
            self.games,
            f"{self.wins:g}",
            f"{rate:.0%}",
            f"{lo:.0%}-{hi:.0%}",
            target,
            self.note,
        ]


HEADERS = ["matchup", "games", "wins", "win rate", "95% interval", "target", "note"]


def title_table(title: str, games: int, seconds: float, pool: ProcessPoolExecutor) -> str:
    """2-player games of each pairing of our bot levels, seats rotated."""
    rows = []
    for strong, weak in PAIRINGS:
        tasks = [Task(title, seats, i, seconds) for i, seats in enumerate(rotations((strong, weak), games))]
        wins = 0.0
        for task, shares in zip(tasks, pool.map(play_ours, tasks), strict=True):
            wins += sum(share for seat, share in enumerate(shares) if task.seats[seat] == strong)
        rows.append(Row(f"{strong} vs {weak}", games, wins).cells())
    return table(f"strength: {title}, 2 players, seats rotated, search {seconds:g} s/move", HEADERS, rows)


def competition(title: str) -> ModuleType | None:
    """The title's outside competition (`bench.<title>.competition`), None when it has none."""
    name = f"bench.{title}.competition"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if missing.name in (f"bench.{title}", name):
            return None
        raise


@dataclass(frozen=True)
class CompetitionTask:
    title: str
    root: str
    seats: tuple[tuple[str, str], ...]
    seed: int
    seconds: float
    their_seconds: float | None = None  # their time limit a move; None: the competition's own


def play_competition(task: CompetitionTask) -> object:
    module = competition(task.title)
    assert module is not None
    limit = {} if task.their_seconds is None else {"their_move_seconds": task.their_seconds}
    return module.play_game(task.root, task.seed, list(task.seats), task.seconds, **limit)


def their_limit(seconds: float | None) -> str:
    """The competition's agents' time limit a move, in words (None: the competition's own; 0: none)."""
    if seconds is None:
        return "at the competition's time limit"
    return f"at {seconds:g} s/move" if seconds > 0 else "without a time limit"


def competition_table(
    title: str,
    root: str | None,
    games: int,
    seconds: float,
    pool: ProcessPoolExecutor,
    ours_levels: Sequence[str] = OURS,
    their_agents: Sequence[str] | None = None,
    their_seconds: float | None = None,
) -> str:
    """Our heuristic and search bots against the competition's agents, one of ours to the rest of
    theirs."""
    module = competition(title)
    assert module is not None, f"{title} has no outside competition"
    their_agents = their_agents or module.AGENTS
    heading = (
        f"strength: {registry.get(title).info.display_name} vs {module.OPPONENTS}, {module.PLAYERS} players,"
        f" search {seconds:g} s/move, theirs {their_limit(their_seconds)}"
    )
    try:
        path = str(module.competition_dir(root))
    except module.MissingCompetition as missing:
        return (
            table(
                heading,
                HEADERS,
                [
                    [f"{o} vs {module.PLAYERS - 1} x {t}", 0, "-", "-", "-", "-", "not run"]
                    for o in ours_levels
                    for t in their_agents
                ],
            )
            + f"\n{missing}\n"
        )
    rows, findings, mismatches = [], {}, []
    for theirs in their_agents:
        for ours in ours_levels:
            lineup = (("ours", ours), *[("theirs", theirs)] * (module.PLAYERS - 1))
            tasks = [
                CompetitionTask(title, path, seats, i, seconds, their_seconds)
                for i, seats in enumerate(rotations(lineup, games))
            ]
            wins, played, stopped, timeouts, chosen = 0.0, 0, 0, 0, 0
            for task, outcome in zip(tasks, pool.map(play_competition, tasks), strict=True):
                for key, count in outcome.findings.items():  # type: ignore[attr-defined]
                    findings[key] = findings.get(key, 0) + count
                timeouts += sum(outcome.timeouts)  # type: ignore[attr-defined]
                chosen += sum(outcome.chosen)  # type: ignore[attr-defined]
                print(  # progress on stderr: a game of these can take minutes
                    f"game {task.seed}: {[name for _, name in task.seats]} winners {outcome.winners}"  # type: ignore[attr-defined]
                    f" scores {outcome.their_scores}",  # type: ignore[attr-defined]
                    file=sys.stderr,
                    flush=True,
                )
                if outcome.mismatch is not None:  # type: ignore[attr-defined]
                    stopped += 1
                    mismatches.append(outcome.mismatch.report())  # type: ignore[attr-defined]
                    continue
                played += 1
                ours_seat = next(s for s, side in enumerate(task.seats) if side[0] == "ours")
                winners = outcome.winners  # type: ignore[attr-defined]
                wins += 1 / len(winners) if ours_seat in winners else 0.0
            note = f"{stopped} stopped by a mismatch; their moves over the limit {timeouts} of {chosen}"
            rows.append(
                Row(
                    f"{ours} vs {module.PLAYERS - 1} x {theirs}",
                    played,
                    wins,
                    module.TARGETS.get((ours, theirs)),
                    note,
                ).cells()
            )
    text = table(heading, HEADERS, rows)
    text += "\nfindings (translated or forced steps, counted):\n" + "".join(
        f"  {n:6d}  {k}\n" for k, n in sorted(findings.items())
    )
    if mismatches:
        text += "mismatches (each stopped its game):\n" + "\n".join(mismatches) + "\n"
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strength", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--title", action="append", help="only this title (repeatable)")
    parser.add_argument("--search-seconds", type=float, default=1.0, help="search bot's time a move (1)")
    parser.add_argument(
        "--competition-search-seconds",
        type=float,
        help="the same in the competition rows (default: --search-seconds)",
    )
    parser.add_argument(
        "--competition", help="checkout of the outside competition (default: the variable its module names)"
    )
    parser.add_argument(
        "--their-seconds",
        type=float,
        help="their agents' time limit a move in the competition rows, 0: none (default: the competition's)",
    )
    parser.add_argument("--ours", action="append", choices=OURS, help="only this bot of ours (repeatable)")
    parser.add_argument("--theirs", action="append", help="only this agent of theirs (repeatable)")
    parser.add_argument("--skip-titles", action="store_true", help="only the competition table")
    parser.add_argument("--skip-competition", action="store_true", help="skip the competition table")
    args = parser.parse_args(argv)
    titles = args.title or list(registry.games())
    with ProcessPoolExecutor(PROCESSES) as pool:
        for title in titles if not args.skip_competition else []:
            if competition(title) is not None:
                print(
                    competition_table(
                        title,
                        args.competition,
                        args.games,
                        args.competition_search_seconds or args.search_seconds,
                        pool,
                        args.ours or OURS,
                        args.theirs,
                        args.their_seconds,
                    ),
                    flush=True,
                )
        if not args.skip_titles:
            for title in titles:
                print(title_table(title, args.games, args.search_seconds, pool) + "\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

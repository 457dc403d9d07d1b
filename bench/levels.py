"""The bot levels' ratings (`live.levels`): self-play tables of one bot of every level, seats rotated,
rated with the players' model and prior, so that a level's rating compares with a player's.

    python -m bench.levels [--games N] [--title T ...] [--processes P] [--time-cap] [--write]

Per title, N games at a table of one bot of each level (or, for a title that cannot seat them all,
2-player games of every pair of levels), the seats rotated by one every game. The levels' ratings are
openskill Plackett-Luce ratings (`workers.scoring.rate`, as a game's players are rated) from the prior,
updated game by game in the games' order. It prints, per title, each level's displayed rating
(mu - 3 sigma, as the leaderboard shows ratings), mu and sigma, its first places with their 95% Wilson
interval, its mean rank and the CPU time of its moves; then, for every pair of levels, how often the
stronger finished ahead of the weaker (a tie counts half), with its 95% interval. `--write` keeps the
ratings in `live/bot_levels.json` (per title: the date, the commit, the games and each level's rating),
which the catalog shows and the matchmaker reads.

The search levels play their iteration budgets; their time cap (`Level.seconds`) is lifted unless
`--time-cap`, so that a machine busy with other work measures the levels as a worker with its own cores
plays them (the CPU time a move took is in the table).
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime
import itertools
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from bench import table
from bench.strength import rotations, wilson
from live import levels as bot_levels
from live.levels import LEVELS, Level
from services.common import registry
from services.common.playout import default_config
from services.common.rng import Rng
from workers.bots import Budget
from workers.bots.levels import level_action
from workers.scoring import MODEL, Rating, rate

ROOT = Path(__file__).resolve().parent.parent
PROCESSES = 2
GAMES = 8


@dataclass(frozen=True)
class Task:
    """One self-play game: the title, each seat's level, the seed, and whether the time caps apply."""

    title: str
    index: int
    seats: tuple[Level, ...]
    time_cap: bool


@dataclass(frozen=True)
class Played:
    """A game's outcome: each seat's rank (1 is best) and the CPU seconds of each of its moves that had
    a choice."""

    task: Task
    ranks: tuple[int, ...]
    move_seconds: tuple[tuple[float, ...], ...]


def play(task: Task) -> Played:
    """Play one game of the task's levels."""
    game = registry.get(task.title)
    seed = f"levels-{task.title}-{task.index}".encode()
    state, _ = game.new_game(len(task.seats), default_config(game), seed)
    rngs = [Rng.from_seed(seed + f"-{seat}".encode()) for seat in range(len(task.seats))]
    playing = [level if task.time_cap else dataclasses.replace(level, seconds=0) for level in task.seats]
    cap = Budget() if task.time_cap else Budget(seconds=0)
    times: list[list[float]] = [[] for _ in task.seats]
    while not game.is_terminal(state):
        seat = game.acting_seats(state)[0]
        choices = len(game.legal_actions(state, seat))
        started = time.thread_time()
        action = level_action(game, state, seat, playing[seat], rngs[seat], cap)
        if choices > 1:
            times[seat].append(time.thread_time() - started)
        state, _ = game.apply(state, seat, action)
    ranks = tuple(score.rank for score in game.scores(state).seats)
    return Played(task, ranks, tuple(tuple(t) for t in times))


def lineups(title: str, levels: Sequence[Level]) -> list[tuple[Level, ...]]:
    """The tables a title's games cycle through: every level at one table when the title seats that
    many, else every pair of levels at a 2-player table."""
    info = registry.get(title).info
    if info.min_players <= len(levels) <= info.max_players:
        return [tuple(levels)]
    return [tuple(pair) for pair in itertools.combinations(levels, 2)]


def tasks_for(title: str, games: int, levels: Sequence[Level], time_cap: bool) -> list[Task]:
    """`games` games of each of the title's tables, the seats rotated by one every game."""
    found: list[Task] = []
    for lineup in lineups(title, levels):
        for seats in rotations(lineup, games):
            found.append(Task(title, len(found), seats, time_cap))
    return found


@dataclass
class Fit:
    """A title's measurement: each level's rating after the games, in order, and the games' counts."""

    ratings: dict[str, Rating]
    firsts: dict[str, float]
    ranks: dict[str, list[int]]
    ahead: dict[tuple[str, str], list[float]]
    seconds: dict[str, list[float]]


def fit(played: Sequence[Played], levels: Sequence[Level]) -> Fit:
    """Rate the levels game by game (in the games' order) from the players' prior; count first places,
    ranks, who finished ahead of whom, and the moves' times."""
    prior = MODEL.rating()
    names = [level.name for level in levels]
    result = Fit(
        ratings={name: Rating(prior.mu, prior.sigma, 0, 0) for name in names},
        firsts=dict.fromkeys(names, 0.0),
        ranks={name: [] for name in names},
        ahead={pair: [] for pair in itertools.combinations(reversed(names), 2)},
        seconds={name: [] for name in names},
    )
    for game in sorted(played, key=lambda p: p.task.index):
        by_level = {level.name: rank for level, rank in zip(game.task.seats, game.ranks, strict=True)}
        result.ratings.update(rate(result.ratings, by_level))
        winners = [name for name, rank in by_level.items() if rank == 1]
        for name, rank in by_level.items():
            result.ranks[name].append(rank)
            if rank == 1:
                result.firsts[name] += 1 / len(winners)
        for (strong, weak), outcomes in result.ahead.items():
            if strong in by_level and weak in by_level:
                a, b = by_level[strong], by_level[weak]
                outcomes.append(1.0 if a < b else 0.5 if a == b else 0.0)
        for level, times in zip(game.task.seats, game.move_seconds, strict=True):
            result.seconds[level.name].extend(times)
    return result


def budget_text(level: Level) -> str:
    """What the level plays with, in a few words."""
    if level.bot != "search":
        return level.bot
    return f"search {level.iterations} it, <= {level.seconds:g} s"


def _quantile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def title_report(title: str, result: Fit, levels: Sequence[Level], players: int, time_cap: bool) -> str:
    """The title's two tables: the levels' ratings, and who finished ahead of whom."""
    rows = []
    for level in levels:
        rating, ranks, times = (
            result.ratings[level.name],
            result.ranks[level.name],
            result.seconds[level.name],
        )
        low, high = wilson(result.firsts[level.name], len(ranks))
        rows.append(
            [
                level.name,
                budget_text(level),
                f"{rating.ordinal:.1f}",
                f"{rating.mu:.2f}",
                f"{rating.sigma:.2f}",
                len(ranks),
                f"{result.firsts[level.name] / max(1, len(ranks)):.0%}",
                f"{low:.0%}-{high:.0%}",
                f"{statistics.fmean(ranks):.2f}" if ranks else "-",
                f"{statistics.median(times):.3f}" if times else "-",
                f"{_quantile(times, 0.99):.3f}" if times else "-",
                f"{max(times):.3f}" if times else "-",
            ]
        )
    headers = ["level", "bot", "rating", "mu", "sigma", "games", "firsts", "95%", "mean rank"]
    headers += ["cpu s/move p50", "p99", "max"]
    cap = "time caps on" if time_cap else "iterations only"
    heading = f"bot levels: {title}, {players} players, seats rotated, {cap}"
    text = table(heading, headers, rows)
    pairs = []
    for (strong, weak), outcomes in result.ahead.items():
        if not outcomes:
            continue
        low, high = wilson(sum(outcomes), len(outcomes))
        share = sum(outcomes) / len(outcomes)
        pairs.append([f"{strong} ahead of {weak}", len(outcomes), f"{share:.0%}", f"{low:.0%}-{high:.0%}"])
    return (
        text + "\n" + table(f"bot levels: {title}, finishing ahead", ["pair", "games", "rate", "95%"], pairs)
    )


def commit() -> str:
    """The commit measured (HEAD), "unknown" outside a git checkout."""
    found = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return found.stdout.strip() or "unknown"


def entry(
    result: Fit, levels: Sequence[Level], games: int, players: int, time_cap: bool
) -> dict[str, object]:
    """A title's entry of the ratings file."""
    return {
        "measured_on": datetime.datetime.now(datetime.UTC).date().isoformat(),
        "commit": commit(),
        "games": games,
        "players": players,
        "time_cap": time_cap,
        "levels": {
            level.name: {
                "bot": level.bot,
                "iterations": level.iterations,
                "seconds": level.seconds,
                "mu": round(result.ratings[level.name].mu, 4),
                "sigma": round(result.ratings[level.name].sigma, 4),
                "rating": round(result.ratings[level.name].ordinal, 4),
                "games": len(result.ranks[level.name]),
                "firsts": round(result.firsts[level.name], 2),
            }
            for level in levels
        },
    }


def write(entries: dict[str, dict[str, object]], path: Path = bot_levels.RATINGS_FILE) -> None:
    """Put the titles' entries into the ratings file (the other titles' are kept)."""
    found = json.loads(path.read_text()) if path.exists() else {}
    titles = {**found.get("titles", {}), **entries}
    document = {
        "about": "bot levels rated by self-play: python -m bench.levels --write (docs/workers.md)",
        "model": "openskill PlackettLuce, the players' prior (mu 25, sigma 25/3); rating = mu - 3 sigma",
        "titles": dict(sorted(titles.items())),
    }
    path.write_text(json.dumps(document, indent=2) + "\n")


def measure(
    titles: Sequence[str],
    games: int,
    processes: int = PROCESSES,
    levels: Sequence[Level] = LEVELS,
    time_cap: bool = False,
    write_to: Path | None = None,
) -> str:
    """Play and rate every title's tables; the report (and, with `write_to`, the ratings written)."""
    tasks = [task for title in titles for task in tasks_for(title, games, levels, time_cap)]
    played: dict[str, list[Played]] = {title: [] for title in titles}
    started = time.perf_counter()
    with ProcessPoolExecutor(processes) as pool:
        futures = [pool.submit(play, task) for task in tasks]
        for done, future in enumerate(as_completed(futures), 1):
            game = future.result()
            played[game.task.title].append(game)
            order = ", ".join(
                f"{level.name}={rank}" for level, rank in zip(game.task.seats, game.ranks, strict=True)
            )
            elapsed = time.perf_counter() - started
            print(
                f"[{done}/{len(tasks)} {elapsed:.0f} s] {game.task.title} #{game.task.index}: {order}",
                file=sys.stderr,
                flush=True,
            )
    reports, entries = [], {}
    for title in titles:
        result = fit(played[title], levels)
        players = len(lineups(title, levels)[0])
        reports.append(title_report(title, result, levels, players, time_cap))
        entries[title] = entry(result, levels, len(played[title]), players, time_cap)
    if write_to is not None:
        write(entries, write_to)
    elapsed = time.perf_counter() - started
    summary = f"{len(tasks)} games in {elapsed:.0f} s on {processes} processes"
    return "\n\n".join(reports) + f"\n\n{summary}" + (f"; ratings written to {write_to}" if write_to else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.levels", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=GAMES, help=f"games per title and table ({GAMES})")
    parser.add_argument("--title", action="append", help="only this title (repeatable)")
    parser.add_argument("--processes", type=int, default=PROCESSES, help=f"games at once ({PROCESSES})")
    parser.add_argument("--time-cap", action="store_true", help="the search levels' time caps apply")
    parser.add_argument(
        "--write", action="store_true", help=f"write the ratings to {bot_levels.RATINGS_FILE.name}"
    )
    args = parser.parse_args(argv)
    titles = args.title or list(registry.games())
    write_to = bot_levels.RATINGS_FILE if args.write else None
    print(measure(titles, args.games, args.processes, LEVELS, args.time_cap, write_to), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

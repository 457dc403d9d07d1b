"""Batch self-play: `python -m workers.simulate --title X --games N --strengths random,heuristic`.

Fans N bot-vs-bot games out to the workers as `play_game` tasks (or plays them in local processes
with --local), shows a progress bar, and prints a balance report for the title: win rate by seat
position and by strength, the score distribution and the game length. Strengths are given per seat
and rotate by one seat each game, so every strength plays every position equally often. Pointed at a
deployment's Redis (REDIS_URL or CELERY_BROKER_URL), it is also a load test of its workers.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from typing import IO

from services.common import registry
from workers.bots import STRENGTHS
from workers.selfplay import GameSummary, play

BAR_WIDTH = 30


def seating(strengths: list[str], players: int, index: int) -> list[str]:
    """The strength of each seat in game `index`: the list cycled, rotated by `index` seats."""
    return [strengths[(seat + index) % len(strengths)] for seat in range(players)]


def progress(done: int, total: int, started: float, out: IO[str]) -> None:
    """Redraw a one-line progress bar."""
    filled = BAR_WIDTH * done // max(total, 1)
    elapsed = time.perf_counter() - started
    rate = done / elapsed * 60 if elapsed > 0 else 0.0
    out.write(f"\r[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {done}/{total} games, {rate:.1f}/min")
    out.flush()
    if done == total:
        out.write("\n")


def run_local(jobs: list[tuple[str, list[str], str, float]], processes: int) -> Iterator[GameSummary]:
    """Play the games in local processes, yielding summaries as they finish."""
    with concurrent.futures.ProcessPoolExecutor(processes) as pool:
        futures = [pool.submit(play, *job) for job in jobs]
        for future in concurrent.futures.as_completed(futures):
            yield future.result()


def run_on_workers(jobs: list[tuple[str, list[str], str, float]], timeout: float) -> Iterator[GameSummary]:
    """Queue the games as `play_game` tasks and yield their summaries as they finish."""
    from celery.result import ResultSet

    from workers.tasks import play_game

    results = ResultSet([play_game.delay(*job) for job in jobs])
    pending = {result.id: result for result in results.results}
    deadline = time.monotonic() + timeout
    while pending:
        if time.monotonic() > deadline:
            raise TimeoutError(f"{len(pending)} games did not finish within {timeout:.0f} s")
        for task_id, result in list(pending.items()):
            if result.ready():
                del pending[task_id]
                yield GameSummary(**result.get())
        time.sleep(0.05)


def quantiles(values: list[float]) -> str:
    """min / quartiles / max of the values."""
    if len(values) < 2:
        return " / ".join(f"{v:.0f}" for v in values)
    q1, median, q3 = statistics.quantiles(values, n=4)
    return f"{min(values):.0f} / {q1:.0f} / {median:.0f} / {q3:.0f} / {max(values):.0f}"


def win_share(summary: GameSummary, seat: int) -> float:
    """The seat's share of the win (1/k on a k-way shared victory)."""
    return 1 / len(summary.winners) if seat in summary.winners else 0.0


def report(title: str, summaries: list[GameSummary]) -> str:
    """The balance report of a batch of games."""
    if not summaries:
        return f"{title}: no games"
    players = len(summaries[0].strengths)
    lines = [f"{title}: {len(summaries)} games, {players} players"]
    unfinished = sum(1 for s in summaries if not s.terminal)
    if unfinished:
        lines.append(f"  {unfinished} games stopped at the length bound without ending")
    lines.append("  win rate by seat position:")
    for seat in range(players):
        wins = sum(win_share(s, seat) for s in summaries)
        lines.append(f"    seat {seat}: {wins / len(summaries):6.1%}  ({wins:g} wins)")
    by_strength: dict[str, list[float]] = {}
    for summary in summaries:
        for seat, strength in enumerate(summary.strengths):
            by_strength.setdefault(strength, []).append(win_share(summary, seat))
    lines.append("  win rate by strength (per seat played):")
    for strength, shares in sorted(by_strength.items()):
        lines.append(
            f"    {strength:<9}: {sum(shares) / len(shares):6.1%}"
            f"  ({sum(shares):g} wins in {len(shares)} seats)"
        )
    totals = [float(t) for s in summaries for t in s.totals]
    winning = [float(max(s.totals)) for s in summaries]
    lines.append(
        f"  scores, min / q1 / median / q3 / max: all seats {quantiles(totals)}; winners {quantiles(winning)}"
    )
    decisions = [float(s.decisions) for s in summaries]
    seconds = [s.seconds for s in summaries]
    lines.append(
        f"  game length: decisions {quantiles(decisions)}; "
        f"seconds per game mean {statistics.fmean(seconds):.2f}"
    )
    return "\n".join(lines)


def jobs_for(
    title: str, games: int, strengths: list[str], players: int, search_seconds: float, seed: str
) -> list[tuple[str, list[str], str, float]]:
    """One (title, strengths per seat, seed, search seconds) per game."""
    return [(title, seating(strengths, players, i), f"{seed}-{i}", search_seconds) for i in range(games)]


def collect(results: Iterable[GameSummary], total: int, out: IO[str] | None) -> list[GameSummary]:
    """Gather the summaries, drawing the progress bar on `out`."""
    started = time.perf_counter()
    summaries = []
    for summary in results:
        summaries.append(summary)
        if out is not None:
            progress(len(summaries), total, started, out)
    return summaries


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the games and print the report."""
    parser = argparse.ArgumentParser(prog="python -m workers.simulate", description=__doc__)
    parser.add_argument("--title", required=True, choices=sorted(registry.games()))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument(
        "--strengths", default="random,heuristic", help=f"per seat, from {','.join(STRENGTHS)}"
    )
    parser.add_argument(
        "--players", type=int, help="seats per game (default: number of strengths, at least 2)"
    )
    parser.add_argument("--search-seconds", type=float, default=0.1, help="search bot budget per move")
    parser.add_argument("--seed", default="simulate")
    parser.add_argument(
        "--local", type=int, metavar="PROCESSES", help="play in local processes, not on workers"
    )
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds to wait for the workers")
    args = parser.parse_args(argv)
    strengths = [s.strip() for s in args.strengths.split(",") if s.strip()]
    unknown = [s for s in strengths if s not in STRENGTHS]
    if unknown or not strengths:
        parser.error(f"unknown strengths {unknown}; choose from {', '.join(STRENGTHS)}")
    info = registry.get(args.title).info
    players = args.players or min(max(len(strengths), 2, info.min_players), info.max_players)
    if players not in info.player_counts:
        parser.error(f"{info.display_name} is for {info.min_players} to {info.max_players} players")
    jobs = jobs_for(args.title, args.games, strengths, players, args.search_seconds, args.seed)
    results: Iterable[GameSummary] = (
        run_local(jobs, args.local) if args.local else run_on_workers(jobs, args.timeout)
    )
    started = time.perf_counter()
    summaries = collect(results, len(jobs), sys.stderr)
    elapsed = time.perf_counter() - started
    print(report(args.title, summaries))
    print(
        f"  throughput: {len(summaries) / elapsed * 60:.1f} games/min over {elapsed:.1f} s", file=sys.stdout
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())

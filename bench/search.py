"""The search bot's iterations per second against a baseline (table s of `make bench`).

Per registered game, at the reference player count (`bench.reference_players`, or --players): a fixed
set of seeded mid-game positions (random games from fixed seeds, stopped between a quarter and three
quarters of their length, then played on to the first decision with a choice), each searched by the
search bot with the same budget (ITERATIONS iterations, the Budget's other fields at this tree's
defaults) and a fixed bot seed. The same code runs in two processes, one in this tree and one in
BASELINE_COMMIT checked out into a temporary git worktree, which take turns (the first of each round
alternating) for ROUNDS rounds; each side's figure is the median of its rounds, in iterations per
second of the process's CPU time (the search runs on one thread, and the machine's other tenants
then change the figures less than they change the wall clock's). Both sides must have searched the
same positions (their encoded states' digests are compared), and the table counts the positions
where both chose the same action: a change that only makes the search faster keeps every choice. The
title says how this tree's engines run (compiled with mypyc, or pure Python and why: see
services.common.compiled); the baseline's worktree has no build and runs them from source.

    python -m bench.search [--positions 4] [--iterations 300] [--rounds 3] [--players N] [--game NAME]
        [--baseline COMMIT]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from bench import reference_players, table, verdict
from bench.pipeline import worktree
from services.common import compiled, registry
from workers.bots.search import Budget

ROOT = Path(__file__).resolve().parent.parent
# main when the work on the search bot's speed began (the issue asked for at least 3x its iterations
# per second on every title): the figures are this tree's over this commit's.
BASELINE_COMMIT = "0208315396b8ef6652e484e0ea819838ee708233"
TARGET_RATIO = 3.0
POSITIONS = 4
ITERATIONS = 300
ROUNDS = 3
WARMUP_ITERATIONS = 20  # at most, on each side's first position of a game, before any timing
RESULT = "search-bench-result "

# Run by each side's interpreter in its own tree (its working directory, first on its path), so it
# uses only what the baseline has too: the registry, the generic playout, Rng and the search bot. It
# reads a job a line (JSON) and answers each with a line starting with RESULT.
PROBE = """
import hashlib, json, sys, time
from services.common import registry
from services.common.playout import choose_random, random_playout
from services.common.rng import Rng
from workers.bots.search import Budget, search_action

def positions(game, players, count):
    found = []
    for index in range(count):
        seed = b"bench-search-%d" % index
        whole = random_playout(game, players, seed, rng=Rng(index))
        share = 0.25 + 0.5 * index / max(1, count - 1)
        rng = Rng(index)
        state = random_playout(game, players, seed, rng=rng, max_steps=int(whole.steps * share)).state
        while not game.is_terminal(state):
            seat = game.acting_seats(state)[0]
            if len(game.legal_actions(state, seat)) > 1:
                found.append((state, seat))
                break
            game.play(state, *choose_random(game, state, rng))
    return found

searched = {}
for line in sys.stdin:
    job = json.loads(line)
    game = registry.get(job["game"])
    key = (job["game"], job["players"], job["positions"])
    known = {name: value for name, value in job["budget"].items() if name in Budget.__dataclass_fields__}
    budget = Budget(**known)
    if key not in searched:
        searched[key] = positions(game, job["players"], job["positions"])
        state, seat = searched[key][0]
        search_action(game, state, seat, Rng(0), Budget(**{**known, "iterations": job["warmup"]}))
    digest = hashlib.sha256()
    choices, seconds = [], 0.0
    for index, (state, seat) in enumerate(searched[key]):
        digest.update(game.encode_state(state))
        started = time.process_time()
        action = search_action(game, state, seat, Rng(1000 + index), budget)
        seconds += time.process_time() - started
        choices.append(repr(action))
    found = {"positions": len(choices), "seconds": seconds, "digest": digest.hexdigest(), "choices": choices}
    print(RESULT + json.dumps(found), flush=True)
""".replace("RESULT", repr(RESULT))


@dataclass(frozen=True)
class Rate:
    """One side's searches of one game's positions in one round."""

    positions: int
    iterations: int  # per position
    seconds: float  # CPU time
    digest: str
    choices: tuple[str, ...]

    @property
    def per_second(self) -> float:
        """Iterations per CPU second over every position's search."""
        return self.positions * self.iterations / self.seconds if self.seconds else 0.0


@dataclass(frozen=True)
class Row:
    """A game's figures: each side's median over the rounds, and how many choices agree."""

    game: str
    players: int
    positions: int
    iterations: int
    baseline: float
    now: float
    same_choices: int

    @property
    def ratio(self) -> float:
        """This tree's iterations per second over the baseline's."""
        return self.now / self.baseline if self.baseline else 0.0


class Side:
    """A probe process in one tree, measuring the jobs it is given one at a time."""

    def __init__(self, tree: Path) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", PROBE], cwd=tree, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def measure(self, game: str, players: int, positions: int, budget: Budget) -> Rate:
        """Search the game's positions within `budget`, timed."""
        job = {
            "game": game,
            "players": players,
            "positions": positions,
            "budget": dataclasses.asdict(budget),
            "warmup": min(WARMUP_ITERATIONS, budget.iterations),
        }
        stdin, stdout = self._pipes()
        stdin.write(json.dumps(job) + "\n")
        stdin.flush()
        for line in stdout:
            if line.startswith(RESULT):
                found = json.loads(line.removeprefix(RESULT))
                choices = tuple(found["choices"])
                return Rate(found["positions"], budget.iterations, found["seconds"], found["digest"], choices)
        raise RuntimeError(f"the search probe ended before measuring {game} (exit {self.process.wait()})")

    def _pipes(self) -> tuple[IO[str], IO[str]]:
        assert self.process.stdin is not None and self.process.stdout is not None
        return self.process.stdin, self.process.stdout

    def close(self) -> None:
        """End the probe; RuntimeError if it failed."""
        self._pipes()[0].close()
        if self.process.wait(60):
            raise RuntimeError(f"the search probe failed (exit {self.process.returncode})")


@contextmanager
def probes(trees: Sequence[Path]) -> Iterator[list[Side]]:
    """A probe process in each tree, all ended afterwards."""
    started = [Side(tree) for tree in trees]
    try:
        yield started
        for side in started:
            side.close()
    finally:
        for side in started:
            if side.process.poll() is None:
                side.process.kill()
                side.process.wait()


def measure_game(
    baseline: Side, now: Side, game: str, players: int, positions: int, budget: Budget, rounds: int
) -> Row:
    """Both sides' rounds on one game, taken in turn (which goes first alternates); each side's median."""
    taken: dict[str, list[Rate]] = {"baseline": [], "now": []}
    order = [("baseline", baseline), ("now", now)]
    for round_ in range(rounds):
        for name, side in order if round_ % 2 == 0 else order[::-1]:
            taken[name].append(side.measure(game, players, positions, budget))
    before, after = taken["baseline"][0], taken["now"][0]
    if (before.digest, before.positions) != (after.digest, after.positions):
        raise RuntimeError(f"{game}: the two trees searched different positions")
    same = sum(1 for mine, theirs in zip(before.choices, after.choices, strict=True) if mine == theirs)
    return Row(
        game,
        players,
        before.positions,
        budget.iterations,
        statistics.median(rate.per_second for rate in taken["baseline"]),
        statistics.median(rate.per_second for rate in taken["now"]),
        same,
    )


def render(commit: str, rows: Sequence[Row], rounds: int, budget: Budget) -> str:
    """The table."""
    cells = [
        [
            row.game,
            row.players,
            f"{row.positions} x {row.iterations}",
            f"{row.baseline:,.0f}",
            f"{row.now:,.0f}",
            f"{row.ratio:.2f}x",
            f">= {TARGET_RATIO:.1f}x",
            verdict(row.ratio >= TARGET_RATIO),
            f"{row.same_choices}/{row.positions}",
        ]
        for row in rows
    ]
    against = " (main before the search bot's speed-up)" if BASELINE_COMMIT.startswith(commit) else ""
    title = (
        f"(s) search bot, iterations per CPU second: this tree against {commit[:10]}{against}, "
        f"playouts of up to {budget.rollout_depth} decisions, medians of {rounds} rounds taken in turn; "
        f"this tree's {compiled.describe()}"
    )
    headers = [
        "game",
        "players",
        "positions x iterations",
        "baseline it/s",
        "now it/s",
        "now/baseline",
        "target",
        "meets",
        "same choices",
    ]
    return table(title, headers, cells)


def measure(
    games: Sequence[str] | None = None,
    players: int | None = None,
    positions: int = POSITIONS,
    iterations: int = ITERATIONS,
    rounds: int = ROUNDS,
    commit: str = BASELINE_COMMIT,
) -> str:
    """Both trees on every chosen game (default: every registered one); the table."""
    names = list(games or registry.games())
    budget = Budget(seconds=0, iterations=iterations)
    rows = []
    with worktree(commit) as tree, probes([tree, ROOT]) as (baseline, now):
        for name in names:
            count = players or reference_players(registry.get(name))
            rows.append(measure_game(baseline, now, name, count, positions, budget, rounds))
    return render(commit, rows, rounds, budget)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="The search bot's speed against a baseline (table s).")
    parser.add_argument("--positions", type=int, default=POSITIONS, help=f"per game (default {POSITIONS})")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help=f"a search (default {ITERATIONS})")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"per side (default {ROUNDS})")
    parser.add_argument("--players", type=int, help="player count (default: the reference count)")
    parser.add_argument("--game", action="append", help="only this registered game (repeatable)")
    parser.add_argument("--baseline", default=BASELINE_COMMIT, help="the commit to compare with")
    args = parser.parse_args(argv)
    print(measure(args.game, args.players, args.positions, args.iterations, args.rounds, args.baseline))


if __name__ == "__main__":
    main()

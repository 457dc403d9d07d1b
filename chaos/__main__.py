"""`python -m chaos [--bot-games 50] [--human-games 10] [--kills 20] [--seed 1]`: a chaos tournament on
the real processes, its figures printed as tables, then the kills between a game's last commit and its
scoring (`chaos.final_commit`, `--rounds` of each kind); exit code 1 if anything was lost, applied
twice or left unfinished. `--last-commit-only [--kinds redis-server]` runs only those kills (of the
kinds named: gateway, worker, redis-server). `--soak --minutes 30 [--plot soak.png]` runs the soak
instead (see chaos.soak)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from chaos import suite
from chaos.final_commit import KINDS, ROUNDS, final_commit
from chaos.tournament import Options, tournament


def main(argv: list[str] | None = None) -> int:
    """Run what the command line asks for; the exit code."""
    parser = argparse.ArgumentParser(prog="python -m chaos", description=__doc__)
    parser.add_argument("--bot-games", type=int, default=Options.bot_games, help="games of bots only (50)")
    parser.add_argument("--human-games", type=int, default=Options.human_games, help="scripted clients (10)")
    parser.add_argument("--kills", type=int, default=Options.kills, help="kill -9s at least (20)")
    parser.add_argument("--seed", type=int, default=Options.seed, help="what the kills and clients pick (1)")
    parser.add_argument("--think", type=float, default=Options.think, help="a client's mean pause, s (0.3)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="kills at the last commit, each kind (20)")
    parser.add_argument("--last-commit-only", action="store_true", help="only the kills at the last commit")
    parser.add_argument(
        "--kinds",
        nargs="+",
        choices=KINDS,
        default=list(KINDS),
        help="what is killed at the last commit (all)",
    )
    parser.add_argument("--soak", action="store_true", help="run the soak instead of the tournament")
    parser.add_argument("--minutes", type=float, default=30.0, help="the soak's length (30)")
    parser.add_argument("--plot", type=Path, default=Path("soak.png"), help="the soak's PNG (soak.png)")
    args = parser.parse_args(argv)
    if args.soak:
        from chaos.soak import soak

        return soak(args.minutes, args.plot)
    if args.last_commit_only:
        return final_commit(args.rounds, tuple(args.kinds))
    options = Options(args.bot_games, args.human_games, args.kills, seed=args.seed, think=args.think)
    with suite.running() as running:
        report = asyncio.run(tournament(running, options))
        print(report.render())
        if not report.passed:
            print(f"\nthe processes' output: {running.data_dir / 'launcher.log'} (kept below)")
            print(suite.tail(running.data_dir / "launcher.log", 80))
    print()
    last_commit = final_commit(args.rounds, tuple(args.kinds))
    return 0 if report.passed and last_commit == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

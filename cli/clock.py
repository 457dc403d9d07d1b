"""The clock options of `bg new` and `bg match`: real-time (seconds per move, total, increment) or
correspondence (days per move, a reserve), and what a timeout does."""

from __future__ import annotations

import argparse

from boardgame.gateway.v1 import gateway_pb2

HOUR = 3600


def add_clock_arguments(parser: argparse.ArgumentParser) -> None:
    """The clock options of a lobby or a search."""
    parser.add_argument("--per-move", type=int, default=0, metavar="SECONDS", help="time per move")
    parser.add_argument("--total", type=int, default=0, metavar="SECONDS", help="time per player per game")
    parser.add_argument("--increment", type=int, default=0, metavar="SECONDS", help="added per move")
    parser.add_argument(
        "--correspondence",
        type=float,
        default=0,
        metavar="DAYS",
        help="a correspondence game of this many days per move (instead of --per-move)",
    )
    parser.add_argument("--reserve", type=float, default=0, metavar="DAYS", help="a correspondence reserve")
    parser.add_argument("--forfeit", action="store_true", help="a seat whose time runs out forfeits")


def clock_of(args: argparse.Namespace) -> gateway_pb2.TurnClock:
    """The TurnClock the clock options ask for."""
    policy = gateway_pb2.TIMEOUT_POLICY_FORFEIT if args.forfeit else gateway_pb2.TIMEOUT_POLICY_UNSPECIFIED
    if args.correspondence:
        return gateway_pb2.TurnClock(
            pace=gateway_pb2.CLOCK_PACE_CORRESPONDENCE,
            per_move_seconds=round(args.correspondence * 24 * HOUR),
            reserve_seconds=round(args.reserve * 24 * HOUR),
            on_timeout=policy,
        )
    return gateway_pb2.TurnClock(
        per_move_seconds=args.per_move,
        total_seconds=args.total,
        increment_seconds=args.increment,
        on_timeout=policy,
    )

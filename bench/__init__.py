"""Benchmarks of the rules services: `python -m bench` (`make bench`) prints plain-text tables.

They measure, never assert: in-process random playouts per game and player count on one core,
ApplyAction latency over gRPC on loopback next to a bare echo of the same payload, the size of
serialized mid-game states, each next to the target its game declares (`Game.targets`), and where a
rules call's time goes in-process (`bench.conversion`).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

# A game's example configs (services.common.game.example_configs) are measured at the reference
# player count and should reach this share of the default options' games per second.
EXAMPLE_CONFIG_MIN_SHARE = 0.75
REFERENCE_PLAYERS = 4


def reference_players(game: Any) -> int:
    """The player count the latency, size and conversion figures use: 4, or the nearest the game
    supports."""
    info = game.info
    return min(max(REFERENCE_PLAYERS, info.min_players), info.max_players)


def usable_cpus() -> list[int]:
    """The CPUs this process may run on now (empty where affinity is unsupported)."""
    if not hasattr(os, "sched_getaffinity"):
        return []
    return sorted(os.sched_getaffinity(0))


def pin_to_cpu(cpu: int | None) -> None:
    """Pin the calling thread, and the threads it starts later, to one CPU (no-op for None)."""
    if cpu is not None and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})


def unpin() -> None:
    """Let the calling thread, and the threads and processes it starts later, run on every CPU again
    (undoes pin_to_cpu; no-op where affinity is unsupported)."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, range(os.cpu_count() or 1))


def table(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A plain-text table: the title, then columns aligned (numbers right, text left)."""
    cells = [[str(cell) for cell in row] for row in rows]
    widths = [max(len(headers[i]), *(len(row[i]) for row in cells)) for i in range(len(headers))]
    numeric = [all(_is_number(row[i]) for row in cells) and bool(cells) for i in range(len(headers))]

    def line(values: Sequence[str]) -> str:
        parts = [
            value.rjust(widths[i]) if numeric[i] else value.ljust(widths[i]) for i, value in enumerate(values)
        ]
        return "  ".join(parts).rstrip()

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([title, line(headers), rule, *(line(row) for row in cells)])


def _is_number(text: str) -> bool:
    try:
        float(text.replace(",", ""))
    except ValueError:
        return text in ("-", "")
    return True


def verdict(meets: bool | None) -> str:
    """'yes', 'NO', or '-' when there is no target."""
    if meets is None:
        return "-"
    return "yes" if meets else "NO"

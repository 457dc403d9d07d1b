"""`make bench`'s table (h) runs end to end on real processes, on one Redis node and on a Cluster, and
measures every figure."""

from __future__ import annotations

import re

from bench import players


def test_the_players_benchmark_measures_every_figure() -> None:
    table = players.measure(moves=20, calls=3)
    rows = {}
    for line in table.splitlines()[3:]:
        label, value, *_ = re.split(r"\s{2,}", line.strip())
        rows[re.sub(r" \(\d+\)", "", label)] = float(value)
    assert len(rows) == 9 * len(players.MODES) and all(value > 0 for value in rows.values()), rows
    for mode in players.MODES:
        assert (
            rows[f"{mode}: ListMyGames all 520 (6 pages of 100) p50 ms"]
            > rows[f"{mode}: ListMyGames first page (20 live) p50 ms"]
        )

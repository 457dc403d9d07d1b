"""`python -m bench.replay` runs end to end on real processes (Redis, a rules service, two gateways)
and measures every case: each a number of calls and positive times."""

from __future__ import annotations

import re

from bench import replay
from services.common import registry
from tests.titles import TITLE

CASES = ["cold, last step", "cold, middle step", "forward", "back", "jumps", "again", "GetGame (floor)"]


def test_the_replay_benchmark_measures_every_case() -> None:
    jumps = 10
    table = replay.measure(registry.get(TITLE).info.min_players, seed=2, jumps=jumps)
    steps = int(re.search(r", (\d+) steps", table.splitlines()[0]).group(1))  # type: ignore[union-attr]
    rows = {}
    for line in table.splitlines()[3:]:
        case, calls, *times = re.split(r"\s{2,}", line.strip())
        rows[case] = (int(calls), [float(time) for time in times])
    assert list(rows) == CASES
    calls = {case: count for case, (count, _) in rows.items()}
    assert calls == {
        "cold, last step": 1,
        "cold, middle step": 1,
        "forward": steps + 1,
        "back": steps + 1,
        "jumps": jumps,
        "again": jumps // 2,
        "GetGame (floor)": jumps // 2,
    }
    assert all(time > 0 for _, times in rows.values() for time in times)

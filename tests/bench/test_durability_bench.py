"""`make bench`'s durability table: both fsync policies and the SET floor measured, with ratios."""

from __future__ import annotations

import re

from bench import durability


def test_the_durability_benchmark_measures_each_policy_and_the_floor() -> None:
    table = durability.measure(commits=64)
    cells = {
        re.split(r"\s{2,}", line.strip())[0]: re.split(r"\s{2,}", line.strip())[1:]
        for line in table.splitlines()[3:]
    }
    always = cells["commit, appendfsync always (default)"]
    everysec = cells["commit, appendfsync everysec"]
    floor = cells["bare SET of the state (floor), everysec"]
    assert float(floor[0]) > 0
    for row in (always, everysec):
        p50, p99, over_floor, rate, versus = row
        assert 0 < float(p50) <= float(p99)
        assert abs(float(over_floor) - float(p50) / float(floor[0])) < 0.1 * float(over_floor) + 0.1
        assert float(rate.replace(",", "")) > 0 and float(versus) > 0
    assert everysec[4] == "1.00"

"""`make bench`'s gateway table runs end to end: real processes, moves made, every figure measured."""

from __future__ import annotations

import re

from bench import gateway


def test_the_gateway_benchmark_measures_every_figure() -> None:
    table = gateway.measure(games=2, processes=1, warmup=0.2, seconds=0.5)
    cells = [re.split(r"\s{2,}", line.strip()) for line in table.splitlines()[3:]]
    rows = {label: value.split() for label, value, *_ in cells}
    moved = int(re.search(r"(\d[\d,]*) moves in", table).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert moved > 0
    assert float(rows["2 games, no pauses: moves per second"][0].replace(",", "")) > 0
    for row in (
        "2 games, no pauses: submit-to-event p50 ms",
        "one game alone, no pauses: submit-to-event p50 ms",
        "floor ms (gRPC echo + Redis PING)",
        "a move's bare path ms (2 gRPC echoes + 2 PINGs)",
    ):
        assert float(rows[row][0]) > 0, row
    assert float(rows["a move's bare path ms (2 gRPC echoes + 2 PINGs)"][0]) > float(
        rows["floor ms (gRPC echo + Redis PING)"][0]
    )
    gateway_cpu, rules_cpu = (
        float(ms) for ms in rows["2 games, no pauses: CPU ms per move, gateway / rules"][::2]
    )
    assert gateway_cpu > 0 and rules_cpu > 0
    assert 1_000 < int(rows["finished 4p game: state + log B"][0].replace(",", "")) <= 32 * 1024

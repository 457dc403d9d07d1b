"""`python -m bench.boards` runs end to end on real processes (Redis, every rules service, a gateway
and a worker) and Chromium: the first registered title's whole game timed, and the floor."""

from __future__ import annotations

import re

import pytest

from bench import boards
from tests.titles import TITLE


def test_the_boards_benchmark_times_a_whole_game_and_the_floor(capsys: pytest.CaptureFixture[str]) -> None:
    table = boards.measure([TITLE])
    assert capsys.readouterr().err == ""  # the driver's errors, if any
    lines = table.splitlines()
    assert re.split(r"\s{2,}", lines[1]) == boards.HEADERS
    rows = [re.split(r"\s{2,}", line.strip()) for line in lines[3:]]
    assert [row[0] for row in rows] == [
        TITLE,
        f"floor: SubmitAction alone, Connect ({boards.FLOOR_MOVES} calls)",
    ]
    played, floor = rows
    decisions, on_board, timed = int(played[1]), int(played[2]), int(played[3])
    assert decisions > 0 and 0 <= on_board <= 100
    assert decisions * 0.9 <= timed <= decisions
    arrival_p50, arrival_p95, arrival_max, click_p50, click_max = map(float, played[4:9])
    assert 0 <= arrival_p50 <= arrival_p95 <= arrival_max
    assert 0 < click_p50 <= click_max
    assert played[9:] in (["< 1000", "yes"], ["< 1000", "NO"])
    assert floor[1:7] == ["-"] * 6 and floor[9:] == ["-", "-"]
    assert 0 < float(floor[7]) <= float(floor[8])

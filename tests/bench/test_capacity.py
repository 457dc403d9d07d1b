"""Tables (h) and (i) of `python -m bench` at a tiny size: every layout of real gateway and rules
processes makes moves, each part's CPU per move and the floor are measured, and a game's bytes are
measured live, finished and archived, in Redis and in PostgreSQL."""

from __future__ import annotations

import re

from bench import capacity, gateway, memory


def test_every_layout_makes_moves_and_each_part_is_timed_against_the_floor() -> None:
    report, measured, floor = capacity.throughput_table(games=2, processes=1, warmup=0.2, seconds=1.0)
    assert list(measured) == list(capacity.LAYOUTS)
    for layout, result in measured.items():
        assert result.moves > 0, layout
        assert result.p50_ms is not None and result.p50_ms > floor.move_path, layout
        for part in ("gateway", "rules", "redis"):
            cpu = result.cpu_ms_per_move(part)
            assert cpu is not None and cpu > 0, (layout, part)
    assert 0 < floor.ping < floor.move_path
    assert floor.gateway_echo > 0 and floor.rules_echo > 0
    rows = [re.split(r"\s{2,}", line.strip()) for line in report.splitlines()[3:-1]]
    assert [(int(row[0]), int(row[1])) for row in rows] == list(capacity.LAYOUTS)
    assert rows[0][4] == "1.00"
    assert report.splitlines()[-1].startswith("floor p50 ms: Redis PING ")


def test_a_game_is_measured_live_finished_and_archived() -> None:
    report = capacity.memory_table([gateway.TITLE])
    title, moves, live, finished, archived, ratio, database = report.splitlines()[3].split()
    assert title == gateway.TITLE and int(moves) > 0
    live_bytes, finished_bytes, archived_bytes = (int(v.replace(",", "")) for v in (live, finished, archived))
    assert archived_bytes == memory.TARGET_ARCHIVED_BYTES < finished_bytes <= memory.TARGET_RECENT_BYTES
    assert 0 < live_bytes <= memory.TARGET_RECENT_BYTES
    assert ratio == "-"  # nothing is left to divide by
    assert 1_000 < int(database.replace(",", "")) < finished_bytes  # the record, state and seats

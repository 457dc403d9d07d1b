"""Table (g) of `python -m bench`: the bytes a game holds in Redis, live, recent and archived, measured
on real servers, within the targets for every title."""

from __future__ import annotations

from bench import memory
from services.common import registry


def test_every_title_keeps_a_live_or_recent_game_within_32_kb_and_an_archived_one_as_an_index_entry() -> None:
    report = memory.measure(list(registry.games()))
    rows = [line.split() for line in report.splitlines()[3:]]
    assert [row[0] for row in rows] == list(registry.games())
    for row in rows:
        live, recent, archived = int(row[4]), int(row[5]), int(row[9])
        assert max(live, recent) <= memory.TARGET_RECENT_BYTES, report
        assert archived <= memory.TARGET_ARCHIVED_BYTES, report

"""Table (g) of `python -m bench`: the bytes a game holds in Redis, live, recent and archived, measured
on real servers, within the targets for every title."""

from __future__ import annotations

import re

from bench import memory
from live.settings import Settings
from services.common import registry


def test_every_title_keeps_a_live_or_recent_game_within_32_kb_and_nothing_of_an_archived_one() -> None:
    report = memory.measure(list(registry.games()))
    rows = [line.split() for line in report.splitlines()[3:-1]]
    assert [row[0] for row in rows] == list(registry.games())
    for row in rows:
        live, recent, archived = int(row[4]), int(row[5]), int(row[9])
        assert max(live, recent) <= memory.TARGET_RECENT_BYTES, report
        assert archived == memory.TARGET_ARCHIVED_BYTES == 0, report
    assert report.splitlines()[-1].startswith("history sorted sets once archived: a player's at most ")


def test_a_history_sorted_set_is_bounded_by_its_setting_not_by_the_games_played() -> None:
    settings = Settings()
    line = memory.history_bound(settings)
    player, title = (int(n.replace(",", "")) for n in re.findall(r"at most ([\d,]+) B", line))
    assert 0 < player < 16 * 1024 < title < 2 * 1024 * 1024, line

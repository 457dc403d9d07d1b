"""The bot levels' measured ratings (live/bot_levels.json, written by `python -m bench.levels --write`):
every title and every level, measured at the levels' budgets of today, the levels rating weakest
first."""

from __future__ import annotations

import json

import pytest

from live import levels
from live.levels import LEVELS
from services.common import registry

TITLES = sorted(registry.games())


@pytest.mark.parametrize("title", TITLES)
def test_the_ratings_file_rates_every_level_of_every_title_at_the_levels_budgets(title: str) -> None:
    entry = json.loads(levels.RATINGS_FILE.read_text())["titles"][title]
    assert entry["games"] > 0 and entry["measured_on"] and len(entry["commit"]) == 40
    assert set(entry["levels"]) == {level.name for level in LEVELS}
    for level in LEVELS:
        kept = entry["levels"][level.name]
        assert (kept["bot"], kept["iterations"], kept["seconds"]) == (
            level.bot,
            level.iterations,
            level.seconds,
        ), f"{title}'s {level.name} was measured at another budget: python -m bench.levels --write"
    measured = levels.ratings(title)
    assert all(measured[level.name].games == entry["games"] for level in LEVELS)
    mus = [measured[level.name].mu for level in LEVELS]
    assert mus == sorted(mus), f"{title}'s levels do not rate weakest first: {mus}"
    for level in LEVELS:
        assert measured[level.name].rating == pytest.approx(
            measured[level.name].mu - 3 * measured[level.name].sigma
        )

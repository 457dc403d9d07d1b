"""CatalogService.ListTitles carries each title's bot levels, weakest first, with the ratings self-play
measured for them (`live.levels`, kept in live/bot_levels.json)."""

from __future__ import annotations

import pytest
from boardgame.gateway.v1 import gateway_pb2

from live import levels
from tests.gateway.support import Client


def test_every_title_lists_its_bot_levels_with_their_measured_ratings(client: Client) -> None:
    client.sign_in_as_guest("levels reader")
    catalog = client.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=client.auth)
    assert [entry.title for entry in catalog.bot_levels] == [title.name for title in catalog.titles]
    for entry in catalog.bot_levels:
        measured = levels.ratings(entry.title)
        assert [(level.name, level.strength) for level in entry.levels] == [
            ("random", gateway_pb2.BOT_STRENGTH_RANDOM),
            ("easy", gateway_pb2.BOT_STRENGTH_EASY),
            ("medium", gateway_pb2.BOT_STRENGTH_MEDIUM),
            ("hard", gateway_pb2.BOT_STRENGTH_HARD),
        ]
        for level in entry.levels:
            kept = measured[level.name]
            assert level.games == kept.games > 0, f"{entry.title} {level.name} not measured"
            assert (level.mu, level.sigma, level.measured_on) == (kept.mu, kept.sigma, kept.measured_on)
            assert level.rating == pytest.approx(level.mu - 3 * level.sigma)
        ratings = [level.mu for level in entry.levels]
        assert ratings == sorted(ratings), f"{entry.title}'s levels are not listed weakest first"

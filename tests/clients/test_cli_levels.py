"""`bg titles` lists each title's bot levels with their ratings as ListTitles gives them, and `bg new
--strength` seats bots of the level named (the older names still accepted)."""

from __future__ import annotations

import re

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from tests.clients.conftest import Bg
from tests.clients.test_cli_lobby import SEATS, game_of, view
from tests.titles import TITLE


def test_bg_titles_shows_every_titles_bot_levels_with_their_ratings(bg: Bg, channel: grpc.Channel) -> None:
    assert bg("guest", "Lev")[0] == 0
    code, out, err = bg("titles")
    assert code == 0, err
    api = bg.api(channel)
    catalog = api.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=api.auth)
    blocks = re.split(r"^(?=\S)", out, flags=re.M)
    for info, entry in zip(catalog.titles, catalog.bot_levels, strict=True):
        block = next(b for b in blocks if b.startswith(f"{info.name} "))
        for level in entry.levels:
            line = rf"^\s+{level.name}\s+{level.rating:.1f}\s+{level.mu:.1f} \+- {level.sigma:.1f}$"
            assert re.search(line, block, re.M), block
        assert f"{entry.levels[0].games} self-play games, {entry.levels[0].measured_on}" in block


@pytest.mark.parametrize(
    ("name", "strength", "bot"),
    [
        ("hard", gateway_pb2.BOT_STRENGTH_HARD, "Hard bot "),
        ("medium", gateway_pb2.BOT_STRENGTH_MEDIUM, "Medium bot "),
        ("search", gateway_pb2.BOT_STRENGTH_MEDIUM, "Medium bot "),
    ],
)
def test_bg_new_seats_the_level_named(
    bg: Bg, channel: grpc.Channel, name: str, strength: int, bot: str
) -> None:
    assert bg("guest", "Lev")[0] == 0
    code, out, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", "1", "--strength", name)
    assert code == 0 and bot in out, err
    seats = view(bg.api(channel), game_of(out)).seats
    assert [seat.bot_strength for seat in seats if seat.player.bot] == [strength]

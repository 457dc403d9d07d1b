"""The map the web client draws is the rules' own (services/assyria/web_board.py)."""

from __future__ import annotations

from services.assyria import board as assyria_board
from services.assyria import web_board


def test_the_web_board_is_the_rules_map():
    data = web_board.board()
    hexes = data["hexes"]
    assert [(h["q"], h["r"]) for h in hexes] == [
        assyria_board.coords(n) for n in range(assyria_board.HEX_COUNT)
    ]
    assert [h["river"] for h in hexes] == list(assyria_board.IS_RIVER)
    assert data["siteHexes"] == [list(s) for s in assyria_board.SITE_HEXES]

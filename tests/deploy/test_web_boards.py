"""The web client's generated board data is the rules' own tables (deploy/web_boards.py)."""

from __future__ import annotations

import json
import re
from typing import Any

from deploy import web_boards
from services.assyria import board as assyria_board
from services.goldencity import dataset


def _constants(text: str) -> dict[str, Any]:
    found = re.findall(r"^export const (\w+) = (.*) as const;$", text, re.M)
    return {name: json.loads(value) for name, value in found}


def test_the_module_holds_assyrias_map_and_the_golden_citys_shipped_board(tmp_path):
    out = tmp_path / "gen" / "boards.ts"
    assert web_boards.main([str(out)]) == 0
    constants = _constants(out.read_text())
    hexes = constants["ASSYRIA_MAP"]["hexes"]
    assert [(h["q"], h["r"]) for h in hexes] == [
        assyria_board.coords(n) for n in range(assyria_board.HEX_COUNT)
    ]
    assert [h["river"] for h in hexes] == list(assyria_board.IS_RIVER)
    assert constants["ASSYRIA_MAP"]["siteHexes"] == [list(s) for s in assyria_board.SITE_HEXES]
    shipped = dataset.load(dataset.DEFAULT_DATA_SET).board
    board = constants["GOLDENCITY_BOARD"]
    assert [p["id"] for p in board["places"]] == [p.id for p in shipped.places]
    assert board["roads"] == [list(r.ends) for r in shipped.roads]


def test_a_wrong_call_prints_its_usage(capsys):
    assert web_boards.main([]) == 2
    assert "usage" in capsys.readouterr().err

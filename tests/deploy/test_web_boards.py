"""The web client's generated board data is what each registered game's `web_board` gives
(deploy/web_boards.py); what it holds for a title is tested with the title (tests/<title>/)."""

from __future__ import annotations

import json
import re

from deploy import web_boards
from services.common import registry


def test_the_module_holds_the_board_of_every_title_that_has_one(tmp_path):
    out = tmp_path / "gen" / "boards.ts"
    assert web_boards.main([str(out)]) == 0
    found = re.search(r"^export const BOARDS = (.*) as const;$", out.read_text(), re.M)
    assert found is not None
    boards = json.loads(found.group(1))
    expected = {name: game.web_board() for name, game in registry.games().items() if game.web_board}
    assert expected and boards == json.loads(json.dumps(expected))


def test_a_wrong_call_prints_its_usage(capsys):
    assert web_boards.main([]) == 2
    assert "usage" in capsys.readouterr().err

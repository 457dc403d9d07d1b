"""`bg games`, `bg chat`, `bg inbox` and `bg rematch` as a person runs them, against a real gateway and
a worker that plays the bots and scores the game."""

from __future__ import annotations

import re
import time

from tests.clients.conftest import Bg
from tests.clients.test_cli_lobby import SEATS, game_of
from tests.titles import TITLE


def test_bg_lists_my_games_chats_follows_the_inbox_and_asks_for_a_rematch(bg: Bg, worker: None) -> None:
    assert bg("guest", "Mia")[0] == 0
    code, out, err = bg("games")
    assert code == 0 and "no games yet" in out, err
    code, out, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", str(SEATS - 1))
    assert code == 0, err
    game_id = game_of(out)
    code, out, err = bg("games")
    assert code == 0, err
    assert re.search(rf"^{game_id}  {TITLE}\s+.*Mia.*  (YOUR TURN|waiting)", out, re.M), out

    code, out, err = bg("chat", game_id, "good game")
    assert code == 0 and out.strip() == "chat [players] Mia: good game", err
    code, _, err = bg("chat", game_id, "bell\a")
    assert code == 1 and "U+0007 (a control character)" in err

    deadline = time.monotonic() + 120  # the bots play until Mia's turn: then her inbox tells her so
    code, out, err = bg("games")
    while not re.search(rf"^{game_id}  {TITLE}\s+.*Mia.*  YOUR TURN", out, re.M):
        assert time.monotonic() < deadline, f"Mia's turn never came: {out}"
        time.sleep(0.5)
        code, out, err = bg("games")
    assert bg("resign", game_id)[0] == 0
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        code, out, err = bg("games")
        if re.search(rf"^{game_id} .* finished: rank \d+, rating -?\d+\.\d -> -?\d+\.\d$", out, re.M):
            break
        time.sleep(0.5)
    else:
        raise AssertionError(f"the game is not listed as scored: {out}")

    code, out, err = bg("inbox", "--from", "0-0", "--seconds", "8", timeout=60)
    assert code == 0, err
    lines = out.splitlines()
    assert "lobby started" in lines[0] and any(
        f"your turn  {TITLE}  game {game_id}" in line for line in lines
    )
    assert any(f"game ended  {TITLE}  game {game_id}" in line for line in lines), out
    assert any("rating changed" in line and f"game {game_id}" in line for line in lines), out

    code, out, err = bg("rematch", game_id)
    assert code == 0, err
    assert re.search(r"^rematch lobby \w+ \(" + TITLE + r"\), invite code \S+$", out, re.M), out
    assert "0 player(s) invited" in out, "the bots are seated again"

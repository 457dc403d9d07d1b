"""The `bg` command-line client, run as a process with scripted standard input against a real gateway,
real rules services, Redis and a worker playing the bots."""

from __future__ import annotations

import re
import time
import uuid

import pytest

from services.common import registry
from tests.clients.conftest import Bg
from tests.clients.tables import Table
from tests.titles import TITLE


@pytest.mark.parametrize("title", list(registry.games()))
def test_bg_plays_a_whole_game_against_bots_then_watches_and_replays_it(
    bg: Bg, worker: None, title: str
) -> None:
    # A registered account: its rating goes on the leaderboard (a guest's does not, `live.guests`).
    name = f"alice_{uuid.uuid4().hex[:8]}"
    code, out, err = bg("register", name, "--display-name", "Alice", "--password", "a long password")
    assert code == 0 and "signed in as Alice" in out, err
    code, out, err = bg("titles")
    assert code == 0, err
    info = registry.get(title).info
    assert re.search(rf"^{title}\s+{re.escape(info.display_name)} \(\d-\d players\)", out, re.M)

    # Always the first legal action: enough answers for any game, and the game must end before them.
    code, out, err = bg("new", title, "--seats", "3", "--bots", "2", "--play", stdin="1\n" * 5000)
    assert code == 0, err
    game_id = re.search(r"game (\S+) started", out)
    assert game_id, out
    prompts = re.findall(r"your move \[1-(\d+), u to undo, q to quit\]", out)
    assert prompts and all(int(count) >= 1 for count in prompts)
    assert re.search(r"^\s+1\. \S", out, re.M), "legal actions are numbered with their labels"
    assert "Final scores:" in out and "winner" in out
    assert out.count("played: ") == len(prompts)
    # Drawn by the title's own renderer from the title's data (GetTitleData), not field by field.
    heading = Table(title, 3, 1).blocks()[0].heading
    assert re.search(rf"^{re.escape(heading)}$", out, re.M), out
    # One seat numbering: the table's, the events' and the record's.
    mine = re.search(r"to act: seat (\d) Alice \(you\)", out)
    assert mine, out
    seat = mine.group(1)

    code, out, err = bg("watch", game_id.group(1))
    assert code == 0 and "game over" in out and "Final scores:" in out, err

    code, out, err = bg("replay", game_id.group(1))
    assert code == 0, err
    assert re.search(r"replay consistent: (\d+) actions re-applied", out)
    assert re.search(rf"^\s+\d+\s+seat {seat} Alice: ", out, re.M)
    # The record's edition (which data set, and whether a reconstruction), for a title that has one.
    game = registry.get(title)
    shown = out.splitlines()[1]
    if game.edition is None:
        assert shown.startswith("seed "), out
    else:
        config = game.config_from_proto(game.messages.config())
        assert shown == game.edition(game.new_game(3, config, b"seed")[0]).notice, out

    # The worker scores the game and rates its players shortly after it ends.
    deadline = time.monotonic() + 30
    while True:
        code, out, err = bg("leaderboard", title)
        assert code == 0, err
        if "Alice" in out or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert re.search(r"^\s+\d+\s+Alice\s+-?\d+\.\d\s+1\s+[01]$", out, re.M), out


def test_bg_asks_again_on_a_bad_answer_and_leaves_on_q(bg: Bg, worker: None) -> None:
    assert bg("guest", "Bob")[0] == 0
    code, out, err = bg("new", TITLE, "--seats", "3", "--bots", "2", "--play", stdin="x\n0\n999\nq\n")
    assert code == 0, err
    assert out.count("type a number from 1 to") == 3
    assert "left the game; `bg play " in out


def test_bg_without_a_session_says_how_to_sign_in(bg: Bg) -> None:
    code, _, err = bg("lobbies")
    assert code != 0 and "bg guest NAME" in err


def test_bg_reports_gateway_refusals_with_their_code(bg: Bg) -> None:
    assert bg("guest", "Carol")[0] == 0
    code, _, err = bg("new", "chess", "--seats", "2")
    assert code == 1 and err.startswith("bg: NOT_FOUND:")

"""`bg match` (two players meet; a lone player gets bots after the wait), `bg cancel-match`, and the
clock options of `bg new`, checked through the gateway API and the stored game."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from boardgame.gateway.v1 import gateway_pb2

from live.store import read_meta
from tests.clients.conftest import Bg
from tests.clients.test_cli_lobby import game_of
from tests.gateway.support import GatewayProcess
from tests.titles import GAME, TITLE

SEATS = GAME.info.min_players
DAY = 24 * 3600


def matched_game(out: str) -> str:
    """The game id `bg match` announced."""
    found = re.search(r"^matched.*: game (\S+)$", out, re.M)
    assert found, out
    return found.group(1)


def seats_of(gateway: GatewayProcess, game_id: str) -> list[gateway_pb2.GameSeat]:
    meta = gateway.run(read_meta(gateway.app.redis, game_id))  # type: ignore[union-attr]
    assert meta is not None
    return list(meta.record.seats)


def test_players_running_bg_match_at_once_meet_in_one_game(tmp_path: Path, gateway: GatewayProcess) -> None:
    players = [Bg(tmp_path / f"p{index}", gateway.address) for index in range(SEATS)]
    for index, bg in enumerate(players):
        assert bg("guest", f"Matcher {index}")[0] == 0
    with ThreadPoolExecutor(SEATS) as pool:
        runs = list(pool.map(lambda bg: bg("match", TITLE, "--seats", str(SEATS), timeout=60), players))
    assert all(code == 0 for code, _, _ in runs), runs
    games = {matched_game(out) for _, out, _ in runs}
    assert len(games) == 1, runs
    seats = seats_of(gateway, games.pop())
    assert len(seats) == SEATS and not any(seat.player.bot for seat in seats)


def test_a_lone_bg_match_gets_bots_of_its_strength_after_its_wait(bg: Bg, gateway: GatewayProcess) -> None:
    assert bg("guest", "Lone")[0] == 0
    code, out, err = bg("match", TITLE, "--seats", str(SEATS), "--bots-after", "1", "--strength", "random")
    assert code == 0, err
    assert "searching: rating 0.0" in out
    bots = [seat for seat in seats_of(gateway, matched_game(out)) if seat.player.bot]
    assert [seat.bot_strength for seat in bots] == [gateway_pb2.BOT_STRENGTH_RANDOM] * (SEATS - 1)


def test_bg_cancel_match_without_a_search_says_so(bg: Bg) -> None:
    assert bg("guest", "Idle")[0] == 0
    code, out, _ = bg("cancel-match")
    assert code == 1 and "no search to cancel" in out


def test_bg_new_sets_a_correspondence_clock(bg: Bg, gateway: GatewayProcess) -> None:
    assert bg("guest", "Pen friend")[0] == 0
    args = ("--seats", str(SEATS), "--bots", str(SEATS - 1), "--correspondence", "2", "--reserve", "5")
    code, out, err = bg("new", TITLE, *args, "--forfeit")
    assert code == 0, err
    meta = gateway.run(read_meta(gateway.app.redis, game_of(out)))  # type: ignore[union-attr]
    assert meta is not None
    assert meta.clock == gateway_pb2.TurnClock(
        pace=gateway_pb2.CLOCK_PACE_CORRESPONDENCE,
        per_move_seconds=2 * DAY,
        reserve_seconds=5 * DAY,
        on_timeout=gateway_pb2.TIMEOUT_POLICY_FORFEIT,
    )


def test_bg_new_refuses_a_correspondence_clock_of_minutes(bg: Bg) -> None:
    assert bg("guest", "Hasty")[0] == 0
    code, _, err = bg("new", TITLE, "--seats", str(SEATS), "--correspondence", "0.01")
    assert code != 0 and "per_move_seconds must be 3600 to 2592000" in err

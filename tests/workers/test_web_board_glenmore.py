"""Glen More's whole table in the web client (clients/web/src/boards/glenmore.ts) in a real browser against a
real gateway, Redis, rules services and a Celery worker playing the bots: a whole game against a
random bot played by clicking the board (the labelled list only where the board marks no legal
action), each board on screen within a second of the move; and the table at fixed positions held to
golden pictures (tests/workers/golden/glenmore/; BOARD_GOLDEN_UPDATE=1 writes them anew)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.gateway.support import GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.workers.web_boards import check_golden, check_play, fixed_game, play, shoot

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

TITLE = "glenmore"
POSITIONS = {"start": 0, "early": 14, "later": 60}  # name: moves from the fixed seed


def test_a_whole_game_is_played_by_clicking_the_board(web_gateway: GatewayProcess, tmp_path: Path) -> None:
    check_play(play(web_gateway, TITLE, tmp_path))


def test_the_table_at_fixed_positions_matches_its_golden_pictures(
    web_gateway: GatewayProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    games = {name: fixed_game(web_gateway, TITLE, moves, monkeypatch) for name, moves in POSITIONS.items()}
    report = shoot(web_gateway, TITLE, games, tmp_path)
    assert report["errors"] == [], "\n".join(report["errors"])
    assert report["shots"] == list(POSITIONS)
    check_golden(TITLE, list(POSITIONS), tmp_path)

"""Every title's whole table in the web client (clients/web/src/boards/<title>.ts) in a real browser
against a real gateway, Redis, rules services and a Celery worker playing the bots: a whole game
against a random bot played by clicking the board (the labelled list only where the board marks no
legal action), each board on screen within a second of the move; and the table at fixed positions held
to golden pictures (tests/workers/golden/<title>/; BOARD_GOLDEN_UPDATE=1 writes them anew)."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.common import registry
from tests.gateway.support import GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.workers.web import WEB_CLIENT
from tests.workers.web_boards import check_golden, check_play, fixed_game, play, shoot

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

TITLES = list(registry.games())


def _marks(title: str) -> list[pytest.MarkDecorator]:
    """A board whose module never marks a legal action (svg.actionable) cannot be played by clicking:
    its game is expected to fail (strict: one that starts passing fails until this is seen to)."""
    board = (WEB_CLIENT / "src" / "boards" / f"{title}.ts").read_text()
    if "actionable(" in board:
        return []
    return [pytest.mark.xfail(strict=True, reason=f"{title}: the board marks no legal action yet")]


PLAYED = [pytest.param(title, marks=_marks(title), id=title) for title in TITLES]
POSITIONS = {"start": 0, "early": 14, "later": 60}  # name: moves from the fixed seed


@pytest.mark.parametrize("title", PLAYED)
def test_a_whole_game_is_played_by_clicking_the_board(
    web_gateway: GatewayProcess, tmp_path: Path, title: str
) -> None:
    check_play(play(web_gateway, title, tmp_path))


@pytest.mark.parametrize("title", TITLES)
def test_the_table_at_fixed_positions_matches_its_golden_pictures(
    web_gateway: GatewayProcess, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, title: str
) -> None:
    games = {name: fixed_game(web_gateway, title, moves, monkeypatch) for name, moves in POSITIONS.items()}
    report = shoot(web_gateway, title, games, tmp_path)
    assert report["errors"] == [], "\n".join(report["errors"])
    assert report["shots"] == list(POSITIONS)
    check_golden(title, list(POSITIONS), tmp_path)

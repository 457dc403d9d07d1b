"""Every title's whole table in the web client (clients/web/src/boards/<title>.ts) in a real browser
against a real gateway, Redis, rules services and a Celery worker playing the bots: a whole game
against a random bot played by clicking the board (the labelled list only where the board marks no
legal action) in Traditional Chinese, each board's draw time recorded (`bench.boards` holds them to a
second), every label, event and term shown found in a catalog; and the table at fixed positions in
each language of the page (clients/web/locale/) held to golden pictures
(tests/workers/golden/<title>/<position>.<locale>.png; BOARD_GOLDEN_UPDATE=1 writes them anew), every
term and text it draws found in the title's catalog or the page's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
LOCALES = sorted(path.stem for path in (WEB_CLIENT / "locale").glob("*.po"))
PLAYED_IN = "zh_Hant"  # a whole game's language: its labels, events and terms all rendered from catalogs

Tables = Callable[[str], tuple[dict[str, Any], Path]]


@pytest.fixture(scope="module")
def tables(web_gateway: GatewayProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Tables]:
    """A title's table at each of POSITIONS in each of LOCALES: the driver's report and the folder of
    its pictures (taken once per title)."""
    taken: dict[str, tuple[dict[str, Any], Path]] = {}

    def table(title: str) -> tuple[dict[str, Any], Path]:
        if title not in taken:
            out = tmp_path_factory.mktemp(title)
            with pytest.MonkeyPatch.context() as patch:
                games = {
                    name: fixed_game(web_gateway, title, moves, patch) for name, moves in POSITIONS.items()
                }
            taken[title] = (shoot(web_gateway, title, games, LOCALES, out), out)
        return taken[title]

    yield table


@pytest.mark.parametrize("title", PLAYED)
def test_a_whole_game_is_played_by_clicking_the_board(
    web_gateway: GatewayProcess, tmp_path: Path, title: str
) -> None:
    check_play(play(web_gateway, title, PLAYED_IN, tmp_path))


@pytest.mark.parametrize("title", TITLES)
def test_the_table_at_fixed_positions_matches_its_golden_pictures_in_each_language(
    tables: Tables, title: str
) -> None:
    report, out = tables(title)
    assert report["errors"] == [], "\n".join(report["errors"])
    names = [f"{name}.{locale}" for locale in LOCALES for name in POSITIONS]
    assert report["shots"] == names
    check_golden(title, names, out)


@pytest.mark.parametrize("title", TITLES)
def test_every_term_and_text_of_the_table_is_in_a_catalog(tables: Tables, title: str) -> None:
    """No message the drawn tables look up is missing from the title's catalogs or the page's (the page
    notes each one it shows in English instead)."""
    report, _ = tables(title)
    assert report["errors"] == [], "\n".join(report["errors"])
    assert sorted(set(report["missing"])) == []

"""The Golden City's web board in a real browser (Debian's headless Chromium) against a real gateway,
Redis and a Golden City rules service whose operator installed sets beside v0: the web client, built
with no data set at all, draws each game on its own set's board (its own roads) from the title's data
the catalog serves (CatalogService.GetTitleData), sets installed after the build included, each on its
own board and none on another's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2

from deploy.throwaway import free_port, redis_server
from gateway import auth
from gateway.browser import WEB_CLIENT_DIR, WebSettings
from live.games import start_game
from services.goldencity import GAME, dataset
from tests.common.support import ROOT, service_process
from tests.gateway.support import GatewayProcess, gateway_settings
from tests.goldencity.datasets import BOARD, BONUS, GOODS, SCORING, copy_v0, edit
from tests.workers.test_web_client import run_driver

TITLE = GAME.info.name
WEB_CLIENT = WEB_CLIENT_DIR.parent
DRIVER = WEB_CLIENT / "test" / "boards.mjs"
DRIVER_TIMEOUT_SECONDS = 120
PRINTED, LATER = "webprinted", "webunbuilt"  # names no other test's set has (tables are cached by name)
EXTRA_ROAD = ["city_outer_meadow", "city_outer_desert"]
LOOK_FOR = {
    "places": ".gc-place",
    "roads": ".gc-road",
    "data_set": ".gc-data-set",
    "no_board": ".gc-no-board",
}


def install(root: Path, name: str, data_version: str) -> None:
    """A set `name` in `root`: v0 with its own data_version and one more road."""
    directory = copy_v0(root, name)
    for file in (BOARD, SCORING, BONUS, GOODS):
        edit(directory, file, lambda data: data.update(data_version=data_version, reconstruction=False))
    edit(directory, BOARD, lambda data: data["roads"].append(EXTRA_ROAD))


@pytest.fixture(scope="module")
def goldencity_rules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Golden City's rules service (`python -m services.goldencity`) with PRINTED and LATER
    installed in its operator's directory (the web client was built with neither)."""
    sets = tmp_path_factory.mktemp("installed")
    install(sets, PRINTED, "printed-1")
    install(sets, LATER, "printed-2")
    variables = {
        "RULES_ADDRESS": f"127.0.0.1:{free_port()}",
        "METRICS_PORT": "off",
        dataset.DATA_DIR_ENV: str(sets),
    }
    with service_process("services.goldencity", variables, cwd=ROOT) as (process, started):
        yield f"127.0.0.1:{started['port']}"
        process.terminate()
        process.wait(30)


@pytest.fixture(scope="module")
def web_gateway(goldencity_rules: str) -> Iterator[GatewayProcess]:
    """A gateway of The Golden City alone, on a Redis of its own, serving the web client to browsers."""
    assert (WEB_CLIENT_DIR / "app.js").is_file(), "the web client is not built: run `make setup`"
    web = WebSettings(address="127.0.0.1:0", client_dir=WEB_CLIENT_DIR)
    with redis_server() as redis_url:
        settings = gateway_settings(redis_url, {TITLE: goldencity_rules})
        with GatewayProcess(settings, web=web) as process:
            yield process


def game_on(gateway: GatewayProcess, data_set: str) -> str:
    """A game of The Golden City on `data_set`, guests on every seat (nobody moves)."""
    app = gateway.app
    assert app is not None
    seats = [
        gateway_pb2.GameSeat(seat=seat, player=gateway.run(auth.create_player(app, f"G{seat}", guest=True)))
        for seat in range(GAME.info.min_players)
    ]
    return gateway.run(
        start_game(
            app,
            title=TITLE,
            player_count=len(seats),
            options=[gateway_pb2.GameOptionValue(name="data_set", value=data_set)],
            seats=seats,
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
        )
    )


def drawn(gateway: GatewayProcess, games: list[str]) -> list[dict[str, Any]]:
    env = {
        "E2E_URL": gateway.web_url + "/",
        "E2E_GAMES": json.dumps(games),
        "E2E_LOOK_FOR": json.dumps(LOOK_FOR),
    }
    report = run_driver(DRIVER, env, DRIVER_TIMEOUT_SECONDS)
    assert report["errors"] == [], "\n".join(report["errors"])
    return report["boards"]


def test_each_game_is_drawn_on_its_own_sets_board_from_the_title_data(web_gateway: GatewayProcess) -> None:
    v0_roads = len(dataset.load(dataset.DEFAULT_DATA_SET).board.roads)
    v0, printed, later = drawn(web_gateway, [game_on(web_gateway, name) for name in ("v0", PRINTED, LATER)])

    assert v0["counts"]["roads"] == v0_roads and v0["counts"]["no_board"] == 0
    assert "Data set v0 (v0-reconstruction)" in v0["texts"]["data_set"]

    for board, name, version in ((printed, PRINTED, "printed-1"), (later, LATER, "printed-2")):
        assert board["counts"]["roads"] == v0_roads + 1, "drawn on another set's board"
        assert board["counts"]["places"] == v0["counts"]["places"] > 0
        assert board["counts"]["no_board"] == 0
        assert f"Data set {name} ({version})" in board["texts"]["data_set"]

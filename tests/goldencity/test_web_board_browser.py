"""The Golden City's web board in a real browser (Debian's headless Chromium) against a real gateway,
Redis and a Golden City rules service whose operator installed sets beside v0: a game on a set the web
client was built with is drawn from that set's board (its own roads), and a game on a set installed
after the build is not drawn on another set's board: the page names the set and the sets it can draw."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2

from deploy import web_boards
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
BUILT, UNBUILT = "webprinted", "webunbuilt"  # names no other test's set has (tables are cached by name)
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
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The web client built where the operator had installed BUILT beside v0 (not UNBUILT yet)."""
    assert (WEB_CLIENT / "src" / "gen").is_dir(), "the web client is not built: run `make setup`"
    sets = tmp_path_factory.mktemp("built-with")
    install(sets, BUILT, "printed-1")
    web = tmp_path_factory.mktemp("web") / "client"
    shutil.copytree(WEB_CLIENT, web, ignore=shutil.ignore_patterns("node_modules", "dist"))
    (web / "node_modules").symlink_to(WEB_CLIENT / "node_modules")
    with pytest.MonkeyPatch.context() as env:
        env.setenv(dataset.DATA_DIR_ENV, str(sets))
        (web / "src" / "gen" / "boards.ts").write_text(web_boards.module())
    node = shutil.which("node")
    assert node, "node is not installed"
    subprocess.run([node, "build.mjs"], cwd=web, check=True, timeout=120)
    return web / "dist"


@pytest.fixture(scope="module")
def goldencity_rules(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The Golden City's rules service (`python -m services.goldencity`) with BUILT and UNBUILT
    installed in its operator's directory."""
    sets = tmp_path_factory.mktemp("installed")
    install(sets, BUILT, "printed-1")
    install(sets, UNBUILT, "printed-2")
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
def web_gateway(goldencity_rules: str, bundle: Path) -> Iterator[GatewayProcess]:
    """A gateway of The Golden City alone, on a Redis of its own, serving `bundle` to browsers."""
    web = WebSettings(address="127.0.0.1:0", client_dir=bundle)
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


def test_each_game_is_drawn_on_its_own_sets_board_or_not_at_all(web_gateway: GatewayProcess) -> None:
    v0_roads = len(dataset.load(dataset.DEFAULT_DATA_SET).board.roads)
    v0, built, unbuilt = drawn(web_gateway, [game_on(web_gateway, name) for name in ("v0", BUILT, UNBUILT)])

    assert v0["counts"]["roads"] == v0_roads and v0["counts"]["no_board"] == 0
    assert "Data set v0 (v0-reconstruction)" in v0["texts"]["data_set"]

    assert built["counts"]["roads"] == v0_roads + 1, "drawn on another set's board"
    assert built["counts"]["places"] == v0["counts"]["places"] > 0
    assert f"Data set {BUILT} (printed-1)" in built["texts"]["data_set"]

    assert (unbuilt["counts"]["places"], unbuilt["counts"]["roads"]) == (0, 0)
    notice = unbuilt["texts"]["no_board"]
    assert f"without data set {UNBUILT} (printed-2)" in notice
    assert "v0 (v0-reconstruction)" in notice and f"{BUILT} (printed-1)" in notice

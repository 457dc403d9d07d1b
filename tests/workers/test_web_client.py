"""The web client in a real browser (Debian's headless Chromium driven by puppeteer-core) against a real
gateway with its browser listener, Redis, rules services and a Celery worker playing the bots: a whole
game of the first registered title against three bots through the page, spectated from a second page
whose watch stream is cut and resumes, with a stale move from a second tab that refreshes its view, and
replayed; then every registered title's board drawn, checked in the DOM and screenshotted."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2

from deploy import programs
from gateway import auth
from gateway.browser import WEB_CLIENT_DIR, WebSettings
from live.settings import Settings
from services.common import registry
from tests.gateway.support import GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE
from tests.workers.support import bot_seat, new_game

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

WEB_CLIENT = WEB_CLIENT_DIR.parent
DRIVER = WEB_CLIENT / "test" / "e2e.mjs"
DRIVER_TIMEOUT_SECONDS = 240
# An element each title's drawn board has: the MARK its board file (clients/web/src/boards/<title>.ts)
# declares; a title without one is checked for its view as a tree only.
BOARDS_DIR = Path(__file__).resolve().parents[2] / "clients" / "web" / "src" / "boards"
BOARD_ELEMENTS = {
    path.stem: found.group(1)
    for path in sorted(BOARDS_DIR.glob("*.ts"))
    if (found := re.search(r'^export const MARK = "([^"]+)";', path.read_text(), re.M))
}
BLANK_COLOURS = 3  # a board drawing fewer distinct colours than this is taken for blank


@pytest.fixture(scope="module")
def web_gateway(settings: Settings, celery_worker: None) -> Iterator[GatewayProcess]:
    web = WebSettings(address="127.0.0.1:0")
    with GatewayProcess(settings, web=web) as process:
        yield process


def chromium() -> str:
    notes: list[str] = []
    found = programs.installed("chromium", os.environ, notes)
    assert found, programs.missing_hint("chromium")
    return found


def board_game(gateway: GatewayProcess, title: str) -> str:
    """A game of `title`: a guest who never moves on seat 0, bots on the others."""
    guest = gateway.run(auth.create_player(gateway.app, "Board guest", guest=True))  # type: ignore[arg-type]
    seats = [gateway_pb2.GameSeat(seat=0, player=guest)]
    seats += [bot_seat(gateway, seat, "random") for seat in range(1, registry.get(title).info.min_players)]
    return new_game(gateway, title, seats)


def run_driver(driver: Path, env: dict[str, str], timeout: float) -> dict[str, Any]:
    """Run a Chromium driver of the web client's (`clients/web/test/*.mjs`) with `env` added to the
    environment (its E2E_* settings) and the Chromium found; the report of its last output line."""
    assert (WEB_CLIENT_DIR / "app.js").exists(), "the web client is not built: run `make setup`"
    node = shutil.which("node")
    assert node, "node is not installed"
    done = subprocess.run(
        [node, str(driver)],
        cwd=WEB_CLIENT,
        env={**os.environ, "E2E_CHROMIUM": chromium(), **env},
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def drive(gateway: GatewayProcess, out: Path, boards: list[dict[str, str]]) -> dict[str, Any]:
    env = {
        "E2E_URL": gateway.web_url + "/",
        "E2E_TITLE": TITLE,
        "E2E_OUT": str(out),
        "E2E_BOARDS": json.dumps(boards),
    }
    return run_driver(DRIVER, env, DRIVER_TIMEOUT_SECONDS)


def test_a_whole_game_spectated_and_replayed_and_every_board_drawn(
    web_gateway: GatewayProcess, tmp_path: Path
) -> None:
    boards = [
        {"title": title, "gameId": board_game(web_gateway, title), "selector": BOARD_ELEMENTS.get(title, "")}
        for title in registry.games()
    ]
    report = drive(web_gateway, tmp_path, boards)
    assert report["errors"] == [], "\n".join(report["errors"])
    assert report["moves"] > 0 and report["finalVersion"] > report["moves"]
    assert report["spectatorSawBoard"]
    assert "reconnecting from version" in report["reconnectMessage"]
    assert "the game moved on; the view is refreshed" in report["staleMessages"]
    assert report["spectatorStatus"] == "finished"
    assert report["spectatorVersion"] == report["finalVersion"]
    assert report["replayPosition"].startswith("move 3 of ")
    assert report["replay"].startswith("consistent")
    assert report["account"].startswith("Signed in as web")
    assert report["leaderboardRows"] >= 0
    assert report["invitedSeats"] == [
        report["account"].removeprefix("Signed in as ").split("Sign out")[0],
        "Web spectator",
    ]
    assert report["hostSawGuestJoin"]
    assert [board["title"] for board in report["boards"]] == list(registry.games())
    for board in report["boards"]:
        assert board["tree"] > 0, f"{board['title']}'s view is not shown as a tree"
        if board["title"] not in BOARD_ELEMENTS:
            continue
        assert board["elements"] > 0, f"{board['title']}: no {BOARD_ELEMENTS[board['title']]} drawn"
        assert board["colours"] >= BLANK_COLOURS, f"{board['title']}'s board is blank"
        assert (tmp_path / f"board-{board['title']}.png").stat().st_size > 0

"""The web client in a real browser (Debian's headless Chromium driven by puppeteer-core) against a real
gateway with its browser listener, Redis, rules services and a Celery worker playing the bots: a whole
game of the first registered title against three bots through the page, spectated from a second page
whose watch stream is cut and resumes, with a stale move from a second tab that refreshes its view, and
replayed; then every registered title's board drawn, checked in the DOM and screenshotted. And a lobby
opened from the page, its bots seated at the strength the page has selected and at one chosen from its
list (the gateway's own list, BotStrength), and a few moves played, with nothing failing in the browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from live import levels
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import ONE_NODE
from tests.titles import GAME, TITLE
from tests.workers.web import WEB_CLIENT, board_game, run_driver

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

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
LOBBY_DRIVER = WEB_CLIENT / "test" / "lobby.mjs"
LOBBY_DRIVER_TIMEOUT_SECONDS = 120
LOBBY_MOVES = 3
CHOSEN_STRENGTH = gateway_pb2.BOT_STRENGTH_SEARCH  # a strength the player picks over the default


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
    assert report["replayPosition"].startswith("move 2 of "), "two steps on from the game as set up"
    assert report["replay"].startswith("consistent")
    assert report["account"].startswith("Signed in as web")
    assert report["leaderboardRows"] >= 0
    assert report["invitedSeats"] == [
        report["account"].removeprefix("Signed in as "),
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


def strength_label(value: int) -> str:
    """A BotStrength's level as the page marks its choice (data-level): the level's name."""
    return levels.of(value).name


@pytest.fixture(scope="module")
def lobby_report(web_gateway: GatewayProcess) -> dict[str, Any]:
    env = {
        "E2E_URL": web_gateway.web_url + "/",
        "E2E_TITLE": TITLE,
        "E2E_STRENGTH": strength_label(CHOSEN_STRENGTH),
        "E2E_MOVES": str(LOBBY_MOVES),
    }
    return run_driver(LOBBY_DRIVER, env, LOBBY_DRIVER_TIMEOUT_SECONDS)


def test_the_lobby_form_names_each_option_and_choice_from_the_titles_catalog(
    lobby_report: dict[str, Any],
) -> None:
    """The page labels a title's options and their choices with the title's catalog's messages
    (`<title>.option.<name>`, `.<choice>`) and describes them with the option's help: never the Config
    field's name or a bare "true"."""
    assert lobby_report["errors"] == [], "\n".join(lobby_report["errors"])
    english = GAME.catalogs.catalogs["en"] if GAME.catalogs else None
    assert english is not None
    shown = {option["name"]: option for option in lobby_report["options"]}
    assert set(shown) == {option.name for option in GAME.info.options}

    def words(template: str) -> str:
        return english.render(rules_pb2.Text(template=template))

    for option in GAME.info.options:
        said = shown[option.name]
        prefix = f"{TITLE}.option.{option.name}"
        assert said["label"] == words(prefix) != option.name
        assert said["help"] == option.description
        assert said["choices"] == [[choice, words(f"{prefix}.{choice}")] for choice in option.choices]


def test_a_bot_added_from_the_page_is_heuristic_unless_another_strength_is_chosen(
    web_gateway: GatewayProcess, lobby_report: dict[str, Any]
) -> None:
    assert lobby_report["errors"] == [], "\n".join(lobby_report["errors"])
    assert lobby_report["strengths"] == [level.name for level in levels.LEVELS]
    assert lobby_report["preselected"] == strength_label(gateway_pb2.BOT_STRENGTH_HEURISTIC)
    with grpc.insecure_channel(web_gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("lobby checker")
        request = gateway_pb2.GetLobbyRequest(lobby_id=lobby_report["lobbyId"])
        lobby = client.lobbies.GetLobby(request, metadata=client.auth, timeout=10).lobby
        game = client.games.GetGame(
            gateway_pb2.GetGameRequest(game_id=lobby_report["gameId"]), metadata=client.auth, timeout=10
        ).game
    host, default, chosen = (seat.bot_strength for seat in lobby.seats)
    assert (host, default, chosen) == (
        gateway_pb2.BOT_STRENGTH_UNSPECIFIED,
        gateway_pb2.BOT_STRENGTH_HEURISTIC,
        CHOSEN_STRENGTH,
    ), f"the lobby's seats have strengths {[strength_label(s) for s in (host, default, chosen)]}"
    assert lobby.game_id == lobby_report["gameId"]
    assert sorted(seat.bot_strength for seat in game.seats) == sorted((host, default, chosen))


def test_the_page_logs_no_failed_request_nor_console_error_while_playing(
    lobby_report: dict[str, Any],
) -> None:
    assert lobby_report["errors"] == [], "\n".join(lobby_report["errors"])
    assert lobby_report["moves"] == LOBBY_MOVES
    assert lobby_report["problems"] == [], "\n".join(lobby_report["problems"])

"""The web client's replay in a real browser (headless Chromium driven by puppeteer-core) against a real
gateway with its browser listener, Redis and rules services (clients/web/test/replay.mjs): a spectator's
page draws a game's board at each version while two guests play it through the API, undoing now and
then; once it is over, the replay, stepped with the → key, the slider, End, Previous and Home, draws at
every step visited the very board the page drew live at that step's version, says which version it is,
shows an undo as one (back to which version) and a move by its label, with that step's events, and in
Traditional Chinese once picked there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2

from i18n.messages import Catalog
from live.games import start_game
from services.common import registry
from services.common.rng import Rng
from tests.gateway.patience import patient_channel
from tests.gateway.replaying import every_step
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players
from tests.gateway.undoing import play_with_undos
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE
from tests.workers.web import WEB_CLIENT, chromium, run_driver

pytestmark = ONE_NODE  # the client's test: the gateway's own tests cover a Redis Cluster

DRIVER = WEB_CLIENT / "test" / "replay.mjs"
DRIVER_TIMEOUT_SECONDS = 300
READY_SECONDS = 60.0
PLAYERS = 2
STEPPED = 12  # the first steps, visited one after another with the → key
JUMPS = 8  # steps further on, visited with the slider
LOCALE = "zh-TW"


def start_live_driver(env: dict[str, str]) -> subprocess.Popen[str]:
    """The live run of the driver, in the background; returns once its page has drawn the board."""
    node = shutil.which("node")
    assert node, "node is not installed"
    process = subprocess.Popen(
        [node, str(DRIVER)],
        cwd=WEB_CLIENT,
        env={**os.environ, "E2E_CHROMIUM": chromium(), **env, "E2E_MODE": "live"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    ready = Path(env["E2E_OUT"]) / "ready"
    deadline = time.monotonic() + READY_SECONDS
    while not ready.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"the live page did not open the game: {process.communicate()}")
        time.sleep(0.1)
    return process


def chosen_steps(record: gateway_pb2.GameRecord, live: dict[str, str]) -> list[int]:
    """The steps the replay visits: the first STEPPED, every undo's, JUMPS spread over the rest whose
    version the live page drew, and the last."""
    count = len(record.actions)
    drawn = [n for n, e in enumerate(record.actions, start=1) if str(e.version) in live and n > STEPPED]
    spread = drawn[:: max(1, len(drawn) // JUMPS)][:JUMPS]
    undos = [n for n, e in enumerate(record.actions, start=1) if e.HasField("returned_to")]
    return sorted({*range(1, min(STEPPED, count) + 1), *undos, *spread, count})


@pytest.fixture(scope="module")
def game(web_gateway: GatewayProcess, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A game of two guests played through the API while a spectator's page draws it, then the
    spectator's page stepping through its replay: the record, the steps as the API gives them to the
    spectator, and the driver's reports of both runs."""
    out = tmp_path_factory.mktemp("replay")
    with patient_channel(web_gateway.address) as channel:
        players = [Client(channel) for _ in range(PLAYERS)]
        for number, player in enumerate(players):
            player.sign_in_as_guest(f"Replay player {number}")
        spectator = Client(channel)
        spectator.sign_in_as_guest("Replay watcher")
        game_id = web_gateway.run(
            start_game(
                web_gateway.app,  # type: ignore[arg-type]
                title=TITLE,
                player_count=PLAYERS,
                options=[],
                seats=seat_players(players),
                clock=gateway_pb2.TurnClock(),
                lobby_id="",
            )
        )
        env = {"E2E_URL": web_gateway.web_url + "/", "E2E_TOKEN": spectator.token, "E2E_GAME": game_id}
        live_run = start_live_driver({**env, "E2E_OUT": str(out)})
        try:
            bound = 2 * registry.get(TITLE).info.max_game_length
            undos = play_with_undos(players, game_id, Rng(17), bound)
            stdout, stderr = live_run.communicate(timeout=DRIVER_TIMEOUT_SECONDS)
        finally:
            live_run.kill()
        assert live_run.returncode == 0, stderr
        live_report = json.loads(stdout.strip().splitlines()[-1])
        assert live_report["errors"] == [], "\n".join(live_report["errors"])
        request = gateway_pb2.GetGameRecordRequest(game_id=game_id)
        record = spectator.games.GetGameRecord(request, metadata=spectator.auth).record
        live = {}
        for drawn in live_report["live"]:
            assert live.setdefault(drawn["version"], drawn["board"]) == drawn["board"], (
                "a version drawn twice"
            )
        steps = chosen_steps(record, live)
        locale_step = next(n for n in steps if record.actions[n - 1].action.type_url)
        replay_report = run_driver(
            DRIVER,
            {**env, "E2E_MODE": "replay", "E2E_OUT": str(out), "E2E_STEPS": json.dumps(steps),
             "E2E_LOCALE_STEP": str(locale_step)},
            DRIVER_TIMEOUT_SECONDS,
        )  # fmt: skip
        served = spectator.catalog.GetCatalog(
            gateway_pb2.GetCatalogRequest(title=TITLE, locale=LOCALE), metadata=spectator.auth
        ).catalog
        return {
            "record": record,
            "undos": undos,
            "live": live,
            "steps": steps,
            "api": every_step(spectator, game_id),
            "report": replay_report,
            "problems": live_report["problems"],
            "catalog": Catalog(served.locale, dict(served.messages)),
            "locale_step": locale_step,
        }


def test_each_step_visited_draws_the_board_the_page_drew_live_at_its_version(game: dict[str, Any]) -> None:
    record, live, report = game["record"], game["live"], game["report"]
    assert report["errors"] == [], "\n".join(report["errors"])
    versions = [0, *(entry.version for entry in record.actions)]
    shown = report["steps"]
    count = len(record.actions)
    visited = [0, *game["steps"], count - 1, 0]
    assert [s["step"] for s in shown] == visited, "the steps the keys, the slider and the buttons went to"
    assert all(s["slider"] == str(s["step"]) for s in shown)
    for step in shown:
        assert step["version"] == str(versions[step["step"]]), f"step {step['step']}"
    compared = [s for s in shown if s["version"] in live]
    for step in compared:
        assert step["board"] == live[step["version"]], f"step {step['step']}: another board than drawn live"
    assert len({s["step"] for s in compared}) >= STEPPED + 2, "few steps drawn live to compare with"
    boards = {s["step"]: s["board"] for s in shown}
    assert len(set(boards.values())) > len(boards) // 2, "the board hardly changes from step to step"


def test_each_step_says_its_move_and_shows_its_events(game: dict[str, Any]) -> None:
    record, api, report = game["record"], game["api"], game["report"]
    undone = set()  # the undo steps visited (one may be visited twice: Previous from the end)
    for step in report["steps"]:
        number = step["step"]
        reply = api[number]
        assert step["events"] == [event.text for event in reply.events], f"step {number}"
        if number == 0:
            assert step["kind"] == "start" and step["position"].startswith("the game as set up")
            continue
        entry = record.actions[number - 1]
        assert step["position"].startswith(f"move {number} of {len(record.actions)}: version {entry.version}")
        if entry.HasField("returned_to"):
            undone.add(number)
            assert step["kind"] == "undo"
            assert step["move"].endswith(
                f"took back their last decision: back to version {entry.returned_to}"
            )
        else:
            assert step["kind"] == "action" and step["move"].endswith(f": {reply.move.label}"), step["move"]
    assert undone == {n for n in game["steps"] if record.actions[n - 1].HasField("returned_to")}
    assert undone, "no undo visited"
    assert game["undos"] > 0


def test_a_moves_label_and_events_show_in_the_language_picked(game: dict[str, Any]) -> None:
    chinese, catalog = game["report"]["chinese"], game["catalog"]
    reply = game["api"][game["locale_step"]]
    assert chinese["step"] == game["locale_step"]
    label = catalog.render(reply.move.message)
    assert label != reply.move.label
    assert chinese["move"].endswith(f"\N{FULLWIDTH COLON}{label}"), chinese["move"]
    assert chinese["events"] == [
        catalog.render(e.message) if e.message.template else e.text for e in reply.events
    ]


def test_the_pages_log_no_failed_request_nor_console_error(game: dict[str, Any]) -> None:
    problems = [*game["problems"], *game["report"]["problems"]]
    assert problems == [], "\n".join(problems)

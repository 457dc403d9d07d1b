"""A title's drawn board in the web client, played and held to golden pictures: a whole game in headless
Chromium clicking the board (`clients/web/test/board-play.mjs`), and the table at fixed positions (a
fixed seed, then each acting seat's first legal action a fixed number of times) screenshotted in each
language of the page and compared with the PNGs `tests/workers/golden/<title>/<position>.<locale>.png`.
BOARD_GOLDEN_UPDATE=1 writes them anew.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from statistics import median
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from PIL import Image, ImageChops

import live.games
from tests.gateway.patience import MAX_RETRIES, rate_limit_delay
from tests.gateway.support import Client, GatewayProcess
from tests.workers.support import new_game
from tests.workers.web import WEB_CLIENT, run_driver

DRIVER = WEB_CLIENT / "test" / "board-play.mjs"
GOLDEN = Path(__file__).resolve().parent / "golden"
UPDATE = "BOARD_GOLDEN_UPDATE"
PLAY_TIMEOUT_SECONDS = 420
SHOTS_TIMEOUT_SECONDS = 120
BOARD_SHARE = 0.8  # of the decisions, at least, taken on the board
# A pixel differs when a channel is off by more than this; a picture matches when at most
# DIFFERENT_PIXELS of its pixels differ (anti-aliasing and font rasterising vary a little).
CHANNEL_TOLERANCE = 48
DIFFERENT_PIXELS = 0.004
SEED = bytes(range(32))


def play(gateway: GatewayProcess, title: str, locale: str, out: Path) -> dict[str, Any]:
    """A whole game played on the board in a browser set to `locale`."""
    env = {
        "E2E_URL": gateway.web_url + "/",
        "E2E_TITLE": title,
        "E2E_OUT": str(out),
        "E2E_PLAY": "1",
        "E2E_PLAY_LOCALE": locale,
    }
    return run_driver(DRIVER, env, PLAY_TIMEOUT_SECONDS)


def check_play(report: dict[str, Any]) -> None:
    """The game finished, mostly clicked on the board, a draw time recorded for at least 9 in 10
    decisions (and printed: `python -m bench.boards` holds them to their target), every label, event
    and term shown found in a catalog."""
    assert report["errors"] == [], "\n".join(report["errors"])
    missing = sorted(set(report["missing"]))
    assert not missing, "shown in English: " + "; ".join(missing)
    assert report["finalStatus"] == "finished"
    decisions = report["decisions"]
    assert decisions > 0
    share = report["boardClicks"] / decisions
    assert share >= BOARD_SHARE, (
        f"{report['boardClicks']} of {decisions} decisions on the board; from the list: "
        + ", ".join(sorted(set(report["listLabels"])))
    )
    times = report["drawMs"]
    assert len(times) >= decisions * 0.9, f"{len(times)} draw times for {decisions} decisions"
    arrivals = sorted(time["arrival"] for time in times if time["arrival"] is not None)
    clicks = sorted(time["click"] for time in times)
    print(
        f"{decisions} decisions, {share:.0%} on the board; ms from a move's arrival to its board: median "
        f"{median(arrivals):.0f} max {max(arrivals):.0f}; from the click: median {median(clicks):.0f} max "
        f"{max(clicks):.0f}"
    )


def fixed_game(gateway: GatewayProcess, title: str, moves: int, monkeypatch: pytest.MonkeyPatch) -> str:
    """A two-seat game of `title` from SEED between two guests, advanced by `moves` moves, each the
    acting seat's first legal action."""
    clients, seats = [], []
    channel = grpc.insecure_channel(gateway.address)
    for seat in range(2):
        client = Client(channel)
        session = client.sign_in_as_guest(f"Golden {seat} {uuid.uuid4().hex[:6]}")
        clients.append(client)
        seats.append(gateway_pb2.GameSeat(seat=seat, player=session.player))
    with monkeypatch.context() as patch:
        patch.setattr(live.games.secrets, "token_bytes", lambda n: SEED[:n])
        game_id = new_game(gateway, title, seats)
    views = {seat: view_of(client, game_id) for seat, client in enumerate(clients)}
    for _ in range(moves):
        seat = views[0].acting_seats[0]
        submit = gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=views[seat].legal_actions[0].action,
            expected_version=views[seat].version,
            request_id=uuid.uuid4().hex,
        )
        views[seat] = submitted(clients[seat], submit)
        views[1 - seat] = view_of(clients[1 - seat], game_id)
    channel.close()
    return game_id


def view_of(client: Client, game_id: str) -> gateway_pb2.GameView:
    """The game as `client`'s seat sees it, with its legal actions."""
    request = gateway_pb2.GetGameRequest(game_id=game_id)
    return patiently(lambda: client.games.GetGame(request, metadata=client.auth, timeout=10).game)


def submitted(client: Client, request: gateway_pb2.SubmitActionRequest) -> gateway_pb2.GameView:
    """The game as `client`'s seat sees it once its action `request` is played."""
    return patiently(lambda: client.games.SubmitAction(request, metadata=client.auth, timeout=10).game)


def patiently(call: Callable[[], gateway_pb2.GameView]) -> gateway_pb2.GameView:
    """The call's answer, waiting out the gateway's per-caller rate limit as clients do."""
    for _ in range(MAX_RETRIES):
        try:
            return call()
        except grpc.RpcError as error:
            delay = rate_limit_delay(error)
            if delay is None:
                raise
            time.sleep(delay)
    raise AssertionError(f"rate limited {MAX_RETRIES} times in a row")


def shoot(
    gateway: GatewayProcess, title: str, games: dict[str, str], locales: list[str], out: Path
) -> dict[str, Any]:
    """Each game's board in each locale (a browser set to that language), to `out/<name>.<locale>.png`."""
    env = {
        "E2E_URL": gateway.web_url + "/",
        "E2E_TITLE": title,
        "E2E_OUT": str(out),
        "E2E_SHOTS": json.dumps([{"name": name, "gameId": game_id} for name, game_id in games.items()]),
        "E2E_LOCALES": json.dumps(locales),
    }
    return run_driver(DRIVER, env, SHOTS_TIMEOUT_SECONDS * len(locales))


def differing(picture: Path, golden: Path) -> float:
    """The share of pixels of `picture` off by more than CHANNEL_TOLERANCE from `golden` (1.0 when the
    sizes differ)."""
    with Image.open(picture) as a, Image.open(golden) as b:
        if a.size != b.size:
            return 1.0
        difference = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
        off = difference.point(lambda value: 255 if value > CHANNEL_TOLERANCE else 0).convert("L")
        off = off.point(lambda value: 255 if value else 0)
        histogram = off.histogram()
        return histogram[255] / (a.size[0] * a.size[1])


def check_golden(title: str, names: list[str], out: Path) -> None:
    """Each picture `out/<name>.png` matches its golden one (written anew with BOARD_GOLDEN_UPDATE=1)."""
    folder = GOLDEN / title
    if os.environ.get(UPDATE):
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            (folder / f"{name}.png").write_bytes((out / f"{name}.png").read_bytes())
    for name in names:
        golden = folder / f"{name}.png"
        assert golden.exists(), f"no golden {golden}: run with {UPDATE}=1 and look at it"
        share = differing(out / f"{name}.png", golden)
        assert share <= DIFFERENT_PIXELS, (
            f"{title} {name}: {share:.2%} of the pixels differ from {golden} (now: {out / f'{name}.png'})"
        )

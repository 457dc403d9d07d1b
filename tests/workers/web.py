"""The web client's browser tests' parts: the Chromium found, a game with bots to draw, and running a
driver of the page's (`clients/web/test/*.mjs`, puppeteer-core) for its JSON report."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from boardgame.gateway.v1 import gateway_pb2

from deploy import programs
from gateway import auth
from gateway.browser import WEB_CLIENT_DIR
from services.common import registry
from tests.gateway.support import GatewayProcess
from tests.workers.support import bot_seat, new_game

WEB_CLIENT = WEB_CLIENT_DIR.parent


def chromium() -> str:
    """Debian's chromium, with the fonts the page's Chinese is drawn in (both installed if need be)."""
    notes: list[str] = []
    found = programs.installed("chromium", os.environ, notes)
    assert found, programs.missing_hint("chromium")
    for package in programs.FONTS:
        assert programs.font_installed(package, os.environ, notes), f"install Debian's package {package}"
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
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return,unused-ignore]

"""The TypeScript client of clients/typescript, built from the protos and run on Node.js against a
real gateway with the settings a user gets: it plays a whole game (of tests.titles.TITLE) by choosing
among the legal actions it receives, waiting out rate limits and reconnecting when its connection is
cut; and, with --match, finds its game through the matchmaker and follows the players' calls (inbox,
chat, my games, rematch)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from tests.clients.proxy import Proxy
from tests.gateway.support import GatewayProcess
from tests.titles import TITLE

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
NPM = shutil.which("npm")
CUT_EVERY_SECONDS = 0.7


@pytest.fixture(scope="module")
def built() -> Path:
    """The compiled client: types generated from protos/ and the TypeScript compiled by tsc."""
    if NPM is None or shutil.which("node") is None:
        pytest.fail("node and npm are needed (`make setup` installs the client's packages)")
    if not (CLIENT / "node_modules").is_dir():
        subprocess.run([NPM, "ci", "--no-audit", "--no-fund"], cwd=CLIENT, check=True, timeout=300)
    for script in ("generate", "build"):
        subprocess.run([NPM, "run", "--silent", script], cwd=CLIENT, check=True, timeout=300)
    return CLIENT / "dist" / "play.js"


def run_client(script: Path, gateway: GatewayProcess, *args: str) -> dict[str, object]:
    result = subprocess.run(
        ["node", str(script), "--gateway", gateway.address, *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    summary: dict[str, object] = json.loads(result.stdout.strip().splitlines()[-1])
    return summary


def test_typescript_client_plays_a_whole_game_with_three_more_guests(
    built: Path, gateway: GatewayProcess
) -> None:
    # No bots: the client fills the other three seats with guests it plays itself, so this runs even
    # without workers.
    summary = run_client(built, gateway, "--title", TITLE, "--seats", "4", "--bots", "0", "--humans", "3")
    assert summary["title"] == TITLE and summary["humans"] == 4
    assert summary["replay_consistent"] is True
    actions = summary["actions"]
    assert isinstance(actions, int) and actions > 50
    assert summary["moves_by_this_client"] == actions
    totals = summary["totals"]
    winners = summary["winners"]
    assert isinstance(totals, list) and len(totals) == 4
    assert isinstance(winners, list) and winners
    assert all(totals[seat] == max(totals) for seat in winners)


def test_typescript_client_refuses_a_title_the_gateway_does_not_offer(
    built: Path, gateway: GatewayProcess
) -> None:
    result = subprocess.run(
        ["node", str(built), "--gateway", gateway.address, "--title", "chess", "--bots", "3"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 1
    assert "does not offer chess" in result.stderr


def test_typescript_client_plays_against_three_bots(
    built: Path, gateway: GatewayProcess, worker: None
) -> None:
    summary = run_client(built, gateway, "--title", TITLE, "--seats", "4", "--bots", "3")
    assert summary["humans"] == 1 and summary["replay_consistent"] is True
    moves = summary["moves_by_this_client"]
    actions = summary["actions"]
    assert isinstance(moves, int) and isinstance(actions, int) and 0 < moves < actions


def test_typescript_client_reopens_its_streams_when_the_connection_is_cut(
    built: Path, gateway: GatewayProcess
) -> None:
    """Every connection is dropped again and again while the game is played (as a gateway restart
    would): the client reconnects, resumes each stream from the last version it saw, and finishes."""
    with Proxy(gateway.address) as proxy:
        client = subprocess.Popen(
            ["node", str(built), "--gateway", proxy.address, "--seats", "4", "--bots", "0", "--humans", "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            while client.poll() is None and proxy.cuts < 20:
                time.sleep(CUT_EVERY_SECONDS)
                proxy.cut()
            out, err = client.communicate(timeout=300)
        finally:
            if client.poll() is None:
                client.kill()
    assert client.returncode == 0, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert proxy.cuts >= 2 and summary["replay_consistent"] is True
    reopened = summary["watch_streams_reopened"]
    assert isinstance(reopened, int) and reopened >= 4, "each seat's stream was cut at least once"
    assert summary["moves_by_this_client"] == summary["actions"]


def test_typescript_client_finds_a_match_follows_its_inbox_chats_lists_its_games_and_rematches(
    built: Path, gateway: GatewayProcess
) -> None:
    summary = run_client(
        built, gateway, "--title", TITLE, "--seats", "2", "--bots", "0", "--humans", "1", "--match"
    )
    assert summary["matched"] is True and summary["humans"] == 2
    assert summary["search_cancelled_first"] is True, "CancelMatch ended the first search"
    assert summary["replay_consistent"] is True and summary["moves_by_this_client"] == summary["actions"]
    assert summary["chat_received"] == 2, "both players' watch streams brought the chat message"
    assert summary["my_games_listed"] == 2, "ListMyGames lists the finished game for both"
    your_turns = summary["inbox_your_turns"]
    assert isinstance(your_turns, int) and your_turns >= 2, "each player's inbox told them of their turn"
    assert summary["rematch_invited"] == 1, "the rematch invited the other player through their inbox"

"""The TypeScript client of clients/typescript, built from the protos and run on Node.js against a
real gateway with the settings a user gets: it plays a whole game (of tests.titles.TITLE) by choosing
among the legal actions it receives, waiting out rate limits and reconnecting when its connection is
cut; and, with --match, finds its game through the matchmaker and follows the players' calls (inbox,
chat, my games, rematch)."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import redis

from live import keys
from services.common import registry, titledata
from tests.clients.proxy import Proxy, cut_while_running, summary_of
from tests.gateway.support import GatewayProcess
from tests.titles import TITLE

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "typescript"
NPM = shutil.which("npm")


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
    data, declared = summary["title_data"], registry.get(TITLE).title_data
    assert isinstance(data, dict) and declared is not None
    assert data["type"] == declared.message.DESCRIPTOR.full_name and data["unchanged_when_known"] is True
    assert data["digest"] == titledata.game_data(declared).digest
    fields = {field.name for field in declared.message.DESCRIPTOR.fields}
    assert data["fields"] and set(data["fields"]) <= fields, "decoded with the protos alone"
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
        argv = [
            "node",
            str(built),
            "--gateway",
            proxy.address,
            "--seats",
            "4",
            "--bots",
            "0",
            "--humans",
            "3",
        ]
        summary = summary_of(argv, cut_while_running(proxy))
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


DOCUMENTED = re.compile(r"^node dist/play\.js (.+?)\s*$", re.MULTILINE)


def documented_commands() -> list[list[str]]:
    """The client's commands as docs/clients.md gives them (run from clients/typescript)."""
    text = (CLIENT.parents[1] / "docs" / "clients.md").read_text()
    commands = [shlex.split(args) for args in DOCUMENTED.findall(text)]
    assert len(commands) >= 2, "docs/clients.md gives the client's two commands"
    return commands


@pytest.mark.parametrize("args", documented_commands(), ids=" ".join)
def test_the_documented_commands_run_as_given(
    built: Path, gateway: GatewayProcess, worker: None, args: list[str]
) -> None:
    """Each `node dist/play.js ...` line of docs/clients.md, run as given against a suite like the one
    `make run` starts (a gateway and a worker), but for the gateway's address."""
    gateway_at = args.index("--gateway") + 1
    args[gateway_at] = gateway.address
    result = subprocess.run(
        ["node", str(built), *args], capture_output=True, text=True, timeout=600, cwd=CLIENT
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["replay_consistent"] is True
    if "--match" in args:
        assert summary["rematch_invited"] == summary["humans"] - 1


def moving_game(redis_url: str, title: str, before: set[bytes], version: int) -> None:
    """Wait until a game of `title` not among `before` has reached `version`: its players were
    matched into it and are playing."""
    with redis.Redis.from_url(redis_url) as store:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            for game_id in store.smembers(keys.live_games(title)) - before:
                if int(store.get(keys.game_version(game_id.decode())) or 0) >= version:
                    return
            time.sleep(0.02)
    raise AssertionError(f"no new game of {title} reached version {version}")


def test_the_documented_match_command_follows_the_inboxes_across_a_cut_connection(
    built: Path, gateway: GatewayProcess, worker: None
) -> None:
    """The documented --match command, its connections cut once while its game is played (a network
    change, a gateway restarting): each inbox stream is opened again from the last event received
    (docs/clients.md), so the rematch's invitation still comes."""
    args = next(args for args in documented_commands() if "--match" in args)
    with Proxy(gateway.address) as proxy:
        args[args.index("--gateway") + 1] = proxy.address
        with redis.Redis.from_url(gateway.settings.redis_url) as store:
            before = set(store.smembers(keys.live_games(TITLE)))

        def cut_once_it_moves(_client: subprocess.Popen[str]) -> None:
            moving_game(gateway.settings.redis_url, TITLE, before, version=10)
            proxy.cut()

        summary = summary_of(["node", str(built), *args], cut_once_it_moves, cwd=CLIENT)
    assert summary["watch_streams_reopened"] >= 2, "each player's game stream was cut and reopened"
    assert summary["inbox_streams_reopened"] >= 2, "each player's inbox stream was cut and reopened"
    assert summary["rematch_invited"] == 1, "the invitation came on the reopened inbox stream"

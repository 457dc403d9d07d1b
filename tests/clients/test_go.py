"""The Go client of clients/go, generated from protos/ by build.sh and compiled offline against
Debian's Go packages, run against a real gateway and worker with the settings a user gets: it plays a
whole game (of tests.titles.TITLE) with bots in the other seats by choosing among the labelled legal
actions, and reads the ErrorInfo of a refusal it provokes. Without the Go toolchain (and no way to
install it) the tests fail in CI and are skipped, with the reason, elsewhere."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from deploy import go_client
from live.settings import DEFAULT_RATE_LIMITS
from tests.clients.proxy import Proxy, cut_while_running, summary_of
from tests.gateway.support import GatewayProcess
from tests.titles import GAME, TITLE

CLIENT = Path(__file__).resolve().parents[2] / "clients" / "go"
SEATS = min(4, GAME.info.max_players)


@pytest.fixture(scope="module")
def built() -> Path:
    """The compiled client: Go code generated from protos/ and `go build` in GOPATH mode."""
    notes: list[str] = []
    absent = go_client.ensure(os.environ, notes)
    if absent:
        reason = go_client.missing_hint(absent)
        if go_client.required(os.environ):
            pytest.fail(reason)
        pytest.skip(reason)
    result = subprocess.run([str(CLIENT / "build.sh")], capture_output=True, text=True, timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return CLIENT / "build" / "play"


def run_client(play: Path, gateway: GatewayProcess, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(play), "-gateway", gateway.address, *args], capture_output=True, text=True, timeout=600
    )


def test_go_client_plays_a_whole_game_against_bots_and_reads_a_refusal(
    built: Path, gateway: GatewayProcess, worker: None
) -> None:
    result = run_client(built, gateway, "-title", TITLE, "-seats", str(SEATS))
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["title"] == TITLE and summary["seats"] == SEATS and summary["bots"] == SEATS - 1
    assert summary["replay_consistent"] is True
    moves, actions = summary["moves_by_this_client"], summary["actions"]
    assert 0 < moves < actions
    # Each move is logged with the label of the legal action chosen.
    played = [line for line in result.stderr.splitlines() if line.startswith("played v")]
    assert len(played) == moves and all(line.split(": ", 1)[1] for line in played)
    totals, winners = summary["totals"], summary["winners"]
    assert len(totals) == SEATS and winners and all(totals[seat] == max(totals) for seat in winners)
    # The move sent for a version the game had not reached: its ErrorInfo names the current version.
    assert (summary["refusal_code"], summary["refusal_reason"]) == ("Aborted", "STALE_VERSION")
    assert summary["refusal_metadata"]["version"].isdigit()
    assert "refused on purpose: Aborted STALE_VERSION {" in result.stderr


def test_go_client_refuses_a_title_the_gateway_does_not_offer(built: Path, gateway: GatewayProcess) -> None:
    result = run_client(built, gateway, "-title", "chess")
    assert result.returncode == 1
    assert "does not offer chess" in result.stderr


def test_go_client_sources_are_formatted_and_vetted(built: Path) -> None:
    sources = sorted(str(path) for path in CLIENT.glob("*.go"))
    formatted = subprocess.run(["gofmt", "-l", *sources], capture_output=True, text=True, timeout=60)
    assert formatted.returncode == 0 and formatted.stdout == "", formatted.stdout + formatted.stderr
    gopath = os.pathsep.join([str(CLIENT / "build"), os.environ.get("GOCODE", go_client.GOCODE)])
    vetted = subprocess.run(
        ["go", "vet", "."],
        cwd=CLIENT,
        env={**os.environ, "GO111MODULE": "off", "GOPATH": gopath},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert vetted.returncode == 0, vetted.stderr


def test_go_clients_signing_in_at_once_wait_out_the_rate_limit(built: Path, gateway: GatewayProcess) -> None:
    """More clients than the per-address guest limit sign in in the same second (each then stops at
    the title the gateway does not offer): the refused ones wait the delay the refusal gives, and
    every one gets through."""
    count = 3 * DEFAULT_RATE_LIMITS["guest"]
    clients = [
        subprocess.Popen(
            [str(built), "-gateway", gateway.address, "-title", "chess"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(count)
    ]
    errors = [client.communicate(timeout=120)[1] for client in clients]
    assert all("does not offer chess" in error for error in errors), errors
    assert any("rate limited: retrying in" in error for error in errors)


def test_go_client_reopens_its_stream_when_the_connection_is_cut(
    built: Path, gateway: GatewayProcess, worker: None
) -> None:
    """Every connection is dropped again and again while the game is played (as a gateway restart
    would): the client reconnects, resumes its stream from the last version it saw, and finishes."""
    with Proxy(gateway.address) as proxy:
        argv = [str(built), "-gateway", proxy.address, "-title", TITLE, "-seats", str(SEATS)]
        summary = summary_of(argv, cut_while_running(proxy))
    assert proxy.cuts >= 2 and summary["replay_consistent"] is True
    assert summary["watch_streams_reopened"] >= 1

"""`bg replay GAME_ID --step N` and `--browse`: `bg` run as a process against a real gateway, Redis and
rules services steps through a finished game its player played with undos (the other seat played
through the API), each step's table the one its seat was shown live at that version, drawn by the
title's renderer, the move's label the one the mover chose, in the reader's language."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from cli.client import Client as CliClient
from cli.screen import Screen
from i18n.messages import Catalog
from services.common import registry
from services.common.rng import Rng
from tests.clients.conftest import Bg
from tests.clients.test_cli_undo import sessions, table
from tests.gateway.patience import patient_channel
from tests.gateway.replaying import Watcher, as_replayed, seen_by, setup_events, watchers
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.undoing import play_with_undos
from tests.titles import TITLE


@pytest.fixture
def channel(gateway: GatewayProcess) -> Iterator[grpc.Channel]:
    """A channel to the gateway whose calls wait out its rate limits, as clients do."""
    with patient_channel(gateway.address) as opened:
        yield opened


def drawn(bg: Bg, token: str, game: gateway_pb2.GameView) -> list[str]:
    """The lines `bg`'s screen draws for a view, in English (its header, table and scores)."""
    out = io.StringIO()
    client = CliClient(bg.address, token, out, io.StringIO(), lang="en")
    try:
        Screen(client.say, client.title_data, client.words).show(game)
    finally:
        client.channel.close()
    return out.getvalue().splitlines()


@dataclass(frozen=True)
class Played:
    """A finished game: its id, its players' API clients, what each seat was shown live, its record and
    the events of its setup."""

    game_id: str
    clients: list[Client]
    seats: list[Watcher]
    record: gateway_pb2.GameRecord
    setup: list[rules_pb2.Event]


def played_game(bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path) -> Played:
    """A finished game of `bg`'s player (seat 0) and another, with undos."""
    bgs = sessions(bg, tmp_path, 2)
    game_id, clients = table(gateway, bgs, channel)
    setup = setup_events(gateway, game_id)
    seats = watchers(clients, game_id)
    undos = play_with_undos(clients, game_id, Rng(5), 2 * registry.get(TITLE).info.max_game_length)
    assert undos > 0
    for watcher in seats:
        watcher.finish()
    request = gateway_pb2.GetGameRecordRequest(game_id=game_id)
    record = clients[0].games.GetGameRecord(request, metadata=clients[0].auth).record
    return Played(game_id, clients, seats, record, setup)


def chosen(seats: list[Watcher], entry: gateway_pb2.LoggedAction):  # type: ignore[no-untyped-def]
    """The legal action an entry played, as its seat was shown it before."""
    offered = seats[entry.seat].views[entry.version - 1].legal_actions
    return next(legal for legal in offered if legal.action == entry.action)


def test_bg_replay_step_prints_that_steps_move_events_and_table(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    game = played_game(bg, gateway, channel, tmp_path)
    game_id, seats, record = game.game_id, game.seats, game.record
    count = len(record.actions)
    undone = next(n for n, e in enumerate(record.actions, start=1) if e.HasField("returned_to"))
    theirs = next(n for n, e in enumerate(record.actions, start=1) if e.seat == 1 and e.action.type_url)
    names = {0: "seat 0 player 0 (you)", 1: "seat 1 player 1"}
    for step in (0, theirs, undone, count):
        code, out, err = bg("replay", game_id, "--step", str(step))
        assert code == 0, err
        entry = record.actions[step - 1] if step else None
        version = entry.version if entry is not None else 0
        if entry is None:
            move = "the game as set up, before any move"
        elif entry.HasField("returned_to"):
            back = f"back to version {entry.returned_to} (version {version})"
            move = f"{names[entry.seat]} undid their decision: {back}"
        else:
            move = f"{names[entry.seat]}: {chosen(seats, entry).label} (version {version})"
        shown = seats[0].events[version] if step else seen_by(game.setup, 0, 0)
        events = [f"  * {event.text}" for event in shown if event.text]
        expected = [
            f"-- step {step} of {count}: {move}",
            *events,
            *drawn(bg, game.clients[0].token, as_replayed(seats[0].views[version])),
        ]
        assert out.splitlines() == expected, f"step {step}"
    code, out, err = bg("replay", game_id, "--step", str(count + 1))
    assert code == 1 and f"step must be 0 to {count}" in err


def test_bg_replay_shows_a_moves_label_in_the_readers_language(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    game = played_game(bg, gateway, channel, tmp_path)
    game_id, clients, seats, record = game.game_id, game.clients, game.seats, game.record
    step, entry = next((n, e) for n, e in enumerate(record.actions, start=1) if e.action.type_url)
    served = (
        clients[0]
        .catalog.GetCatalog(
            gateway_pb2.GetCatalogRequest(title=TITLE, locale="zh-TW"), metadata=clients[0].auth
        )
        .catalog
    )
    label = Catalog(served.locale, dict(served.messages)).render(chosen(seats, entry).message)
    assert label != chosen(seats, entry).label and re.search("[\u4e00-\u9fff]", label)
    code, out, err = bg("--lang", "zh-TW", "replay", game_id, "--step", str(step))
    assert code == 0, err
    player = "seat 0 player 0 (you)" if entry.seat == 0 else "seat 1 player 1"
    assert (
        out.splitlines()[0]
        == f"-- step {step} of {len(record.actions)}: {player}: {label} (version {entry.version})"
    )


def test_bg_replay_browse_steps_by_its_keys(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    game = played_game(bg, gateway, channel, tmp_path)
    game_id, count = game.game_id, len(game.record.actions)
    code, out, err = bg("replay", game_id, "--browse", stdin="\nn\np\nl\nn\nf\n3\nnine\nq\n")
    assert code == 0, err
    assert [int(n) for n in re.findall(r"-- step (\d+) of (?:\d+)", out)] == [0, 1, 2, 1, count, 0, 3]
    assert f"type n, p, f, l, a step from 0 to {count}, or q" in out
    code, out, err = bg("replay", game_id, "--browse", "--step", str(count))  # input ends: it ends
    assert code == 0, err
    assert re.findall(r"-- step (\d+) of", out) == [str(count)] and "game over" in out

"""`bg undo`, `bg takeback` (asking and answering), `u` while playing, a lobby's undo settings from
`bg new`, and undos in `bg replay`: `bg` run as a process against a real gateway, Redis and rules
services, the other players played through the API."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from live.games import start_game
from services.common import registry
from services.common.rng import Rng
from tests.clients.conftest import Bg
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players
from tests.gateway.undoing import find_undoable, hand_over, play_with_undos, view
from tests.titles import TITLE


@pytest.fixture
def channel(gateway: GatewayProcess) -> Iterator[grpc.Channel]:
    with patient_channel(gateway.address) as opened:
        yield opened


def table(
    gateway: GatewayProcess, bgs: list[Bg], channel: grpc.Channel, rated: bool = True
) -> tuple[str, list[Client]]:
    """A game of TITLE whose seats are the `bg` sessions' players, in order, and their API clients."""
    for number, each in enumerate(bgs):
        assert each("guest", f"player {number}")[0] == 0
    clients = [each.api(channel) for each in bgs]
    game_id = gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=TITLE,
            player_count=len(clients),
            options=[],
            seats=seat_players(clients),
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
            rated=rated,
        )
    )
    return game_id, clients


def sessions(bg: Bg, tmp_path: Path, count: int) -> list[Bg]:
    return [bg, *(Bg(tmp_path / f"bg{number}", bg.address) for number in range(1, count))]


def test_bg_undo_takes_back_a_decision_and_says_why_it_cannot(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    bgs = sessions(bg, tmp_path, 3)
    game_id, clients = table(gateway, bgs, channel)
    found = find_undoable(clients, game_id)
    who = bgs[clients.index(found.client)]
    code, out, err = who("undo", game_id)
    assert code == 0, err
    assert out.strip() == (
        f"took back your last decision: back to version {found.before.version}"
        f" (now version {found.after.version + 1})"
    )
    assert view(found.client, game_id).view == found.before.view
    never = next(
        b
        for b, c in zip(bgs, clients, strict=True)
        if view(c, game_id).seat not in view(c, game_id).acting_seats
    )
    code, out, _ = never("undo", game_id)
    assert code == 1 and out.startswith("cannot undo: you have no decision to take back")
    done = hand_over(clients, game_id)
    code, out, _ = bgs[clients.index(done.client)]("undo", game_id)
    assert code == 1 and out.startswith("cannot undo: your last decision can no longer be undone")
    assert f"`bg takeback {game_id}` asks the others" in out


def test_u_while_playing_undoes_the_last_decision(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    bgs = sessions(bg, tmp_path, 3)
    game_id, clients = table(gateway, bgs, channel)
    found = find_undoable(clients, game_id)
    who = bgs[clients.index(found.client)]
    code, out, err = who("play", game_id, stdin="u\nu\nq\n")
    assert code == 0, err
    assert re.search(r"your move \[1-\d+, u to undo, q to quit\]", out)
    assert f"took back your last decision: back to version {found.before.version}" in out
    assert "left the game" in out
    assert view(found.client, game_id).version >= found.after.version + 1


def test_bg_takeback_asks_and_the_others_answer(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    bgs = sessions(bg, tmp_path, 3)
    game_id, clients = table(gateway, bgs, channel, rated=False)
    done = hand_over(clients, game_id)
    asker = bgs[clients.index(done.client)]
    others = [b for b, c in zip(bgs, clients, strict=True) if c is not done.client]
    code, out, err = asker("takeback", game_id)
    assert code == 0, err
    pattern = (
        rf"^takeback asked by seat {done.before.seat} .*\(back to version {done.before.version}\): "
        r"waiting for seat \d .*, seat \d .* until \d\d:\d\d:\d\d UTC$"
    )
    assert re.match(pattern, out.strip()), out
    code, out, err = others[0]("takeback", game_id, "--decline")
    assert code == 0, err
    assert out.startswith("declined. takeback asked by") and ": declined by seat" in out
    code, out, _ = others[1]("takeback", game_id, "--accept")
    assert code == 1 and out.strip() == "no takeback request is pending in this game"
    assert asker("takeback", game_id)[0] == 0
    code, out, err = others[0]("takeback", game_id, "--accept")
    assert code == 0 and out.startswith("accepted. takeback asked by") and ": waiting for seat" in out, err
    code, out, err = others[1]("takeback", game_id, "--accept")
    assert code == 0, err
    assert out.strip().endswith(f": accepted: taken back (now version {done.version + 1})")
    assert view(done.client, game_id).view == done.before.view
    code, out, _ = asker("takeback", game_id, "--accept")
    assert code == 1 and "no takeback request is pending" in out


def test_bg_new_sets_the_lobbys_undo_settings(bg: Bg, gateway: GatewayProcess) -> None:
    assert bg("guest", "Dora")[0] == 0
    code, out, err = bg(
        "new", TITLE, "--seats", "3", "--bots", "2", "--unrated", "--undo", "own-turn-only",
        "--bot-takebacks", "decline",
    )  # fmt: skip
    assert code == 0, err
    game_id = re.search(r"game (\S+) started", out)
    assert game_id, out
    record = gateway.run(gateway.app.store.meta(game_id.group(1))).record  # type: ignore[union-attr]
    assert (record.undo, record.unrated, record.bot_takebacks) == (
        gateway_pb2.UNDO_POLICY_OWN_TURN_ONLY,
        True,
        gateway_pb2.BOT_TAKEBACKS_DECLINE,
    )


def test_bg_replay_shows_each_undo_as_the_version_it_went_back_to(
    bg: Bg, gateway: GatewayProcess, channel: grpc.Channel, tmp_path: Path
) -> None:
    bgs = sessions(bg, tmp_path, 2)
    game_id, clients = table(gateway, bgs, channel)
    undos = play_with_undos(clients, game_id, Rng(3), 2 * registry.get(TITLE).info.max_game_length)
    code, out, err = bg("replay", game_id)
    assert code == 0, err
    shown = re.findall(r"^\s+\d+\s+seat \d .*: undo: back to version (\d+)$", out, re.M)
    assert len(shown) == undos > 0
    assert re.search(r"replay consistent: (\d+) actions re-applied", out)

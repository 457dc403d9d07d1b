"""`bg new` (bots by default heuristic, bots-only games, nothing left behind on failure) and
`bg resign`, checked through the gateway API with the session `bg` saved."""

from __future__ import annotations

import re

import grpc
from boardgame.gateway.v1 import gateway_pb2

from tests.clients.conftest import Bg
from tests.gateway.support import Client
from tests.titles import GAME, TITLE

SEATS = GAME.info.min_players  # the fewest seats the title plays with


def game_of(out: str) -> str:
    """The game id `bg` announced."""
    found = re.search(r"^game (\S+) started$", out, re.M)
    assert found, out
    return found.group(1)


def view(api: Client, game_id: str) -> gateway_pb2.GameView:
    """The caller's view of a game."""
    return api.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=api.auth).game


def open_lobbies_hosted(api: Client) -> list[gateway_pb2.Lobby]:
    """The caller's lobbies still open for players."""
    me = api.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=api.auth).player.player_id
    request = gateway_pb2.ListLobbiesRequest(page_size=100)
    listed = api.lobbies.ListLobbies(request, metadata=api.auth).lobbies
    return [lobby for lobby in listed if lobby.host_player_id == me]


def test_bg_new_seats_heuristic_bots_by_default(bg: Bg, channel: grpc.Channel) -> None:
    assert bg("guest", "Hana")[0] == 0
    code, out, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", "1")
    assert code == 0 and "Easy bot " in out, err
    seats = view(bg.api(channel), game_of(out)).seats
    assert [seat.bot_strength for seat in seats if seat.player.bot] == [gateway_pb2.BOT_STRENGTH_HEURISTIC]


def test_bg_new_with_a_bot_on_every_seat_starts_a_game_to_watch(bg: Bg, channel: grpc.Channel) -> None:
    assert bg("guest", "Ivo")[0] == 0
    code, out, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", str(SEATS))
    assert code == 0, err
    game = view(bg.api(channel), game_of(out))
    assert not game.HasField("seat"), "the host watches"
    assert len(game.seats) == SEATS and all(seat.player.bot for seat in game.seats)
    assert open_lobbies_hosted(bg.api(channel)) == []


def test_bg_new_private_with_no_spectators_lets_only_its_host_watch(bg: Bg, channel: grpc.Channel) -> None:
    assert bg("guest", "Ines")[0] == 0
    code, out, err = bg(
        "new", TITLE, "--seats", str(SEATS), "--bots", str(SEATS), "--private", "--spectators", "none"
    )
    assert code == 0, err
    game_id = game_of(out)
    assert not view(bg.api(channel), game_id).HasField("seat"), "the host, who gave their seat, watches"
    assert bg("guest", "Outsider")[0] == 0
    code, _, err = bg("watch", game_id)
    assert code == 1 and "only its players may watch this game" in err, err


def test_bg_new_watches_a_bots_only_game_to_its_end(bg: Bg, worker: None) -> None:
    assert bg("guest", "Jan")[0] == 0
    code, out, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", str(SEATS), "--play")
    assert code == 0, err
    assert "you have no seat in this game: watching it" in out and "your move" not in out
    assert "Final scores:" in out


def test_a_failed_bg_new_leaves_no_lobby_behind(bg: Bg, channel: grpc.Channel) -> None:
    assert bg("guest", "Kim")[0] == 0
    code, _, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", str(SEATS + 1))
    assert code == 1 and "every seat of the lobby is taken" in err
    assert re.search(r"^bg: closed the lobby \w+$", err, re.M)
    assert open_lobbies_hosted(bg.api(channel)) == []


def test_bg_resign_hands_the_seat_to_a_bot(bg: Bg, channel: grpc.Channel) -> None:
    assert bg("guest", "Lea")[0] == 0
    code, out, err = bg("new", TITLE, "--seats", str(SEATS), "--bots", "1")
    assert code == 0, err
    game_id = game_of(out)
    code, out, err = bg("resign", game_id)
    assert code == 0, err
    assert re.search(
        rf"^resigned game {game_id}: a bot plays seat \d Lea \(bot, resigned\) to the end$", out, re.M
    )
    api = bg.api(channel)
    me = api.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=api.auth).player.player_id
    assert [seat.resigned for seat in view(api, game_id).seats if seat.player.player_id == me] == [True]
    code, _, err = bg("resign", game_id)
    assert code == 1 and err.startswith("bg: ") and "Traceback" not in err, "a second resignation is refused"

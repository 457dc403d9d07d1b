"""`bg titles`, `bg lobbies`, `bg new`, `bg join`, `bg start`: finding a game and gathering its seats."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import grpc
from boardgame.gateway.v1 import gateway_pb2

from cli.client import Client
from cli.clock import clock_of
from cli.options import option_lines
from cli.table import follow

# The bot levels, weakest first, then the older names of easy and medium (still accepted).
STRENGTHS = {
    "random": gateway_pb2.BOT_STRENGTH_RANDOM,
    "easy": gateway_pb2.BOT_STRENGTH_EASY,
    "medium": gateway_pb2.BOT_STRENGTH_MEDIUM,
    "hard": gateway_pb2.BOT_STRENGTH_HARD,
    "heuristic": gateway_pb2.BOT_STRENGTH_HEURISTIC,
    "search": gateway_pb2.BOT_STRENGTH_SEARCH,
}
LEVEL_NAMES = ("random", "easy", "medium", "hard")
DEFAULT_STRENGTH = "easy"
SPECTATORS = {
    "anyone": gateway_pb2.SPECTATORS_ANYONE,
    "invited": gateway_pb2.SPECTATORS_INVITED,
    "none": gateway_pb2.SPECTATORS_NONE,
}
UNDO_POLICIES = {
    "allowed": gateway_pb2.UNDO_POLICY_ALLOWED,
    "own-turn-only": gateway_pb2.UNDO_POLICY_OWN_TURN_ONLY,
    "off": gateway_pb2.UNDO_POLICY_OFF,
}
BOT_TAKEBACKS = {"accept": gateway_pb2.BOT_TAKEBACKS_ACCEPT, "decline": gateway_pb2.BOT_TAKEBACKS_DECLINE}


def cmd_titles(client: Client, args: argparse.Namespace) -> int:
    """List the titles with their player counts, options and bot levels (with their ratings)."""
    catalog = client.call(client.catalog.ListTitles, gateway_pb2.ListTitlesRequest())
    levels = {entry.title: entry.levels for entry in catalog.bot_levels}
    for info in catalog.titles:
        client.say(f"{info.name:<12} {info.display_name} ({info.min_players}-{info.max_players} players)")
        for line in option_lines(client, info):
            client.say(f"{'':14}{line}")
        for line in bot_level_lines(levels.get(info.name, [])):
            client.say(f"{'':14}{line}")
    return 0


def bot_level_lines(levels: Sequence[gateway_pb2.BotLevel]) -> list[str]:
    """A title's bot levels (for --strength), each with its rating as the leaderboard shows ratings
    and its openskill mu and sigma."""
    if not levels:
        return []
    measured = [level for level in levels if level.games]
    if not measured:
        return ["bots: " + ", ".join(level.name for level in levels) + " (not rated yet)"]
    lines = [
        f"bots (rating, mu +- sigma; {max(level.games for level in measured)} self-play games,"
        f" {measured[0].measured_on}):"
    ]
    for level in levels:
        rated = f"{level.rating:6.1f}  {level.mu:5.1f} +- {level.sigma:.1f}" if level.games else "     -"
        lines.append(f"  {level.name:<8}{rated}")
    return lines


def lobby_line(lobby: gateway_pb2.Lobby) -> str:
    """One lobby on one line."""
    taken = sum(1 for seat in lobby.seats if seat.HasField("player"))
    names = ", ".join(seat.player.display_name for seat in lobby.seats if seat.HasField("player"))
    status = gateway_pb2.LobbyStatus.Name(lobby.status).removeprefix("LOBBY_STATUS_").lower()
    return f"{lobby.lobby_id}  {lobby.title}  {taken}/{lobby.seat_count}  {status}  [{names}]"


def cmd_lobbies(client: Client, args: argparse.Namespace) -> int:
    """List public open lobbies."""
    request = gateway_pb2.ListLobbiesRequest(title=args.title or "", page_size=50)
    response = client.call(client.lobbies.ListLobbies, request)
    for lobby in response.lobbies:
        client.say(lobby_line(lobby))
    if not response.lobbies:
        client.say("no open lobbies")
    return 0


def _host_seat(lobby: gateway_pb2.Lobby) -> int | None:
    for seat in lobby.seats:
        if seat.player.player_id == lobby.host_player_id:
            return seat.seat
    return None


def cmd_new(client: Client, args: argparse.Namespace) -> int:
    """Open a lobby and seat bots; once every seat is taken, start it (and play or watch it). With as
    many bots as seats the caller gives its own seat to the last bot and watches. If anything fails
    before the game starts, the lobby is closed again."""
    options = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in args.option]
    request = gateway_pb2.CreateLobbyRequest(
        title=args.title,
        seat_count=args.seats,
        options=options,
        visibility=gateway_pb2.VISIBILITY_PRIVATE if args.private else gateway_pb2.VISIBILITY_PUBLIC,
        clock=clock_of(args),
        spectators=SPECTATORS.get(args.spectators or "", gateway_pb2.SPECTATORS_UNSPECIFIED),
        undo=UNDO_POLICIES.get(args.undo or "", gateway_pb2.UNDO_POLICY_UNSPECIFIED),
        unrated=args.unrated,
        bot_takebacks=BOT_TAKEBACKS.get(args.bot_takebacks or "", gateway_pb2.BOT_TAKEBACKS_UNSPECIFIED),
    )
    lobby = client.call(client.lobbies.CreateLobby, request).lobby
    try:
        for number in range(args.bots):
            seat = _host_seat(lobby) if number == args.seats - 1 else None
            bot = gateway_pb2.AddBotRequest(
                lobby_id=lobby.lobby_id, strength=STRENGTHS[args.strength], seat=seat
            )
            lobby = client.call(client.lobbies.AddBot, bot).lobby
        client.say(f"lobby {lobby_line(lobby)}")
        if lobby.invite_code:
            client.say(f"invite code: {lobby.invite_code}")
        if args.bots < args.seats - 1:
            client.say(
                f"waiting for players: they run `bg join {lobby.lobby_id}`; then `bg start {lobby.lobby_id}`"
            )
            return 0
        game_id = start_game(client, lobby.lobby_id)
    except BaseException:
        close(client, lobby.lobby_id)
        raise
    return after_start(client, game_id, play_after=args.play)


def close(client: Client, lobby_id: str) -> None:
    """Close a lobby the caller hosts (leaving it closes it); say so."""
    try:
        client.call(client.lobbies.LeaveLobby, gateway_pb2.LeaveLobbyRequest(lobby_id=lobby_id))
    except grpc.RpcError as error:
        print(f"bg: could not close the lobby {lobby_id}: {error.details()}", file=sys.stderr)
        return
    print(f"bg: closed the lobby {lobby_id}", file=sys.stderr)


def cmd_join(client: Client, args: argparse.Namespace) -> int:
    """Take a seat in a lobby."""
    request = gateway_pb2.JoinLobbyRequest(lobby_id=args.lobby_id, invite_code=args.code or "")
    client.say(f"joined {lobby_line(client.call(client.lobbies.JoinLobby, request).lobby)}")
    return 0


def cmd_start(client: Client, args: argparse.Namespace) -> int:
    """Start a lobby's game (host only)."""
    return after_start(client, start_game(client, args.lobby_id), play_after=args.play)


def start_game(client: Client, lobby_id: str) -> str:
    """Start the game of a full lobby; its id."""
    request = gateway_pb2.StartGameRequest(lobby_id=lobby_id)
    game_id: str = client.call(client.lobbies.StartGame, request).game_id
    client.say(f"game {game_id} started")
    return game_id


def after_start(client: Client, game_id: str, *, play_after: bool) -> int:
    """Play (or, without a seat, watch) the game if asked; else say how to."""
    if play_after:
        return follow(client, game_id, play=True)
    client.say(f"play it with `bg play {game_id}`, watch it with `bg watch {game_id}`")
    return 0

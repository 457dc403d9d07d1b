"""The `bg` commands: sign in as a guest, list titles and lobbies, open a lobby with bots, play a game
in the terminal by choosing among the numbered legal actions, watch one live, show a leaderboard and
replay a finished game. Everything goes through the public gateway API, as any third-party client.

The session (gateway address and token) is kept in $BG_HOME/session.json (default ~/.config/bg).
The gateway is --gateway, else $BG_GATEWAY, else the saved one, else 127.0.0.1:50050.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from cli import render

DEFAULT_GATEWAY = "127.0.0.1:50050"
STRENGTHS = {
    "random": gateway_pb2.BOT_STRENGTH_RANDOM,
    "heuristic": gateway_pb2.BOT_STRENGTH_HEURISTIC,
    "search": gateway_pb2.BOT_STRENGTH_SEARCH,
}


class Quit(Exception):
    """The person asked to stop, or input ended."""


def home() -> Path:
    """Where the session file lives."""
    return Path(os.environ.get("BG_HOME") or Path.home() / ".config" / "bg")


@dataclass
class Client:
    """Stubs of the gateway services over one channel, with the saved token."""

    address: str
    token: str
    out: IO[str]
    inp: IO[str]

    def __post_init__(self) -> None:
        self.channel = grpc.insecure_channel(self.address)
        self.accounts = gateway_pb2_grpc.AccountServiceStub(self.channel)
        self.catalog = gateway_pb2_grpc.CatalogServiceStub(self.channel)
        self.lobbies = gateway_pb2_grpc.LobbyServiceStub(self.channel)
        self.games = gateway_pb2_grpc.GameServiceStub(self.channel)
        self.leaderboard = gateway_pb2_grpc.LeaderboardServiceStub(self.channel)

    @property
    def auth(self) -> tuple[tuple[str, str], ...]:
        """Call metadata with the bearer token."""
        if not self.token:
            raise SystemExit("not signed in: run `bg guest NAME` first")
        return (("authorization", f"Bearer {self.token}"),)

    def say(self, text: str = "") -> None:
        """Print a line."""
        print(text, file=self.out, flush=True)


def load_session() -> dict[str, str]:
    """The saved session, or an empty one."""
    path = home() / "session.json"
    if not path.exists():
        return {}
    data: dict[str, str] = json.loads(path.read_text())
    return data


def save_session(data: dict[str, str]) -> None:
    """Save the session, readable by its owner only."""
    folder = home()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "session.json"
    path.touch(mode=0o600, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


# Commands ---------------------------------------------------------------------------------------


def cmd_guest(client: Client, args: argparse.Namespace) -> int:
    """Create a guest account and keep its token."""
    session = client.accounts.CreateGuest(gateway_pb2.CreateGuestRequest(display_name=args.name)).session
    save_session({"gateway": client.address, "token": session.token, "name": session.player.display_name})
    client.say(
        f"signed in as {session.player.display_name} (guest {session.player.player_id}) at {client.address}"
    )
    return 0


def cmd_whoami(client: Client, args: argparse.Namespace) -> int:
    """Show the signed-in player."""
    player = client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth).player
    client.say(f"{player.display_name} ({'guest ' if player.guest else ''}{player.player_id})")
    return 0


def cmd_titles(client: Client, args: argparse.Namespace) -> int:
    """List the titles with their player counts and options."""
    for info in client.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=client.auth).titles:
        client.say(f"{info.name:<12} {info.display_name} ({info.min_players}-{info.max_players} players)")
        for option in info.options:
            choices = "|".join(option.choices) or "any"
            client.say(
                f"{'':14}{option.name} = {choices} (default {option.default_value}): {option.description}"
            )
    return 0


def lobby_line(lobby: gateway_pb2.Lobby) -> str:
    """One lobby on one line."""
    taken = sum(1 for seat in lobby.seats if seat.HasField("player"))
    names = ", ".join(seat.player.display_name for seat in lobby.seats if seat.HasField("player"))
    status = gateway_pb2.LobbyStatus.Name(lobby.status).removeprefix("LOBBY_STATUS_").lower()
    return f"{lobby.lobby_id}  {lobby.title}  {taken}/{lobby.seat_count}  {status}  [{names}]"


def cmd_lobbies(client: Client, args: argparse.Namespace) -> int:
    """List public open lobbies."""
    response = client.lobbies.ListLobbies(
        gateway_pb2.ListLobbiesRequest(title=args.title or "", page_size=50), metadata=client.auth
    )
    for lobby in response.lobbies:
        client.say(lobby_line(lobby))
    if not response.lobbies:
        client.say("no open lobbies")
    return 0


def cmd_new(client: Client, args: argparse.Namespace) -> int:
    """Open a lobby, seat bots, and start (and play) once every seat is taken."""
    options = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in args.option]
    lobby = client.lobbies.CreateLobby(
        gateway_pb2.CreateLobbyRequest(
            title=args.title,
            seat_count=args.seats,
            options=options,
            visibility=gateway_pb2.VISIBILITY_PRIVATE if args.private else gateway_pb2.VISIBILITY_PUBLIC,
        ),
        metadata=client.auth,
    ).lobby
    for _ in range(args.bots):
        lobby = client.lobbies.AddBot(
            gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=STRENGTHS[args.strength]),
            metadata=client.auth,
        ).lobby
    client.say(f"lobby {lobby_line(lobby)}")
    if lobby.invite_code:
        client.say(f"invite code: {lobby.invite_code}")
    if args.bots < args.seats - 1:
        client.say(
            f"waiting for players: they run `bg join {lobby.lobby_id}`; then `bg start {lobby.lobby_id}`"
        )
        return 0
    return start(client, lobby.lobby_id, play_after=args.play)


def cmd_join(client: Client, args: argparse.Namespace) -> int:
    """Take a seat in a lobby."""
    lobby = client.lobbies.JoinLobby(
        gateway_pb2.JoinLobbyRequest(lobby_id=args.lobby_id, invite_code=args.code or ""),
        metadata=client.auth,
    ).lobby
    client.say(f"joined {lobby_line(lobby)}")
    return 0


def cmd_start(client: Client, args: argparse.Namespace) -> int:
    """Start a lobby's game (host only)."""
    return start(client, args.lobby_id, play_after=args.play)


def start(client: Client, lobby_id: str, *, play_after: bool) -> int:
    """Start the game of a full lobby; play it if asked."""
    game_id = client.lobbies.StartGame(
        gateway_pb2.StartGameRequest(lobby_id=lobby_id), metadata=client.auth
    ).game_id
    client.say(f"game {game_id} started")
    if play_after:
        return play(client, game_id)
    client.say(f"play it with `bg play {game_id}`")
    return 0


def cmd_play(client: Client, args: argparse.Namespace) -> int:
    """Play a game in the terminal."""
    return play(client, args.game_id)


def watch_stream(client: Client, game_id: str) -> Iterator[gateway_pb2.WatchGameResponse]:
    """The game's watch stream, from its current view on."""
    return client.games.WatchGame(gateway_pb2.WatchGameRequest(game_id=game_id), metadata=client.auth)


def ask(client: Client, game: gateway_pb2.GameView) -> int:
    """The index of the legal action the person picks; Quit on "q" or end of input."""
    for number, legal in enumerate(game.legal_actions, start=1):
        client.say(f"  {number:>3}. {legal.label}")
    while True:
        client.out.write(f"your move [1-{len(game.legal_actions)}, q to quit]: ")
        client.out.flush()
        line = client.inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            raise Quit
        choice = line.strip()
        if choice.isdigit() and 1 <= int(choice) <= len(game.legal_actions):
            return int(choice) - 1
        client.say(f"type a number from 1 to {len(game.legal_actions)}")


def play(client: Client, game_id: str) -> int:
    """Follow the game and ask for a move whenever the caller may act; 0 once it is over."""
    acted = -1
    try:
        for change in watch_stream(client, game_id):
            for line in render.events_text(list(change.events)):
                client.say(line)
            game = change.game
            if not change.HasField("game"):
                continue
            if render.finished(game):
                client.say(render.view_text(game))
                return 0
            if not game.legal_actions or game.version <= acted:
                continue
            client.say()
            client.say(render.view_text(game))
            index = ask(client, game)
            acted = game.version
            try:
                result = client.games.SubmitAction(
                    gateway_pb2.SubmitActionRequest(
                        game_id=game_id,
                        action=game.legal_actions[index].action,
                        expected_version=game.version,
                        request_id=uuid.uuid4().hex,
                    ),
                    metadata=client.auth,
                )
            except grpc.RpcError as error:
                if error.code() != grpc.StatusCode.ABORTED:
                    raise
                client.say("the game moved on meanwhile; here is the new position")
                continue
            client.say(f"played: {game.legal_actions[index].label} (version {result.version})")
    except Quit:
        client.say(f"left the game; `bg play {game_id}` to come back")
        return 0
    client.say("the stream ended before the game was over")
    return 1


def cmd_watch(client: Client, args: argparse.Namespace) -> int:
    """Show a game live, change by change, until it is over."""
    for change in watch_stream(client, args.game_id):
        for line in render.events_text(list(change.events)):
            client.say(line)
        if change.HasField("game"):
            client.say(render.view_text(change.game))
            if render.finished(change.game):
                return 0
    return 0


def cmd_leaderboard(client: Client, args: argparse.Namespace) -> int:
    """Show a title's best players."""
    response = client.leaderboard.GetLeaderboard(
        gateway_pb2.GetLeaderboardRequest(title=args.title, page_size=args.top), metadata=client.auth
    )
    client.say(f"{'rank':>4}  {'player':<24} {'rating':>7} {'games':>5} {'wins':>4}")
    for entry in response.entries:
        name = entry.player.display_name + (" (bot)" if entry.player.bot else "")
        client.say(f"{entry.rank:>4}  {name:<24} {entry.rating:>7.1f} {entry.games:>5} {entry.wins:>4}")
    if not response.entries:
        client.say("no rated games yet")
    return 0


def cmd_replay(client: Client, args: argparse.Namespace) -> int:
    """Show a finished game's record move by move and check it replays exactly."""
    record = client.games.GetGameRecord(
        gateway_pb2.GetGameRecordRequest(game_id=args.game_id), metadata=client.auth
    ).record
    names = {seat.seat: seat.player.display_name for seat in record.seats}
    client.say(f"{record.title}, {record.player_count} players, {len(record.actions)} actions")
    client.say(f"seed {record.seed.hex()} (published SHA-256 {record.seed_sha256})")
    for logged in record.actions:
        action = render.unpack(logged.action)
        text = "; ".join(render.message_lines(action)) if action is not None else logged.action.type_url
        client.say(
            f"{logged.version:>5}  seat {logged.seat} {names.get(logged.seat, '')}: {' '.join(text.split())}"
        )
    replay = client.games.ReplayGame(
        gateway_pb2.ReplayGameRequest(game_id=args.game_id), metadata=client.auth
    )
    if replay.consistent:
        client.say(
            f"replay consistent: {replay.actions_replayed} actions re-applied, same final state and scores"
        )
        return 0
    client.say(f"replay NOT consistent: {replay.mismatch}")
    return 1


# Entry point ------------------------------------------------------------------------------------


def parser() -> argparse.ArgumentParser:
    """The command line."""
    top = argparse.ArgumentParser(prog="bg", description="Play board games through the gateway.")
    top.add_argument(
        "--gateway", help=f"gateway address (default $BG_GATEWAY, the saved one, or {DEFAULT_GATEWAY})"
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    command("guest", cmd_guest, "sign in as a new guest").add_argument("name")
    command("whoami", cmd_whoami, "show the signed-in player")
    command("titles", cmd_titles, "list the titles")
    command("lobbies", cmd_lobbies, "list open public lobbies").add_argument("title", nargs="?")
    new = command("new", cmd_new, "open a lobby, add bots, start when full")
    new.add_argument("title")
    new.add_argument("--seats", type=int, default=3)
    new.add_argument("--bots", type=int, default=0, help="bots to seat (seats - 1 starts at once)")
    new.add_argument("--strength", choices=sorted(STRENGTHS), default="random")
    new.add_argument("--option", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    new.add_argument("--private", action="store_true")
    new.add_argument("--play", action="store_true", help="play the game at once when it starts")
    join = command("join", cmd_join, "take a seat in a lobby")
    join.add_argument("lobby_id")
    join.add_argument("--code", help="invite code of a private lobby")
    start_cmd = command("start", cmd_start, "start a full lobby's game (host)")
    start_cmd.add_argument("lobby_id")
    start_cmd.add_argument("--play", action="store_true")
    command("play", cmd_play, "play a game: pick a numbered legal action").add_argument("game_id")
    command("watch", cmd_watch, "watch a game live").add_argument("game_id")
    board = command("leaderboard", cmd_leaderboard, "show a title's leaderboard")
    board.add_argument("title")
    board.add_argument("--top", type=int, default=20)
    command("replay", cmd_replay, "show a finished game's moves and check its replay").add_argument("game_id")
    return top


def main(argv: list[str] | None = None, out: IO[str] = sys.stdout, inp: IO[str] = sys.stdin) -> int:
    """Run one command; its exit code."""
    args = parser().parse_args(argv)
    saved = load_session()
    address = args.gateway or os.environ.get("BG_GATEWAY") or saved.get("gateway") or DEFAULT_GATEWAY
    token = saved.get("token", "") if saved.get("gateway", address) == address else ""
    client = Client(address, token, out, inp)
    try:
        code: int = args.handler(client, args)
        return code
    except grpc.RpcError as error:
        print(f"bg: {error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        client.channel.close()

"""The `bg` command line: sign in (guest, or a registered account), list titles and lobbies, open a
lobby with bots (or only bots, to watch), play a game in the terminal by choosing among the numbered
legal actions (or undo the last one), ask for a takeback or answer one, resign, watch one live (with
its chat), show a leaderboard and replay a finished game;
list your games, follow your inbox, ask for a rematch and chat. Everything goes
through the public gateway API, as any third-party client.

The session is kept by `cli.session`; the gateway is --gateway, else $BG_GATEWAY, else the saved one,
else 127.0.0.1:50050.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
from typing import IO, Any

import grpc

from cli import session
from cli.accounts import cmd_guest, cmd_register, cmd_sign_in, cmd_whoami
from cli.client import Client, NotSignedIn
from cli.clock import add_clock_arguments
from cli.history import cmd_leaderboard, cmd_replay
from cli.lobby import (
    BOT_TAKEBACKS,
    DEFAULT_STRENGTH,
    LEVEL_NAMES,
    SPECTATORS,
    STRENGTHS,
    UNDO_POLICIES,
    cmd_join,
    cmd_lobbies,
    cmd_new,
    cmd_start,
    cmd_titles,
)
from cli.match import cmd_cancel_match, cmd_match
from cli.players import cmd_chat, cmd_games, cmd_inbox, cmd_rematch
from cli.replay import add_arguments as add_replay_arguments
from cli.status import error_info
from cli.table import cmd_play, cmd_resign, cmd_watch
from cli.tournament import add_commands as add_tournament_commands
from cli.undo import add_arguments as add_takeback_arguments
from cli.undo import cmd_takeback, cmd_undo

BROKEN_PIPE_EXIT = 128 + signal.SIGPIPE  # as a shell reports a command that SIGPIPE ended


def parser() -> argparse.ArgumentParser:
    """The command line."""
    top = argparse.ArgumentParser(prog="bg", description="Play board games through the gateway.")
    top.add_argument(
        "--gateway",
        help=f"gateway address (default $BG_GATEWAY, the saved one, or {session.DEFAULT_GATEWAY})",
    )
    top.add_argument(
        "--lang",
        default="",
        help="the locale labels and event texts are shown in, such as zh-TW or zh-CN (default: the"
        " account's, then $LANG's, then English)",
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def command(name: str, handler: Any, help_text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=help_text, description=help_text)
        sub.set_defaults(handler=handler)
        return sub

    command("guest", cmd_guest, "sign in as a new guest").add_argument("name")
    register = command("register", cmd_register, "create an account with a password and sign in")
    register.add_argument("name", help="user name (3 to 32 letters, digits, '_' or '-')")
    register.add_argument("--display-name", help="name shown to others (default: the user name)")
    sign_in = command("sign-in", cmd_sign_in, "sign a registered account in")
    sign_in.add_argument("name")
    for sub in (register, sign_in):
        sub.add_argument("--password", help="the password (default: asked, or read from standard input)")
    command("whoami", cmd_whoami, "show the signed-in player")
    command("titles", cmd_titles, "list the titles")
    command("lobbies", cmd_lobbies, "list open public lobbies").add_argument("title", nargs="?")
    new = command("new", cmd_new, "open a lobby, add bots, start when full")
    new.add_argument("title")
    new.add_argument("--seats", type=int, default=3)
    new.add_argument(
        "--bots",
        type=int,
        default=0,
        help="bots to seat: seats - 1 starts at once, seats leaves you watching",
    )
    new.add_argument(
        "--strength",
        choices=list(STRENGTHS),
        default=DEFAULT_STRENGTH,
        metavar="LEVEL",
        help=f"the bots' level: {'|'.join(LEVEL_NAMES)} (default {DEFAULT_STRENGTH}; heuristic and search,"
        " the older names of easy and medium, are accepted)",
    )
    new.add_argument("--option", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    new.add_argument("--private", action="store_true")
    new.add_argument(
        "--spectators",
        choices=sorted(SPECTATORS),
        help="who may watch besides the players (default: anyone, or the invited for --private)",
    )
    new.add_argument("--play", action="store_true", help="play (or watch) the game at once when it starts")
    new.add_argument(
        "--undo",
        choices=sorted(UNDO_POLICIES),
        help="what players may take back: allowed (undo, and takebacks in an unrated game; the default),"
        " own-turn-only (undo only) or off",
    )
    new.add_argument(
        "--unrated", action="store_true", help="leave the ratings as they are (takebacks allowed)"
    )
    new.add_argument(
        "--bot-takebacks",
        choices=sorted(BOT_TAKEBACKS),
        help="how the bots answer a takeback request (default: accept)",
    )
    add_clock_arguments(new)
    match = command("match", cmd_match, "find a game through the matchmaker, then play it")
    match.add_argument("title")
    match.add_argument("--seats", type=int, default=2)
    match.add_argument("--bots-after", type=int, default=0, metavar="SECONDS", help="bots fill the rest then")
    match.add_argument(
        "--strength",
        choices=list(STRENGTHS),
        metavar="LEVEL",
        help=f"the bots' level: {'|'.join(LEVEL_NAMES)} (default: the level whose rating is nearest the"
        " matched players')",
    )
    match.add_argument("--option", nargs=2, action="append", default=[], metavar=("NAME", "VALUE"))
    match.add_argument("--play", action="store_true", help="play the game at once when matched")
    add_clock_arguments(match)
    command("cancel-match", cmd_cancel_match, "withdraw your search (bg match)")
    join = command("join", cmd_join, "take a seat in a lobby")
    join.add_argument("lobby_id")
    join.add_argument("--code", help="invite code of a private lobby")
    start_cmd = command("start", cmd_start, "start a full lobby's game (host)")
    start_cmd.add_argument("lobby_id")
    start_cmd.add_argument("--play", action="store_true")
    command("play", cmd_play, "play a game: pick a numbered legal action").add_argument("game_id")
    command("resign", cmd_resign, "give your seat up: a bot plays it to the end").add_argument("game_id")
    command("undo", cmd_undo, "take back your last decision of this turn").add_argument("game_id")
    takeback = command(
        "takeback",
        cmd_takeback,
        "ask the other players to let you take back your last decision, or answer their request",
    )
    add_takeback_arguments(takeback)
    command("watch", cmd_watch, "watch a game live").add_argument("game_id")
    board = command("leaderboard", cmd_leaderboard, "show a title's leaderboard")
    board.add_argument("title")
    board.add_argument("--top", type=int, default=20)
    replay = command(
        "replay", cmd_replay, "show a finished game's moves and check its replay, or step through it"
    )
    replay.add_argument("game_id")
    add_replay_arguments(replay)
    games = command("games", cmd_games, "list your games: your turn first, then finished ones")
    games.add_argument("--limit", type=int, default=50, help="most games shown")
    inbox = command("inbox", cmd_inbox, "follow your inbox: turns, deadlines, invitations, results")
    inbox.add_argument("--from", dest="from_event", help="catch up from this event id")
    inbox.add_argument("--count", type=int, default=0, help="stop after this many events")
    inbox.add_argument("--seconds", type=float, default=0, help="stop following after this long")
    command("rematch", cmd_rematch, "open a rematch lobby of a finished game").add_argument("game_id")
    chat = command("chat", cmd_chat, "post a chat message in a game (or a lobby, with --lobby)")
    chat.add_argument("place", help="the game id (or the lobby id, with --lobby)")
    chat.add_argument("text")
    chat.add_argument("--lobby", action="store_true", help="the place is a lobby")
    chat.add_argument("--spectators", action="store_true", help="on the game's spectators' channel")
    add_tournament_commands(commands)
    return top


def unavailable_text(address: str, error: grpc.RpcError) -> str:
    """What to tell a person when the suite is down: how to start it."""
    if error_info(error) is None:
        problem = f"nothing answers at {address}"
    else:
        problem = f"the gateway at {address} answers, but {error.details()}"
    return (
        f"bg: {problem}.\n"
        "Start the suite with `make run` in the repository (it keeps running; use another terminal),\n"
        "or point bg at a running gateway with --gateway HOST:PORT or $BG_GATEWAY."
    )


def not_signed_in_text(address: str, saved: dict[str, str]) -> str:
    """What to tell a person who has no session at the gateway they called."""
    elsewhere = saved.get("gateway", address) != address and saved.get("token")
    at = f" (your session is for {saved['gateway']})" if elsewhere else ""
    return (
        f"bg: not signed in at {address}{at}: run `bg guest NAME`, `bg register NAME` or "
        "`bg sign-in NAME` first"
    )


def quiet(stream: IO[str]) -> None:
    """Send what is still to be written to `stream` to /dev/null: its reader is gone, and Python would
    otherwise fail flushing it at exit."""
    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file (a test's buffer): nothing is flushed at exit
    os.dup2(os.open(os.devnull, os.O_WRONLY), descriptor)


def main(argv: list[str] | None = None, out: IO[str] = sys.stdout, inp: IO[str] = sys.stdin) -> int:
    """Run one command; its exit code (that of a command ended by SIGPIPE when the reader of its
    output goes away, as `bg leaderboard TITLE | head` does, with nothing said)."""
    args = parser().parse_args(argv)
    saved = session.load()
    address = session.gateway_address(args.gateway, saved)
    token = saved.get("token", "") if saved.get("gateway", address) == address else ""
    client = Client(address, token, out, inp, lang=args.lang)
    try:
        code: int = args.handler(client, args)
        return code
    except BrokenPipeError:
        quiet(out)
        return BROKEN_PIPE_EXIT
    except NotSignedIn:
        down = client.unreachable()  # first of all, say that nothing answers there
        told = unavailable_text(address, down) if down else not_signed_in_text(address, saved)
        print(told, file=sys.stderr)
        return 1
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.UNAVAILABLE:
            print(unavailable_text(address, error), file=sys.stderr)
        else:
            print(f"bg: {error.code().name}: {error.details()}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        client.channel.close()

"""`bg replay GAME_ID --step N` and `--browse`: a finished game step by step (GameService.GetReplayStep).

Each step shows the move that led to it, in the reader's language (its label's Text rendered with the
title's catalog, as `bg --lang` renders every label; an undo or a takeback as the version it went back
to), what happened (its events), and the table as it was then, drawn by the title's renderer: the
caller's own seat's view if they played the game, else the spectators'. Step 0 is the game as set
up; step N the game after the record's N-th entry.
"""

from __future__ import annotations

import argparse
from functools import partial

from boardgame.gateway.v1 import gateway_pb2

from cli.client import Client, Quit
from cli.render import events_text, seat_name
from cli.screen import Screen

KEYS = "Enter or n: next, p: previous, f: first, l: last, a number: that step, q: quit"


def add_arguments(command: argparse.ArgumentParser) -> None:
    """The stepping options of `bg replay`."""
    command.add_argument(
        "--step",
        type=int,
        metavar="N",
        help="show the game after step N (0: as set up; N: after its N-th move)",
    )
    command.add_argument(
        "--browse", action="store_true", help=f"step through the game from --step (or 0): {KEYS}"
    )


def fetch(client: Client, game_id: str, step: int) -> gateway_pb2.GetReplayStepResponse:
    """One step of the game, as the caller is shown it."""
    request = gateway_pb2.GetReplayStepRequest(game_id=game_id, step=step)
    return client.call(client.games.GetReplayStep, request)


def move_line(client: Client, reply: gateway_pb2.GetReplayStepResponse) -> str:
    """What led to the step: who did what, in the reader's language."""
    game = reply.game
    if not reply.HasField("move"):
        return "the game as set up, before any move"
    move = reply.move
    who = seat_name(game, move.seat)
    if move.HasField("returned_to"):
        how = (
            "took back their decisions (a takeback all accepted)" if move.takeback else "undid their decision"
        )
        return f"{who} {how}: back to version {move.returned_to} (version {move.version})"
    return f"{who}: {client.words(game.title, move.label, move.message)} (version {move.version})"


def show(client: Client, reply: gateway_pb2.GetReplayStepResponse) -> None:
    """Print a step: its number, its move, its events, then the whole table."""
    client.say(f"-- step {reply.step} of {reply.step_count}: {move_line(client, reply)}")
    for line in events_text(list(reply.events), partial(client.words, reply.game.title)):
        client.say(line)
    Screen(client.say, client.title_data, client.words).show(reply.game)


def wanted(line: str, at: int, last: int) -> int | None:
    """The step a line of input asks for (None: not understood); Quit for q or the end of input."""
    choice = line.strip().lower()
    if not line or choice in ("q", "quit"):
        raise Quit
    moves = {"": at + 1, "n": at + 1, "next": at + 1, "p": at - 1, "previous": at - 1}
    moves |= {"f": 0, "first": 0, "l": last, "last": last}
    if choice in moves:
        return min(last, max(0, moves[choice]))
    if choice.isdigit() and int(choice) <= last:
        return int(choice)
    return None


def browse(client: Client, game_id: str, first: int) -> int:
    """Show step `first`, then the step each line of input asks for, until q or the end of input."""
    reply = fetch(client, game_id, first)
    show(client, reply)
    try:
        while True:
            client.out.write(f"step {reply.step} of {reply.step_count} [{KEYS}]: ")
            client.out.flush()
            step = wanted(client.inp.readline(), reply.step, reply.step_count)
            if step is None:
                client.say(f"type n, p, f, l, a step from 0 to {reply.step_count}, or q")
            elif step != reply.step:
                reply = fetch(client, game_id, step)
                show(client, reply)
    except Quit:
        return 0


def step_through(client: Client, args: argparse.Namespace) -> int:
    """`bg replay GAME_ID --step N` (one step) or `--browse` (from --step, or 0)."""
    if args.browse:
        return browse(client, args.game_id, args.step or 0)
    show(client, fetch(client, args.game_id, args.step))
    return 0

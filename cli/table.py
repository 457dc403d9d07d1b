"""`bg play`, `bg watch`, `bg resign`: following a game live, choosing among its numbered legal
actions (or taking the last one back: `u`), and giving a seat up."""

from __future__ import annotations

import argparse
import uuid
from functools import partial

import grpc
from boardgame.gateway.v1 import gateway_pb2

from cli.client import Client, Quit
from cli.players import chat_line
from cli.render import events_text, finished, seat_name
from cli.screen import Screen
from cli.undo import takeback_line, undo_last


def ask(client: Client, game: gateway_pb2.GameView) -> int | None:
    """The index of the legal action the person picks, or None to undo their last decision ("u");
    Quit on "q" or end of input."""
    for number, legal in enumerate(game.legal_actions, start=1):
        client.say(f"  {number:>3}. {client.words(game.title, legal.label, legal.message)}")
    while True:
        client.out.write(f"your move [1-{len(game.legal_actions)}, u to undo, q to quit]: ")
        client.out.flush()
        line = client.inp.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            raise Quit
        choice = line.strip()
        if choice.lower() in ("u", "undo"):
            return None
        if choice.isdigit() and 1 <= int(choice) <= len(game.legal_actions):
            return int(choice) - 1
        client.say(f"type a number from 1 to {len(game.legal_actions)}, or u to undo")


def submit(client: Client, game: gateway_pb2.GameView, index: int) -> None:
    """Play the chosen legal action; say so, or that the game moved on meanwhile."""
    request = gateway_pb2.SubmitActionRequest(
        game_id=game.game_id,
        action=game.legal_actions[index].action,
        expected_version=game.version,
        request_id=uuid.uuid4().hex,
    )
    try:
        result = client.call(client.games.SubmitAction, request)
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.ABORTED:
            raise
        client.say("the game moved on meanwhile; here is the new position")
        return
    legal = game.legal_actions[index]
    client.say(f"played: {client.words(game.title, legal.label, legal.message)} (version {result.version})")


def tell_takeback(client: Client, game: gateway_pb2.GameView, takeback: gateway_pb2.Takeback) -> None:
    """Say where a takeback request stands, and how to answer it to a seat asked."""
    client.say(takeback_line(game, takeback))
    asked = takeback.status == gateway_pb2.TAKEBACK_STATUS_PENDING and game.HasField("seat")
    if asked and game.seat in takeback.waiting_seats:
        client.say(f"answer: `bg takeback {game.game_id} --accept` (or --decline)")


def follow(client: Client, game_id: str, *, play: bool) -> int:
    """Show the game as it goes, the whole table first and then what changed; with `play`, ask for a
    move whenever the caller's seat may act (a caller without a seat watches). 0 once it is over."""
    screen = Screen(client.say, client.title_data, client.words)
    game = gateway_pb2.GameView()
    acted = -1
    watching = not play
    title = ""
    try:
        for change in client.watch(game_id):
            title = change.game.title if change.HasField("game") else title
            in_title = partial(client.words, title)
            for line in events_text(list(change.events), in_title):
                client.say(line)
            if change.HasField("chat"):
                client.say(chat_line(change.chat))
            if change.HasField("takeback"):
                tell_takeback(client, game, change.takeback)
            if not change.HasField("game"):
                continue
            game = change.game
            if game.HasField("takeback") and not change.events:  # pending as the stream opens
                tell_takeback(client, game, game.takeback)
            if play and not watching and not game.HasField("seat"):
                client.say("you have no seat in this game: watching it")
                watching = True
            if finished(game) or watching:
                screen.show(game)
                if finished(game):
                    return 0
                continue
            if not game.legal_actions or game.version <= acted:
                continue
            client.say()
            screen.show(game)
            index = ask(client, game)
            while index is None and not undo_last(client, game):
                index = ask(client, game)  # nothing was taken back: choose again
            acted = game.version
            if index is not None:
                submit(client, game, index)
    except Quit:
        client.say(f"left the game; `bg play {game_id}` to come back, `bg resign {game_id}` to give it up")
        return 0
    client.say("the stream ended before the game was over")
    return 1


def cmd_play(client: Client, args: argparse.Namespace) -> int:
    """Play a game in the terminal."""
    return follow(client, args.game_id, play=True)


def cmd_watch(client: Client, args: argparse.Namespace) -> int:
    """Show a game live, change by change, until it is over."""
    return follow(client, args.game_id, play=False)


def cmd_resign(client: Client, args: argparse.Namespace) -> int:
    """Give the caller's seat up: a bot plays it to the end and the caller ranks last."""
    me = client.call(client.accounts.GetMe, gateway_pb2.GetMeRequest()).player.player_id
    game = client.call(client.games.Resign, gateway_pb2.ResignRequest(game_id=args.game_id)).game
    mine = [seat.seat for seat in game.seats if seat.player.player_id == me]
    who = seat_name(game, mine[0]) if mine else "your seat"
    client.say(f"resigned game {args.game_id}: a bot plays {who} to the end")
    return 0

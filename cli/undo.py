"""`bg undo`, `bg takeback`: take back your last decision while nothing hidden or random was revealed and
no other seat has acted; beyond that, ask the other players to accept a takeback, or answer theirs
(docs/undo.md)."""

from __future__ import annotations

import argparse
import uuid

import grpc
from boardgame.gateway.v1 import gateway_pb2

from cli.client import Client
from cli.render import seat_name
from cli.status import error_info

STATUS_WORDS = {
    gateway_pb2.TAKEBACK_STATUS_PENDING: "waiting",
    gateway_pb2.TAKEBACK_STATUS_ACCEPTED: "accepted: taken back",
    gateway_pb2.TAKEBACK_STATUS_DECLINED: "declined",
    gateway_pb2.TAKEBACK_STATUS_EXPIRED: "lapsed (not every seat accepted in time)",
    gateway_pb2.TAKEBACK_STATUS_CANCELLED: "cancelled",
}


def _view(client: Client, game_id: str) -> gateway_pb2.GameView:
    return client.call(client.games.GetGame, gateway_pb2.GetGameRequest(game_id=game_id)).game


def _seats(game: gateway_pb2.GameView, seats: list[int]) -> str:
    return ", ".join(seat_name(game, seat) for seat in seats) or "none"


def takeback_line(game: gateway_pb2.GameView, takeback: gateway_pb2.Takeback) -> str:
    """One line on a takeback request: who asks, back to which version, and where it stands."""
    line = (
        f"takeback asked by {seat_name(game, takeback.seat)} (back to version {takeback.returns_to}): "
        f"{STATUS_WORDS.get(takeback.status, 'unknown')}"
    )
    if takeback.status == gateway_pb2.TAKEBACK_STATUS_PENDING:
        deadline = takeback.deadline.ToDatetime().strftime("%H:%M:%S UTC")
        line += f" for {_seats(game, list(takeback.waiting_seats))} until {deadline}"
    elif takeback.status == gateway_pb2.TAKEBACK_STATUS_ACCEPTED:
        line += f" (now version {takeback.version})"
    elif takeback.status == gateway_pb2.TAKEBACK_STATUS_DECLINED:
        line += f" by {_seats(game, list(takeback.declined_seats))}"
    return line


def undo_last(client: Client, game: gateway_pb2.GameView) -> bool:
    """Undo the caller's last decision at the view's version; whether the game changed (the undo, or
    another change meanwhile). A refusal is told, with what the caller can do instead."""
    request = gateway_pb2.UndoRequest(
        game_id=game.game_id, expected_version=game.version, request_id=uuid.uuid4().hex
    )
    try:
        undone = client.call(client.games.Undo, request)
    except grpc.RpcError as error:
        if error.code() == grpc.StatusCode.ABORTED:
            client.say("the game moved on meanwhile; here is the new position")
            return True
        if error.code() != grpc.StatusCode.FAILED_PRECONDITION:
            raise
        info = error_info(error)
        hint = (
            f"; `bg takeback {game.game_id}` asks the others"
            if info and info.reason == "UNDO_BARRIER"
            else ""
        )
        client.say(f"cannot undo: {error.details()}{hint}")
        return False
    client.say(
        f"took back your last decision: back to version {undone.returned_to} (now version {undone.version})"
    )
    return True


def cmd_undo(client: Client, args: argparse.Namespace) -> int:
    """Take back your last decision of the current turn."""
    return 0 if undo_last(client, _view(client, args.game_id)) else 1


def cmd_takeback(client: Client, args: argparse.Namespace) -> int:
    """Ask for a takeback of your last decision, or answer the game's pending request."""
    game = _view(client, args.game_id)
    if args.accept or args.decline:
        if not game.HasField("takeback"):
            client.say("no takeback request is pending in this game")
            return 1
        request = gateway_pb2.AnswerTakebackRequest(
            game_id=args.game_id, takeback_id=game.takeback.takeback_id, accept=args.accept
        )
        answered = client.call(client.games.AnswerTakeback, request)
        client.say(
            ("accepted. " if args.accept else "declined. ") + takeback_line(answered.game, answered.takeback)
        )
        return 0
    asked = client.call(
        client.games.RequestTakeback,
        gateway_pb2.RequestTakebackRequest(game_id=args.game_id, expected_version=game.version),
    )
    client.say(takeback_line(asked.game, asked.takeback))
    return 0 if asked.takeback.status != gateway_pb2.TAKEBACK_STATUS_DECLINED else 1


def add_arguments(command: argparse.ArgumentParser) -> None:
    """`bg takeback`'s arguments."""
    command.add_argument("game_id")
    answer = command.add_mutually_exclusive_group()
    answer.add_argument("--accept", action="store_true", help="accept the game's pending request")
    answer.add_argument("--decline", action="store_true", help="decline the game's pending request")

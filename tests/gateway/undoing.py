"""Helpers of the undo and takeback tests: views, moves and undos through a real gateway, and finding a
decision its seat may undo in a game whose setup the seed decides (every test finds its own)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2

from services.common.rng import Rng
from services.common.status import error_info
from tests.gateway.support import Client

RPC_TIMEOUT = 20.0
LOOKING = 60  # decisions played at most, looking for one its seat may undo


def view(client: Client, game_id: str) -> gateway_pb2.GameView:
    """The client's view of the game."""
    request = gateway_pb2.GetGameRequest(game_id=game_id)
    return client.games.GetGame(request, metadata=client.auth, timeout=RPC_TIMEOUT).game


def acting(clients: list[Client], game_id: str) -> tuple[Client, gateway_pb2.GameView]:
    """The client whose seat acts now (the game's seats are the clients, in order), and its view."""
    shown = view(clients[0], game_id)
    assert shown.acting_seats and shown.acting_seats[0] < len(clients), (
        f"at version {shown.version} seats {list(shown.acting_seats)} act, none of the {len(clients)} given"
    )
    seat = shown.acting_seats[0]
    return clients[seat], view(clients[seat], game_id)


def move(client: Client, game: gateway_pb2.GameView, choice: int = 0) -> gateway_pb2.SubmitActionResponse:
    """Play one of the view's legal actions."""
    request = gateway_pb2.SubmitActionRequest(
        game_id=game.game_id,
        action=game.legal_actions[choice].action,
        expected_version=game.version,
        request_id=uuid.uuid4().hex,
    )
    return client.games.SubmitAction(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def undo_request(game_id: str, version: int, request_id: str = "") -> gateway_pb2.UndoRequest:
    """An undo at `version` under a fresh request id (or `request_id`)."""
    return gateway_pb2.UndoRequest(
        game_id=game_id, expected_version=version, request_id=request_id or uuid.uuid4().hex
    )


def undo(client: Client, game_id: str, version: int, request_id: str = "") -> gateway_pb2.UndoResponse:
    """Undo the client's last decision at `version`."""
    request = undo_request(game_id, version, request_id)
    return client.games.Undo(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def refusal(error: grpc.RpcError) -> tuple[grpc.StatusCode, str]:
    """The code and ErrorInfo reason of a refused call."""
    info = error_info(error)
    return error.code(), info.reason if info is not None else ""


@dataclass(frozen=True)
class Undoable:
    """A decision its seat may take back: who takes it, the view before it, the choice among the legal
    actions, and the view after it (the decision is made: an undo at `after.version` takes it back)."""

    client: Client
    before: gateway_pb2.GameView
    choice: int
    after: gateway_pb2.GameView


def find_undoable(clients: list[Client], game_id: str) -> Undoable:
    """Play the acting seat's first legal action until one can be undone (each is tried: one that can is
    undone and made again, the same decision, undoable again), and leave it made."""
    for _ in range(LOOKING):
        client, before = acting(clients, game_id)
        after = move(client, before).game
        try:
            undo(client, game_id, after.version)
        except grpc.RpcError as error:
            assert refusal(error) in {
                (grpc.StatusCode.FAILED_PRECONDITION, "UNDO_BARRIER"),
                (grpc.StatusCode.FAILED_PRECONDITION, "NOTHING_TO_UNDO"),
            }, error.details()
            continue
        again = view(client, game_id)
        return Undoable(client, again, 0, move(client, again).game)
    raise AssertionError(f"no decision could be undone in {LOOKING}")


def play_with_undos(clients: list[Client], game_id: str, rng: Rng, bound: int) -> int:
    """Play the game to its end by random legal actions, the mover undoing one in four of its decisions
    (where it may) to choose again; the number of undos. Fails if the game lasts over `bound` moves."""
    undos = 0
    for _ in range(bound):
        seats = view(clients[0], game_id).acting_seats
        if not seats:
            return undos
        client = clients[seats[0]]
        current = view(client, game_id)
        after = move(client, current, rng.below(len(current.legal_actions))).game
        if after.status == gateway_pb2.GAME_STATUS_FINISHED or rng.below(4):
            continue
        try:
            undo(client, game_id, after.version)
            undos += 1
        except grpc.RpcError as error:
            assert refusal(error) in {
                (grpc.StatusCode.FAILED_PRECONDITION, "UNDO_BARRIER"),
                (grpc.StatusCode.FAILED_PRECONDITION, "NOTHING_TO_UNDO"),
            }, error.details()
    raise AssertionError(f"the game did not end within {bound} moves")


@dataclass(frozen=True)
class HandedOver:
    """A decision that passed the turn on: who made it, its view before it, and the game's version and
    acting seats after it."""

    client: Client
    before: gateway_pb2.GameView
    version: int
    acting: tuple[int, ...]


def hand_over(clients: list[Client], game_id: str) -> HandedOver:
    """Play the acting seat's first legal action until one passes the turn to another seat."""
    for _ in range(LOOKING):
        client, before = acting(clients, game_id)
        after = move(client, before).game
        if list(after.acting_seats) != list(before.acting_seats):
            return HandedOver(client, before, after.version, tuple(after.acting_seats))
    raise AssertionError(f"the turn did not pass on in {LOOKING} decisions")


def ask_takeback(client: Client, game_id: str, version: int) -> gateway_pb2.RequestTakebackResponse:
    """Ask for a takeback of the client's last decision, at `version`."""
    request = gateway_pb2.RequestTakebackRequest(game_id=game_id, expected_version=version)
    return client.games.RequestTakeback(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def answer(
    client: Client, game_id: str, takeback_id: str, accept: bool
) -> gateway_pb2.AnswerTakebackResponse:
    """Answer a pending takeback request."""
    request = gateway_pb2.AnswerTakebackRequest(game_id=game_id, takeback_id=takeback_id, accept=accept)
    return client.games.AnswerTakeback(request, metadata=client.auth, timeout=RPC_TIMEOUT)

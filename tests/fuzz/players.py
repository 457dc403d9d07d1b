"""The fuzz's players on the live gateway: signed-in guests, games started with them in the seats,
and watch streams opened and dropped."""

from __future__ import annotations

import time
from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2

from live.games import start_game
from tests.fuzz.outcomes import RPC_TIMEOUT, TALLY, Outcome, check_refusal, outcome_of
from tests.gateway.patience import MAX_RETRIES, rate_limit_delay
from tests.gateway.support import Client, GatewayProcess


@dataclass(frozen=True)
class Player:
    """A signed-in guest: its client and the player it is."""

    client: Client
    player: gateway_pb2.Player


def new_game(gateway: GatewayProcess, title: str, seated: list[Player]) -> str:
    """A game of `title` with its default options, seat i played by seated[i], no clock."""
    seats = [gateway_pb2.GameSeat(seat=seat, player=p.player) for seat, p in enumerate(seated)]
    return gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=title,
            player_count=len(seated),
            options=[],
            seats=seats,
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
        )
    )


def watch_and_drop(kind: str, client: Client, request: gateway_pb2.WatchGameRequest, read: int) -> Outcome:
    """Open a watch stream, read up to `read` messages, then drop it; waits out a RATE_LIMITED opening
    (as clients do) and counts the outcome under `kind`, failing on a refusal outside the table."""
    for _ in range(MAX_RETRIES):
        stream = client.games.WatchGame(request, metadata=client.auth, timeout=RPC_TIMEOUT)
        try:
            for _ in range(read):
                next(stream)
            outcome = Outcome(grpc.StatusCode.OK)
        except StopIteration:
            outcome = Outcome(grpc.StatusCode.OK)
        except grpc.RpcError as error:
            delay = rate_limit_delay(error)
            if delay is not None:
                time.sleep(delay)
                continue
            outcome = outcome_of(error)
        finally:
            stream.cancel()
        TALLY.add(kind, outcome)
        if not outcome.ok:
            check_refusal(outcome)
        return outcome
    raise AssertionError("a watch stream stayed rate limited")

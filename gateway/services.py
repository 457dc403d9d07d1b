"""The gateway's client-facing services, registered on a server: the native gRPC server, or the
browser transport's collector of the same handlers (`gateway.browser`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import grpc
from boardgame.gateway.v1 import gateway_pb2_grpc

from gateway import accounts, catalog, leaderboard, lobbies, matchmaking, tournaments
from gateway.play import GameServicer
from live.table import Table

REGISTRATIONS: tuple[Callable[[Table, grpc.aio.Server], None], ...] = (
    accounts.add_to_server,
    catalog.add_to_server,
    lobbies.add_to_server,
    leaderboard.add_to_server,
    tournaments.add_to_server,
)


@dataclass(frozen=True)
class Servicers:
    """The services with state of their own, which every listener of a gateway shares: live play
    (its watch streams) and the matcher (its searches)."""

    game: GameServicer
    matcher: matchmaking.Matcher


def add_services(app: Table, server: grpc.aio.Server, servicers: Servicers) -> None:
    """Register every client-facing service on `server` (the native server, or the browser
    transport's collector of handlers)."""
    for register in REGISTRATIONS:
        register(app, server)
    gateway_pb2_grpc.add_GameServiceServicer_to_server(servicers.game, server)
    matchmaking.add_to_server(app, server, servicers.matcher)

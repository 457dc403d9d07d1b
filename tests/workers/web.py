"""The web client's browser tests' parts: a game with bots to draw, and (from `deploy.web_driver`, which
`bench.boards` shares) the Chromium found and running a driver of the page's (`clients/web/test/*.mjs`,
puppeteer-core) for its JSON report."""

from __future__ import annotations

from boardgame.gateway.v1 import gateway_pb2

from deploy.web_driver import WEB_CLIENT as WEB_CLIENT
from deploy.web_driver import chromium as chromium
from deploy.web_driver import run_driver as run_driver
from gateway import auth
from services.common import registry
from tests.gateway.support import GatewayProcess
from tests.workers.support import bot_seat, new_game


def board_game(gateway: GatewayProcess, title: str) -> str:
    """A game of `title`: a guest who never moves on seat 0, bots on the others."""
    guest = gateway.run(auth.create_player(gateway.app, "Board guest", guest=True))  # type: ignore[arg-type]
    seats = [gateway_pb2.GameSeat(seat=0, player=guest)]
    seats += [bot_seat(gateway, seat, "random") for seat in range(1, registry.get(title).info.min_players)]
    return new_game(gateway, title, seats)

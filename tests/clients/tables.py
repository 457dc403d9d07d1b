"""Tables as `bg` draws them, from real views of real games (each engine's new_game, random legal
moves, and its codec's View), for the tests of the generic renderer and of each title's own."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.message import Message

from cli.render import Block
from cli.renderers import table_blocks
from services.common import registry, titledata

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


class Table:
    """A game played by random legal moves, shown as `bg` shows it to one seat."""

    def __init__(self, title: str, players: int, seed: int) -> None:
        self.title = title
        self.game = registry.get(title)
        config = self.game.config_from_proto(self.game.messages.config())
        self.state, _ = self.game.new_game(players, config, seed.to_bytes(8, "big"))
        self.players = players
        self.rng = random.Random(seed)
        self.version = 0

    def move(self, choose: Callable[[list[Any]], Any] | None = None) -> None:
        """Play one legal move of the acting seat (random unless `choose` picks it)."""
        seat = self.game.acting_seats(self.state)[0]
        actions = list(self.game.legal_actions(self.state, seat))
        action = choose(actions) if choose else self.rng.choice(actions)
        self.state, _ = self.game.apply(self.state, seat, action)
        self.version += 1

    def view(self, seat: int | None = 0) -> Any:
        """The title's View message for `seat`."""
        return self.game.view_to_proto(self.state, seat)

    def game_view(self, seat: int | None = 0, title: str | None = None) -> gateway_pb2.GameView:
        """The GameView the gateway would send `seat`."""
        game = gateway_pb2.GameView(
            game_id="g",
            title=title or self.title,
            version=self.version,
            seats=[
                gateway_pb2.GameSeat(seat=index, player=gateway_pb2.Player(display_name=NAMES[index]))
                for index in range(self.players)
            ],
            acting_seats=self.game.acting_seats(self.state),
        )
        if seat is not None:
            game.seat = seat
        game.view.Pack(self.view(seat))
        return game

    def data(self) -> Message:
        """The title's static data as CatalogService.GetTitleData carries it: the rules service's
        GameData bytes, parsed as the message their type names."""
        declared = self.game.title_data
        assert declared is not None
        return declared.message.FromString(titledata.game_data(declared).data.value)

    def blocks(self, seat: int | None = 0) -> list[Block]:
        """The table as `bg` draws it for `seat`, from the view and the title's data."""
        return table_blocks(self.game_view(seat), self.data())

    def text(self, seat: int | None = 0) -> str:
        """The table as printed in full."""
        return "\n".join(line for block in self.blocks(seat) for line in block.text())

    def until(self, wanted: Callable[[Any], bool], limit: int = 400) -> None:
        """Play random moves until the view of seat 0 is `wanted`."""
        for _ in range(limit):
            if wanted(self.view()):
                return
            self.move()
        pytest.fail("no such position in the moves tried")


def block(blocks: list[Block], heading: str) -> Block:
    """The block with this heading."""
    return next(found for found in blocks if found.heading == heading)


def player_lines(table: Table, seat: int) -> tuple[str, ...]:
    """The lines of a player's block."""
    return next(found.lines for found in table.blocks() if found.heading.startswith(f"seat {seat} "))

"""Glen More's static data for clients (boardgame.glenmore.v1.TitleData), from the game's own tile
table in `services.glenmore.data`: each tile's number, name, road and river, and its cost in words and
as a translatable message."""

from __future__ import annotations

from typing import NamedTuple

from boardgame.glenmore.v1 import glenmore_pb2 as pb

from services.common.game import TitleData
from services.common.titledata import TextFacts, text_facts
from services.glenmore.data import MARKET_SLOTS, RESOURCE_NAMES, RIVER, ROAD, TILES, TRACK_SPACES, Tile
from services.glenmore.labels import cost_message

DATA_VERSION = "1"  # the edition of the tile table (single-source data: see TILES_CONFIRMED)


class TileFacts(NamedTuple):
    """A TileInfo message's native value."""

    number: int
    name: str
    road: bool
    river: bool
    cost: str
    stack: int
    cost_message: TextFacts


class Facts(NamedTuple):
    """The TitleData message's native value."""

    tiles: tuple[TileFacts, ...]
    track_spaces: int
    market_slots: int
    resource_names: tuple[str, ...]


def tile_facts(tile: Tile) -> TileFacts:
    """What a client shows of a tile."""
    cost = cost_message(tile.cost)
    return TileFacts(
        tile.number,
        tile.name,
        bool(tile.edge & ROAD),
        bool(tile.edge & RIVER),
        str(cost),
        tile.stack,
        text_facts(cost.text),
    )


def facts() -> Facts:
    """The tables as the TitleData message holds them."""
    return Facts(tuple(tile_facts(tile) for tile in TILES), TRACK_SPACES, MARKET_SLOTS, RESOURCE_NAMES)


TITLE_DATA = TitleData(pb.TitleData, facts, lambda: DATA_VERSION)

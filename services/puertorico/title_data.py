"""Puerto Rico's static data for clients (boardgame.puertorico.v1.TitleData), from the game's own
tables in `services.puertorico.data`: the building table and the sizes of the boards."""

from __future__ import annotations

from typing import NamedTuple

from boardgame.puertorico.v1 import puertorico_pb2 as pb

from services.common.game import TitleData
from services.puertorico.data import BUILDINGS, CITY_SPACES, GOOD_NAMES, ISLAND_SPACES, TRADING_HOUSE_CAPACITY

DATA_VERSION = "1"  # the edition of the tables below: the base game with the Expansion I buildings


class Facts(NamedTuple):
    """The TitleData message's native value (its fields, as named there)."""

    buildings: tuple[object, ...]
    island_spaces: int
    city_spaces: int
    trading_house_capacity: int
    good_names: tuple[str, ...]


def facts() -> Facts:
    """The tables as the TitleData message holds them (a building row's fields are named alike)."""
    return Facts(BUILDINGS, ISLAND_SPACES, CITY_SPACES, TRADING_HOUSE_CAPACITY, GOOD_NAMES)


TITLE_DATA = TitleData(pb.TitleData, facts, lambda: DATA_VERSION)

"""Assyria's static data for clients (boardgame.assyria.v1.TitleData), from the game's own map and
card tables (`services.assyria.board`, `.cards`, `.data`): each hex's coordinates, region, food and
the player counts that use it, the well sites' hexes, the cards' names and the dignitaries."""

from __future__ import annotations

from typing import NamedTuple

from boardgame.assyria.v1 import assyria_pb2 as pb

from services.assyria import board
from services.assyria.cards import CARD_SYMBOLS, FOOD_NAMES, card_name
from services.assyria.data import DIGNITARY_SPACES, MAP, Dignitary
from services.assyria.labels import DIGNITARY_NAMES
from services.common.game import TitleData

DATA_VERSION = "1"  # the edition of the map and card tables


class HexFacts(NamedTuple):
    """A MapHex message's native value."""

    q: int
    r: int
    region: str
    food: str
    river: bool
    player_counts: tuple[int, ...]


class SiteFacts(NamedTuple):
    """A WellSite message's native value."""

    hexes: tuple[int, ...]


class DignitaryFacts(NamedTuple):
    """A DignitaryInfo message's native value."""

    name: str
    spaces: int


class Facts(NamedTuple):
    """The TitleData message's native value."""

    hexes: tuple[HexFacts, ...]
    well_sites: tuple[SiteFacts, ...]
    card_names: tuple[str, ...]
    dignitaries: tuple[DignitaryFacts, ...]


def facts() -> Facts:
    """The tables as the TitleData message holds them, by hex, site, card and dignitary number."""
    hexes = tuple(
        HexFacts(
            h.q,
            h.r,
            h.region.name.lower(),
            FOOD_NAMES[board.HEX_FOOD[number]],
            board.IS_RIVER[number],
            tuple(players for players, usable in sorted(MAP.items()) if (h.q, h.r) in usable),
        )
        for number, h in enumerate(board.HEXES)
    )
    sites = tuple(SiteFacts(site) for site in board.SITE_HEXES)
    cards = ("", *(card_name(card) for card in range(1, len(CARD_SYMBOLS))))
    dignitaries = tuple(DignitaryFacts(DIGNITARY_NAMES[d], DIGNITARY_SPACES[d]) for d in Dignitary)
    return Facts(hexes, sites, cards, dignitaries)


TITLE_DATA = TitleData(pb.TitleData, facts, lambda: DATA_VERSION)

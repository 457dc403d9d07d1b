"""Events the engine emits: one NamedTuple per kind, converted to protobuf only at the service edge.

Every event is public (§8: cards drawn, taken and held are public; deck orders never appear in an
event). Hexes, cards, sites and dignitaries are their protobuf numbers.
"""

from __future__ import annotations

from typing import NamedTuple


class GameStarted(NamedTuple):
    turn_order: tuple[int, ...]


class StartSpaceChosen(NamedTuple):
    seat: int
    hex: int


class CardDrafted(NamedTuple):
    seat: int
    card: int


class FoodDeckReshuffled(NamedTuple):
    cards: int  # how many cards the new deck has


class RowsSown(NamedTuple):
    turn: int
    sowing_row_1: tuple[int, ...]
    sowing_row_2: tuple[int, ...]


class ColumnTaken(NamedTuple):
    seat: int
    column: int
    cards: tuple[int, ...]


class TurnOrderSet(NamedTuple):
    turn_order: tuple[int, ...]


class HutPlaced(NamedTuple):
    seat: int
    hex: int


class CardPlayed(NamedTuple):
    seat: int
    card: int  # 0: a plow card


class HutFed(NamedTuple):
    seat: int
    hex: int


class HutsStarved(NamedTuple):
    seat: int
    hexes: tuple[int, ...]


class WellBuilt(NamedTuple):
    seat: int
    site: int
    vp: int


class RevenueGained(NamedTuple):
    seat: int
    camels: int  # added to the track, after the cap
    camels_lost: int  # beyond the cap
    vp: int


class ZigguratBuilt(NamedTuple):
    seat: int
    hex: int
    height: int  # 1 base, 2 centre, 3 roof
    cost: int


class HutSentToAssur(NamedTuple):
    seat: int
    dignitary: int
    space: int  # from the top, counting from 0
    cost: int


class OfferingMade(NamedTuple):
    seat: int
    offerings: int  # the disc's new position


class PlowBought(NamedTuple):
    seat: int


class FoodCardBought(NamedTuple):
    seat: int
    card: int
    cost: int


class ExpansionCardRevealed(NamedTuple):
    turn: int
    value: int


class FloodCame(NamedTuple):
    reign: int
    huts_lost: tuple[int, ...]  # per seat


class AssurScored(NamedTuple):
    seat: int
    rank: int  # from 1
    vp: int


class DignitaryRewarded(NamedTuple):
    seat: int
    dignitary: int
    vp: int
    camels: int
    plow: bool


class OfferingsScored(NamedTuple):
    seat: int
    ziggurats: int
    multiplier: int
    vp: int


class SeatFinal(NamedTuple):
    seat: int
    ziggurat_pieces: int
    plows: int
    camel_vp: int
    total: int


class GameEnded(NamedTuple):
    seats: tuple[SeatFinal, ...]
    winners: tuple[int, ...]

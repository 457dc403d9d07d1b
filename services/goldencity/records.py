"""The records a data set loads into (frozen). Every entry of a file gets a native id: its 1-based
position in its file's list, so the ids of a data set are fixed by the data set; `name` keeps the
file's own id (`meadow_c1`, `sc01`, `goods_1`) for display and for the operator."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TypeVar

from services.goldencity.vocabulary import BonusCardKind, BonusType, Compass, Item, Landscape, PlaceKind

Named = TypeVar("Named", "Place", "Area")


@dataclass(frozen=True)
class Bonus:
    """The one-time bonus a place shows: what, and how many (coins, letters) or 1 (0 for none)."""

    type: BonusType
    amount: int


@dataclass(frozen=True)
class Place:
    """A board node: a coastal or inland place, or an outer or inner city part."""

    id: int
    name: str
    kind: PlaceKind
    region: Landscape
    compass: Compass
    on_river: bool
    bonus: Bonus


@dataclass(frozen=True)
class Road:
    """An undirected road between two places (their ids, the smaller first)."""

    ends: tuple[int, int]


@dataclass(frozen=True)
class Area:
    """A named set of places that scoring and bonus cards refer to (`north`, `river`, ...)."""

    id: int
    name: str
    places: frozenset[int]


@dataclass(frozen=True)
class GoodsKind:
    """One of the goods kinds shown on goods cards."""

    id: int
    name: str


@dataclass(frozen=True)
class Board:
    """The board: its regions, goods kinds, places, roads and areas."""

    regions: tuple[Landscape, ...]
    goods_kinds: tuple[GoodsKind, ...]
    places: tuple[Place, ...]
    roads: tuple[Road, ...]
    areas: tuple[Area, ...]

    def place(self, name: str) -> Place:
        """The place the file calls `name`; KeyError if none."""
        return _by_name(self.places, name)

    def area(self, name: str) -> Area:
        """The area the file calls `name`; KeyError if none."""
        return _by_name(self.areas, name)

    def neighbours(self, place_id: int) -> frozenset[int]:
        """The ids of the places one road away from `place_id`."""
        return frozenset(
            other for road in self.roads if place_id in road.ends for other in road.ends if other != place_id
        )

    def bonus_totals(self) -> dict[BonusType, int]:
        """How many places show each bonus type (types no place shows are left out)."""
        return dict(Counter(place.bonus.type for place in self.places))


@dataclass(frozen=True)
class ScoringCard:
    """A scoring card (§6.2): an area and a goods kind (ids), with its points."""

    id: int
    name: str
    back: int
    area: int
    goods: int
    house_points: int
    goods_points: int
    majority_bonus: int


@dataclass(frozen=True)
class BonusCard:
    """A bonus card (§6.3): `points` per own house in `area`, or per `item` held (`goods` narrows a
    GOODS_SYMBOL item to one goods kind)."""

    id: int
    name: str
    kind: BonusCardKind
    points: int
    area: int | None = None
    item: Item | None = None
    goods: int | None = None


@dataclass(frozen=True)
class GoodsCard:
    """A goods card: the goods kinds (ids) it shows, two different ones in a valid set."""

    id: int
    name: str
    goods: tuple[int, ...]


@dataclass(frozen=True)
class Source:
    """Where one file of a data set says its contents come from."""

    file: str
    data_version: str
    reconstruction: bool
    provenance: str


@dataclass(frozen=True)
class DataSet:
    """A loaded, validated data set: the board and the three card decks, with their provenance.
    `reconstruction` is true when any of its files is a reconstruction; `warnings` are the §12.3
    notices that do not refuse the set."""

    name: str
    data_version: str
    reconstruction: bool
    sources: tuple[Source, ...]
    board: Board
    scoring_cards: tuple[ScoringCard, ...]
    bonus_cards: tuple[BonusCard, ...]
    goods_cards: tuple[GoodsCard, ...]
    warnings: tuple[str, ...] = ()


def _by_name(entries: tuple[Named, ...], name: str) -> Named:
    for entry in entries:
        if entry.name == name:
            return entry
    raise KeyError(name)

"""Lookups the engine needs, derived once per data set: each place's kind, cost landscape and
neighbours, each area's places, each card's fields as flat tuples indexed by id (ids count from 1,
index 0 is unused). Everything comes from the data set; nothing names a place or card."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import NamedTuple

from services.goldencity import dataset
from services.goldencity.records import BonusCard, DataSet, ScoringCard
from services.goldencity.rules import (
    COAST_COST,
    INLAND_COST,
    INNER_COST_KEY,
    INNER_COST_KEY_PLUS_OUTER_COST,
    OUTER_COST,
)
from services.goldencity.vocabulary import CITY_PARTS, BonusType, Landscape, PlaceKind


class Cost(NamedTuple):
    """A place's price: `cards` cards of `landscape`, and whether a key is paid too."""

    landscape: int
    cards: int
    key: bool


def place_cost(kind: int, landscape: int, inner_cost: int) -> Cost:
    """What building on a place of `kind` with cost landscape `landscape` costs (§5), with the
    option inner_cost (OP-4) and the outer cost of OP-5."""
    if kind == PlaceKind.COAST:
        return Cost(landscape, COAST_COST, False)
    if kind == PlaceKind.INLAND:
        return Cost(landscape, INLAND_COST, False)
    if kind == PlaceKind.CITY_OUTER:
        return Cost(landscape, OUTER_COST, False)
    if inner_cost == INNER_COST_KEY_PLUS_OUTER_COST:
        return Cost(landscape, OUTER_COST, True)
    return Cost(landscape, 0, True)


@dataclass(frozen=True, eq=False)
class Tables:
    """A data set and what the engine reads from it, by id."""

    data: DataSet
    place_names: tuple[str, ...]
    kind: tuple[int, ...]  # PlaceKind per place id
    cost_landscape: tuple[int, ...]  # the landscape a place's cards must be (Coast for the coast)
    neighbours: tuple[frozenset[int], ...]
    bonus: tuple[tuple[int, int], ...]  # (BonusType, amount) per place id
    area_places: tuple[frozenset[int], ...]  # per area id
    city_parts: frozenset[int]
    coast_places: frozenset[int]
    scoring_cards: tuple[ScoringCard | None, ...]
    bonus_cards: tuple[BonusCard | None, ...]
    goods_symbols: tuple[tuple[int, ...], ...]  # goods kind ids per goods card id
    costs: dict[int, tuple[Cost, ...]]  # each place's cost by the option inner_cost, then place id

    @property
    def places(self) -> range:
        """Every place id."""
        return range(1, len(self.kind))

    def is_city(self, place: int) -> bool:
        """Whether a place is a city part."""
        return place in self.city_parts


def _cost_landscape(kind: PlaceKind, region: Landscape) -> int:
    return int(Landscape.COAST if kind == PlaceKind.COAST else region)


def of(data: DataSet) -> Tables:
    """The tables of a loaded data set."""
    board = data.board
    count = len(board.places) + 1
    neighbours: list[set[int]] = [set() for _ in range(count)]
    for road in board.roads:
        a, b = road.ends
        neighbours[a].add(b)
        neighbours[b].add(a)
    areas: list[frozenset[int]] = [frozenset()] * (len(board.areas) + 1)
    for area in board.areas:
        areas[area.id] = area.places
    kinds = (0, *(int(p.kind) for p in board.places))
    landscapes = (0, *(_cost_landscape(p.kind, p.region) for p in board.places))
    costs = {
        option: (
            Cost(0, 0, False),
            *(place_cost(k, c, option) for k, c in zip(kinds[1:], landscapes[1:], strict=True)),
        )
        for option in (INNER_COST_KEY, INNER_COST_KEY_PLUS_OUTER_COST)
    }
    goods: list[tuple[int, ...]] = [()] * (len(data.goods_cards) + 1)
    for card in data.goods_cards:
        goods[card.id] = card.goods
    return Tables(
        data=data,
        place_names=("", *(p.name for p in board.places)),
        kind=kinds,
        cost_landscape=landscapes,
        neighbours=tuple(frozenset(n) for n in neighbours),
        bonus=((int(BonusType.NONE), 0), *((int(p.bonus.type), p.bonus.amount) for p in board.places)),
        area_places=tuple(areas),
        city_parts=frozenset(p.id for p in board.places if p.kind in CITY_PARTS),
        coast_places=frozenset(p.id for p in board.places if p.kind == PlaceKind.COAST),
        scoring_cards=(None, *data.scoring_cards),
        bonus_cards=(None, *data.bonus_cards),
        goods_symbols=tuple(goods),
        costs=costs,
    )


@functools.cache
def named(name: str) -> Tables:
    """The tables of the installed data set called `name` (loaded and checked once per process)."""
    return of(dataset.load(name))

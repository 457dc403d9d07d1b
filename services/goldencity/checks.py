"""The facts a data set must keep, checked once its files are read: every validation rule of §12.3
(its bracketed constants named here), the component counts of §1 and §2, and the §12.2 bonus amounts.
Each check returns every problem it finds, so an operator sees all of them at once. Apart from the
bonus totals, which §12.3 asks to report as a warning only, a problem refuses the data set."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Final

from services.goldencity.reader import CHOICE, Problem
from services.goldencity.records import Board, BonusCard, GoodsCard, Place, ScoringCard, Source
from services.goldencity.vocabulary import (
    CITY_PARTS,
    QUARTER_LANDSCAPES,
    BonusType,
    PlaceKind,
    file_name,
)

# §12.3, each bracketed constant.
COASTAL_PLACES: Final = 16  # confirmed
INLAND_PLACES: Final = 30  # UNCONFIRMED (OP-12)
CITY_INNER_PER_QUARTER: Final = 1
CITY_OUTER_PER_QUARTER: Final = 1  # OP-13
KEY_CARDS: Final = 6  # component limits the bonus totals are compared with
BONUS_CARDS: Final = 8
GOODS_CARDS: Final = 8
# §1 and §2 component facts.
GOODS_KINDS: Final = 4
GOODS_PER_CARD: Final = 2  # each goods card shows 2 different kinds
SCORING_CARD_BACKS: Final = {1: 4, 2: 8, 3: 4}  # back value -> cards with that back
# §12.2 bonus amounts: coins 1-2, letters any positive VP, none 0, every other bonus 1.
COIN_BONUS_AMOUNTS: Final = (1, 2)
MIN_LETTERS_BONUS: Final = 1
NO_BONUS_AMOUNT: Final = 0
SINGLE_BONUS_AMOUNT: Final = 1
# The area that lists the places along the river; it must match the places' `on_river` flags.
RIVER_AREA: Final = "river"

COMPONENT_LIMITS: Final = {
    BonusType.KEY: KEY_CARDS,
    BonusType.BONUS_CARD: BONUS_CARDS,
    BonusType.GOODS_CARD: GOODS_CARDS,
}

# Rule names, as refusals print them. §12.3 first, then the component facts and the schema's amounts.
RULE_COASTAL_PLACES: Final = "COASTAL_PLACES"
RULE_INLAND_PLACES: Final = "INLAND_PLACES"
RULE_CITY_PARTS: Final = "CITY_PARTS"
RULE_REACHABLE_FROM_COAST: Final = "REACHABLE_FROM_COAST"
RULE_COAST_HAS_ROAD: Final = "COAST_HAS_ROAD"
RULE_INNER_NEXT_TO_OUTER: Final = "INNER_NEXT_TO_OUTER"
RULE_CITY_BONUS_NONE: Final = "CITY_BONUS_NONE"
RULE_CARD_AREA_EXISTS: Final = "CARD_AREA_EXISTS"
RULE_AREA_NODE_EXISTS: Final = "AREA_NODE_EXISTS"
RULE_BONUS_TOTALS: Final = "BONUS_TOTALS"
RULE_REGIONS: Final = "REGIONS"
RULE_PLACE_BONUS: Final = "PLACE_BONUS"
RULE_BONUS_AMOUNT: Final = "BONUS_AMOUNT"
RULE_RIVER: Final = "RIVER"
RULE_GOODS_KINDS: Final = "GOODS_KINDS"
RULE_SCORING_CARD_BACKS: Final = "SCORING_CARD_BACKS"
RULE_BONUS_CARDS: Final = "BONUS_CARDS"
RULE_GOODS_CARDS: Final = "GOODS_CARDS"
RULE_GOODS_CARD_KINDS: Final = "GOODS_CARD_KINDS"
RULE_POINTS: Final = "POINTS"
RULE_SAME_DATA_VERSION: Final = "SAME_DATA_VERSION"


def _at(place: Place) -> str:
    return f"nodes[{place.id - 1}]"


def _card_at(card: ScoringCard | BonusCard | GoodsCard) -> str:
    return f"cards[{card.id - 1}]"


def board_problems(file: str, board: Board) -> list[Problem]:
    """Every rule of §12.3 and §2 the board breaks."""
    found: list[Problem] = []

    def problem(field: str, rule: str, detail: str) -> None:
        found.append(Problem(file, field, rule, detail))

    kinds = Counter(place.kind for place in board.places)
    if kinds[PlaceKind.COAST] != COASTAL_PLACES:
        detail = f"expected {COASTAL_PLACES} coast nodes, found {kinds[PlaceKind.COAST]}"
        problem("nodes", RULE_COASTAL_PLACES, detail)
    if kinds[PlaceKind.INLAND] != INLAND_PLACES:
        detail = f"expected {INLAND_PLACES} inland nodes, found {kinds[PlaceKind.INLAND]}"
        problem("nodes", RULE_INLAND_PLACES, detail)
    _check_regions(board, problem)
    _check_roads(board, problem)
    _check_bonuses(board, problem)
    _check_river(board, problem)
    if len(board.goods_kinds) != GOODS_KINDS:
        detail = f"expected {GOODS_KINDS} goods kinds, found {len(board.goods_kinds)}"
        problem("goods_kinds", RULE_GOODS_KINDS, detail)
    return found


Report = Callable[[str, str, str], None]


def _check_regions(board: Board, problem: Report) -> None:
    if sorted(board.regions) != sorted(QUARTER_LANDSCAPES):
        names = ", ".join(file_name(landscape) for landscape in QUARTER_LANDSCAPES)
        problem("regions", RULE_REGIONS, f"the regions are the 4 quarter landscapes {names}, each once")
    for index, region in enumerate(board.regions):
        parts = Counter(place.kind for place in board.places if place.region is region)
        for kind, expected in (
            (PlaceKind.CITY_INNER, CITY_INNER_PER_QUARTER),
            (PlaceKind.CITY_OUTER, CITY_OUTER_PER_QUARTER),
        ):
            if parts[kind] != expected:
                detail = f"{file_name(region)} has {parts[kind]} {file_name(kind)} nodes, expected {expected}"
                problem(f"regions[{index}]", RULE_CITY_PARTS, detail)


def _check_roads(board: Board, problem: Report) -> None:
    coast = {place.id for place in board.places if place.kind is PlaceKind.COAST}
    reached, frontier = set(coast), list(coast)
    while frontier:
        for other in board.neighbours(frontier.pop()) - reached:
            reached.add(other)
            frontier.append(other)
    for place in board.places:
        neighbours = board.neighbours(place.id)
        if place.id not in reached:
            problem(
                _at(place),
                RULE_REACHABLE_FROM_COAST,
                f"{place.name} cannot be reached by road from a coast node",
            )
        if place.kind is PlaceKind.COAST and not neighbours:
            problem(_at(place), RULE_COAST_HAS_ROAD, f"the coast node {place.name} has no road")
        if place.kind is PlaceKind.CITY_INNER and not any(
            board.places[other - 1].kind is PlaceKind.CITY_OUTER
            and board.places[other - 1].region is place.region
            for other in neighbours
        ):
            detail = f"{place.name} has no road to a city_outer of {file_name(place.region)}"
            problem(_at(place), RULE_INNER_NEXT_TO_OUTER, detail)


def _check_bonuses(board: Board, problem: Report) -> None:
    for place in board.places:
        bonus, field = place.bonus, f"{_at(place)}.bonus"
        if place.kind in CITY_PARTS and bonus.type is not BonusType.NONE:
            found_type = file_name(bonus.type)
            detail = f"a city part shows no bonus (its letters come from the city table), found {found_type}"
            problem(f"{field}.type", RULE_CITY_BONUS_NONE, detail)
        if place.kind not in CITY_PARTS and bonus.type is BonusType.NONE:
            problem(
                f"{field}.type",
                RULE_PLACE_BONUS,
                f"a {file_name(place.kind)} place shows a bonus, found none",
            )
        expected = _expected_amount(bonus.type, bonus.amount)
        if expected is not None:
            detail = f"a {file_name(bonus.type)} bonus has amount {expected}, found {bonus.amount}"
            problem(f"{field}.amount", RULE_BONUS_AMOUNT, detail)


def _expected_amount(bonus_type: BonusType, amount: int) -> str | None:
    """What the amount of a `bonus_type` bonus must be, when `amount` is not that."""
    if bonus_type is BonusType.COINS:
        return None if amount in COIN_BONUS_AMOUNTS else " or ".join(map(str, COIN_BONUS_AMOUNTS))
    if bonus_type is BonusType.LETTERS:
        return None if amount >= MIN_LETTERS_BONUS else f"at least {MIN_LETTERS_BONUS}"
    expected = NO_BONUS_AMOUNT if bonus_type is BonusType.NONE else SINGLE_BONUS_AMOUNT
    return None if amount == expected else str(expected)


def _check_river(board: Board, problem: Report) -> None:
    for area in board.areas:
        if area.name == RIVER_AREA:
            along = {place.id for place in board.places if place.on_river}
            if along != area.places:
                detail = f"the {RIVER_AREA} area must list exactly the nodes with on_river true"
                problem(f"areas.{RIVER_AREA}", RULE_RIVER, detail)


def bonus_total_warnings(file: str, board: Board) -> list[Problem]:
    """§12.3's warning: the totals per bonus type, where one exceeds its component limit."""
    totals = board.bonus_totals()
    shown = ", ".join(f"{file_name(kind)} {count}" for kind, count in sorted(totals.items()))
    return [
        Problem(
            file,
            "nodes",
            RULE_BONUS_TOTALS,
            f"{totals[kind]} places give a {file_name(kind)} but the game has {limit} (totals: {shown})",
        )
        for kind, limit in COMPONENT_LIMITS.items()
        if totals.get(kind, 0) > limit
    ]


def scoring_card_problems(file: str, cards: tuple[ScoringCard, ...]) -> list[Problem]:
    """The scoring cards' backs (§1) and points."""
    found = []
    for card in cards:
        if card.back not in SCORING_CARD_BACKS:
            backs = ", ".join(map(str, SCORING_CARD_BACKS))
            found.append(
                Problem(file, f"{_card_at(card)}.back", CHOICE, f"{card.back} is not one of {backs}")
            )
        for field in ("house_points", "goods_points", "majority_bonus"):
            if getattr(card, field) < 0:
                found.append(
                    Problem(file, f"{_card_at(card)}.{field}", RULE_POINTS, "points are not negative")
                )
    listed = Counter(card.back for card in cards)
    if listed != Counter(SCORING_CARD_BACKS) and set(listed) <= set(SCORING_CARD_BACKS):
        expected = ", ".join(f"{count} with back {back}" for back, count in SCORING_CARD_BACKS.items())
        found.append(
            Problem(
                file,
                "cards",
                RULE_SCORING_CARD_BACKS,
                f"expected {expected}, found {dict(sorted(listed.items()))}",
            )
        )
    return found


def bonus_card_problems(file: str, cards: tuple[BonusCard, ...]) -> list[Problem]:
    """The number of bonus cards (§1) and their points."""
    found = [
        Problem(file, f"{_card_at(card)}.points", RULE_POINTS, "points are not negative")
        for card in cards
        if card.points < 0
    ]
    if len(cards) != BONUS_CARDS:
        found.append(
            Problem(
                file, "cards", RULE_BONUS_CARDS, f"expected {BONUS_CARDS} bonus cards, found {len(cards)}"
            )
        )
    return found


def goods_card_problems(file: str, cards: tuple[GoodsCard, ...]) -> list[Problem]:
    """The number of goods cards and their 2 different kinds each (§1)."""
    found = [
        Problem(
            file,
            f"{_card_at(card)}.goods",
            RULE_GOODS_CARD_KINDS,
            f"a goods card shows {GOODS_PER_CARD} different goods kinds",
        )
        for card in cards
        if len(set(card.goods)) != GOODS_PER_CARD or len(card.goods) != GOODS_PER_CARD
    ]
    if len(cards) != GOODS_CARDS:
        found.append(
            Problem(
                file, "cards", RULE_GOODS_CARDS, f"expected {GOODS_CARDS} goods cards, found {len(cards)}"
            )
        )
    return found


def version_problems(sources: tuple[Source, ...]) -> list[Problem]:
    """The files of one data set carry one data_version."""
    first = sources[0]
    return [
        Problem(
            source.file,
            "data_version",
            RULE_SAME_DATA_VERSION,
            f"{source.data_version!r} differs from {first.file}'s {first.data_version!r}",
        )
        for source in sources[1:]
        if source.data_version != first.data_version
    ]

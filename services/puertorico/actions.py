"""Actions: one small immutable tuple per decision, pre-built so the hot path never allocates them."""

from __future__ import annotations

from typing import Final, NamedTuple

from services.puertorico.data import BUILDINGS, CIRCLE_TILES, DRAFT_SLOTS, GOODS, TILE_KINDS

# Action kinds, in the order the protobuf Action oneof lists them.
CHOOSE_ROLE: Final = 0
TAKE_PLANTATION: Final = 1
TAKE_QUARRY: Final = 2
HACIENDA_DRAW: Final = 3
HOSPICE_COLONIST: Final = 4
MAYOR_PRIVILEGE: Final = 5
PLACE_ON_TILE: Final = 6
PLACE_ON_BUILDING: Final = 7
BUILD: Final = 8
UNIVERSITY_COLONIST: Final = 9
CRAFTSMAN_BONUS: Final = 10
SELL: Final = 11
LOAD: Final = 12
SHIP_WITH_WHARF: Final = 13
STORE_IN_WAREHOUSE: Final = 14
KEEP_SINGLE: Final = 15
PASS: Final = 16
DRAFT_COST: Final = 17
DRAFT_BUILDING: Final = 18
TAKE_FOREST: Final = 19
PLACE_DRAWN_TILE: Final = 20
BLACK_MARKET_COLONIST: Final = 21
BLACK_MARKET_GOOD: Final = 22
BLACK_MARKET_VP: Final = 23
RETURN_COLONIST: Final = 24
USE_SMALL_WHARF: Final = 25
SMALL_WHARF_GOODS: Final = 26
SHIP_SMALL_WHARF: Final = 27
SELL_TO_TRADING_POST: Final = 28
GUEST_TO_TILE: Final = 29
GUEST_TO_BUILDING: Final = 30
MOVE_COLONIST: Final = 31

# Where a returned colonist comes from (RETURN_COLONIST's arg; arg2 is the tile kind or building).
FROM_SAN_JUAN: Final = 0
FROM_TILE: Final = 1
FROM_BUILDING: Final = 2


class Action(NamedTuple):
    """A decision: its kind and up to two arguments (a role, good, tile, building or ship)."""

    kind: int
    arg: int = 0
    arg2: int = 0


ROLE: Final = tuple(Action(CHOOSE_ROLE, r) for r in range(8))
PLANTATION: Final = tuple(Action(TAKE_PLANTATION, g) for g in GOODS)
QUARRY_ACTION: Final = Action(TAKE_QUARRY)
HACIENDA_ACTION: Final = Action(HACIENDA_DRAW)
HOSPICE_ACTION: Final = Action(HOSPICE_COLONIST)
PRIVILEGE_ACTION: Final = Action(MAYOR_PRIVILEGE)
ON_TILE: Final = tuple(Action(PLACE_ON_TILE, t) for t in range(TILE_KINDS))
ON_BUILDING: Final = tuple(Action(PLACE_ON_BUILDING, b) for b in range(len(BUILDINGS)))
BUILD_ACTION: Final = tuple(Action(BUILD, b) for b in range(len(BUILDINGS)))
UNIVERSITY_ACTION: Final = Action(UNIVERSITY_COLONIST)
BONUS: Final = tuple(Action(CRAFTSMAN_BONUS, g) for g in GOODS)
SELL_ACTION: Final = tuple(Action(SELL, g) for g in GOODS)
MAX_SHIPS: Final = 3
LOAD_ACTION: Final = tuple(tuple(Action(LOAD, g, s) for s in range(MAX_SHIPS)) for g in GOODS)
WHARF_ACTION: Final = tuple(Action(SHIP_WITH_WHARF, g) for g in GOODS)
WAREHOUSE_ACTION: Final = tuple(Action(STORE_IN_WAREHOUSE, g) for g in GOODS)
SINGLE_ACTION: Final = tuple(Action(KEEP_SINGLE, g) for g in GOODS)
PASS_ACTION: Final = Action(PASS)
DRAFT_COST_ACTION: Final = {cost: Action(DRAFT_COST, cost) for cost in DRAFT_SLOTS}
DRAFT_ACTION: Final = tuple(Action(DRAFT_BUILDING, b) for b in range(len(BUILDINGS)))
FOREST_ACTION: Final = tuple(Action(TAKE_FOREST, g) for g in GOODS)
PLACE_FACE_UP: Final = Action(PLACE_DRAWN_TILE, 0)
PLACE_AS_FOREST: Final = Action(PLACE_DRAWN_TILE, 1)
MARKET_COLONIST_ACTION: Final = Action(BLACK_MARKET_COLONIST)
MARKET_GOOD_ACTION: Final = tuple(Action(BLACK_MARKET_GOOD, g) for g in GOODS)
MARKET_VP_ACTION: Final = Action(BLACK_MARKET_VP)
RETURN_FROM_SAN_JUAN: Final = Action(RETURN_COLONIST, FROM_SAN_JUAN)
RETURN_FROM_TILE: Final = {t: Action(RETURN_COLONIST, FROM_TILE, t) for t in CIRCLE_TILES}
RETURN_FROM_BUILDING: Final = tuple(Action(RETURN_COLONIST, FROM_BUILDING, b) for b in range(len(BUILDINGS)))
SMALL_WHARF_ACTION: Final = Action(USE_SMALL_WHARF)
SHIP_SMALL_WHARF_ACTION: Final = Action(SHIP_SMALL_WHARF)
TRADING_POST_ACTION: Final = tuple(Action(SELL_TO_TRADING_POST, g) for g in GOODS)
GUEST_TILE: Final = {t: Action(GUEST_TO_TILE, t) for t in CIRCLE_TILES}
GUEST_BUILDING: Final = tuple(Action(GUEST_TO_BUILDING, b) for b in range(len(BUILDINGS)))

# A space of a board that holds colonists (MOVE_COLONIST's arg and arg2): a circle tile kind (every
# tile of that kind together), or BUILDING_SPACE + a building.
BUILDING_SPACE: Final = TILE_KINDS
SPACES: Final = (*CIRCLE_TILES, *(BUILDING_SPACE + b for b in range(len(BUILDINGS))))
MOVE: Final = {(a, b): Action(MOVE_COLONIST, a, b) for a in SPACES for b in SPACES if a != b}
# The same by space number, for the mayor's legal actions: PLACE[space] places a colonist from San
# Juan on it, MOVE_FROM[source][target] moves one (None from a space to itself or off the board).
SPACE_NUMBERS: Final = range(BUILDING_SPACE + len(BUILDINGS))
PLACE: Final = (*ON_TILE, *ON_BUILDING)
MOVE_FROM: Final = tuple(tuple(MOVE.get((a, b)) for b in SPACE_NUMBERS) for a in SPACE_NUMBERS)


def small_wharf_goods(good: int, count: int) -> Action:
    """Add `count` goods of `good` to the small-wharf shipment."""
    return Action(SMALL_WHARF_GOODS, good, count)

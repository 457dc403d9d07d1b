"""Actions: one small immutable tuple per decision, pre-built so the hot path never allocates them."""

from __future__ import annotations

from typing import NamedTuple

from services.puertorico.data import BUILDINGS, CIRCLE_TILES, DRAFT_SLOTS, GOODS, TILE_KINDS

# Action kinds, in the order the protobuf Action oneof lists them.
(
    CHOOSE_ROLE,
    TAKE_PLANTATION,
    TAKE_QUARRY,
    HACIENDA_DRAW,
    HOSPICE_COLONIST,
    MAYOR_PRIVILEGE,
    PLACE_ON_TILE,
    PLACE_ON_BUILDING,
    BUILD,
    UNIVERSITY_COLONIST,
    CRAFTSMAN_BONUS,
    SELL,
    LOAD,
    SHIP_WITH_WHARF,
    STORE_IN_WAREHOUSE,
    KEEP_SINGLE,
    PASS,
    DRAFT_COST,
    DRAFT_BUILDING,
    TAKE_FOREST,
    PLACE_DRAWN_TILE,
    BLACK_MARKET_COLONIST,
    BLACK_MARKET_GOOD,
    BLACK_MARKET_VP,
    RETURN_COLONIST,
    USE_SMALL_WHARF,
    SMALL_WHARF_GOODS,
    SHIP_SMALL_WHARF,
    SELL_TO_TRADING_POST,
    GUEST_TO_TILE,
    GUEST_TO_BUILDING,
    MOVE_COLONIST,
) = range(32)

# Where a returned colonist comes from (RETURN_COLONIST's arg; arg2 is the tile kind or building).
FROM_SAN_JUAN, FROM_TILE, FROM_BUILDING = range(3)


class Action(NamedTuple):
    """A decision: its kind and up to two arguments (a role, good, tile, building or ship)."""

    kind: int
    arg: int = 0
    arg2: int = 0


ROLE = tuple(Action(CHOOSE_ROLE, r) for r in range(8))
PLANTATION = tuple(Action(TAKE_PLANTATION, g) for g in GOODS)
QUARRY_ACTION = Action(TAKE_QUARRY)
HACIENDA_ACTION = Action(HACIENDA_DRAW)
HOSPICE_ACTION = Action(HOSPICE_COLONIST)
PRIVILEGE_ACTION = Action(MAYOR_PRIVILEGE)
ON_TILE = tuple(Action(PLACE_ON_TILE, t) for t in range(TILE_KINDS))
ON_BUILDING = tuple(Action(PLACE_ON_BUILDING, b) for b in range(len(BUILDINGS)))
BUILD_ACTION = tuple(Action(BUILD, b) for b in range(len(BUILDINGS)))
UNIVERSITY_ACTION = Action(UNIVERSITY_COLONIST)
BONUS = tuple(Action(CRAFTSMAN_BONUS, g) for g in GOODS)
SELL_ACTION = tuple(Action(SELL, g) for g in GOODS)
MAX_SHIPS = 3
LOAD_ACTION = tuple(tuple(Action(LOAD, g, s) for s in range(MAX_SHIPS)) for g in GOODS)
WHARF_ACTION = tuple(Action(SHIP_WITH_WHARF, g) for g in GOODS)
WAREHOUSE_ACTION = tuple(Action(STORE_IN_WAREHOUSE, g) for g in GOODS)
SINGLE_ACTION = tuple(Action(KEEP_SINGLE, g) for g in GOODS)
PASS_ACTION = Action(PASS)
DRAFT_COST_ACTION = {cost: Action(DRAFT_COST, cost) for cost in DRAFT_SLOTS}
DRAFT_ACTION = tuple(Action(DRAFT_BUILDING, b) for b in range(len(BUILDINGS)))
FOREST_ACTION = tuple(Action(TAKE_FOREST, g) for g in GOODS)
PLACE_FACE_UP = Action(PLACE_DRAWN_TILE, 0)
PLACE_AS_FOREST = Action(PLACE_DRAWN_TILE, 1)
MARKET_COLONIST_ACTION = Action(BLACK_MARKET_COLONIST)
MARKET_GOOD_ACTION = tuple(Action(BLACK_MARKET_GOOD, g) for g in GOODS)
MARKET_VP_ACTION = Action(BLACK_MARKET_VP)
RETURN_FROM_SAN_JUAN = Action(RETURN_COLONIST, FROM_SAN_JUAN)
RETURN_FROM_TILE = {t: Action(RETURN_COLONIST, FROM_TILE, t) for t in CIRCLE_TILES}
RETURN_FROM_BUILDING = tuple(Action(RETURN_COLONIST, FROM_BUILDING, b) for b in range(len(BUILDINGS)))
SMALL_WHARF_ACTION = Action(USE_SMALL_WHARF)
SHIP_SMALL_WHARF_ACTION = Action(SHIP_SMALL_WHARF)
TRADING_POST_ACTION = tuple(Action(SELL_TO_TRADING_POST, g) for g in GOODS)
GUEST_TILE = {t: Action(GUEST_TO_TILE, t) for t in CIRCLE_TILES}
GUEST_BUILDING = tuple(Action(GUEST_TO_BUILDING, b) for b in range(len(BUILDINGS)))

# A space of a board that holds colonists (MOVE_COLONIST's arg and arg2): a circle tile kind (every
# tile of that kind together), or BUILDING_SPACE + a building.
BUILDING_SPACE = TILE_KINDS
SPACES = (*CIRCLE_TILES, *(BUILDING_SPACE + b for b in range(len(BUILDINGS))))
MOVE = {(a, b): Action(MOVE_COLONIST, a, b) for a in SPACES for b in SPACES if a != b}
# The same by space number, for the mayor's legal actions: PLACE[space] places a colonist from San
# Juan on it, MOVE_FROM[source][target] moves one (None from a space to itself or off the board).
SPACE_NUMBERS = range(BUILDING_SPACE + len(BUILDINGS))
PLACE = (*ON_TILE, *ON_BUILDING)
MOVE_FROM = tuple(tuple(MOVE.get((a, b)) for b in SPACE_NUMBERS) for a in SPACE_NUMBERS)


def small_wharf_goods(good: int, count: int) -> Action:
    """Add `count` goods of `good` to the small-wharf shipment."""
    return Action(SMALL_WHARF_GOODS, good, count)

"""Actions: one small immutable tuple per decision, pre-built so the hot path never allocates them."""

from __future__ import annotations

from typing import NamedTuple

from services.puertorico.data import BUILDINGS, GOODS, TILE_KINDS

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
) = range(17)


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

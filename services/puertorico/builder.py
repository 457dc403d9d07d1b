"""Builder phase (§4.3): at most one building each; quarries and the privilege lower the price.

Expansion I: forests lower it too (forest house), the black market trades items for discounts
(one decision per item), and the church pays VP after a build.
"""

from __future__ import annotations

from typing import Final

from services.puertorico.actions import (
    BLACK_MARKET_COLONIST,
    BLACK_MARKET_GOOD,
    BLACK_MARKET_VP,
    BUILD,
    BUILD_ACTION,
    FROM_SAN_JUAN,
    FROM_TILE,
    MARKET_COLONIST_ACTION,
    MARKET_GOOD_ACTION,
    MARKET_VP_ACTION,
    PASS,
    PASS_ACTION,
    RETURN_FROM_BUILDING,
    RETURN_FROM_SAN_JUAN,
    RETURN_FROM_TILE,
    UNIVERSITY_ACTION,
    UNIVERSITY_COLONIST,
    Action,
)
from services.puertorico.board import award_vp, colonist_available, privilege, take_colonist, trigger_end
from services.puertorico.data import (
    BLACK_MARKET,
    BLACK_MARKET_COLONIST_SOURCE,
    BUILDING_CITY_SPACES,
    BUILDINGS,
    CHURCH,
    CHURCH_VP_BY_COL,
    CIRCLE_TILES,
    CITY_SPACES,
    FOREST,
    FOREST_DISCOUNT_NEEDS_OCCUPIED,
    FOREST_DISCOUNT_PER,
    FOREST_HOUSE,
    GOODS,
    QUARRY,
    UNIVERSITY,
)
from services.puertorico.data import BLACK_MARKET_COLONIST as ITEM_COLONIST
from services.puertorico.data import BLACK_MARKET_GOOD as ITEM_GOOD
from services.puertorico.data import BLACK_MARKET_VP as ITEM_VP
from services.puertorico.events import (
    FROM_UNIVERSITY,
    VP_CHURCH,
    BlackMarketReturned,
    BuildingBuilt,
    ColonistsReceived,
    Passed,
)
from services.puertorico.state import (
    BLACK_MARKET_COLONIST_STEP,
    BLACK_MARKET_STEP,
    TRIGGER_CITY,
    UNIVERSITY_STEP,
    Player,
    State,
)
from services.puertorico.state import BUILD as BUILD_STEP

BUILDER_PRIVILEGE: Final = 1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Begin with the builder's turn."""
    state.step = BUILD_STEP
    state.actor = state.role_selector
    return False


def _forest_discount(player: Player) -> int:
    """-1 per 2 forests with a forest house (OP-16: occupied), no column cap."""
    forests = player.tiles[FOREST]
    if not forests:
        return 0
    works = player.has(FOREST_HOUSE) if FOREST_DISCOUNT_NEEDS_OCCUPIED else FOREST_HOUSE in player.buildings
    return forests // FOREST_DISCOUNT_PER if works else 0


# What each building costs less its occupied quarries, by quarries (COST_AFTER_QUARRIES[q][building]):
# a building takes at most its column of quarries off, so quarries beyond the highest column count
# as that many.
MOST_QUARRIES: Final = max(info.col for info in BUILDINGS)
COST_AFTER_QUARRIES: Final = tuple(
    tuple(info.cost - min(quarries, info.col) for info in BUILDINGS) for quarries in range(MOST_QUARRIES + 1)
)


def _costs(state: State, seat: int) -> tuple[tuple[int, ...], int]:
    """`seat`'s price of each building before the discounts that are the same for every building,
    and those discounts: the forest discount and, as the builder, the privilege (doubled by a library)."""
    player = state.players[seat]
    discount = _forest_discount(player)
    if seat == state.role_selector:
        discount += BUILDER_PRIVILEGE * privilege(state, seat)
    return COST_AFTER_QUARRIES[min(player.occupied[QUARRY], MOST_QUARRIES)], discount


def price(state: State, seat: int, building: int) -> int:
    """What `seat` pays for `building` before any black market items: cost less the privilege (doubled
    by a library), occupied quarries up to its column, and the forest discount."""
    costs, discount = _costs(state, seat)
    return max(0, costs[building] - discount)


def _colonist_sources(player: Player) -> list[Action]:
    """Where a colonist may be returned from with the black market (OP-14: any of the owner's)."""
    actions = [RETURN_FROM_SAN_JUAN] if player.san_juan else []
    if BLACK_MARKET_COLONIST_SOURCE == "any":
        actions.extend(RETURN_FROM_TILE[t] for t in CIRCLE_TILES if player.occupied[t])
        buildings = player.buildings
        actions.extend(RETURN_FROM_BUILDING[b] for b in sorted(buildings) if buildings[b])
    return actions


def _market_items(state: State, player: Player) -> list[Action]:
    """The black market items the player may still return for the building being paid."""
    used = state.black_market_items
    actions = []
    if ITEM_COLONIST not in used and _colonist_sources(player):
        actions.append(MARKET_COLONIST_ACTION)
    if ITEM_GOOD not in used:
        actions.extend(MARKET_GOOD_ACTION[g] for g in GOODS if player.goods[g])
    if ITEM_VP not in used and player.vp > 0:
        actions.append(MARKET_VP_ACTION)
    return actions


def _market_reach(player: Player) -> int:
    """The most the black market can take off a price now (one of each item the player has)."""
    if not player.has(BLACK_MARKET):
        return 0
    return bool(_colonist_sources(player)) + any(player.goods) + (player.vp > 0)


def legal_build(state: State) -> list[Action]:
    """Every building in stock, not yet owned, that fits in the city and is affordable; or nothing."""
    seat = state.actor
    player = state.players[seat]
    free = CITY_SPACES - player.city_used()
    budget = player.doubloons + _market_reach(player)
    costs, discount = _costs(state, seat)
    owned = player.buildings
    actions = [
        BUILD_ACTION[b]
        for b, copies in enumerate(state.stock)
        if copies
        and b not in owned
        and BUILDING_CITY_SPACES[b] <= free
        and max(0, costs[b] - discount) <= budget
    ]
    actions.append(PASS_ACTION)
    return actions


def play_build(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Choose the building; with a usable black market its items come next, else pay and place it."""
    seat = state.actor
    player = state.players[seat]
    if action.kind != BUILD:
        events.append(Passed(seat, BUILD_STEP))
        return _next_turn(state)
    building = action.arg
    cost = price(state, seat, building)
    if cost and _market_reach(player):
        state.pending_build = building
        state.pending_price = cost  # returning a colonist from a quarry later does not raise it
        state.black_market_items = []
        state.step = BLACK_MARKET_STEP
        return False
    return _place(state, building, cost, events)


def _place(state: State, building: int, cost: int, events: list) -> bool:  # type: ignore[type-arg]
    """Pay and place the building unoccupied; church VP; offer the university colonist when it applies."""
    seat = state.actor
    player = state.players[seat]
    player.doubloons -= cost
    state.stock[building] -= 1
    player.buildings[building] = 0
    events.append(BuildingBuilt(seat, building, cost))
    if building != CHURCH and player.has(CHURCH):  # ruling 36: the church never pays for itself
        award_vp(state, seat, CHURCH_VP_BY_COL[BUILDINGS[building].col], VP_CHURCH, events)
    if player.city_used() >= CITY_SPACES:
        trigger_end(state, TRIGGER_CITY, events)
    if player.has(UNIVERSITY) and colonist_available(state):
        state.just_built = building
        state.step = UNIVERSITY_STEP
        return False
    return _next_turn(state)


def _price_left(state: State) -> int:
    return state.pending_price - len(state.black_market_items)


def legal_black_market(state: State) -> list[Action]:
    """Pay (when affordable), or return one more item while the price is above 0 (no change, ruling 32)."""
    left = _price_left(state)
    actions = [PASS_ACTION] if left <= state.players[state.actor].doubloons else []
    if left > 0:
        actions.extend(_market_items(state, state.players[state.actor]))
    return actions


def play_black_market(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Return a good or a VP, go on to choose a colonist, or pay the price left and build."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == PASS:
        building = state.pending_build
        cost = _price_left(state)
        state.pending_build = -1
        state.pending_price = 0
        state.black_market_items = []
        return _place(state, building, cost, events)
    if action.kind == BLACK_MARKET_COLONIST:
        state.step = BLACK_MARKET_COLONIST_STEP
        return False
    if action.kind == BLACK_MARKET_GOOD:
        player.goods[action.arg] -= 1
        state.goods_supply[action.arg] += 1
        state.black_market_items.append(ITEM_GOOD)
        events.append(BlackMarketReturned(seat, ITEM_GOOD, action.arg))
    elif action.kind == BLACK_MARKET_VP:
        player.vp -= 1
        state.vp_pool += 1  # a trigger (c) already fired stays fired (§7.1)
        state.black_market_items.append(ITEM_VP)
        events.append(BlackMarketReturned(seat, ITEM_VP, -1))
    return False


def legal_black_market_colonist(state: State) -> list[Action]:
    """Every place one of the owner's colonists may be returned from."""
    return _colonist_sources(state.players[state.actor])


def play_black_market_colonist(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Return the colonist to the supply; back to the black market."""
    seat = state.actor
    player = state.players[seat]
    if action.arg == FROM_SAN_JUAN:
        player.san_juan -= 1
    elif action.arg == FROM_TILE:
        player.occupied[action.arg2] -= 1
    else:
        player.buildings[action.arg2] -= 1
    state.colonist_supply += 1
    state.black_market_items.append(ITEM_COLONIST)
    events.append(BlackMarketReturned(seat, ITEM_COLONIST, -1))
    state.step = BLACK_MARKET_STEP
    return False


def legal_university(state: State) -> list[Action]:
    """Use the university, or not."""
    return [UNIVERSITY_ACTION, PASS_ACTION]


def play_university(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Put exactly one colonist (supply, else ship) on the new building (ruling 10)."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == UNIVERSITY_COLONIST:
        take_colonist(state)
        if BUILDINGS[state.just_built].circles:
            player.buildings[state.just_built] += 1
        else:
            player.san_juan += 1
        events.append(ColonistsReceived(seat, 1, FROM_UNIVERSITY))
    else:
        events.append(Passed(seat, UNIVERSITY_STEP))
    state.just_built = -1
    return _next_turn(state)


def _next_turn(state: State) -> bool:
    state.role_turn += 1
    if state.role_turn >= state.n:
        return True
    state.step = BUILD_STEP
    state.actor = (state.role_selector + state.role_turn) % state.n
    return False

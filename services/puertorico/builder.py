"""Builder phase (§4.3): at most one building each; quarries and the privilege lower the price."""

from __future__ import annotations

from services.puertorico.actions import (
    BUILD,
    BUILD_ACTION,
    PASS_ACTION,
    UNIVERSITY_ACTION,
    UNIVERSITY_COLONIST,
    Action,
)
from services.puertorico.board import colonist_available, take_colonist, trigger_end
from services.puertorico.data import BUILDINGS, CITY_SPACES, QUARRY, UNIVERSITY
from services.puertorico.events import FROM_UNIVERSITY, BuildingBuilt, ColonistsReceived, Passed
from services.puertorico.state import BUILD as BUILD_STEP
from services.puertorico.state import TRIGGER_CITY, UNIVERSITY_STEP, State

BUILDER_PRIVILEGE = 1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Begin with the builder's turn."""
    state.step = BUILD_STEP
    state.actor = state.selector
    return False


def price(state: State, seat: int, building: int) -> int:
    """What `seat` pays for `building`: cost less the privilege and occupied quarries up to its column."""
    info = BUILDINGS[building]
    player = state.players[seat]
    discount = min(player.occupied[QUARRY], info.col)
    if seat == state.selector:
        discount += BUILDER_PRIVILEGE
    return max(0, info.cost - discount)


def legal_build(state: State) -> list[Action]:
    """Every building in stock, not yet owned, that fits in the city and is affordable; or nothing."""
    seat = state.actor
    player = state.players[seat]
    free = CITY_SPACES - player.city_used()
    actions = [
        BUILD_ACTION[b]
        for b, copies in enumerate(state.stock)
        if copies
        and b not in player.buildings
        and BUILDINGS[b].spaces <= free
        and price(state, seat, b) <= player.doubloons
    ]
    actions.append(PASS_ACTION)
    return actions


def play_build(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Pay and place the building unoccupied; offer the university colonist when it applies."""
    seat = state.actor
    player = state.players[seat]
    if action.kind != BUILD:
        events.append(Passed(seat, BUILD_STEP))
        return _next_turn(state)
    building = action.arg
    cost = price(state, seat, building)
    player.doubloons -= cost
    state.stock[building] -= 1
    player.buildings[building] = 0
    events.append(BuildingBuilt(seat, building, cost))
    if player.city_used() >= CITY_SPACES:
        trigger_end(state, TRIGGER_CITY, events)
    if player.has(UNIVERSITY) and colonist_available(state):
        state.just_built = building
        state.step = UNIVERSITY_STEP
        return False
    return _next_turn(state)


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
    state.actor = (state.selector + state.role_turn) % state.n
    return False

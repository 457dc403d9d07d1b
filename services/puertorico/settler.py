"""Settler phase (§4.1): hacienda draw, one tile each (the settler may take a quarry), hospice, refill.

Expansion I: forests with the forest house (also for the hacienda's tile, seen before placing it),
and the library settler's second tile after every player.
"""

from __future__ import annotations

from services.puertorico.actions import (
    FOREST_ACTION,
    HACIENDA_ACTION,
    HOSPICE_ACTION,
    HOSPICE_COLONIST,
    PASS,
    PASS_ACTION,
    PLACE_AS_FOREST,
    PLACE_FACE_UP,
    PLANTATION,
    QUARRY_ACTION,
    TAKE_FOREST,
    TAKE_PLANTATION,
    TAKE_QUARRY,
    Action,
)
from services.puertorico.board import can_draw_plantation, colonist_available, draw_plantation, take_colonist
from services.puertorico.data import (
    CONSTRUCTION_HUT,
    FOREST,
    FOREST_HOUSE,
    HACIENDA,
    HOSPICE,
    ISLAND_SPACES,
    LIBRARY,
    QUARRY,
)
from services.puertorico.events import (
    FROM_HOSPICE,
    TILE_FACE_UP,
    TILE_HACIENDA,
    TILE_LIBRARY,
    TILE_QUARRY,
    ColonistsReceived,
    Passed,
    PlantationsRevealed,
    TileTaken,
)
from services.puertorico.state import (
    HACIENDA_PLACE,
    HACIENDA_STEP,
    HOSPICE_STEP,
    LIBRARY_TILE,
    TAKE_TILE,
    Player,
    State,
)


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Begin the settler phase with the settler's turn."""
    return _begin_turn(state, events)


def _begin_turn(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Set up the next player's settler decision; True when every player has had their turn."""
    n = state.n
    while state.role_turn < n:
        seat = (state.role_selector + state.role_turn) % n
        player = state.players[seat]
        state.actor = seat
        state.tile_taken = -1
        if player.island_used() < ISLAND_SPACES:
            state.step = HACIENDA_STEP if player.has(HACIENDA) and can_draw_plantation(state) else TAKE_TILE
            return False
        state.role_turn += 1
    settler = state.players[state.role_selector]
    if (
        state.role_turn == n
        and settler.has(LIBRARY)
        and state.face_up_plantations
        and settler.island_used() < ISLAND_SPACES
    ):
        state.step = LIBRARY_TILE  # the doubled privilege: a second tile after everyone (ruling 31)
        state.actor = state.role_selector
        return False
    _refill_face_up(state, events)
    return True


def _next_turn(state: State, events: list) -> bool:  # type: ignore[type-arg]
    state.role_turn += 1
    return _begin_turn(state, events)


def _refill_face_up(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Discard the plantations not taken and reveal players + 1 new ones (§4.1, ruling 19)."""
    state.plantation_discards.extend(state.face_up_plantations)
    state.face_up_plantations = []
    for _ in range(state.n + 1):
        tile = draw_plantation(state)
        if tile < 0:
            break
        state.face_up_plantations.append(tile)
    state.face_up_plantations.sort()
    events.append(PlantationsRevealed(tuple(state.face_up_plantations)))


def legal_hacienda(state: State) -> list[Action]:
    """Draw with the hacienda, or not."""
    return [HACIENDA_ACTION, PASS_ACTION]


def play_hacienda(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Draw and place a hidden plantation, unoccupied, before choosing a face-up one (ruling 8)."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == PASS:
        events.append(Passed(seat, HACIENDA_STEP))
    else:
        tile = draw_plantation(state)
        if tile >= 0 and player.has(FOREST_HOUSE):
            state.hacienda_tile = tile  # seen by the drawer only, who may place it as a forest (ruling 30)
            state.step = HACIENDA_PLACE
            return False
        if tile >= 0:
            player.tiles[tile] += 1
            events.append(TileTaken(seat, tile, TILE_HACIENDA))
        if player.island_used() >= ISLAND_SPACES:
            return _next_turn(state, events)
    state.step = TAKE_TILE
    return False


def legal_hacienda_place(state: State) -> list[Action]:
    """Place the drawn tile face up as a plantation, or face down as a forest."""
    return [PLACE_FACE_UP, PLACE_AS_FOREST]


def _plant_forest(player: Player, kind: int) -> None:
    player.tiles[FOREST] += 1
    player.forests[kind] += 1


def play_hacienda_place(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Place the drawn tile, then the seat's usual choice of a tile."""
    seat = state.actor
    player = state.players[seat]
    tile = state.hacienda_tile
    state.hacienda_tile = -1
    if action == PLACE_AS_FOREST:
        _plant_forest(player, tile)
        events.append(TileTaken(seat, FOREST, TILE_HACIENDA))
    else:
        player.tiles[tile] += 1
        events.append(TileTaken(seat, tile, TILE_HACIENDA))
    if player.island_used() >= ISLAND_SPACES:
        return _next_turn(state, events)
    state.step = TAKE_TILE
    return False


def legal_take_tile(state: State) -> list[Action]:
    """One face-up plantation of each kind on offer, a quarry if allowed, or nothing."""
    actions = [PLANTATION[g] for g in sorted(set(state.face_up_plantations))]
    seat = state.actor
    if state.quarries > 0 and (seat == state.role_selector or state.players[seat].has(CONSTRUCTION_HUT)):
        actions.append(QUARRY_ACTION)
    actions.append(PASS_ACTION)
    if state.players[seat].has(FOREST_HOUSE):
        actions.extend(FOREST_ACTION[g] for g in sorted(set(state.face_up_plantations)))
    return actions


def play_take_tile(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Place the chosen tile unoccupied; offer the hospice colonist when it applies."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == TAKE_PLANTATION:
        tile = action.arg
        state.face_up_plantations.remove(tile)
        events.append(TileTaken(seat, tile, TILE_FACE_UP))
    elif action.kind == TAKE_QUARRY:
        tile = QUARRY
        state.quarries -= 1
        events.append(TileTaken(seat, tile, TILE_QUARRY))
    elif action.kind == TAKE_FOREST:
        state.face_up_plantations.remove(action.arg)
        _plant_forest(player, action.arg)
        events.append(TileTaken(seat, FOREST, TILE_FACE_UP))
        tile = FOREST
    else:
        events.append(Passed(seat, TAKE_TILE))
        return _next_turn(state, events)
    if tile != FOREST:
        player.tiles[tile] += 1
    state.tile_taken = tile
    if player.has(HOSPICE) and colonist_available(state):
        state.step = HOSPICE_STEP
        return False
    return _next_turn(state, events)


def legal_hospice(state: State) -> list[Action]:
    """Use the hospice, or not."""
    return [HOSPICE_ACTION, PASS_ACTION]


def play_hospice(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Put a colonist (supply, else ship) on the tile just taken."""
    seat = state.actor
    if action.kind == HOSPICE_COLONIST:
        take_colonist(state)
        if state.tile_taken == FOREST:
            state.players[seat].san_juan += 1  # a forest has no circle (ruling 30)
        else:
            state.players[seat].occupied[state.tile_taken] += 1
        events.append(ColonistsReceived(seat, 1, FROM_HOSPICE))
    else:
        events.append(Passed(seat, HOSPICE_STEP))
    return _next_turn(state, events)


def legal_library_tile(state: State) -> list[Action]:
    """The settler's second tile: a face-up plantation (or, with a forest house, a forest), or none."""
    actions = [PLANTATION[g] for g in sorted(set(state.face_up_plantations))]
    actions.append(PASS_ACTION)
    if state.players[state.role_selector].has(FOREST_HOUSE):
        actions.extend(FOREST_ACTION[g] for g in sorted(set(state.face_up_plantations)))
    return actions


def play_library_tile(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Place the second tile unoccupied (never a quarry), then refill the face-up plantations."""
    seat = state.role_selector
    player = state.players[seat]
    if action.kind == TAKE_PLANTATION:
        state.face_up_plantations.remove(action.arg)
        player.tiles[action.arg] += 1
        events.append(TileTaken(seat, action.arg, TILE_LIBRARY))
    elif action.kind == TAKE_FOREST:
        state.face_up_plantations.remove(action.arg)
        _plant_forest(player, action.arg)
        events.append(TileTaken(seat, FOREST, TILE_LIBRARY))
    else:
        events.append(Passed(seat, LIBRARY_TILE))
    state.role_turn += 1
    _refill_face_up(state, events)
    return True

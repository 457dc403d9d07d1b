"""Mayor phase (§4.2): privilege colonist, the ship's colonists dealt out, rearranging, ship refill.

A player rearranges from their current arrangement: the colonists in San Juan are placed one at a
time, then the player moves one colonist at a time or keeps the arrangement, so every decision
names its colonist's space and its target and keeping an arrangement costs one decision per new
colonist and one to finish.
"""

from __future__ import annotations

from typing import Final

from services.puertorico.actions import (
    BUILDING_SPACE,
    MOVE_COLONIST,
    MOVE_FROM,
    PASS,
    PASS_ACTION,
    PLACE,
    PLACE_ON_BUILDING,
    PLACE_ON_TILE,
    PRIVILEGE_ACTION,
    Action,
)
from services.puertorico.board import privilege, trigger_end
from services.puertorico.data import BUILDING_CIRCLES, BUILDINGS, CIRCLE_TILES
from services.puertorico.events import (
    FROM_PRIVILEGE,
    FROM_SHIP,
    ColonistsArranged,
    ColonistShipRefilled,
    ColonistsReceived,
    Passed,
)
from services.puertorico.state import MAYOR_PRIVILEGE, PLACE_COLONIST, TRIGGER_COLONISTS, Player, State

PRIVILEGE_COLONISTS: Final = 1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Offer the privilege colonist if the supply has one, else deal out the ship."""
    if state.colonist_supply > 0:
        state.step = MAYOR_PRIVILEGE
        state.actor = state.role_selector
        return False
    return _distribute(state, events)


def legal_privilege(state: State) -> list[Action]:
    """Take the privilege colonist, or not."""
    return [PRIVILEGE_ACTION, PASS_ACTION]


def play_privilege(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """The privilege colonist (2 with a library) comes from the supply, never the ship (ruling 11)."""
    if action.kind == PASS:
        events.append(Passed(state.role_selector, MAYOR_PRIVILEGE))
    else:
        count = min(state.colonist_supply, PRIVILEGE_COLONISTS * privilege(state, state.role_selector))
        state.colonist_supply -= count
        state.players[state.role_selector].san_juan += count
        events.append(ColonistsReceived(state.role_selector, count, FROM_PRIVILEGE))
    return _distribute(state, events)


def _distribute(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Deal the ship's colonists one at a time from the mayor clockwise, then rearrange."""
    n = state.n
    share, extra = divmod(state.colonist_ship, n)
    for turn in range(n):
        seat = (state.role_selector + turn) % n
        count = share + (1 if turn < extra else 0)
        if count:
            state.players[seat].san_juan += count
            events.append(ColonistsReceived(seat, count, FROM_SHIP))
    state.colonist_ship = 0
    state.role_turn = 0
    return _begin_arrange(state, events)


def _fill_all(player: Player) -> None:
    """Put a colonist from San Juan on every empty circle (the player has enough for all of them)."""
    for tile in CIRCLE_TILES:
        player.san_juan -= player.tiles[tile] - player.occupied[tile]
        player.occupied[tile] = player.tiles[tile]
    for building in player.buildings:
        player.san_juan -= BUILDINGS[building].circles - player.buildings[building]
        player.buildings[building] = BUILDINGS[building].circles


def _begin_arrange(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Rearrange each player in turn from their current arrangement; only a player with fewer
    colonists than circles chooses, as one with as many or more must fill every circle."""
    n = state.n
    while state.role_turn < n:
        seat = (state.role_selector + state.role_turn) % n
        player = state.players[seat]
        colonists = player.colonists()
        if 0 < colonists < player.circles():
            state.step = PLACE_COLONIST
            state.actor = seat
            return False
        if colonists:
            _fill_all(player)
        events.append(ColonistsArranged(seat, player.san_juan))
        state.role_turn += 1
    _refill_ship(state, events)
    return True


def colonists_on(player: Player, space: int) -> int:
    """Colonists on a space of the board (a circle tile kind, or BUILDING_SPACE + a building)."""
    if space < BUILDING_SPACE:
        return player.occupied[space]
    return player.buildings.get(space - BUILDING_SPACE, 0)


def circles_on(player: Player, space: int) -> int:
    """Circles of a space of the board: its tiles', or its building's if the player owns it."""
    if space < BUILDING_SPACE:
        return player.tiles[space]
    building = space - BUILDING_SPACE
    return BUILDINGS[building].circles if building in player.buildings else 0


def legal_place(state: State) -> list[Action]:
    """Colonists in San Juan go on empty circles first; then move one colonist or keep the arrangement.

    No colonist is moved onto a space a colonist was moved off this turn: every arrangement stays
    reachable, and each move fills an empty circle of a space not moved off, of which there are fewer
    after every move, so a turn has at most as many moves as empty circles.

    Spaces come tiles first (CIRCLE_TILES order), then buildings in id order.
    """
    player = state.players[state.actor]
    tiles, occupied, buildings = player.tiles, player.occupied, player.buildings
    empty: list[int] = []  # spaces with an empty circle
    sources: list[int] = []  # spaces with a colonist (a tile's never outnumber its tiles)
    for tile in CIRCLE_TILES:
        if occupied[tile] < tiles[tile]:
            empty.append(tile)
        if occupied[tile]:
            sources.append(tile)
    for building in sorted(buildings):
        circles = BUILDING_CIRCLES[building]
        if circles:
            colonists = buildings[building]
            if colonists < circles:
                empty.append(BUILDING_SPACE + building)
            if colonists:
                sources.append(BUILDING_SPACE + building)
    if player.san_juan:
        return [PLACE[space] for space in empty]
    legal = [PASS_ACTION]
    if state.colonist_moves:
        moved_off = {source for source, _ in state.colonist_moves}
        empty = [space for space in empty if space not in moved_off]
    if empty:
        for source in sources:
            moves = MOVE_FROM[source]
            for target in empty:
                if target != source:
                    legal.append(moves[target])  # type: ignore[arg-type]
    return legal


def play_place(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Place a colonist from San Juan, move one, or keep the arrangement and let the next player arrange."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == PLACE_ON_TILE:
        player.occupied[action.arg] += 1
        player.san_juan -= 1
    elif action.kind == PLACE_ON_BUILDING:
        player.buildings[action.arg] += 1
        player.san_juan -= 1
    elif action.kind == MOVE_COLONIST:
        _add(player, action.arg, -1)
        _add(player, action.arg2, 1)
        state.colonist_moves.append((action.arg, action.arg2))
    else:
        events.append(ColonistsArranged(seat, player.san_juan))
        state.colonist_moves = []
        state.role_turn += 1
        return _begin_arrange(state, events)
    return False


def _add(player: Player, space: int, colonists: int) -> None:
    if space < BUILDING_SPACE:
        player.occupied[space] += colonists
    else:
        player.buildings[space - BUILDING_SPACE] += colonists


def _refill_ship(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Refill to max(players, empty building circles); a short supply fires trigger (a) (§4.2 step 4)."""
    required = max(state.n, sum(p.empty_building_circles() for p in state.players))
    moved = min(required, state.colonist_supply)
    state.colonist_supply -= moved
    state.colonist_ship = moved
    events.append(ColonistShipRefilled(moved))
    if moved < required:
        trigger_end(state, TRIGGER_COLONISTS, events)

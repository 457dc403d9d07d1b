"""Mayor phase (§4.2): privilege colonist, the ship's colonists dealt out, rearranging, ship refill."""

from __future__ import annotations

from services.puertorico.actions import (
    ON_BUILDING,
    ON_TILE,
    PASS,
    PASS_ACTION,
    PLACE_ON_TILE,
    PRIVILEGE_ACTION,
    Action,
)
from services.puertorico.board import privilege, trigger_end
from services.puertorico.data import BUILDINGS, CIRCLE_TILES
from services.puertorico.events import (
    FROM_PRIVILEGE,
    FROM_SHIP,
    ColonistsArranged,
    ColonistShipRefilled,
    ColonistsReceived,
    Passed,
)
from services.puertorico.state import MAYOR_PRIVILEGE, PLACE_COLONIST, TRIGGER_COLONISTS, Player, State

PRIVILEGE_COLONISTS = 1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Offer the privilege colonist if the supply has one, else deal out the ship."""
    if state.colonist_supply > 0:
        state.step = MAYOR_PRIVILEGE
        state.actor = state.selector
        return False
    return _distribute(state, events)


def legal_privilege(state: State) -> list[Action]:
    """Take the privilege colonist, or not."""
    return [PRIVILEGE_ACTION, PASS_ACTION]


def play_privilege(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """The privilege colonist (2 with a library) comes from the supply, never the ship (ruling 11)."""
    if action.kind == PASS:
        events.append(Passed(state.selector, MAYOR_PRIVILEGE))
    else:
        count = min(state.colonist_supply, PRIVILEGE_COLONISTS * privilege(state, state.selector))
        state.colonist_supply -= count
        state.players[state.selector].san_juan += count
        events.append(ColonistsReceived(state.selector, count, FROM_PRIVILEGE))
    return _distribute(state, events)


def _distribute(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Deal the ship's colonists one at a time from the mayor clockwise, then rearrange."""
    n = state.n
    share, extra = divmod(state.colonist_ship, n)
    for turn in range(n):
        seat = (state.selector + turn) % n
        count = share + (1 if turn < extra else 0)
        if count:
            state.players[seat].san_juan += count
            events.append(ColonistsReceived(seat, count, FROM_SHIP))
    state.colonist_ship = 0
    state.role_turn = 0
    return _begin_arrange(state, events)


def _lift_all(player: Player) -> int:
    """Take every colonist of a player off their circles into San Juan; return how many."""
    player.san_juan = player.colonists()
    player.occupied = [0, 0, 0, 0, 0, 0]
    for building in player.buildings:
        player.buildings[building] = 0
    return player.san_juan


def _fill_all(player: Player) -> None:
    """Put a colonist on every circle; the rest stay in San Juan."""
    for tile in CIRCLE_TILES:
        player.occupied[tile] = player.tiles[tile]
    for building in player.buildings:
        player.buildings[building] = BUILDINGS[building].circles
    player.san_juan -= player.circles()


def _begin_arrange(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Rearrange each player in turn; only a player with fewer colonists than circles chooses."""
    n = state.n
    while state.role_turn < n:
        seat = (state.selector + state.role_turn) % n
        player = state.players[seat]
        colonists = _lift_all(player)
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


def legal_place(state: State) -> list[Action]:
    """Every tile kind and building with an empty circle."""
    player = state.players[state.actor]
    actions = [ON_TILE[t] for t in CIRCLE_TILES if player.occupied[t] < player.tiles[t]]
    actions.extend(
        ON_BUILDING[b] for b in sorted(player.buildings) if player.buildings[b] < BUILDINGS[b].circles
    )
    return actions


def play_place(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Move one colonist from San Juan to the chosen circle."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == PLACE_ON_TILE:
        player.occupied[action.arg] += 1
    else:
        player.buildings[action.arg] += 1
    player.san_juan -= 1
    if player.san_juan:
        return False
    events.append(ColonistsArranged(seat, 0))
    state.role_turn += 1
    return _begin_arrange(state, events)


def _refill_ship(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Refill to max(players, empty building circles); a short supply fires trigger (a) (§4.2 step 4)."""
    required = max(state.n, sum(p.empty_building_circles() for p in state.players))
    moved = min(required, state.colonist_supply)
    state.colonist_supply -= moved
    state.colonist_ship = moved
    events.append(ColonistShipRefilled(moved))
    if moved < required:
        trigger_end(state, TRIGGER_COLONISTS, events)

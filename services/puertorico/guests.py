"""Guesthouse guests (§6.2, OP-13): where a guest may move, and the move itself.

The windows in which guests move are the engine's (own turn in a role) and roles' (start of a role,
before the final score); both use these two functions.
"""

from __future__ import annotations

from services.puertorico.actions import GUEST_BUILDING, GUEST_TILE, GUEST_TO_TILE, Action
from services.puertorico.data import BUILDINGS, CIRCLE_TILES, GUESTHOUSE
from services.puertorico.events import GuestMoved
from services.puertorico.state import Player, State


def guest_moves(player: Player) -> list[Action]:
    """Every empty circle a guest of `player` may move to (none without guests)."""
    if not player.buildings.get(GUESTHOUSE):
        return []
    actions = [GUEST_TILE[t] for t in CIRCLE_TILES if player.occupied[t] < player.tiles[t]]
    buildings = player.buildings
    actions.extend(
        GUEST_BUILDING[b]
        for b in sorted(buildings)
        if b != GUESTHOUSE and buildings[b] < BUILDINGS[b].circles
    )
    return actions


def move_guest(state: State, seat: int, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Move one guest to the chosen empty circle, where it works at once until the next mayor phase."""
    player = state.players[seat]
    player.buildings[GUESTHOUSE] -= 1
    if action.kind == GUEST_TO_TILE:
        player.occupied[action.arg] += 1
        events.append(GuestMoved(seat, action.arg, -1))
    else:
        player.buildings[action.arg] += 1
        events.append(GuestMoved(seat, -1, action.arg))

"""Movement (§4 step 7, OP-16): points from activated villages and castles, spent after activating.

One point moves a clan member to one of the 8 tiles around it, or takes it off the territory as a
chieftain (at least one clan member stays). Unspent points are lost when the player stops.
"""

from __future__ import annotations

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.actions import Action
from services.glenmore.state import State
from services.glenmore.territory import cell, xy
from services.glenmore.turns import end_turn


def legal(state: State) -> list[Action]:
    """Move a clan member, make a chieftain, or stop."""
    player = state.players[state.actor]
    clans = player.clans
    chieftain_possible = sum(clans) > 1
    found = [act.END_MOVEMENT_ACTION]
    cells = player.cells
    for slot, c in enumerate(cells):
        if not clans[slot]:
            continue
        x, y = xy(c)
        for other in cells:  # the tiles on the 8 cells around (as territory.fitting finds them)
            to_x, to_y = xy(other)
            if other != c and -1 <= to_x - x <= 1 and -1 <= to_y - y <= 1:
                found.append(act.action(act.MOVE_CLAN, x, y, to_x, to_y))
        if chieftain_possible:
            found.append(act.action(act.MAKE_CHIEFTAIN, x, y))
    found.sort()
    return found


def play(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Spend one point, or stop; the turn ends when the points are gone."""
    seat = state.actor
    player = state.players[seat]
    kind = action.kind
    if kind == act.END_MOVEMENT:
        state.movement_points = 0
        end_turn(state, events)
        return
    origin = player.grid[cell(action.a, action.b)]
    player.clans[origin] -= 1
    if kind == act.MOVE_CLAN:
        player.clans[player.grid[cell(action.c, action.d)]] += 1
        events.append(ev.ClanMemberMoved(seat, (action.a, action.b), (action.c, action.d)))
    else:
        player.chieftains += 1
        events.append(ev.ChieftainMade(seat, (action.a, action.b)))
    state.movement_points -= 1
    if state.movement_points == 0:
        end_turn(state, events)

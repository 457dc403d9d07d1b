"""Ziggurats (§4 Phase 3, rulings 3, 4; OP-15): a base replaces one of the player's huts off the
rivers and away from the wells' hexes; a centre goes on a base, a roof on a centre; a ziggurat gains
at most one piece a turn, a new base included."""

from __future__ import annotations

from typing import Final

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.board import BOARDS, IS_RIVER
from services.assyria.data import ONE_PIECE_PER_TURN, ZIGGURAT_COST, ZIGGURAT_PIECES_PER_COLOUR, ZigguratPiece
from services.assyria.state import NOBODY, State
from services.assyria.wells import well_hexes

BASE_COST: Final = ZIGGURAT_COST[ZigguratPiece.BASE]
PIECE_COST: Final = (
    0,
    BASE_COST,
    ZIGGURAT_COST[ZigguratPiece.CENTRE],
    ZIGGURAT_COST[ZigguratPiece.ROOF],
)  # by height
TOP_HEIGHT: Final = len(ZigguratPiece)
BASES: Final = ZIGGURAT_PIECES_PER_COLOUR[ZigguratPiece.BASE]


def ziggurats(state: State, seat: int) -> int:
    """How many ziggurats the seat has on the board (a lone base counts)."""
    return state.ziggurat_seats.count(seat)


def options(state: State, seat: int) -> list[act.Action]:
    """Bases the seat can afford and place, and ziggurats it can raise, by hex."""
    camels = state.players[seat].camels
    found = []
    if camels >= BASE_COST and ziggurats(state, seat) < BASES:
        blocked = well_hexes(state)
        found += [
            act.action(act.BUILD_BASE, h)
            for h in BOARDS[state.n].hexes
            if state.hut_seats[h] == seat and not IS_RIVER[h] and h not in blocked
        ]
    for h in BOARDS[state.n].hexes:
        height = state.ziggurat_heights[h]
        if (
            state.ziggurat_seats[h] == seat
            and height < TOP_HEIGHT
            and not (ONE_PIECE_PER_TURN and state.raised[h])
            and camels >= PIECE_COST[height + 1]
        ):
            found.append(act.action(act.RAISE_ZIGGURAT, h))
    return found


def play(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """Build a base or raise a ziggurat, paying its camels."""
    seat, h = state.actor, action.a
    player = state.players[seat]
    if action.kind == act.BUILD_BASE:
        state.hut_seats[h] = NOBODY
        state.fed[h] = False
        player.huts += 1
        state.ziggurat_seats[h] = seat
    height = state.ziggurat_heights[h] + 1
    state.ziggurat_heights[h] = height
    state.raised[h] = True
    player.camels -= PIECE_COST[height]
    events.append(ev.ZigguratBuilt(seat, h, height, PIECE_COST[height]))

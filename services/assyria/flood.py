"""The Flood at the end of each reign (§5): river huts are lost, Assur scores and rewards, offerings
score; after the third reign the game ends (§6)."""

from __future__ import annotations

from services.assyria import assur, offerings, scoring
from services.assyria import events as ev
from services.assyria.board import IS_RIVER
from services.assyria.data import REIGN_TURNS
from services.assyria.state import NOBODY, State


def flood_rivers(state: State, events: list) -> None:  # type: ignore[type-arg]
    """§5 I: every hut on a river hex returns to its owner's stock."""
    lost = [0] * state.n
    for h, seat in enumerate(state.hut_seats):
        if seat != NOBODY and IS_RIVER[h]:
            lost[seat] += 1
            state.hut_seats[h] = NOBODY
            state.fed[h] = False
    for seat, count in enumerate(lost):
        state.players[seat].huts += count
    events.append(ev.FloodCame(state.reign, tuple(lost)))


def flood(state: State, events: list) -> None:  # type: ignore[type-arg]
    """§5 I-IV, then the end of the game after the last reign."""
    flood_rivers(state, events)
    assur.score(state, events)
    assur.reward(state, events)
    offerings.score(state, events)
    if state.reign == len(REIGN_TURNS):
        scoring.end_game(state, events)

"""The end of a turn: refill the track, run due scorings, die turns, and hand over to the next figure."""

from __future__ import annotations

from services.glenmore import events as ev
from services.glenmore.data import STACKS
from services.glenmore.scoring import game_ended, intermediate_scoring
from services.glenmore.state import CHOOSE_TILE, DIE, GAME_OVER, State, figure_seat
from services.glenmore.track import die_turn, refill


def _scorings_due(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Run the scorings of the stacks used up (OP-1); returns whether the game ended (OP-2)."""
    while state.scorings_done < STACKS - 1 and not state.stacks[state.scorings_done + 1]:
        intermediate_scoring(state, state.scorings_done + 1, events)
    if state.scorings_done == STACKS - 1:
        state.step = GAME_OVER
        state.clear_turn()
        events.append(game_ended(state))
        return True
    return False


def end_turn(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Finish the acting player's turn and start the next figure's, playing die turns on the way."""
    events.append(ev.TurnEnded(state.actor))
    state.clear_turn()
    refill(state, events)
    if _scorings_due(state, events):
        return
    while state.track[0] == DIE:
        die_turn(state, events)
        refill(state, events)
        if _scorings_due(state, events):
            return
    state.actor = figure_seat(state.track[0])
    state.step = CHOOSE_TILE

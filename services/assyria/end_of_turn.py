"""Phase 4, end of turn (§4; OP-10, OP-23): the unclaimed column is discarded, huts become unfed
(with fed status lasting a turn), and either the next expansion card is revealed or the Flood comes."""

from __future__ import annotations

from services.assyria import events as ev
from services.assyria import flood, sowing
from services.assyria.board import HEX_COUNT
from services.assyria.cards import NO_CARD
from services.assyria.data import BONUS_CARD, BONUS_CARD_REIGNS, DISCARD_LEFTOVER_COLUMN, REIGN_TURNS, SETUP
from services.assyria.state import FED_TURN, State


def reveal(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The next expansion card becomes the current one and joins the reign's Assur row."""
    state.turn += 1
    state.expansion_card = state.expansion_deck.pop()
    state.assur_cards.append(state.expansion_card)
    events.append(ev.ExpansionCardRevealed(state.turn, state.expansion_card))


def end_turn(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Clean up the turn, then the Flood after a reign's last turn, then the next turn's sowing."""
    leftover = [c for c in (*state.sowing_row_1, *state.sowing_row_2) if c != NO_CARD]
    if DISCARD_LEFTOVER_COLUMN:
        state.food_discard.extend(leftover)
    state.sowing_row_1 = []
    state.sowing_row_2 = []
    state.column_seats = []
    state.raised = [False] * HEX_COUNT
    if state.config.fed_status_lasts == FED_TURN:
        state.fed = [False] * HEX_COUNT
    if state.turn == REIGN_TURNS[state.reign - 1][-1]:
        flood.flood(state, events)
        if state.terminal:
            return
        state.reign += 1
        reveal(state, events)
        bonus = SETUP[state.n].bonus_card and state.reign in BONUS_CARD_REIGNS
        state.assur_cards = [BONUS_CARD, state.expansion_card] if bonus else [state.expansion_card]
        state.fed = [False] * HEX_COUNT  # §5 V
    else:
        reveal(state, events)
    sowing.sow(state, events)

"""Phase 1 step 1, sowing (§4): two rows of players + 1 food cards, each sorted, at the start of a turn.

Cards come from the end of the food deck; an empty deck is the discard pile shuffled (OP-12), and a
row stays short when even that runs out.
"""

from __future__ import annotations

from services.assyria import events as ev
from services.assyria import turns
from services.assyria.cards import CARD_SYMBOLS, NO_CARD, WILD_CARD
from services.assyria.data import RESHUFFLE_FOOD_DISCARDS, SETUP, SOWING_ROW_BY_ROW
from services.assyria.state import HARVEST, NOBODY, State


def draw(state: State, events: list) -> int:  # type: ignore[type-arg]
    """The top card of the food deck (NO_CARD when deck and discards are both empty)."""
    if not state.food_deck and RESHUFFLE_FOOD_DISCARDS and state.food_discard:
        state.food_deck = state.food_discard
        state.food_discard = []
        state.rng.shuffle(state.food_deck)
        events.append(ev.FoodDeckReshuffled(len(state.food_deck)))
    return state.food_deck.pop() if state.food_deck else NO_CARD


def sort_key(card: int) -> int:
    """Sowing order (§4, T9): by symbols ascending, wild cards at the right end; ties keep draw order."""
    return 4 if card == WILD_CARD else CARD_SYMBOLS[card]


def sorted_row(cards: list[int]) -> list[int]:
    """A drawn row in display order (missing cards, if the deck ran out, at the end)."""
    present = sorted((c for c in cards if c != NO_CARD), key=sort_key)
    return present + [NO_CARD] * (len(cards) - len(present))


def sow(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Deal row 1 completely, then row 2 (OP-22: SOWING_ROW_BY_ROW), sort both, and start the harvest
    in turn order."""
    size = SETUP[state.n].sowing_row_cards
    if SOWING_ROW_BY_ROW:
        row_1 = [draw(state, events) for _ in range(size)]
        row_2 = [draw(state, events) for _ in range(size)]
    else:  # one card to each row in turn
        dealt = [draw(state, events) for _ in range(2 * size)]
        row_1, row_2 = dealt[0::2], dealt[1::2]
    state.sowing_row_1 = sorted_row(row_1)
    state.sowing_row_2 = sorted_row(row_2)
    state.column_seats = [NOBODY] * size
    events.append(ev.RowsSown(state.turn, tuple(state.sowing_row_1), tuple(state.sowing_row_2)))
    turns.start(state, HARVEST)

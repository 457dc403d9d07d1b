"""The start of a round (§4.1-4.2): reveal the top scoring card, lay out one landscape pair per
player, and open the bidding with the start player."""

from __future__ import annotations

from services.goldencity import events as ev
from services.goldencity import landscapes
from services.goldencity.rules import CARDS_PER_PAIR
from services.goldencity.state import BID, Pair, State


def reveal_scoring_card(state: State) -> None:
    """Turn up the top scoring card; it is scored at the end of this round."""
    state.scoring_card = state.scoring_stack.pop()


def lay_out_pairs(state: State, events: list) -> None:  # type: ignore[type-arg]
    """One pair per player (OP-11), dealt one card to each pair and then a second (S004)."""
    pairs = [Pair([]) for _ in range(state.n)]
    for _ in range(CARDS_PER_PAIR):
        for pair in pairs:
            card = landscapes.draw(state, events)
            if card is not None:
                pair.cards.append(card)
    state.pairs = pairs
    events.append(ev.PairsLaidOut(tuple(tuple(pair.cards) for pair in pairs)))


def start_round(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Reveal, lay out, and hand the first bid turn to the start player (D starts at 0, OP-26)."""
    state.round += 1
    reveal_scoring_card(state)
    card = state.tables.scoring_cards[state.scoring_card]
    assert card is not None
    events.append(ev.RoundStarted(state.round, state.start_player, state.scoring_card, card.name))
    lay_out_pairs(state, events)
    state.displacement = 0
    state.step = BID
    state.actor = state.start_player
    state.bid_cursor = state.start_player

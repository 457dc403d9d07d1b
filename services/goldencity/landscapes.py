"""The landscape deck: drawing from it, and shuffling the discard pile into a new deck when it runs
out (§4.2, §11)."""

from __future__ import annotations

from services.goldencity import events as ev
from services.goldencity.state import State


def draw(state: State, events: list) -> int | None:  # type: ignore[type-arg]
    """The top card of the landscape deck, the discard pile reshuffled into it first if it is empty;
    None when both are empty."""
    if not state.landscape_deck:
        if not state.landscape_discard:
            return None
        state.landscape_deck = state.landscape_discard
        state.landscape_discard = []
        state.landscape_deck.sort()
        state.rng.shuffle(state.landscape_deck)
        events.append(ev.DeckReshuffled(len(state.landscape_deck)))
    return state.landscape_deck.pop()


def counts(hand: list[int]) -> list[int]:
    """How many cards of each landscape a hand holds, indexed by landscape number (index 0 unused)."""
    found = [0, 0, 0, 0, 0, 0]
    for card in hand:
        found[card] += 1
    return found

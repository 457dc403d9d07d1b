"""The food cards as 16 card kinds (the protobuf Card enum numbers): a kind is a food type and a
number of symbols, and identical cards are one kind. Kinds 1-15 are grapes, palms, salt, barley and
dates with 1, 2 and 3 symbols, in that order; kind 16 is the wild card. 0 is "no card".
"""

from __future__ import annotations

from typing import Final

from services.assyria.data import FOOD_CARD_COST, FOOD_DECK, HEX_FOODS, WILD_CARD_COST, Food

NO_CARD: Final = 0
SYMBOL_COUNTS: Final = (1, 2, 3)
WILD_CARD: Final = len(HEX_FOODS) * len(SYMBOL_COUNTS) + 1
CARD_KINDS: Final = WILD_CARD  # kinds 1..CARD_KINDS


def card_of(food: int, symbols: int) -> int:
    """The card kind of a food type (Food number) with so many symbols."""
    if food == Food.WILD:
        return WILD_CARD
    return (food - 1) * len(SYMBOL_COUNTS) + symbols


# Indexed by card kind; index 0 is "no card".
CARD_FOOD: Final[tuple[int, ...]] = (0, *(int(f) for f in HEX_FOODS for _ in SYMBOL_COUNTS), int(Food.WILD))
CARD_SYMBOLS: Final[tuple[int, ...]] = (0, *(s for _ in HEX_FOODS for s in SYMBOL_COUNTS), 1)
CARD_COST: Final[tuple[int, ...]] = (
    0,
    *(FOOD_CARD_COST[s] for _ in HEX_FOODS for s in SYMBOL_COUNTS),
    WILD_CARD_COST,
)
# The 40 cards of the food deck (§1.1, OP-1) as kinds, in the order of the data table.
FOOD_DECK_CARDS: Final[tuple[int, ...]] = tuple(card_of(card.food, card.symbols) for card in FOOD_DECK)

FOOD_NAMES: Final = {int(f): f.name.lower() for f in Food}


def card_name(card: int) -> str:
    """A card in words: "2-symbol dates card", "wild card"."""
    if card == WILD_CARD:
        return "wild card"
    return f"{CARD_SYMBOLS[card]}-symbol {FOOD_NAMES[CARD_FOOD[card]]} card"

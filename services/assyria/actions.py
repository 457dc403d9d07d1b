"""Actions: one small immutable tuple per decision, sorted by kind then argument.

The argument is a hex number, a card kind, a column index (from 0), a site number, a dignitary
number or a sowing row (1 or 2), as the kind says; the protobuf Action carries the same numbers.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# Action kinds, in the order the protobuf Action oneof lists them.
CHOOSE_START_SPACE: Final = 0  # a = hex
DRAFT_CARD: Final = 1  # a = card kind
TAKE_COLUMN: Final = 2  # a = column index
PLACE_HUT: Final = 3  # a = hex
STOP_PLACING: Final = 4  # only when placements are not compulsory (OP-9)
PLAY_CARD: Final = 5  # a = card kind
PLAY_PLOW: Final = 6
FEED_HUT: Final = 7  # a = hex
CLOSE_CARD: Final = 8  # leave the card's other symbols unused
END_FEEDING: Final = 9  # the unfed huts starve
BUILD_WELL: Final = 10  # a = site number
END_WELLS: Final = 11
BUILD_BASE: Final = 12  # a = hex
RAISE_ZIGGURAT: Final = 13  # a = hex
INTRIGUE: Final = 14  # a = dignitary
MAKE_OFFERING: Final = 15
BUY_PLOW: Final = 16
BUY_FOOD_CARD: Final = 17  # a = sowing row of the unclaimed column (1 or 2)
END_ACTIONS: Final = 18


class Action(NamedTuple):
    """A decision: its kind and one integer argument."""

    kind: int
    a: int = 0


# One value per (kind, argument) for the arguments the engine gives (hexes, card kinds, columns, sites,
# dignitaries, rows: all below SHARED_BELOW), shared by every list of legal actions: a playout lists
# hundreds of them a game, and taking one from here costs a fraction of building a tuple.
SHARED_BELOW: Final = 128
SHARED: Final = tuple(tuple(Action(kind, a) for a in range(SHARED_BELOW)) for kind in range(END_ACTIONS + 1))


def action(kind: int, a: int = 0) -> Action:
    """The action `kind` with argument `a` (equal to `Action(kind, a)`, shared where it can be)."""
    return SHARED[kind][a] if 0 <= a < SHARED_BELOW else Action(kind, a)


STOP_PLACING_ACTION: Final = Action(STOP_PLACING)
PLAY_PLOW_ACTION: Final = Action(PLAY_PLOW)
CLOSE_CARD_ACTION: Final = Action(CLOSE_CARD)
END_FEEDING_ACTION: Final = Action(END_FEEDING)
END_WELLS_ACTION: Final = Action(END_WELLS)
MAKE_OFFERING_ACTION: Final = Action(MAKE_OFFERING)
BUY_PLOW_ACTION: Final = Action(BUY_PLOW)
END_ACTIONS_ACTION: Final = Action(END_ACTIONS)
EMPTY_ACTIONS: Final = (
    STOP_PLACING_ACTION,
    PLAY_PLOW_ACTION,
    CLOSE_CARD_ACTION,
    END_FEEDING_ACTION,
    END_WELLS_ACTION,
    MAKE_OFFERING_ACTION,
    BUY_PLOW_ACTION,
    END_ACTIONS_ACTION,
)

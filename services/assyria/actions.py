"""Actions: one small immutable tuple per decision, sorted by kind then argument.

The argument is a hex number, a card kind, a column index (from 0), a site number, a dignitary
number or a sowing row (1 or 2), as the kind says; the protobuf Action carries the same numbers.
"""

from __future__ import annotations

from typing import NamedTuple

# Action kinds, in the order the protobuf Action oneof lists them.
(
    CHOOSE_START_SPACE,  # a = hex
    DRAFT_CARD,  # a = card kind
    TAKE_COLUMN,  # a = column index
    PLACE_HUT,  # a = hex
    STOP_PLACING,  # only when placements are not compulsory (OP-9)
    PLAY_CARD,  # a = card kind
    PLAY_PLOW,
    FEED_HUT,  # a = hex
    CLOSE_CARD,  # leave the card's other symbols unused
    END_FEEDING,  # the unfed huts starve
    BUILD_WELL,  # a = site number
    END_WELLS,
    BUILD_BASE,  # a = hex
    RAISE_ZIGGURAT,  # a = hex
    INTRIGUE,  # a = dignitary
    MAKE_OFFERING,
    BUY_PLOW,
    BUY_FOOD_CARD,  # a = sowing row of the unclaimed column (1 or 2)
    END_ACTIONS,
) = range(19)


class Action(NamedTuple):
    """A decision: its kind and one integer argument."""

    kind: int
    a: int = 0


STOP_PLACING_ACTION = Action(STOP_PLACING)
PLAY_PLOW_ACTION = Action(PLAY_PLOW)
CLOSE_CARD_ACTION = Action(CLOSE_CARD)
END_FEEDING_ACTION = Action(END_FEEDING)
END_WELLS_ACTION = Action(END_WELLS)
MAKE_OFFERING_ACTION = Action(MAKE_OFFERING)
BUY_PLOW_ACTION = Action(BUY_PLOW)
END_ACTIONS_ACTION = Action(END_ACTIONS)
EMPTY_ACTIONS = (
    STOP_PLACING_ACTION,
    PLAY_PLOW_ACTION,
    CLOSE_CARD_ACTION,
    END_FEEDING_ACTION,
    END_WELLS_ACTION,
    MAKE_OFFERING_ACTION,
    BUY_PLOW_ACTION,
    END_ACTIONS_ACTION,
)

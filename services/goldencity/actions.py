"""Actions: one small immutable tuple per decision, sorted by kind then arguments. Building a house is
a sequence of them: BUILD picks the place, then one PAY_CARD or PAY_PAIR per card owed."""

from __future__ import annotations

from typing import NamedTuple

# Action kinds, in the order the protobuf Action oneof lists them.
(
    BID,  # a = pair index
    BUILD,  # a = place id; b = 1 for a black house (§7)
    END_BUILDING,
    PAY_CARD,  # a = landscape
    PAY_PAIR,  # a, b = landscapes of the joker pair (a <= b)
    CHOOSE_GOODS_CARD,  # a = goods card id
    CHOOSE_BONUS_CARD,  # a = bonus card id
    DISCARD,  # a = landscape
) = range(1, 9)


class Action(NamedTuple):
    """A decision: its kind and up to two integer arguments."""

    kind: int
    a: int = 0
    b: int = 0


END_BUILDING_ACTION = Action(END_BUILDING)

"""Actions: one small immutable tuple per decision, sorted by kind then arguments. Building a house is
a sequence of them: BUILD picks the place, then one PAY_CARD or PAY_PAIR per card owed."""

from __future__ import annotations

from typing import Final, NamedTuple

# Action kinds, in the order the protobuf Action oneof lists them.
BID: Final = 1  # a = pair index
BUILD: Final = 2  # a = place id; b = 1 for a black house (§7)
END_BUILDING: Final = 3
PAY_CARD: Final = 4  # a = landscape
PAY_PAIR: Final = 5  # a, b = landscapes of the joker pair (a <= b)
CHOOSE_GOODS_CARD: Final = 6  # a = goods card id
CHOOSE_BONUS_CARD: Final = 7  # a = bonus card id
DISCARD: Final = 8  # a = landscape


class Action(NamedTuple):
    """A decision: its kind and up to two integer arguments."""

    kind: int
    a: int = 0
    b: int = 0


# Every action the engine lists, one value per distinct action with small arguments (all it gives):
# a playout lists hundreds of them a game, and looking one up costs a fraction of building a tuple.
SPAN: Final = 256  # the arguments shared: -SPAN <= argument < SPAN
_SHARED: Final[dict[int, Action]] = {}


def action(kind: int, a: int = 0, b: int = 0) -> Action:
    """The action `kind` with these arguments (equal to `Action(kind, ...)`, shared where it can be)."""
    if -SPAN <= a < SPAN and -SPAN <= b < SPAN:
        key = (kind * 2 * SPAN + a + SPAN) * 2 * SPAN + b + SPAN
        found = _SHARED.get(key)
        if found is None:
            found = _SHARED[key] = Action(kind, a, b)
        return found
    return Action(kind, a, b)


END_BUILDING_ACTION: Final = Action(END_BUILDING)

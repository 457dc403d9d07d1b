"""Actions: one small immutable tuple per decision, sorted by kind then arguments.

Cells travel as (x, y) so that an action means the same on the wire and in the engine.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# Action kinds, in the order the protobuf Action oneof lists them.
TAKE_TILE: Final = 0  # a = tile index
DISCARD_FIRST: Final = 1
PLACE_TILE: Final = 2  # a, b = x, y
PAY_CUBE: Final = 3  # a, b = x, y; c = kind
BUY_CUBE: Final = 4  # a = kind
PAY_CLAN: Final = 5  # a, b = x, y
PAY_CHIEFTAIN: Final = 6
CHOOSE_CUBE: Final = 7  # a = kind
ACTIVATE: Final = 8  # a, b = x, y; c = count (butcher, fair); d = kind + 1 (Iona Abbey) or 0
END_ACTIVATIONS: Final = 9
MOVE_CLAN: Final = 10  # a, b = from x, y; c, d = to x, y
MAKE_CHIEFTAIN: Final = 11  # a, b = x, y
END_MOVEMENT: Final = 12
SELL: Final = 13  # a = kind


class Action(NamedTuple):
    """A decision: its kind and up to four integer arguments."""

    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0


# Every action the engine lists, one value per distinct action with small arguments (all it gives):
# a playout lists hundreds of them a game, and looking one up costs a fraction of building a tuple.
SPAN: Final = 256  # the arguments shared: -SPAN <= argument < SPAN
_SHARED: Final[dict[int, Action]] = {}


def action(kind: int, a: int = 0, b: int = 0, c: int = 0, d: int = 0) -> Action:
    """The action `kind` with these arguments (equal to `Action(kind, ...)`, shared where it can be)."""
    if -SPAN <= a < SPAN and -SPAN <= b < SPAN and -SPAN <= c < SPAN and -SPAN <= d < SPAN:
        key = (
            (((kind * 2 * SPAN + a + SPAN) * 2 * SPAN + b + SPAN) * 2 * SPAN + c + SPAN) * 2 * SPAN + d + SPAN
        )
        found = _SHARED.get(key)
        if found is None:
            found = _SHARED[key] = Action(kind, a, b, c, d)
        return found
    return Action(kind, a, b, c, d)


DISCARD_FIRST_ACTION: Final = Action(DISCARD_FIRST)
PAY_CHIEFTAIN_ACTION: Final = Action(PAY_CHIEFTAIN)
END_ACTIVATIONS_ACTION: Final = Action(END_ACTIVATIONS)
END_MOVEMENT_ACTION: Final = Action(END_MOVEMENT)
BUY_ACTION: Final = tuple(Action(BUY_CUBE, k) for k in range(5))
CHOOSE_ACTION: Final = tuple(Action(CHOOSE_CUBE, k) for k in range(5))
SELL_ACTION: Final = tuple(Action(SELL, k) for k in range(5))

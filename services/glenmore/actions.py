"""Actions: one small immutable tuple per decision, sorted by kind then arguments.

Cells travel as (x, y) so that an action means the same on the wire and in the engine.
"""

from __future__ import annotations

from typing import NamedTuple

# Action kinds, in the order the protobuf Action oneof lists them.
(
    TAKE_TILE,  # a = tile index
    DISCARD_FIRST,
    PLACE_TILE,  # a, b = x, y
    PAY_CUBE,  # a, b = x, y; c = kind
    BUY_CUBE,  # a = kind
    PAY_CLAN,  # a, b = x, y
    PAY_CHIEFTAIN,
    CHOOSE_CUBE,  # a = kind
    ACTIVATE,  # a, b = x, y; c = count (butcher, fair); d = kind + 1 (Iona Abbey) or 0
    END_ACTIVATIONS,
    MOVE_CLAN,  # a, b = from x, y; c, d = to x, y
    MAKE_CHIEFTAIN,  # a, b = x, y
    END_MOVEMENT,
    SELL,  # a = kind
) = range(14)


class Action(NamedTuple):
    """A decision: its kind and up to four integer arguments."""

    kind: int
    a: int = 0
    b: int = 0
    c: int = 0
    d: int = 0


DISCARD_FIRST_ACTION = Action(DISCARD_FIRST)
PAY_CHIEFTAIN_ACTION = Action(PAY_CHIEFTAIN)
END_ACTIVATIONS_ACTION = Action(END_ACTIVATIONS)
END_MOVEMENT_ACTION = Action(END_MOVEMENT)
BUY_ACTION = tuple(Action(BUY_CUBE, k) for k in range(5))
CHOOSE_ACTION = tuple(Action(CHOOSE_CUBE, k) for k in range(5))
SELL_ACTION = tuple(Action(SELL, k) for k in range(5))

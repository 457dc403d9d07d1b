"""Who acts in a phase: the turn order, walked from its first seat (or, in the draft, its last)."""

from __future__ import annotations

from services.assyria.state import State


def start(state: State, step: int, backwards: bool = False) -> None:
    """The phase `step` begins with the first seat in turn order (the last one if `backwards`)."""
    state.step = step
    state.order_position = state.n - 1 if backwards else 0
    state.actor = state.turn_order[state.order_position]


def advance(state: State, backwards: bool = False) -> bool:
    """The next seat in turn order acts; False when every seat has acted in this phase."""
    position = state.order_position + (-1 if backwards else 1)
    if not 0 <= position < state.n:
        return False
    state.order_position = position
    state.actor = state.turn_order[position]
    return True

"""Glen More bot knowledge: a determinization that uses only what a seat may see.

Every stack's contents follow from public facts (each tile's back number, and every tile drawn so far
is face up), so a world consistent with a seat's view keeps each stack's contents and draws their
order afresh; the RNG gets a fresh key. Sorting first makes the result independent of the true order.
"""

from __future__ import annotations

from services.common.rng import Rng
from services.glenmore.state import State


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with the stacks' order and the RNG resampled."""
    world = state.copy()
    for number, stack in enumerate(state.stacks):
        world.stacks[number] = sorted(stack)
        rng.shuffle(world.stacks[number])
    world.rng = Rng(rng.next64(), rng.next64())
    world.legal = None
    return world

"""Glen More bot knowledge: a determinization that uses only what a seat may see.

Every stack's contents follow from public facts (each tile's back number, and every tile drawn so far
is face up), so a world consistent with a seat's view keeps each stack's contents and draws their
order afresh; the RNG gets a fresh key. Sorting first makes the result independent of the true order.
With the option public_vp off (OP-23) the other seats' VP are unknown too: the world gives each of
them the seat's own VP, as if the race were level.
"""

from __future__ import annotations

from services.common.rng import Rng
from services.glenmore.state import State
from services.glenmore.visibility import vp_visible


def reshuffled(state: State, rng: Rng, *, forget_order: bool) -> State:
    """A copy of `state` with each stack shuffled and the RNG given a fresh key, all drawn from `rng`.

    With `forget_order` each stack is sorted before its shuffle, so the result does not depend on the
    true order (a determinization); without it the true order is shuffled (a disturbance).
    """
    world = state.copy()
    for stack in world.stacks:
        if forget_order:
            stack.sort()
        rng.shuffle(stack)
    world.rng = Rng(rng.next64(), rng.next64())
    world.legal = None
    return world


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with the stacks' order and the RNG resampled, and the VP `seat` may not see
    set to its own."""
    world = reshuffled(state, rng, forget_order=True)
    mine = state.players[seat]
    for s, player in enumerate(world.players):
        if not vp_visible(state, seat, s):
            player.vp = mine.vp
            player.scoring_vp = mine.scoring_vp
    return world

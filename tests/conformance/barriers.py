"""The undo-barrier check: each decision of a replay a seat could take back must hide nothing it revealed.

For every decision of a traced playout the check asks the game's declaration (by default
`services.common.barriers.decision_barriers`) whether it is an undo barrier, and finds out on its own
whether it must be one:

- the acting seats changed (read from the replay, not from the declaration);
- an RngState counter in the State moved (found by walking the State's descriptor,
  `tests.conformance.drivers.rng_paths`);
- the decision showed the acting seat something hidden before it: the same action is applied to
  copies of the state differing only in what that seat could not see (`disturb_hidden`), and the
  seat's view afterwards must then be byte-identical to the real one.

A decision that must be a barrier and is not declared one fails the check. Declaring more barriers than
needed is allowed (it only takes undo away).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from services.common.barriers import Barrier, decision_barriers
from services.common.errors import RulesError
from services.common.game import Game
from services.common.rng import Rng
from tests.conformance.drivers import Trace, rng_paths, serialize

Declared = Callable[[Game, Any, int, Any], frozenset[Barrier]]
# Disturbed copies of each non-barrier decision's state the reveal test replays the action on.
DISTURBANCES = 3


def declared_by_engine(game: Game, state: Any, seat: int, action: Any) -> frozenset[Barrier]:
    """What the shared helper declares for `action` by `seat` in `state`."""
    after, events = game.apply(state, seat, action)
    return decision_barriers(game, state, after, seat, events, action)


def counters(game: Game, state: Any) -> tuple[int, ...]:
    """The RngState counters of a state, at the paths the State's descriptor holds them."""
    message = game.state_to_proto(state)
    found = []
    for path in rng_paths(message.DESCRIPTOR):
        target: Any = message
        for name in path:
            target = getattr(target, name)
        found.append(target.counter)
    return tuple(found)


def revealed(game: Game, state: Any, seat: int, action: Any, real_view: bytes, rng: Rng) -> bool:
    """Whether applying `action` to a state disturbed in what `seat` cannot see changes its view after."""
    for _ in range(DISTURBANCES):
        disturbed = game.disturb_hidden(state, seat, rng)
        try:
            after, _ = game.apply(disturbed, seat, action)
        except RulesError:
            return True
        if serialize(game.view_to_proto(after, seat)) != real_view:
            return True
    return False


def check_barriers(game: Game, trace: Trace, rng: Rng, declared: Declared = declared_by_engine) -> int:
    """Fail on the first decision of `trace` that must be a barrier and is not declared one.

    Returns the number of decisions declared not to be barriers (the ones a seat could undo).
    """
    undoable = 0
    for step in trace.steps:
        action = step.legal[step.choice].action
        if declared(game, step.state, step.seat, action):
            continue
        where = (
            f"{trace.player_count} players, seed {trace.seed!r}, decision {step.index} by seat {step.seat}"
        )
        after = step.outcome.state
        if tuple(step.acting_seats) != tuple(step.outcome.acting_seats):
            raise AssertionError(f"{where}: the acting seats changed but it is not declared a barrier")
        if counters(game, step.state) != counters(game, after):
            raise AssertionError(f"{where}: it drew from the generator but is not declared a barrier")
        real_view = serialize(game.view_to_proto(after, step.seat))
        if revealed(game, step.state, step.seat, action, real_view, rng):
            raise AssertionError(
                f"{where}: it showed the seat something hidden but is not declared a barrier"
            )
        undoable += 1
    return undoable

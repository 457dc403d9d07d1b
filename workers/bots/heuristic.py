"""The heuristic bot: the game's own greedy policy, or a generic one-ply policy for games without one.

The generic policy looks one ply ahead: it plays each legal action on a determinized copy and judges
the result by a few short random playouts from there (the mean reward of `search.rewards`: rank at
the end, score lead otherwise), then by the score lead right after the action; remaining ties are
broken by the bot's generator. It knows nothing of the game but its rules and score breakdown.
"""

from __future__ import annotations

from typing import Any, Final

from services.common.game import AnyGame
from services.common.rng import Rng
from workers.bots.knowledge import determinize
from workers.bots.search import rewards, rollout

PLAYOUTS_PER_DECISION: Final = 64  # shared by the legal actions, at least MIN_PLAYOUTS each
MIN_PLAYOUTS: Final = 2
MAX_PLAYOUTS: Final = 16
PLAYOUT_DEPTH: Final = 200

WIN_BONUS: Final = 1000.0
TIEBREAK_WEIGHT: Final = 0.001


def score_margin(game: AnyGame, state: Any, seat: int) -> float:
    """How far `seat`'s score leads the best other seat's; a won finished game counts WIN_BONUS more."""
    scores = game.scores(state).seats
    totals = [s.total + TIEBREAK_WEIGHT * s.tiebreak for s in scores]
    others = [t for s, t in enumerate(totals) if s != seat]
    best_other = max(others) if others else 0.0
    lead = totals[seat] - best_other
    if game.is_terminal(state) and totals[seat] >= best_other:
        lead += WIN_BONUS
    return lead


def playout_value(game: AnyGame, state: Any, seat: int, rng: Rng, playouts: int) -> float:
    """`seat`'s mean reward over random playouts from `state` (which is left unchanged)."""
    total = 0.0
    for _ in range(playouts):
        world = game.copy_state(state)
        rollout(game, world, rng, PLAYOUT_DEPTH)
        total += rewards(game, world, len(game.scores(world).seats))[seat]
    return total / playouts


def one_ply_action(game: AnyGame, state: Any, seat: int, rng: Rng) -> Any:
    """The legal action whose result looks best after a few random playouts, on a determinized copy."""
    world = determinize(game, state, seat, rng)
    actions = game.legal_actions(world, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return actions[0]
    playouts = min(MAX_PLAYOUTS, max(MIN_PLAYOUTS, PLAYOUTS_PER_DECISION // len(actions)))
    best, best_value = actions[0], (float("-inf"), float("-inf"), 0)
    for action in actions:
        after = game.copy_state(world)
        game.play(after, seat, action)
        value = (
            playout_value(game, after, seat, rng, playouts),
            score_margin(game, after, seat),
            rng.below(1000),
        )
        if value > best_value:
            best, best_value = action, value
    return best


def heuristic_action(game: AnyGame, state: Any, seat: int, rng: Rng) -> Any:
    """The game's heuristic choice for `seat` if it has one, else the generic one-ply choice."""
    policy = game.heuristic_action
    if policy is not None:
        return policy(state, seat, rng)
    return one_ply_action(game, state, seat, rng)

"""The heuristic bot: the game's own greedy policy, or a generic one-ply policy for games without one.

The generic policy plays each legal action on a determinized copy and keeps the one after which the
seat's score leads the best other seat's by most (a finished game counts a win extra); ties are broken
by the bot's generator. It knows nothing of the game but its score breakdown.
"""

from __future__ import annotations

from typing import Any

from services.common.game import Game
from services.common.rng import Rng
from workers.bots.knowledge import determinize, hook

WIN_BONUS = 1000.0
TIEBREAK_WEIGHT = 0.001
TIE_NOISE = 1e-6


def score_margin(game: Game, state: Any, seat: int) -> float:
    """How far `seat`'s score leads the best other seat's; a won finished game counts WIN_BONUS more."""
    scores = game.scores(state).seats
    totals = [s.total + TIEBREAK_WEIGHT * s.tiebreak for s in scores]
    others = [t for s, t in enumerate(totals) if s != seat]
    best_other = max(others) if others else 0.0
    lead = totals[seat] - best_other
    if game.is_terminal(state) and totals[seat] >= best_other:
        lead += WIN_BONUS
    return lead


def one_ply_action(game: Game, state: Any, seat: int, rng: Rng) -> Any:
    """The legal action with the best score margin right after it, on a determinized copy."""
    world = determinize(game, state, seat, rng)
    actions = game.legal_actions(world, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return actions[0]
    best, best_value = actions[0], float("-inf")
    for action in actions:
        after = game.copy_state(world)
        game.play(after, seat, action)
        value = score_margin(game, after, seat) + TIE_NOISE * rng.below(1000)
        if value > best_value:
            best, best_value = action, value
    return best


def heuristic_action(game: Game, state: Any, seat: int, rng: Rng) -> Any:
    """The game's heuristic choice for `seat` if it has one, else the generic one-ply choice."""
    policy = hook(game, "heuristic_action")
    if policy is not None:
        return policy(state, seat, rng)
    return one_ply_action(game, state, seat, rng)

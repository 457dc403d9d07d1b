"""Bots over the Game protocol: choose an action for a seat at one of three strengths.

Every bot decides from what its seat may see: the heuristic and search bots work on a
determinization (see `knowledge.determinize`), and the random bot only looks at the legal actions.
"""

from __future__ import annotations

from typing import Any

from services.common.game import AnyGame
from services.common.rng import Rng
from workers.bots import heuristic, search
from workers.bots.random_bot import random_action
from workers.bots.search import Budget

RANDOM, HEURISTIC, SEARCH = "random", "heuristic", "search"
STRENGTHS = (RANDOM, HEURISTIC, SEARCH)

__all__ = ["HEURISTIC", "RANDOM", "SEARCH", "STRENGTHS", "Budget", "choose_action"]


def choose_action(game: AnyGame, state: Any, seat: int, strength: str, rng: Rng, budget: Budget) -> Any:
    """The action a bot of `strength` takes for `seat`; ValueError for an unknown strength."""
    if strength == RANDOM:
        return random_action(game, state, seat, rng)
    if strength == HEURISTIC:
        return heuristic.heuristic_action(game, state, seat, rng)
    if strength == SEARCH:
        return search.search_action(game, state, seat, rng, budget)
    raise ValueError(f"unknown bot strength {strength!r}; one of {', '.join(STRENGTHS)}")

"""The random bot: a uniformly chosen legal action."""

from __future__ import annotations

from typing import Any

from services.common.game import AnyGame
from services.common.rng import Rng


def random_action(game: AnyGame, state: Any, seat: int, rng: Rng) -> Any:
    """A uniformly chosen legal action of `seat`; ValueError if it has none."""
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    return actions[rng.below(len(actions))]

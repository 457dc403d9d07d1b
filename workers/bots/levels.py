"""The bot levels (`live.levels`) played by the bots: each level's bot at its budget, through
`choose_action`. A worker's own budget (BOT_SEARCH_SECONDS, BOT_SEARCH_ITERATIONS) caps every level's."""

from __future__ import annotations

import dataclasses
from typing import Any

from live.levels import Level
from services.common.game import AnyGame
from services.common.rng import Rng
from workers.bots import Budget, choose_action


def budget(level: Level, cap: Budget | None = None) -> Budget:
    """The level's budget a move: its iterations and seconds, each within the cap's where the cap sets
    one (more than 0); the Budget's other fields are the cap's (or its defaults)."""
    base = cap or Budget()
    return dataclasses.replace(
        base,
        seconds=_within(level.seconds, base.seconds),
        iterations=int(_within(level.iterations, base.iterations)),
    )


def _within(own: float, cap: float) -> float:
    """The smaller of two limits, where 0 (or less) is none."""
    limits = [limit for limit in (own, cap) if limit > 0]
    return min(limits) if limits else 0


def level_action(
    game: AnyGame, state: Any, seat: int, level: Level, rng: Rng, cap: Budget | None = None
) -> Any:
    """The action a bot of `level` takes for `seat`."""
    return choose_action(game, state, seat, level.bot, rng, budget(level, cap))

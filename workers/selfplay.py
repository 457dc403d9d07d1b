"""Bot-vs-bot games in-process, for batch self-play, balance reports and strength tables."""

from __future__ import annotations

import hashlib
import time
from dataclasses import asdict, dataclass
from typing import Any

from services.common import registry
from services.common.playout import default_config
from services.common.rng import Rng
from workers.bots import Budget, choose_action


@dataclass(frozen=True)
class GameSummary:
    """The outcome of one self-play game."""

    title: str
    strengths: list[str]  # per seat
    ranks: list[int]  # per seat, 1 is best
    totals: list[int]  # final score per seat
    winners: list[int]
    decisions: int
    seconds: float
    terminal: bool

    def as_dict(self) -> dict[str, Any]:
        """The summary as plain data (a task result)."""
        return asdict(self)


def play(title: str, strengths: list[str], seed: str, search_seconds: float = 0.1) -> GameSummary:
    """Play a whole game of `title` with one bot of the given strength per seat."""
    game = registry.get(title)
    state, _ = game.new_game(len(strengths), default_config(game), seed.encode())
    rng = Rng(int.from_bytes(hashlib.sha256(b"selfplay:" + seed.encode()).digest()[:8], "little"))
    budget = Budget(seconds=search_seconds)
    started = time.perf_counter()
    decisions = 0
    while not game.is_terminal(state) and decisions < game.info.max_game_length:
        seat = game.acting_seats(state)[0]
        game.play(state, seat, choose_action(game, state, seat, strengths[seat], rng, budget))
        decisions += 1
    scores = game.scores(state)
    return GameSummary(
        title=title,
        strengths=list(strengths),
        ranks=[s.rank for s in scores.seats],
        totals=[s.total for s in scores.seats],
        winners=list(scores.winners),
        decisions=decisions,
        seconds=time.perf_counter() - started,
        terminal=game.is_terminal(state),
    )

"""Random playouts in-process: games and decisions per second for each game and player count."""

from __future__ import annotations

import time
from dataclasses import dataclass

from google.protobuf.message import Message

from services.common.game import Game
from services.common.playout import default_config, random_playout
from services.common.rng import Rng

MIN_GAMES = 10


@dataclass(frozen=True)
class PlayoutRate:
    """How fast random games of one game at one player count were played."""

    game: str
    players: int
    games: int
    steps: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Finished games per second."""
        return self.games / self.seconds

    @property
    def steps_per_second(self) -> float:
        """Decisions per second."""
        return self.steps / self.seconds


def measure_playouts(
    game: Game, players: int, seconds: float, config_message: Message | None = None
) -> PlayoutRate:
    """Play seeded random games for about `seconds` (at least MIN_GAMES) and count them, with the
    default options or the given Config message."""
    config = default_config(game) if config_message is None else game.config_from_proto(config_message)
    rng = Rng.from_seed(f"bench-choices-{game.info.name}-{players}".encode())
    random_playout(game, players, b"bench-warmup", rng=rng, config=config)
    games = steps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while games < MIN_GAMES or elapsed < seconds:
        playout = random_playout(game, players, f"bench-{games}".encode(), rng=rng, config=config)
        if not playout.terminal:
            raise RuntimeError(
                f"{game.info.name} {players}p seed bench-{games}: not over after {playout.steps}"
            )
        games += 1
        steps += playout.steps
        elapsed = time.perf_counter() - start
    return PlayoutRate(game.info.name, players, games, steps, elapsed)

"""Serialized sizes of states and views over random games."""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from services.common.game import Game
from services.common.playout import choose_random, default_config
from services.common.rng import Rng


@dataclass(frozen=True)
class Sizes:
    """Serialized sizes in bytes of one game's states (mid-game and overall) and spectator views."""

    game: str
    players: int
    games: int
    mid_state: list[int]
    all_states: list[int]
    mid_view: list[int]


def measure_sizes(game: Game, players: int, games: int) -> Sizes:
    """Sizes of every state of `games` seeded random games; mid-game means the middle third of each."""
    config = default_config(game)
    rng = Rng.from_seed(f"bench-sizes-{game.info.name}-{players}".encode())
    mid_state: list[int] = []
    all_states: list[int] = []
    mid_view: list[int] = []
    for number in range(games):
        state, _ = game.new_game(players, config, f"bench-sizes-{number}".encode())
        sizes = []
        views = []
        while True:
            sizes.append(game.state_to_proto(state).ByteSize())
            views.append(game.view_to_proto(state, None).ByteSize())
            if game.is_terminal(state):
                break
            seat, action = choose_random(game, state, rng)
            game.play(state, seat, action)
        third = len(sizes) // 3
        mid_state.extend(sizes[third : len(sizes) - third])
        mid_view.extend(views[third : len(views) - third])
        all_states.extend(sizes)
    return Sizes(game.info.name, players, games, mid_state, all_states, mid_view)


def median(values: list[int]) -> int:
    """The median, rounded to whole bytes."""
    return round(statistics.median(values))

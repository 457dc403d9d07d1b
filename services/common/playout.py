"""Generic playouts over the Game protocol, for tests, benchmarks, golden files and bots.

Random choices come from a `services.common.rng.Rng` the caller passes in, never from the global
`random` module, so a playout is a pure function of (game, player count, seed, config, rng).
Nothing here names a specific game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from services.common.game import AnyGame
from services.common.rng import Rng


@dataclass(frozen=True)
class Playout:
    """The end of a playout: final state, decisions taken, and whether the game is over."""

    state: Any
    steps: int
    terminal: bool
    trajectory: tuple[tuple[int, Any], ...] | None = None


def default_config(game: AnyGame) -> Any:
    """The game's native config with every option at its default."""
    return game.config_from_proto(game.messages.config())


def choose_random(game: AnyGame, state: Any, rng: Rng) -> tuple[int, Any]:
    """A uniformly chosen acting seat and one of its legal actions, uniformly chosen.

    Raises ValueError when no seat acts (the game is over) or the chosen seat has no legal action.
    """
    seats = game.acting_seats(state)
    if not seats:
        raise ValueError("no seat acts in this state")
    seat = seats[0] if len(seats) == 1 else seats[rng.below(len(seats))]
    actions = game.legal_actions(state, seat)
    if not actions:
        raise ValueError(f"acting seat {seat} has no legal action")
    return seat, actions[rng.below(len(actions))]


def random_playout(
    game: AnyGame,
    player_count: int,
    seed: bytes,
    *,
    rng: Rng,
    config: Any = None,
    max_steps: int | None = None,
    record: bool = False,
) -> Playout:
    """Play uniformly random legal actions from a new game until it ends or `max_steps` decisions.

    `max_steps` defaults to the game's declared bound on game length. With `record`, the playout
    keeps the (seat, action) of every decision.
    """
    if config is None:
        config = default_config(game)
    state, _ = game.new_game(player_count, config, seed)
    return continue_playout(game, state, rng=rng, max_steps=max_steps, record=record)


def continue_playout(
    game: AnyGame, state: Any, *, rng: Rng, max_steps: int | None = None, record: bool = False
) -> Playout:
    """Play uniformly random legal actions on a copy of `state` until the game ends or `max_steps`."""
    limit = game.info.max_game_length if max_steps is None else max_steps
    state = game.copy_state(state)
    trajectory: list[tuple[int, Any]] | None = [] if record else None
    steps = 0
    while steps < limit and not game.is_terminal(state):
        seat, action = choose_random(game, state, rng)
        game.play(state, seat, action)
        if trajectory is not None:
            trajectory.append((seat, action))
        steps += 1
    return Playout(
        state=state,
        steps=steps,
        terminal=game.is_terminal(state),
        trajectory=tuple(trajectory) if trajectory is not None else None,
    )


def replay(
    game: AnyGame,
    player_count: int,
    seed: bytes,
    trajectory: Sequence[tuple[int, Any]],
    *,
    config: Any = None,
) -> Any:
    """The state reached by applying `trajectory`'s (seat, action) pairs to a new game."""
    if config is None:
        config = default_config(game)
    state, _ = game.new_game(player_count, config, seed)
    for seat, action in trajectory:
        game.play(state, seat, action)
    return state

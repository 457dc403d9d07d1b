"""Game setup (§2): stacks, start villages, coins, figures on the track, the first tiles, the market."""

from __future__ import annotations

from services.common.errors import InvalidConfig
from services.common.rng import Rng
from services.glenmore import events as ev
from services.glenmore.data import (
    DIE_PLAYER_COUNTS,
    MARKET_PREFILL,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANDOM_START_PLAYER,
    STACK_CONTENTS,
    START_COINS,
    start_village,
)
from services.glenmore.state import CHOOSE_TILE, DIE, Config, State, figure
from services.glenmore.territory import ORIGIN
from services.glenmore.track import refill


def check_config(player_count: int, config: Config) -> None:
    """Raise InvalidConfig unless the player count is supported."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise InvalidConfig(
            f"Glen More is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {player_count}",
            player_count=str(player_count),
        )


def new_game(player_count: int, config: Config, seed: bytes) -> tuple[State, list]:  # type: ignore[type-arg]
    """The initial state: shuffled stacks, start villages, coins, figures and tiles on the track."""
    check_config(player_count, config)
    state = State(config, player_count, Rng.from_seed(seed))
    for number, contents in enumerate(STACK_CONTENTS):
        stack = list(contents)
        state.rng.shuffle(stack)
        state.stacks[number] = stack
    start = state.rng.below(player_count) if RANDOM_START_PLAYER else 0
    state.start_player = start
    for seat, player in enumerate(state.players):
        player.coins = START_COINS
        player.add_tile(start_village(seat), ORIGIN, clans=1)
    state.track = [figure((start + i) % player_count) for i in range(player_count)]
    if player_count in DIE_PLAYER_COUNTS:
        state.track.append(DIE)
    state.market = [MARKET_PREFILL[player_count]] * 5
    events: list = [ev.GameStarted(start)]  # type: ignore[type-arg]
    refill(state, events)
    state.actor = start
    state.step = CHOOSE_TILE
    return state, events

"""Game setup (§2): per player count, from a seed."""

from __future__ import annotations

from services.common.errors import InvalidConfig
from services.common.rng import Rng
from services.puertorico import draft
from services.puertorico.data import (
    BASE_BUILDINGS,
    BUILDING_SET_BASE,
    BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM,
    BUILDING_SETS,
    CLOISTER_KINDS_CHOICES,
    LIBRARY_MULTIPLIER_CHOICES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRODUCTION_IDS,
    RANDOM_FIRST_GOVERNOR,
    SETUPS,
    SMALL_WHARF_ROUNDING_CHOICES,
    VP_POOL_5P_CHOICES,
)
from services.puertorico.events import GameStarted, PlantationsRevealed
from services.puertorico.state import CHOOSE_ROLE, DRAFT_COST, Config, State


def initial_vp_pool(player_count: int, config: Config) -> int:
    """The VP chips in the pool at the start of a game (the 5-player pool is an option)."""
    return config.vp_pool_5p if player_count == 5 else SETUPS[player_count].vp_pool


def check_config(player_count: int, config: Config) -> None:
    """Raise InvalidConfig unless the player count and options are supported."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise InvalidConfig(
            f"Puerto Rico is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {player_count}",
            player_count=str(player_count),
        )
    if config.vp_pool_5p not in VP_POOL_5P_CHOICES:
        raise InvalidConfig(f"vp_pool_5p must be one of {VP_POOL_5P_CHOICES}, not {config.vp_pool_5p}")
    if config.buildings not in BUILDING_SETS:
        raise InvalidConfig(f"building set {config.buildings!r} is not one of {BUILDING_SETS}")
    if config.small_wharf_rounding not in SMALL_WHARF_ROUNDING_CHOICES:
        raise InvalidConfig(
            f"small_wharf_rounding must be one of {SMALL_WHARF_ROUNDING_CHOICES},"
            f" not {config.small_wharf_rounding!r}"
        )
    if config.library_multiplier not in LIBRARY_MULTIPLIER_CHOICES:
        raise InvalidConfig(
            f"library_multiplier must be one of {LIBRARY_MULTIPLIER_CHOICES}, not {config.library_multiplier}"
        )
    if config.cloister_kinds not in CLOISTER_KINDS_CHOICES:
        raise InvalidConfig(
            f"cloister_kinds must be one of {CLOISTER_KINDS_CHOICES}, not {config.cloister_kinds!r}"
        )


def new_game(player_count: int, config: Config, seed: bytes) -> tuple[State, list]:  # type: ignore[type-arg]
    """The initial state: governor, starting plantations and doubloons, supplies, the first face-up tiles."""
    check_config(player_count, config)
    setup = SETUPS[player_count]
    state = State(config, player_count, Rng.from_seed(seed))
    state.governor = state.rng.below(player_count) if RANDOM_FIRST_GOVERNOR else 0
    state.actor = state.governor
    state.step = CHOOSE_ROLE
    state.roles = list(setup.roles)
    state.role_doubloons = [0] * len(setup.roles)
    state.role_taken = [False] * len(setup.roles)

    pool = list(setup.plantations)
    for turn, good in enumerate(setup.starting_plantations):
        player = state.players[(state.governor + turn) % player_count]
        player.tiles[good] += 1
        player.doubloons = setup.doubloons
        pool[good] -= 1
    state.plantation_stack = [good for good, count in enumerate(pool) for _ in range(count)]
    state.rng.shuffle(state.plantation_stack)
    state.face_up_plantations = sorted(state.plantation_stack.pop() for _ in range(player_count + 1))

    state.quarries = setup.quarries
    state.colonist_supply = setup.colonist_supply
    state.colonist_ship = setup.colonist_ship
    state.vp_pool = initial_vp_pool(player_count, config)
    state.goods_supply = list(setup.goods)
    state.ship_cap = list(setup.ships)
    state.ship_good = [-1] * len(setup.ships)
    state.ship_count = [0] * len(setup.ships)
    if config.buildings == BUILDING_SET_BASE:
        on_sale = list(BASE_BUILDINGS)
    elif config.buildings == BUILDING_SET_RANDOM:
        on_sale = [*PRODUCTION_IDS, *draft.random_set(state.rng, config)]
    else:
        on_sale = list(PRODUCTION_IDS)
    for building in on_sale:
        state.stock[building] = draft.copies(building, player_count)
    if config.buildings == BUILDING_SET_DRAFT:
        state.step = DRAFT_COST  # the draft comes first (§6.3), from the governor
    events = [GameStarted(state.governor), PlantationsRevealed(tuple(state.face_up_plantations))]
    return state, events

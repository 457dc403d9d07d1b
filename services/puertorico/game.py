"""Puerto Rico as a `services.common.game.Game`: static facts, engine entry points and codec."""

from __future__ import annotations

from boardgame.puertorico.v1 import puertorico_pb2 as pb

from i18n.options import described
from services.common.game import Game, GameInfo, OptionInfo, PerformanceTargets
from services.common.modular import modular_game
from services.common.rng import Rng
from services.puertorico import bot, codec, engine, labels, setup
from services.puertorico.actions import Action
from services.puertorico.data import (
    BUILDING_SET_BASE,
    BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM,
    BUILDING_SETS,
    CLOISTER_KINDS_CHOICES,
    DEFAULT_CLOISTER_KINDS,
    DEFAULT_VP_POOL_5P,
    DRAFT_HACIENDA_FOREST_EXCLUSIVE,
    LIBRARY_CRAFTSMAN_DISTINCT,
    LIBRARY_MULTIPLIER,
    LIBRARY_MULTIPLIER_CHOICES,
    LIGHTHOUSE_CAPTAIN_NEEDS_LOAD,
    LIGHTHOUSE_COUNTS_PRIVATE_SHIPS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SMALL_WHARF_ROUNDING,
    SMALL_WHARF_ROUNDING_CHOICES,
    SPECIALTY_FACTORY_COUNTS_CORN,
    VP_POOL_5P_CHOICES,
    VP_TRIGGER_ANY_PHASE,
)
from services.puertorico.scoring import final_scores
from services.puertorico.state import Config, State
from services.puertorico.title_data import TITLE_DATA

# Random play: the longest of 4,000 seeded games (1,000 per player count) took 1,063 decisions. The
# rules set no hard limit (players could avoid every end trigger), so this is a generous safety bound.
MAX_GAME_LENGTH = 6000


def _flag(name: str, default: bool) -> OptionInfo:
    """A true/false option."""
    return OptionInfo(
        name, described(labels.CATALOGS, name), ("false", "true"), "true" if default else "false"
    )


GAME_INFO = GameInfo(
    name="puertorico",
    display_name="Puerto Rico",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    # Each description is the English of the option's help message (locale/en.po, i18n.options).
    options=(
        _flag("public_vp", False),
        OptionInfo(
            "vp_pool_5p",
            described(labels.CATALOGS, "vp_pool_5p"),
            tuple(str(v) for v in VP_POOL_5P_CHOICES),
            str(DEFAULT_VP_POOL_5P),
        ),
        OptionInfo("buildings", described(labels.CATALOGS, "buildings"), BUILDING_SETS, BUILDING_SET_BASE),
        # Expansion I open points the rules mark UNCONFIRMED (§11); each default is the rules' DEFAULT.
        OptionInfo(
            "small_wharf_rounding",
            described(labels.CATALOGS, "small_wharf_rounding"),
            SMALL_WHARF_ROUNDING_CHOICES,
            SMALL_WHARF_ROUNDING,
        ),
        _flag("lighthouse_captain_needs_load", LIGHTHOUSE_CAPTAIN_NEEDS_LOAD),
        _flag("lighthouse_counts_private_ships", LIGHTHOUSE_COUNTS_PRIVATE_SHIPS),
        _flag("specialty_factory_counts_corn", SPECIALTY_FACTORY_COUNTS_CORN),
        _flag("library_craftsman_distinct", LIBRARY_CRAFTSMAN_DISTINCT),
        OptionInfo(
            "library_multiplier",
            described(labels.CATALOGS, "library_multiplier"),
            tuple(str(v) for v in LIBRARY_MULTIPLIER_CHOICES),
            str(LIBRARY_MULTIPLIER),
        ),
        _flag("draft_hacienda_forest_exclusive", DRAFT_HACIENDA_FOREST_EXCLUSIVE),
        OptionInfo(
            "cloister_kinds",
            described(labels.CATALOGS, "cloister_kinds"),
            CLOISTER_KINDS_CHOICES,
            DEFAULT_CLOISTER_KINDS,
        ),
        _flag("vp_trigger_any_phase", VP_TRIGGER_ANY_PHASE),
    ),
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_GAME_LENGTH,
    min_score=0,
    max_score=400,
)


def disturb_hidden(state: State, seat: int | None, rng: Rng) -> State:
    """A copy differing only in what `seat` cannot see: stack order, RNG, others' VP chips, the kinds
    of others' forests and of a tile another seat drew with the hacienda."""
    other = state.copy()
    rng.shuffle(other.plantation_stack)
    other.rng = Rng(rng.next64(), rng.next64())
    for s, player in enumerate(other.players):
        if not codec.vp_visible(state, seat, s):
            player.vp += 1 + rng.below(9)
        if s != seat:
            bot.resample_forests(player, rng)
    bot.resample_hacienda_tile(other, seat, rng)
    return other


PUERTO_RICO: Game[State, Action, Config] = modular_game(
    GAME_INFO,
    setup=setup,
    engine=engine,
    labels=labels,
    codec=codec.CODEC,
    scores=final_scores,
    title_data=TITLE_DATA,
    disturb_hidden=disturb_hidden,
    heuristic_action=bot.heuristic_action,
    determinize=bot.determinize,
    # Configs the generic suites (conformance, golden playthroughs, bench) cover besides the defaults.
    example_configs=(
        (BUILDING_SET_DRAFT, pb.Config(buildings=pb.BUILDING_SET_DRAFT)),
        (BUILDING_SET_RANDOM, pb.Config(buildings=pb.BUILDING_SET_RANDOM)),
    ),
    targets=PerformanceTargets(games_per_second_4p=150, apply_over_echo_p50=2.0, state_bytes_4p=4096),
)

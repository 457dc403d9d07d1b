"""Assyria as a `services.common.game.Game`: static facts, engine entry points and codec."""

from __future__ import annotations

from boardgame.assyria.v1 import assyria_pb2 as pb

from i18n.options import described
from services.assyria import bot, codec, engine, labels, setup
from services.assyria.actions import Action
from services.assyria.data import (
    BONUS_CARD,
    CAMEL_CAP,
    DIGNITARY_SPACES,
    END_CAMELS_PER_VP,
    END_PLOW_VP,
    EXPANSION_CARDS,
    FED_STATUS_LASTS,
    FED_STATUS_LASTS_CHOICES,
    FEEDING,
    FEEDING_CHOICES,
    HIGHER_DIGNITARY_VP,
    HUTS_PER_COLOUR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFERING_MULT,
    OFFERING_STEPS_PER_TURN,
    PRESTIGE_VP,
    REIGN_TURNS,
    SETUP,
    TURNS,
    UNUSED_PLOWS,
    UNUSED_PLOWS_CHOICES,
    WELL_VP,
    ZIGGURAT_PIECES_PER_COLOUR,
    ZigguratPiece,
)
from services.assyria.scoring import final_scores
from services.assyria.state import Config, State
from services.assyria.title_data import TITLE_DATA
from services.common.game import Game, GameInfo, OptionInfo, PerformanceTargets
from services.common.modular import modular_game

# Game length. A seat's turn is at most: 1 column, 4 huts, feeding (a card played, each hut fed, a
# card left: 3 per hut on the board at most), the wells of the supply, and the actions (4 bases, 8
# more pieces, every Assur space, 3 offerings, a plow, a card and the end); plus the setup's start
# spaces and draft. Random play: about 300 decisions with 4 players.
PIECES = sum(ZIGGURAT_PIECES_PER_COLOUR.values())
ASSUR_SPACES = sum(DIGNITARY_SPACES.values())
WELLS_IN_SUPPLY = SETUP[MAX_PLAYERS].wells
SEAT_TURN = (
    1 + 4 + 3 * HUTS_PER_COLOUR + 1 + WELLS_IN_SUPPLY + PIECES + ASSUR_SPACES + OFFERING_STEPS_PER_TURN + 3
)
MAX_GAME_LENGTH = 2 * MAX_PLAYERS + TURNS * MAX_PLAYERS * SEAT_TURN

# Scores: never negative. Highest: prestige every turn from every hut inside and every piece, every
# well at its best, the whole Assur row and the higher dignitary each reign, every ziggurat at the
# best offering, and the end bonuses.
MAX_ZIGGURATS = ZIGGURAT_PIECES_PER_COLOUR[ZigguratPiece.BASE]
ROW = sum(sorted(EXPANSION_CARDS)[-max(len(r) for r in REIGN_TURNS) :]) + BONUS_CARD
MAX_SCORE = (
    TURNS * (max(PRESTIGE_VP.values()) * HUTS_PER_COLOUR + PIECES)
    + WELLS_IN_SUPPLY * max(WELL_VP)
    + len(REIGN_TURNS) * (ROW + HIGHER_DIGNITARY_VP[-1] + MAX_ZIGGURATS * OFFERING_MULT[-1])
    + PIECES
    + END_PLOW_VP
    + CAMEL_CAP // END_CAMELS_PER_VP
)


def _help(name: str) -> str:
    """An option's description: the English of its help message (locale/en.po, i18n.options)."""
    return described(labels.CATALOGS, name)


def _bool_option(name: str, default: bool) -> OptionInfo:
    return OptionInfo(name, _help(name), ("false", "true"), "true" if default else "false")


DEFAULTS = Config()
GAME_INFO = GameInfo(
    name="assyria",
    display_name="Assyria",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=(
        OptionInfo("fed_status_lasts", _help("fed_status_lasts"), FED_STATUS_LASTS_CHOICES, FED_STATUS_LASTS),
        _bool_option("assur_2p_rule", DEFAULTS.assur_2p_rule),
        _bool_option("start_plow", DEFAULTS.start_plow),
        OptionInfo("unused_plows", _help("unused_plows"), UNUSED_PLOWS_CHOICES, UNUSED_PLOWS),
        OptionInfo("feeding", _help("feeding"), FEEDING_CHOICES, FEEDING),
    ),
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_GAME_LENGTH,
    min_score=0,
    max_score=MAX_SCORE,
)


ASSYRIA: Game[State, Action, Config] = modular_game(
    GAME_INFO,
    setup=setup,
    engine=engine,
    labels=labels,
    codec=codec.CODEC,
    scores=final_scores,
    title_data=TITLE_DATA,
    disturb_hidden=bot.disturb_hidden,
    heuristic_action=bot.heuristic_action,
    determinize=bot.determinize,
    # Fed status lasting a reign (OP-23) changes which huts need food: the generic suites cover it.
    example_configs=(("fed-for-a-reign", pb.Config(fed_status_lasts=pb.FED_STATUS_LASTS_REIGN)),),
    targets=PerformanceTargets(games_per_second_4p=200, state_bytes_4p=4096),
)

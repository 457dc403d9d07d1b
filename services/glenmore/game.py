"""Glen More as a `services.common.game.Game`: static facts, engine entry points and codec."""

from __future__ import annotations

from boardgame.glenmore.v1 import glenmore_pb2 as pb

from i18n.options import described
from services.common.game import Game, GameInfo, OptionInfo, PerformanceTargets
from services.common.modular import modular_game
from services.common.rng import Rng
from services.glenmore import bot, codec, engine, labels, setup
from services.glenmore.actions import Action
from services.glenmore.data import (
    ARMADALE_COINS,
    DIFF_TABLE,
    DUART_CASTLE_VP,
    FAIR_VP,
    IONA_ABBEY_VP,
    LOCH_LOCHY_CUBES,
    LOCH_MORAR_VP,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PUBLIC_VP,
    STACK_TILES,
    START_COINS,
    TILE_PENALTY,
)
from services.glenmore.scoring import final_scores
from services.glenmore.state import Config, State
from services.glenmore.title_data import TITLE_DATA
from services.glenmore.visibility import vp_visible

# Game length. Random play: the longest of 4,000 seeded games (1,000 per player count) took 274
# decisions (5 players; 230 with 4). The rules bound it: every player turn removes a tile from the
# track, so there are at most 67 turns; a turn has at most 9 decisions outside activating (take,
# place, 3 payments, 2 cube choices, 2 ends), at most 10 activations (9 cells and Loch Ness) or, in
# the Loch Oich turn, 68, each with at most 5 payments and 1 movement point to spend; and every sale
# removes a cube that a production activation, Loch Lochy or Loch Shiel put there.
MAX_TURNS = STACK_TILES
MAX_ACTIVATIONS = (MAX_TURNS - 1) * 10 + (STACK_TILES + 1)
MAX_CUBES = MAX_ACTIVATIONS + LOCH_LOCHY_CUBES + (STACK_TILES + 1)
MAX_GAME_LENGTH = MAX_TURNS * 9 + MAX_ACTIVATIONS * (1 + 5 + 1) + MAX_CUBES  # 6,497

# Scores. Lowest: VP, coins and end-game cards are never negative, and the tile penalty is at most
# 3 VP for each of the 67 stack tiles. Highest: an activation is worth at most 12 VP (fair of 5);
# coins come from the 6 at the start, Armadale's 3 and sales of at most 3 each; the 3 scorings give
# at most 3 x 3 x 8; the end-game cards at most 2 x 17 yellow + 2 x 14 green + 3 x 13 villages.
MIN_SCORE = -TILE_PENALTY * STACK_TILES
MAX_SCORE = (
    MAX_ACTIVATIONS * FAIR_VP[-1]
    + START_COINS
    + ARMADALE_COINS
    + 3 * MAX_CUBES
    + 3 * 3 * DIFF_TABLE[-1]
    + IONA_ABBEY_VP * 17
    + LOCH_MORAR_VP * 14
    + DUART_CASTLE_VP * 13
)

GAME_INFO = GameInfo(
    name="glenmore",
    display_name="Glen More",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=(
        # The description is the English of the option's help message (locale/en.po, i18n.options).
        OptionInfo(
            "public_vp",
            described(labels.CATALOGS, "public_vp"),
            ("false", "true"),
            "true" if PUBLIC_VP else "false",
        ),
    ),
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_GAME_LENGTH,
    min_score=MIN_SCORE,
    max_score=MAX_SCORE,
)


def disturb_hidden(state: State, seat: int | None, rng: Rng) -> State:
    """A copy differing only in what `seat` cannot see: the order of the stacks, the RNG, and the
    VP of the seats whose VP it may not see (option public_vp off)."""
    other = bot.reshuffled(state, rng, forget_order=False)
    for s, player in enumerate(other.players):
        if not vp_visible(state, seat, s):
            scoring = rng.below(9)
            player.scoring_vp += scoring
            player.vp += scoring + rng.below(9)
    return other


GLEN_MORE: Game[State, Action, Config] = modular_game(
    GAME_INFO,
    setup=setup,
    engine=engine,
    labels=labels,
    codec=codec.CODEC,
    scores=final_scores,
    title_data=TITLE_DATA,
    disturb_hidden=disturb_hidden,
    determinize=bot.determinize,
    # Configs the generic suites (conformance, golden playthroughs, bench) cover besides the defaults:
    # hidden VP (option public_vp off) exercises every hidden-information check on the VP.
    example_configs=(("hidden-vp", pb.Config(public_vp=False)),),
    targets=PerformanceTargets(games_per_second_4p=200),
)

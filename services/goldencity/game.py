"""The Golden City as a `services.common.game.Game`: static facts, engine entry points and codec."""

from __future__ import annotations

from boardgame.goldencity.v1 import goldencity_pb2 as pb

from i18n.options import described
from services.common.game import Edition, Game, GameInfo, OptionInfo, PerformanceTargets
from services.common.modular import modular_game
from services.common.rng import Rng
from services.goldencity import bot, codec, dataset, engine, labels, setup, tables
from services.goldencity.actions import Action
from services.goldencity.checks import COASTAL_PLACES, COIN_BONUS_AMOUNTS, INLAND_PLACES, SCORING_CARD_BACKS
from services.goldencity.rules import (
    BONUS_CARDS_PUBLIC,
    BUILDS_PER_TURN,
    CARDS_PER_PAIR,
    DEFAULT_BONUS_CARD_TAKE,
    DEFAULT_INNER_COST,
    DEFAULT_JOKER,
    DEFAULT_REBID,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PUBLIC_HANDS,
    START_COINS,
)
from services.goldencity.scoring import final_scores
from services.goldencity.state import Config, State
from services.goldencity.title_data import TITLE_DATA

# Game length. At most one round per scoring card. Bids: one per player and round, plus one per
# displacement, each costing at least a coin, and no more coins exist than the start coins and the
# coin bonuses of every place (at most 2 each). Building: per player turn at most 2 houses of at most
# 4 decisions each (the place, 2 cards or pairs, a goods or bonus card) and the end. Discards: at most
# the cards gained in a round (a pair and a landscape bonus per house). Random play: the longest of
# 90 seeded games (30 per player count) took 207 decisions.
MAX_ROUNDS = sum(SCORING_CARD_BACKS.values())
MAX_COINS = START_COINS * MAX_PLAYERS + max(COIN_BONUS_AMOUNTS) * (COASTAL_PLACES + INLAND_PLACES)
MAX_BIDS = MAX_ROUNDS * MAX_PLAYERS + MAX_COINS
MAX_BUILD_DECISIONS = MAX_ROUNDS * MAX_PLAYERS * (BUILDS_PER_TURN * 4 + 1)
MAX_DISCARDS = MAX_ROUNDS * MAX_PLAYERS * (CARDS_PER_PAIR + BUILDS_PER_TURN)
MAX_GAME_LENGTH = MAX_BIDS + MAX_BUILD_DECISIONS + MAX_DISCARDS  # 1,000

# Scores: letters and bonus-card points are never negative; the bound is loose but safe.
MIN_SCORE = 0
MAX_SCORE = 100_000


def _provenance(reconstruction: bool) -> str:
    return "a RECONSTRUCTION, not the printed game" if reconstruction else "a transcription"


def _help(name: str, **arguments: str) -> str:
    """An option's description: the English of its help message (locale/en.po, i18n.options)."""
    return described(labels.CATALOGS, name, **arguments)


def _data_set_description() -> str:
    name = dataset.configured_name()
    data = tables.named(name).data
    provenance = "reconstruction" if data.reconstruction else "transcription"
    return _help("data_set", data_set=name, data_version=data.data_version, provenance=provenance)


def edition(state: State) -> Edition:
    """The data set a game plays with, for its record."""
    data = state.data_set
    notice = f"Data set {data.name} ({data.data_version}): {_provenance(data.reconstruction)}"
    return Edition(data.name, data.data_version, data.reconstruction, notice)


def _bool(value: bool) -> str:
    return "true" if value else "false"


GAME_INFO = GameInfo(
    name="goldencity",
    display_name="The Golden City",
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    options=(
        OptionInfo("data_set", _data_set_description(), dataset.available(), dataset.configured_name()),
        OptionInfo.of_enum(pb.Config, "rebid", _help("rebid"), DEFAULT_REBID),
        OptionInfo.of_enum(pb.Config, "bonus_card_take", _help("bonus_card_take"), DEFAULT_BONUS_CARD_TAKE),
        OptionInfo(
            "bonus_cards_public", _help("bonus_cards_public"), ("false", "true"), _bool(BONUS_CARDS_PUBLIC)
        ),
        OptionInfo.of_enum(pb.Config, "inner_cost", _help("inner_cost"), DEFAULT_INNER_COST),
        OptionInfo.of_enum(pb.Config, "joker", _help("joker"), DEFAULT_JOKER),
        OptionInfo("public_hands", _help("public_hands"), ("false", "true"), _bool(PUBLIC_HANDS)),
        OptionInfo("start_seat", _help("start_seat"), ("-1", *(str(s) for s in range(MAX_PLAYERS))), "-1"),
    ),
    has_chance=True,
    has_hidden_information=True,
    max_game_length=MAX_GAME_LENGTH,
    min_score=MIN_SCORE,
    max_score=MAX_SCORE,
)


def disturb_hidden(state: State, seat: int | None, rng: Rng) -> State:
    """A copy differing only in what `seat` cannot see (the determinization, from a fresh sample)."""
    return bot.determinize(state, seat, rng)


GOLDEN_CITY: Game[State, Action, Config] = modular_game(
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
    edition=edition,
    # Configs the generic suites also cover: the other side of each option that changes the rules
    # (the options that only show more, public_hands and bonus_cards_public, are covered by tests).
    example_configs=(
        (
            "variants",
            pb.Config(
                rebid=pb.REBID_IMMEDIATE,
                bonus_card_take=pb.BONUS_CARD_TAKE_DRAW,
                inner_cost=pb.INNER_COST_KEY_PLUS_OUTER_COST,
                joker=pb.JOKER_ANY_PAIR,
            ),
        ),
    ),
    targets=PerformanceTargets(games_per_second_4p=300, state_bytes_4p=4096),
)

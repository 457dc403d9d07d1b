"""Game setup (§3): the supplies, the goods display, houses and coins, the starting hands, the
scoring stack (1s on top, then 2s, then 3s, each group shuffled) and the start player (OP-24)."""

from __future__ import annotations

from dataclasses import replace

from services.common.errors import InvalidConfig
from services.common.rng import Rng
from services.goldencity import dataset, round_start, tables
from services.goldencity import events as ev
from services.goldencity.rules import (
    BLACK_HOUSES_2P,
    BONUS_CARD_DRAW,
    GOODS_DISPLAY,
    HOUSES,
    LANDSCAPE_CARDS_PER_KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    RANDOM_START_SEAT,
    START_COINS,
    START_HAND,
    START_HAND_RANDOM_CARDS,
)
from services.goldencity.state import Config, Player, State
from services.goldencity.vocabulary import Landscape


def check_config(player_count: int, config: Config) -> None:
    """Raise InvalidConfig unless the player count and start seat fit."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise InvalidConfig(
            f"The Golden City is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {player_count}",
            player_count=str(player_count),
        )
    if config.start_seat != RANDOM_START_SEAT and not 0 <= config.start_seat < player_count:
        raise InvalidConfig(
            f"start_seat {config.start_seat} is not a seat of a {player_count}-player game",
            start_seat=str(config.start_seat),
        )


def scoring_stack(state: State) -> list[int]:
    """The scoring cards stacked by back value, highest at the bottom, each group shuffled (§3.6)."""
    stack: list[int] = []
    cards = [card for card in state.tables.scoring_cards if card is not None]
    for back in sorted({card.back for card in cards}, reverse=True):
        group = [card.id for card in cards if card.back == back]
        state.rng.shuffle(group)
        stack.extend(group)
    return stack


def new_game(player_count: int, config: Config, seed: bytes) -> tuple[State, list]:  # type: ignore[type-arg]
    """The initial state, the first round's scoring card revealed and its pairs laid out."""
    check_config(player_count, config)
    if not config.data_set:
        config = replace(config, data_set=dataset.configured_name())
    state = State(config, tables.named(config.data_set), player_count, Rng.from_seed(seed))
    rng = state.rng
    data = state.tables.data
    black = BLACK_HOUSES_2P if player_count == 2 else 0
    state.players = [Player(START_COINS, HOUSES[player_count], black) for _ in range(player_count)]
    deck = [int(kind) for kind in Landscape for _ in range(LANDSCAPE_CARDS_PER_KIND)]
    for player in state.players:
        for card in START_HAND:
            deck.remove(card)
            player.hand.cards.append(int(card))
    rng.shuffle(deck)
    for _ in range(START_HAND_RANDOM_CARDS):
        for player in state.players:
            player.hand.cards.append(deck.pop())
    state.landscape_deck = deck
    goods = [card.id for card in data.goods_cards]
    rng.shuffle(goods)
    state.goods_display = [goods.pop() for _ in range(min(GOODS_DISPLAY, len(goods)))]
    state.goods_deck = goods
    state.bonus_supply = [card.id for card in data.bonus_cards]
    if config.bonus_card_take == BONUS_CARD_DRAW:
        rng.shuffle(state.bonus_supply)
    state.scoring_stack = scoring_stack(state)
    start = rng.below(player_count) if config.start_seat == RANDOM_START_SEAT else config.start_seat
    state.start_player = start
    events: list = [ev.GameStarted(start, data.name, data.reconstruction)]  # type: ignore[type-arg]
    round_start.start_round(state, events)
    return state, events

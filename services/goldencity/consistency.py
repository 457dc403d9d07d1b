"""The checks a decoded State must pass before the engine plays it: every value in range and the
whole consistent (every card, key and house accounted for, the step's progress fitting the step), so
a forged or damaged state is refused as MalformedRequest."""

from __future__ import annotations

from collections import Counter

from services.common.helpers import MAX_COUNT, check_state
from services.goldencity import payment
from services.goldencity.landscapes import counts
from services.goldencity.payment import LANDSCAPES
from services.goldencity.rules import (
    BLACK_HOUSES_2P,
    BONUS_CARD_CHOOSE,
    BONUS_CARD_DRAW,
    BUILDS_PER_TURN,
    GOODS_DISPLAY,
    HAND_LIMIT,
    HOUSES,
    INNER_COST_KEY,
    INNER_COST_KEY_PLUS_OUTER_COST,
    JOKER_ANY_PAIR,
    JOKER_IDENTICAL_PAIR,
    KEY_CARDS,
    LANDSCAPE_CARDS_PER_KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_PLACE,
    NOBODY,
    RANDOM_START_SEAT,
    REBID_IMMEDIATE,
    REBID_NEXT_TURN,
)
from services.goldencity.state import (
    BID,
    BUILD,
    CHOOSE_BONUS_CARD,
    CHOOSE_GOODS_CARD,
    DISCARD,
    GAME_OVER,
    PAY,
    Config,
    State,
)


def check_config(config: Config, n: int) -> None:
    """The options of a state are resolved values in range."""
    check_state(config.rebid in (REBID_IMMEDIATE, REBID_NEXT_TURN), "config.rebid")
    check_state(config.bonus_card_take in (BONUS_CARD_CHOOSE, BONUS_CARD_DRAW), "config.bonus_card_take")
    check_state(config.inner_cost in (INNER_COST_KEY, INNER_COST_KEY_PLUS_OUTER_COST), "config.inner_cost")
    check_state(config.joker in (JOKER_IDENTICAL_PAIR, JOKER_ANY_PAIR), "config.joker")
    check_state(config.start_seat == RANDOM_START_SEAT or 0 <= config.start_seat < n, "config.start_seat")


def _ids(values: list[int], count: int, what: str) -> None:
    check_state(all(1 <= v <= count for v in values), f"{what}: an id out of range")


def _exactly_once(values: list[int], count: int, what: str) -> None:
    _ids(values, count, what)
    check_state(sorted(values) == list(range(1, count + 1)), f"{what}: every card exactly once")


def check(state: State) -> None:
    """Raise MalformedRequest unless `state` is consistent."""
    n = state.n
    tables = state.tables
    data = tables.data
    check_state(MIN_PLAYERS <= n <= MAX_PLAYERS, "player count")
    check_config(state.config, n)
    check_state(state.config.data_set == state.data_set.name == data.name, "the data set's name")
    check_state(state.data_set.data_version == data.data_version, "the data set's version")
    check_state(state.data_set.reconstruction == data.reconstruction, "the data set's reconstruction flag")
    check_state(1 <= state.step <= GAME_OVER, "step")
    check_state(0 <= state.actor < n and 0 <= state.start_player < n, "seat out of range")
    check_state(0 <= state.bid_cursor < n, "bid cursor")
    check_state(0 <= state.displacement <= MAX_COUNT, "displacement")
    places = len(tables.kind) - 1
    landscape_cards: Counter[int] = Counter(state.landscape_deck + state.landscape_discard)
    goods: list[int] = state.goods_display + state.goods_deck
    bonus: list[int] = list(state.bonus_supply)
    keys = state.key_supply
    for seat, player in enumerate(state.players):
        for value, what in ((player.coins, "coins"), (player.letters, "letters"), (player.keys, "keys")):
            check_state(0 <= value <= MAX_COUNT, f"players[{seat}]: {what} out of range")
        check_state(all(card in LANDSCAPES for card in player.hand.cards), f"players[{seat}].hand.cards")
        landscape_cards.update(player.hand.cards)
        goods += player.goods_cards
        bonus += player.bonus_cards.cards
        keys += player.keys
        _ids(player.houses + player.black_houses, places, f"players[{seat}] houses")
        check_state(player.houses_left + len(player.houses) == HOUSES[n], f"players[{seat}].houses_left")
        black = BLACK_HOUSES_2P if n == 2 else 0
        check_state(
            player.black_houses_left + len(player.black_houses) == black, f"players[{seat}].black_houses_left"
        )
        check_state(min(player.houses_left, player.black_houses_left) >= 0, f"players[{seat}] houses left")
        check_state(
            0 <= player.bonus_points <= MAX_COUNT and (state.step == GAME_OVER or player.bonus_points == 0),
            f"players[{seat}].bonus_points",
        )
    _houses(state)
    for pair in state.pairs:
        check_state(all(card in LANDSCAPES for card in pair.cards) and len(pair.cards) <= 2, "pair cards")
        landscape_cards.update(pair.cards)
    check_state(all(card in LANDSCAPES for card in landscape_cards), "a landscape card out of range")
    check_state(
        all(landscape_cards[kind] == LANDSCAPE_CARDS_PER_KIND for kind in LANDSCAPES),
        "landscape cards: 10 of each kind in all",
    )
    _exactly_once(goods, len(data.goods_cards), "goods cards")
    check_state(
        len(state.goods_display) <= GOODS_DISPLAY
        and (not state.goods_deck or len(state.goods_display) == GOODS_DISPLAY),
        "the goods display",
    )
    _exactly_once(bonus, len(data.bonus_cards), "bonus cards")
    check_state(keys == KEY_CARDS and state.key_supply >= 0, "key cards")
    _scoring(state)
    _step(state)


def _houses(state: State) -> None:
    tables = state.tables
    owners: dict[int, list[int]] = {}
    for seat, player in enumerate(state.players):
        check_state(len(set(player.houses)) == len(player.houses), "two own houses on one place")
        check_state(
            len(set(player.black_houses)) == len(player.black_houses), "two black houses on one place"
        )
        for place in player.houses + player.black_houses:
            owners.setdefault(place, []).append(seat)
        for place in player.black_houses:
            check_state(
                tables.is_city(place) and place in player.houses, "a black house outside own city part"
            )
    for place, seats in owners.items():
        if not tables.is_city(place):
            check_state(len(seats) == 1, "two houses on a place that takes one")
    for seat, player in enumerate(state.players):
        for place in player.black_houses:
            check_state(set(owners[place]) == {seat}, "a black house in a part another player holds")
    last = any(player.houses_left == 0 for player in state.players)
    check_state(state.last_round == last or state.step == GAME_OVER, "last_round")


def _scoring(state: State) -> None:
    cards = state.tables.scoring_cards
    total = len(cards) - 1
    stack = state.scoring_stack
    _ids(stack, total, "scoring stack")
    revealed = [state.scoring_card] if state.scoring_card else []
    _ids(revealed, total, "scoring card")
    _exactly_once(stack + revealed + state.scored_cards, total, "scoring cards")
    check_state(state.round >= 1 and len(stack) + state.round == total, "round against the scoring stack")
    backs = [cards[c].back for c in stack]  # type: ignore[union-attr]
    check_state(backs == sorted(backs, reverse=True), "scoring stack not stacked by back value")
    scored = state.step in (DISCARD, GAME_OVER)
    check_state(bool(state.scoring_card) != scored, "the revealed scoring card")


def _step(state: State) -> None:
    step = state.step
    actor = state.actor
    player = state.players[actor]
    paying = step == PAY
    check_state(state.building_place == NO_PLACE or paying, "building_place outside STEP_PAY")
    check_state(state.owed == 0 or paying, "owed outside STEP_PAY")
    check_state(not state.building_black or paying, "building_black outside STEP_PAY")
    check_state((state.bonus_chooser == actor) == (step == CHOOSE_BONUS_CARD), "bonus_chooser")
    check_state(state.bonus_chooser in (NOBODY, actor), "bonus_chooser")
    check_state(bool(state.pairs) == (step == BID), "pairs outside STEP_BID")
    building = step in (BUILD, PAY, CHOOSE_GOODS_CARD, CHOOSE_BONUS_CARD)
    check_state(0 <= state.builds < BUILDS_PER_TURN and (building or state.builds == 0), "builds")
    if step == BID:
        check_state(len(state.pairs) == state.n, "one pair per player")
        seats = [pair.bid_seat for pair in state.pairs if pair.bid_seat != NOBODY]
        check_state(all(0 <= s < state.n for s in seats) and len(set(seats)) == len(seats), "bid hands")
        check_state(actor not in seats, "the bidder's hand is already on a pair")
    elif paying:
        check_state(
            1 <= state.building_place < len(state.tables.kind) and state.owed >= 1, "the house paid for"
        )
        price = payment.cost(state, state.building_place)
        check_state(state.owed <= price.cards, "cards owed")
        check_state(
            payment.can_pay(
                counts(player.hand.cards),
                price.landscape,
                state.owed,
                state.config.joker == JOKER_ANY_PAIR,
            ),
            "a payment the hand cannot complete",
        )
    elif step == CHOOSE_GOODS_CARD:
        check_state(bool(state.goods_display), "no goods card to choose")
    elif step == CHOOSE_BONUS_CARD:
        check_state(
            bool(state.bonus_supply) and state.config.bonus_card_take == BONUS_CARD_CHOOSE,
            "no bonus card to choose",
        )
    elif step == DISCARD:
        check_state(len(player.hand.cards) > HAND_LIMIT, "a discard within the hand limit")

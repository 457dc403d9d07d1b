"""Every numbered ruling of §9 as a concrete state with its exact outcome."""

# Covered here, by the tests named after them: ruling 1, ruling 2, ruling 3, ruling 4, ruling 5, ruling 6,
# ruling 7, ruling 8, ruling 9, ruling 10.

from __future__ import annotations

import pytest

from services.goldencity import engine, scoring
from services.goldencity.actions import BID, END_BUILDING_ACTION, Action
from services.goldencity.building import may_build
from services.goldencity.rules import REBID_IMMEDIATE, REBID_NEXT_TURN
from services.goldencity.state import CHOOSE_GOODS_CARD
from services.goldencity.vocabulary import PlaceKind
from tests.goldencity.scenario import (
    COAST,
    DESERT,
    FOREST,
    MEADOW,
    A,
    B,
    C,
    build_paying,
    can_build,
    checked,
    ev,
    game,
    of_type,
    place,
    put_house,
    set_hand,
    to_building,
)


def test_ruling_1_a_place_takes_one_house_a_city_part_one_per_player() -> None:
    state = to_building(game(3))
    put_house(state, A, "meadow_c1")
    set_hand(state, B, [COAST])
    state = checked(state)
    assert not may_build(state, B, place(state, "meadow_c1"), False)
    assert may_build(state, B, place(state, "meadow_c2"), False)
    # City parts: one per player; only the first two builders get letters (see T4 for the amounts).
    outer = place(state, "city_outer_meadow")
    assert state.tables.kind[outer] == PlaceKind.CITY_OUTER


def test_ruling_2_without_a_coastal_house_only_the_coast_is_open() -> None:
    state = to_building(game(3))
    set_hand(state, A, [COAST, MEADOW, MEADOW, FOREST, FOREST])
    state.players[A].keys = 1
    state.key_supply -= 1
    state = checked(state)
    kinds = {state.tables.kind[a.a] for a in engine.legal_now(state) if a != END_BUILDING_ACTION}
    assert kinds == {PlaceKind.COAST}


@pytest.mark.parametrize("rebid", [REBID_NEXT_TURN, REBID_IMMEDIATE])
def test_ruling_3_the_displaced_bidder_rebids_and_may_displace_at_the_next_price(rebid: int) -> None:
    state = game(3, rebid=rebid)
    for player in state.players:
        player.coins = 5
    engine.play(state, A, Action(BID, 0))
    engine.play(state, B, Action(BID, 0))  # D 0 -> 1
    if rebid == REBID_NEXT_TURN:  # A waits for their turn (OP-1); immediate: A re-bids at once
        engine.play(state, C, Action(BID, 1))
    assert state.actor == A and state.displacement == 1
    events = engine.play(state, A, Action(BID, 0))  # A displaces B back at the next price, 2
    assert of_type(events, ev.BidPlaced)[0].paid == 2 and state.displacement == 2
    assert state.actor == B


def test_ruling_4_the_displacement_price_goes_to_the_bank() -> None:
    state = game(3)
    engine.play(state, A, Action(BID, 0))
    engine.play(state, B, Action(BID, 0))
    assert [p.coins for p in state.players] == [3, 2, 3]  # A, displaced, gets nothing


def test_ruling_4_a_player_short_of_coins_may_only_take_a_free_pair() -> None:
    state = game(3)
    engine.play(state, A, Action(BID, 0))
    state.players[B].coins = 0
    state.legal = None
    assert engine.legal_now(state) == [Action(BID, 1), Action(BID, 2)]


def test_ruling_5_a_joker_pair_replaces_exactly_one_card() -> None:
    state = to_building(game(3))
    put_house(state, A, "meadow_c1")
    set_hand(state, A, [DESERT, DESERT, DESERT])  # one pair and a spare card: one card's worth
    state = checked(state)
    assert not can_build(state, "meadow_i1")
    set_hand(state, A, [DESERT, DESERT])  # a pair pays the Coast card of a coastal place
    state.legal = None
    events = build_paying(state, "meadow_c2")
    assert [e.cards for e in of_type(events, ev.CardsPaid)] == [(DESERT, DESERT)]


def test_ruling_6_an_empty_supply_gives_nothing() -> None:
    state = to_building(game(3))
    put_house(state, A, "meadow_c1")
    set_hand(state, A, [MEADOW] * 6)
    state.players[B].keys = 6
    state.key_supply = 0
    state = checked(state)
    events = build_paying(state, "meadow_i1")  # key bonus, no key left
    assert state.players[A].keys == 0 and of_type(events, ev.BonusLost)

    state = to_building(game(3))
    put_house(state, A, "meadow_c4")
    set_hand(state, A, [MEADOW] * 2)
    state.players[B].goods_cards = state.goods_display + state.goods_deck
    state.goods_display, state.goods_deck = [], []
    state = checked(state)
    events = build_paying(state, "meadow_i4")  # goods-card bonus, none left
    assert state.step != CHOOSE_GOODS_CARD and of_type(events, ev.BonusLost)

    state = to_building(game(3))
    put_house(state, A, "meadow_c2")
    set_hand(state, A, [MEADOW] * 2)
    state.players[C].bonus_cards.cards = state.bonus_supply
    state.bonus_supply = []
    state = checked(state)
    events = build_paying(state, "meadow_i2")  # bonus-card bonus, none left
    assert of_type(events, ev.BonusLost) and state.players[A].bonus_cards.cards == []


def test_ruling_7_the_hand_limit_counts_landscape_cards_only() -> None:
    state = to_building(game(3))
    set_hand(state, A, [MEADOW] * 5)
    state.players[A].keys = 6
    state.key_supply = 0
    state.players[A].goods_cards = [state.goods_display.pop()]
    state.goods_display.append(state.goods_deck.pop())
    state.players[A].bonus_cards.cards = [state.bonus_supply.pop()]
    state = checked(state)
    state.actor = C
    engine.play(state, C, END_BUILDING_ACTION)
    assert state.round == 2  # no discard step: 5 landscape cards are within the limit


def test_ruling_8_a_goods_card_counts_for_both_its_kinds() -> None:
    state = game(3)
    card = state.tables.data.goods_cards[0]  # {goods_1, goods_2}
    state.players[A].goods_cards = [card.id]
    assert [scoring.goods_symbols(state, state.players[A], kind) for kind in (1, 2, 3, 4)] == [1, 1, 0, 0]
    assert scoring.goods_symbols(state, state.players[A], None) == 2


def test_ruling_9_majority_needs_a_sole_leader_with_at_least_one() -> None:
    state = game(3)
    events: list = []  # type: ignore[type-arg]
    scoring.score_card(state, events)  # nobody has a house or a good: nobody gets +2
    line = of_type(events, ev.CardScored)[0].seats
    assert all(s.house_majority == s.goods_majority == 0 for s in line)


def test_ruling_10_building_is_optional() -> None:
    state = to_building(game(3))
    set_hand(state, A, [COAST, COAST])
    state = checked(state)
    legal = engine.legal_now(state)
    assert legal[-1] == END_BUILDING_ACTION and len(legal) > 1
    engine.play(state, A, END_BUILDING_ACTION)
    assert sorted(state.players[A].hand.cards) == [COAST, COAST] and state.actor == B

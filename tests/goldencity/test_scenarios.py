"""The rules' test scenarios T1-T8 (§14) as concrete states with exact outcomes (T9, the data sets,
is in test_data_driven.py)."""

# Covered here, by the tests named after them: scenarios T1, T1b, T2, T3, T4, T5, T6, T7, T8.

from __future__ import annotations

from pathlib import Path

from services.goldencity import bidding, dataset, engine, payment, scoring, tables
from services.goldencity.actions import BID, DISCARD, PAY_CARD, PAY_PAIR, Action
from services.goldencity.building import may_build
from services.goldencity.landscapes import counts
from services.goldencity.rules import JOKER_ANY_PAIR, REBID_IMMEDIATE
from services.goldencity.state import BID as STEP_BID
from services.goldencity.state import DISCARD as STEP_DISCARD
from services.goldencity.state import GAME_OVER, PAY
from tests.goldencity.datasets import SCORING, copy_v0, edit
from tests.goldencity.scenario import (
    COAST,
    DESERT,
    FOREST,
    MEADOW,
    MOUNTAINS,
    A,
    B,
    C,
    build,
    build_paying,
    can_build,
    checked,
    end_building,
    ev,
    game,
    of_type,
    place,
    put_house,
    set_hand,
    to_building,
)


def _bid(state, seat: int, pair: int) -> list:  # type: ignore[no-untyped-def]
    assert state.actor == seat
    return engine.play(state, seat, Action(BID, pair))


def test_t1_bidding_escalation() -> None:
    state = game(3, rebid=REBID_IMMEDIATE)
    for player in state.players:
        player.coins = 10
    state = checked(state)
    assert state.step == STEP_BID and state.displacement == 0
    steps = [(A, 0, 0, 0), (B, 0, 1, 1), (A, 1, 0, 1), (C, 0, 2, 2), (B, 1, 3, 3)]
    for seat, pair, pays, d_after in steps:
        events = _bid(state, seat, pair)
        assert of_type(events, ev.BidPlaced)[0].paid == pays
        assert state.displacement == d_after
    pairs = [(p.bid_seat, list(p.cards)) for p in state.pairs]
    events = _bid(state, A, 2)  # free: the last hand placed ends the bidding
    taken = {e.seat: list(e.cards) for e in of_type(events, ev.PairTaken)}
    assert taken == {C: pairs[0][1], B: pairs[1][1], A: pairs[2][1]}
    assert [p.coins for p in state.players] == [10, 10 - 4, 10 - 2]  # B paid 4, C paid 2
    while state.step != STEP_BID:  # nobody builds; the next round's bidding starts at D = 0
        legal = engine.legal_now(state)
        engine.play(state, state.actor, legal[-1])
    assert state.round == 2 and state.displacement == 0


def test_t1b_bidding_with_the_default_next_turn_the_displaced_bidder_waits_for_their_turn() -> None:
    state = game(3)  # the default: rebid = next_turn (OP-1)
    for player in state.players:
        player.coins = 10
    state = checked(state)
    steps = [(A, 0, 0, 0), (B, 0, 1, 1), (C, 1, 0, 1), (A, 0, 2, 2)]
    for seat, pair, pays, d_after in steps:
        events = _bid(state, seat, pair)
        assert of_type(events, ev.BidPlaced)[0].paid == pays
        assert state.displacement == d_after
    assert state.actor == B  # the turn passes over C, whose hand is placed
    pairs = [list(p.cards) for p in state.pairs]
    events = _bid(state, B, 2)  # free: the last hand placed ends the bidding
    assert of_type(events, ev.BidPlaced)[0].paid == 0 and state.displacement == 2
    taken = {e.seat: list(e.cards) for e in of_type(events, ev.PairTaken)}
    assert taken == {A: pairs[0], C: pairs[1], B: pairs[2]}
    assert [p.coins for p in state.players] == [10 - 2, 10 - 1, 10]  # A paid 2, B paid 1


def _meadow_inland_legal(hand: list[int], joker: int | None = None) -> bool:
    state = game(3) if joker is None else game(3, joker=joker)
    state = to_building(state)
    put_house(state, A, "meadow_c1")
    set_hand(state, A, hand)
    return may_build(checked(state), A, place(state, "meadow_i1"), False)


def test_t2_costs_of_a_meadow_inland_place() -> None:
    assert _meadow_inland_legal([MEADOW, MEADOW])
    assert _meadow_inland_legal([MEADOW, DESERT, DESERT])
    assert _meadow_inland_legal([DESERT, DESERT, FOREST, FOREST])
    assert not _meadow_inland_legal([MEADOW, DESERT, FOREST])
    assert _meadow_inland_legal([MEADOW, DESERT, FOREST], joker=JOKER_ANY_PAIR)  # OP-7 any_pair


def test_t2_a_coastal_place_costs_coast_or_two_identical_cards() -> None:
    for hand, legal in (([COAST], True), ([FOREST, FOREST], True), ([FOREST, DESERT], False), ([], False)):
        state = to_building(game(3))
        set_hand(state, A, hand)
        assert can_build(checked(state), "meadow_c1") == legal, hand


def test_t2_paying_is_one_card_or_pair_at_a_time() -> None:
    state = to_building(game(3))
    put_house(state, A, "meadow_c1")
    set_hand(state, A, [DESERT, DESERT, FOREST, FOREST])
    state = checked(state)
    engine.play(state, A, build(state, "meadow_i1"))
    assert state.step == PAY and state.owed == 2
    assert engine.legal_now(state) == [Action(PAY_PAIR, FOREST, FOREST), Action(PAY_PAIR, DESERT, DESERT)]
    events = engine.play(state, A, Action(PAY_PAIR, DESERT, DESERT))  # the forest pair is then forced
    assert [e.cards for e in of_type(events, ev.CardsPaid)] == [(DESERT, DESERT), (FOREST, FOREST)]
    assert state.players[A].hand.cards == [] and place(state, "meadow_i1") in state.players[A].houses
    assert sorted(state.landscape_discard)[-4:] == sorted([DESERT, DESERT, FOREST, FOREST])


def test_t3_connection_on_the_v0_board() -> None:
    state = to_building(game(3))
    set_hand(state, A, [MEADOW] * 4)
    put_house(state, A, "meadow_c1")
    state = checked(state)
    assert not can_build(state, "meadow_i5")  # no own house on meadow_i1 or meadow_i2
    assert can_build(state, "meadow_i1")  # one road from meadow_c1
    put_house(state, A, "meadow_i1")
    state.legal = None
    assert can_build(checked(state), "meadow_i5")


def _city_state():  # type: ignore[no-untyped-def]
    """Three players each with a house on meadow_i7, next to the outer meadow part."""
    state = to_building(game(3))
    for seat, coast in ((A, "meadow_c1"), (B, "meadow_c2"), (C, "meadow_c3")):
        put_house(state, seat, coast)
    # Only one house fits on meadow_i7; the others reach the city through meadow_i8 and the ring.
    put_house(state, A, "meadow_i7")
    put_house(state, B, "meadow_i8")
    put_house(state, C, "forest_c1")
    put_house(state, C, "forest_i7")
    put_house(state, C, "city_outer_forest")
    return state


def test_t4_city_letters_outer_5_3_0_and_one_house_per_player() -> None:
    state = _city_state()
    for seat in (A, B, C):
        set_hand(state, seat, [MEADOW, MEADOW])
    state = checked(state)
    gained = []
    for seat in (A, B, C):
        state.actor = seat
        state.builds = 0
        state.legal = None
        events = build_paying(state, "city_outer_meadow")
        gained.append(sum(e.amount for e in of_type(events, ev.LettersGained)))
        assert not may_build(state, seat, place(state, "city_outer_meadow"), False)  # never two
    assert gained == [5, 3, 0]


def test_t4_inner_city_costs_a_key_and_pays_10_then_6() -> None:
    state = _city_state()
    outer = place(state, "city_outer_meadow")
    for seat in (A, B):
        state.players[seat].houses.append(outer)
        state.players[seat].houses_left -= 1
        state.players[seat].keys = 1
    state.key_supply -= 2
    state = checked(state)
    gained = []
    for seat in (A, B):
        state.actor = seat
        state.builds = 0
        state.legal = None
        events = engine.play(state, seat, build(state, "city_inner_meadow"))
        gained.append(sum(e.amount for e in of_type(events, ev.LettersGained)))
        assert of_type(events, ev.KeySpent) and state.players[seat].keys == 0  # the key returns (OP-21)
    assert gained == [10, 6] and state.key_supply == 6
    state.actor = C
    state.legal = None
    assert not can_build(state, "city_inner_meadow")  # C has no key and no house next to it


def _t5_state(p2_houses: int):  # type: ignore[no-untyped-def]
    state = game(3, data_set="t5")
    north = ["meadow_c1", "meadow_c2", "meadow_c3"]
    for name in north:
        put_house(state, A, name)
    for name in ["meadow_c4", "meadow_i1", "meadow_i2"][:p2_houses]:
        put_house(state, B, name)
    goods = state.tables.data.goods_cards
    state.players[A].goods_cards = [goods[4].id]  # {1, 3}: one goods_1
    state.players[B].goods_cards = [goods[0].id, goods[1].id]  # {1, 2} twice: two goods_1
    state.scoring_stack.append(state.scoring_card)
    state.scoring_card = state.tables.data.scoring_cards[0].id  # sc01: north, goods_1
    state.scoring_stack.remove(state.scoring_card)
    return state


def test_t5_scoring_card(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    directory = copy_v0(tmp_path, "t5")
    edit(directory, SCORING, lambda data: data["cards"][0].update(house_points=2, goods_points=2))
    monkeypatch.setenv(dataset.DATA_DIR_ENV, str(tmp_path))
    tables.named.cache_clear()
    try:
        card = tables.named("t5").scoring_cards[1]
        assert card is not None and (card.house_points, card.goods_points, card.majority_bonus) == (2, 2, 2)
        state = _t5_state(p2_houses=1)
        before = [p.letters for p in state.players]
        events: list = []  # type: ignore[type-arg]
        scoring.score_card(state, events)
        assert [p.letters - b for p, b in zip(state.players, before, strict=True)] == [10, 8, 0]
        line = of_type(events, ev.CardScored)[0].seats
        assert (line[A].house_majority, line[A].goods_majority) == (2, 0)
        assert (line[B].house_majority, line[B].goods_majority) == (0, 2)

        state = _t5_state(p2_houses=3)  # a tie for most houses: nobody gets the house +2
        events = []
        scoring.score_card(state, events)
        line = of_type(events, ev.CardScored)[0].seats
        assert [s.house_majority for s in line] == [0, 0, 0]
        assert [s.house_points + s.goods_points + s.house_majority + s.goods_majority for s in line] == [
            6 + 2,
            6 + 4 + 2,
            0,
        ]
    finally:
        tables.named.cache_clear()


def _last_builder(state, seat: int):  # type: ignore[no-untyped-def]
    """Everyone before `seat` has built; `seat` builds now (the last of the round)."""
    state.actor = seat
    state.legal = None
    return state


def test_t6_hand_limit_the_owner_discards_two_of_seven() -> None:
    state = to_building(game(3))
    set_hand(state, A, [COAST, MEADOW, MEADOW, FOREST, DESERT, DESERT, MOUNTAINS])
    state.players[A].keys = 3
    state.key_supply -= 3
    state.players[A].goods_cards = [state.goods_display.pop()]
    state.goods_display.append(state.goods_deck.pop())
    state = _last_builder(checked(state), C)
    end_building(state)
    assert state.step == STEP_DISCARD and state.actor == A
    assert engine.legal_now(state) == [Action(DISCARD, k) for k in (COAST, MEADOW, FOREST, DESERT, MOUNTAINS)]
    engine.play(state, A, Action(DISCARD, MOUNTAINS))
    assert state.step == STEP_DISCARD
    engine.play(state, A, Action(DISCARD, COAST))
    assert sorted(state.players[A].hand.cards) == [MEADOW, MEADOW, FOREST, DESERT, DESERT]
    assert state.players[A].keys == 3 and len(state.players[A].goods_cards) == 1  # not counted
    assert state.step == STEP_BID and state.round == 2


def test_t7_building_the_last_house_ends_the_game_after_the_round() -> None:
    state = to_building(game(3))
    while state.round < 9:
        state.scored_cards.append(state.scoring_card)
        state.scoring_card = state.scoring_stack.pop()
        state.round += 1
    player = state.players[B]
    for name in [f"forest_c{k}" for k in range(1, 5)] + [f"desert_c{k}" for k in range(1, 5)]:
        put_house(state, A, name)
    for k in range(1, 5):
        put_house(state, B, f"meadow_c{k}")
    for name in ["meadow_i1", "meadow_i2", "meadow_i3", "meadow_i4", "meadow_i5", "meadow_i6"]:
        put_house(state, B, name)
    for k in range(1, 8):
        put_house(state, B, f"mountains_c{k}" if k <= 4 else f"mountains_i{k - 4}")
    assert player.houses_left == 1
    set_hand(state, B, [MEADOW, MEADOW])
    state.players[A].bonus_cards.cards = [state.bonus_supply.pop(0)]  # bc1: 1 per house in north
    state = checked(state)
    end_building(state)  # A
    # B's last house; with no house left B is passed, and so is C, who cannot build: the round ends.
    events = build_paying(state, "meadow_i7")
    assert state.last_round and state.players[B].houses_left == 0
    kinds = [type(e) for e in events]
    assert kinds.index(ev.CardScored) < kinds.index(ev.GameEnded)
    assert state.step == GAME_OVER and state.round == 9
    assert state.players[A].bonus_points == 0  # bc1 counts houses in north: A has none there
    final = of_type(events, ev.GameEnded)[0]
    assert final.seats[A].bonus_cards == (1,)


def test_t8_two_player_black_house() -> None:
    state = to_building(game(2))
    put_house(state, A, "forest_c1")
    put_house(state, A, "forest_i7")
    put_house(state, A, "city_outer_forest")
    put_house(state, B, "forest_c2")
    put_house(state, B, "forest_i8")
    set_hand(state, A, [FOREST, FOREST])
    set_hand(state, B, [FOREST, FOREST])
    state = checked(state)
    assert can_build(state, "city_outer_forest", black=True)
    events = build_paying(state, "city_outer_forest", black=True)
    assert [e.amount for e in of_type(events, ev.LettersGained)] == [3]  # the 2nd builder's letters
    assert state.players[A].black_houses == [place(state, "city_outer_forest")]
    assert [card for e in of_type(events, ev.CardsPaid) for card in e.cards] == [FOREST, FOREST]
    assert not may_build(state, B, place(state, "city_outer_forest"), False)  # closed to B for good

    state = to_building(game(2))
    put_house(state, A, "forest_c1")
    put_house(state, A, "forest_i7")
    put_house(state, A, "city_outer_forest")
    put_house(state, B, "forest_c2")
    put_house(state, B, "forest_i8")
    put_house(state, B, "city_outer_forest")  # B already has a house there
    set_hand(state, A, [FOREST, FOREST])
    assert not can_build(checked(state), "city_outer_forest", black=True)


def test_t8_black_houses_do_not_trigger_the_end() -> None:
    """OP-23: in 2p only the 18 coloured houses count for the end."""
    state = to_building(game(2))
    assert state.players[A].houses_left == 18 and state.players[A].black_houses_left == 2
    put_house(state, A, "forest_c1")
    put_house(state, A, "forest_i7")
    put_house(state, A, "city_outer_forest")
    state.players[A].black_houses_left = 1
    state.players[A].black_houses.append(place(state, "city_outer_meadow"))
    assert not state.last_round


def test_price_rises_with_every_displacement() -> None:
    state = game(3)
    assert bidding.price(state) == 1
    state.displacement = 2
    assert bidding.price(state) == 3


def test_payment_helpers_match_t2() -> None:
    have = counts([MEADOW, DESERT, FOREST])
    assert not payment.can_pay(have, MEADOW, 2, any_pair=False)
    assert payment.can_pay(have, MEADOW, 2, any_pair=True)
    assert engine.legal_now(checked(game(3)))[0].kind == BID
    assert PAY_CARD < PAY_PAIR

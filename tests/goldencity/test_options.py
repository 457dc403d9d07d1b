"""The options of the open points that change play (bonus cards drawn, the inner city's cost) and the
tie-break, each as a concrete state with its exact outcome; the defaults the options listing names."""

from __future__ import annotations

from boardgame.goldencity.v1 import goldencity_pb2 as pb

from services.goldencity import engine, scoring
from services.goldencity.codec import CODEC
from services.goldencity.game import GAME_INFO
from services.goldencity.rules import BONUS_CARD_DRAW, INNER_COST_KEY_PLUS_OUTER_COST, REBID_NEXT_TURN
from services.goldencity.state import BUILD, GAME_OVER, PAY
from tests.conformance.drivers import config_with, option_value
from tests.goldencity.scenario import (
    MEADOW,
    A,
    B,
    C,
    build,
    build_paying,
    can_build,
    checked,
    game,
    place,
    put_house,
    set_hand,
    to_building,
)


def test_op1_a_displaced_bidder_waits_for_their_turn_by_default_and_the_listing_says_so() -> None:
    assert CODEC.config_from_proto(pb.Config()).rebid == REBID_NEXT_TURN  # S004 is explicit
    assert {option.name: option.default for option in GAME_INFO.options}["rebid"] == "next_turn"


def test_each_option_listed_default_is_what_the_unset_option_takes() -> None:
    unset = CODEC.config_from_proto(pb.Config())
    for option in GAME_INFO.options:
        chosen = config_with(pb.Config, option.name, option_value(pb.Config, option.name, option.default))
        assert CODEC.config_from_proto(chosen) == unset, option.name


def test_bonus_cards_drawn_face_down_need_no_choice() -> None:
    state = to_building(game(3, bonus_card_take=BONUS_CARD_DRAW))
    put_house(state, A, "meadow_c2")
    set_hand(state, A, [MEADOW, MEADOW])
    state = checked(state)
    top = state.bonus_supply[-1]
    build_paying(state, "meadow_i2")
    assert state.step == BUILD and state.players[A].bonus_cards.cards == [top]
    assert state.bonus_chooser == -1


def test_the_inner_city_may_cost_a_key_and_the_outer_cost() -> None:
    state = to_building(game(3, inner_cost=INNER_COST_KEY_PLUS_OUTER_COST))
    for name in ("meadow_c1", "meadow_i1", "meadow_i5", "meadow_i7", "city_outer_meadow"):
        put_house(state, A, name)
    state.players[A].keys = 1
    state.key_supply -= 1
    set_hand(state, A, [MEADOW])
    state = checked(state)
    assert not can_build(state, "city_inner_meadow")  # the key alone is not enough
    set_hand(state, A, [MEADOW, MEADOW])
    state.legal = None
    assert can_build(state, "city_inner_meadow")
    engine.play(state, A, build(state, "city_inner_meadow"))
    assert state.players[A].keys == 0  # the key is paid, then the forced cards
    assert state.step != PAY and place(state, "city_inner_meadow") in state.players[A].houses


def _final(letters: list[int], houses: list[int], coins: list[int]) -> tuple[int, ...]:
    state = game(3)
    coasts = iter(f"{region}_c{k}" for region in ("meadow", "forest", "desert") for k in range(1, 5))
    for seat in (A, B, C):
        state.players[seat].letters = letters[seat]
        state.players[seat].coins = coins[seat]
        for _ in range(houses[seat]):
            put_house(state, seat, next(coasts))
    state.step = GAME_OVER
    return scoring.final_scores(state).winners


def test_the_tie_break_is_houses_then_coins_then_shared() -> None:
    assert _final([50, 40, 50], [1, 3, 2], [0, 0, 0]) == (C,)  # equal letters: more houses
    assert _final([50, 40, 50], [2, 3, 2], [1, 0, 4]) == (C,)  # and houses: more coins
    assert _final([50, 40, 50], [2, 3, 2], [4, 0, 4]) == (A, C)  # and coins: shared

"""Views follow the hidden-information table (counts public, hands and bonus cards to their owner, the
bonus supply to the seat choosing), the options that make them public, and the codec refuses values
that are not valid as MalformedRequest."""

from __future__ import annotations

import pytest
from boardgame.goldencity.v1 import goldencity_pb2 as pb

from services.common.errors import MalformedRequest
from services.goldencity import engine
from services.goldencity.actions import CHOOSE_BONUS_CARD
from services.goldencity.codec import CODEC
from services.goldencity.state import CHOOSE_BONUS_CARD as STEP_CHOOSE_BONUS
from tests.goldencity.datasets import V0
from tests.goldencity.scenario import (
    MEADOW,
    A,
    B,
    build_paying,
    checked,
    game,
    put_house,
    set_hand,
    to_building,
)


def test_hands_and_bonus_cards_are_their_owners_with_counts_for_everyone() -> None:
    state = game(3)
    state.players[A].bonus_cards.cards = [state.bonus_supply.pop()]
    state = checked(state)
    own, other, spectator = (CODEC.view_to_proto(state, seat) for seat in (A, B, None))
    assert list(own.table.players[A].hand.cards) == state.players[A].hand.cards
    assert list(own.table.players[A].bonus_cards.cards) == state.players[A].bonus_cards.cards
    for view in (other, spectator):
        assert not view.table.players[A].hand.cards and not view.table.players[A].bonus_cards.cards
        assert view.hand_sizes[A] == 2 and view.bonus_card_counts[A] == 1
        assert view.landscape_deck_size == len(state.landscape_deck) and view.goods_deck_size == 5
        assert list(view.scoring_backs) == [3] * 4 + [2] * 8 + [1] * 3
        assert not view.bonus_supply and view.bonus_supply_size == 7


def test_the_options_make_hands_and_bonus_cards_public() -> None:
    state = game(3, public_hands=True, bonus_cards_public=True)
    state.players[A].bonus_cards.cards = [state.bonus_supply.pop()]
    view = CODEC.view_to_proto(checked(state), B)
    assert list(view.table.players[A].hand.cards) == state.players[A].hand.cards
    assert list(view.table.players[A].bonus_cards.cards) == state.players[A].bonus_cards.cards


def test_the_bonus_supply_is_shown_to_the_chooser_only_while_choosing() -> None:
    state = to_building(game(3))
    put_house(state, A, "meadow_c2")
    set_hand(state, A, [MEADOW, MEADOW])
    state = checked(state)
    build_paying(state, "meadow_i2")  # a bonus-card place
    assert state.step == STEP_CHOOSE_BONUS and state.bonus_chooser == A
    assert list(CODEC.view_to_proto(state, A).bonus_supply) == state.bonus_supply
    assert (
        not CODEC.view_to_proto(state, B).bonus_supply and not CODEC.view_to_proto(state, None).bonus_supply
    )
    engine.play(state, A, engine.legal_now(state)[0])
    assert engine.legal_now(state) and engine.legal_now(state)[0].kind != CHOOSE_BONUS_CARD
    assert not CODEC.view_to_proto(state, A).bonus_supply and len(state.players[A].bonus_cards.cards) == 1


@pytest.mark.parametrize(
    "action",
    [
        pb.Action(),
        pb.Action(bid=pb.Bid(pair=-1)),
        pb.Action(build=pb.Build(place=0)),
        pb.Action(pay_card=pb.PayCard(landscape=9)),  # type: ignore[arg-type]
        pb.Action(pay_pair=pb.PayPair(first=pb.LANDSCAPE_DESERT, second=pb.LANDSCAPE_MEADOW)),
        pb.Action(choose_goods_card=pb.ChooseGoodsCard(card=0)),
        pb.Action(choose_bonus_card=pb.ChooseBonusCard(card=-2)),
        pb.Action(discard=pb.Discard(landscape=pb.LANDSCAPE_UNSPECIFIED)),
    ],
)
def test_actions_out_of_range_are_malformed(action: pb.Action) -> None:
    with pytest.raises(MalformedRequest):
        CODEC.action_from_proto(action)


@pytest.mark.parametrize(
    "config",
    [
        pb.Config(rebid=7),
        pb.Config(joker=3),
        pb.Config(start_seat=-2),
        pb.Config(data_set="../v0"),
        pb.Config(data_set=str(V0)),
    ],  # type: ignore[arg-type]
)
def test_configs_out_of_range_are_malformed(config: pb.Config) -> None:
    with pytest.raises(MalformedRequest):
        CODEC.config_from_proto(config)


def test_a_state_missing_a_card_is_malformed() -> None:
    message = CODEC.state_to_proto(game(3))
    del message.landscape_deck[-1]
    with pytest.raises(MalformedRequest, match="10 of each kind"):
        CODEC.state_from_proto(message)


def test_every_action_round_trips() -> None:
    state = game(4, seed=b"round-trip")
    while not state.terminal:
        for action in engine.legal_now(state):
            assert CODEC.action_from_proto(CODEC.action_to_proto(action)) == action
        engine.play(
            state, state.actor, engine.legal_now(state)[-1] if state.round % 2 else engine.legal_now(state)[0]
        )


def test_a_long_data_set_name_is_refused_in_a_readable_message():
    """A name past 64 characters is no data set's name; the refusal quotes it short (the fuzz once
    sent one of 600 characters and got it back twice in full)."""
    with pytest.raises(MalformedRequest) as refused:
        CODEC.config_from_proto(pb.Config(data_set="x" * 600))
    assert "is not a data set's name" in refused.value.message
    assert len(refused.value.message) < 200

"""Assyria's codec and labels: ruling 13 (cards in hand are public) in real views, every action kind
through its message and back, bad values refused as MalformedRequest, forged states refused, and
labels in the game's words."""

# Covered here, by the tests named after them: ruling 13.

from __future__ import annotations

import pytest
from boardgame.assyria.v1 import assyria_pb2 as pb

from services.assyria import GAME, labels
from services.assyria import actions as act
from services.assyria.cards import WILD_CARD, card_of
from services.assyria.codec import CODEC
from services.assyria.data import Food
from services.assyria.game import GAME_INFO
from services.assyria.state import FEED, FEEDING_COMPULSORY, FEEDING_OPTIONAL, PLACE_HUTS, Config
from services.common.errors import MalformedRequest
from services.common.playout import random_playout
from services.common.rng import Rng
from tests.assyria.scenario import at, expanding, hut, table, ziggurat
from tests.conformance.drivers import config_with, option_value


def mid_game(players: int = 3):  # type: ignore[no-untyped-def]
    return random_playout(GAME, players, b"codec", rng=Rng.from_seed(b"codec"), max_steps=120).state


def test_ruling_13_cards_in_hand_are_public_to_every_seat_and_spectators() -> None:
    state = mid_game()
    hands = [list(p.hand) for p in state.players]
    assert any(hands)
    for viewer in (0, 1, 2, None):
        view = GAME.view_to_proto(state, viewer)
        assert [list(p.hand) for p in view.table.players] == hands
        assert view.table.food_deck_size == len(state.food_deck)
        assert not view.HasField("seat") if viewer is None else view.seat == viewer


def test_every_action_kind_round_trips() -> None:
    arguments = {act.CHOOSE_START_SPACE: 6, act.DRAFT_CARD: WILD_CARD, act.TAKE_COLUMN: 4, act.PLACE_HUT: 63}
    arguments |= {act.PLAY_CARD: 1, act.FEED_HUT: 0, act.BUILD_WELL: 58, act.BUILD_BASE: 5}
    arguments |= {act.RAISE_ZIGGURAT: 7, act.INTRIGUE: 3, act.BUY_FOOD_CARD: 2}
    for kind in range(act.END_ACTIONS + 1):
        action = act.Action(kind, arguments.get(kind, 0))
        assert CODEC.action_from_proto(CODEC.action_to_proto(action)) == action


@pytest.mark.parametrize(
    "message",
    [
        pb.Action(),
        pb.Action(place_hut=pb.PlaceHut(hex=64)),
        pb.Action(place_hut=pb.PlaceHut(hex=-1)),
        pb.Action(draft_card=pb.DraftCard(card=0)),
        pb.Action(build_well=pb.BuildWell(site=59)),
        pb.Action(intrigue=pb.Intrigue(dignitary=4)),
        pb.Action(buy_food_card=pb.BuyFoodCard(row=3)),
        pb.Action(take_column=pb.TakeColumn(column=5)),
    ],
)
def test_bad_actions_are_malformed(message: pb.Action) -> None:
    with pytest.raises(MalformedRequest):
        CODEC.action_from_proto(message)


def test_configs_default_and_refuse_unknown_values() -> None:
    assert CODEC.config_from_proto(pb.Config()) == Config()
    assert CODEC.config_to_proto(Config()) == pb.Config()
    assert CODEC.config_from_proto(pb.Config(start_plow=False)).start_plow is False
    for bad in (pb.Config(fed_status_lasts=7), pb.Config(unused_plows=3), pb.Config(feeding=3)):
        with pytest.raises(MalformedRequest):
            CODEC.config_from_proto(bad)


def test_feeding_is_compulsory_unless_the_option_says_optional() -> None:
    assert CODEC.config_from_proto(pb.Config()).feeding == FEEDING_COMPULSORY  # OP-24
    optional = CODEC.config_from_proto(pb.Config(feeding=pb.FEEDING_OPTIONAL))
    assert optional == Config(feeding=FEEDING_OPTIONAL)
    assert CODEC.config_to_proto(optional) == pb.Config(feeding=pb.FEEDING_OPTIONAL)
    listed = {option.name: option for option in GAME_INFO.options}["feeding"]
    assert (listed.choices, listed.default) == (("compulsory", "optional"), "compulsory")


def test_each_option_listed_default_is_what_the_unset_option_takes() -> None:
    for option in GAME_INFO.options:
        chosen = config_with(pb.Config, option.name, option_value(pb.Config, option.name, option.default))
        assert CODEC.config_from_proto(chosen) == Config(), option.name


def test_forged_states_are_refused() -> None:
    state = mid_game()
    message = CODEC.state_to_proto(state)
    assert CODEC.state_from_proto(message).players[0].hand == state.players[0].hand
    forgeries = []
    extra_hut = pb.State()
    extra_hut.CopyFrom(message)
    extra_hut.table.players[0].huts += 1
    forgeries.append(extra_hut)
    camels = pb.State()
    camels.CopyFrom(message)
    camels.table.players[1].camels = 11
    forgeries.append(camels)
    card = pb.State()
    card.CopyFrom(message)
    card.food_deck.append(pb.CARD_WILD)
    forgeries.append(card)
    hidden_size = pb.State()
    hidden_size.CopyFrom(message)
    hidden_size.table.food_deck_size += 1
    forgeries.append(hidden_size)
    for forged in forgeries:
        with pytest.raises(MalformedRequest):
            CODEC.state_from_proto(forged)


def test_labels_name_hexes_by_food_coordinates_and_region() -> None:
    state = expanding(table(2), 0)
    ziggurat(state, 0, 1, 0)
    state.step, state.huts_to_place = PLACE_HUTS, 2
    assert labels.label(state, act.Action(act.PLACE_HUT, at(1, 1))) == (
        "Place a hut on the salt hex at (1,1), on river 1 (2 huts left to place)"
    )
    assert labels.label(state, act.Action(act.PLACE_HUT, at(2, 1))).startswith(
        "Place a hut on the grapes hex at (2,1), between the rivers"
    )
    hut(state, 0, 0, 1)
    state.step = FEED
    state.players[0].hand = [card_of(Food.DATES, 3)]
    assert labels.label(state, act.Action(act.PLAY_CARD, card_of(Food.DATES, 3))) == (
        "Play a 3-symbol dates card: feeds up to 3 huts on dates hexes (1 unfed)"
    )
    assert labels.label(state, act.END_FEEDING_ACTION) == (
        "Stop feeding: 1 unfed hut starves and returns to your stock"
    )

"""The game options for the open points the rules mark UNCONFIRMED (shared/rules/puerto_rico.md §11:
OP-3, OP-5 to OP-11, OP-20).

Each option is played twice on the same position, with its default and with another value, and the
outcome differs as the option says. The codec tests check that the options survive the Config
message, that a default config encodes as before the options existed, and that bad values are refused.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.puertorico.v1 import puertorico_pb2 as pb

from live.games import build_config
from services.common.errors import InvalidConfig, MalformedRequest
from services.common.servicer import info_to_proto
from services.puertorico import GAME, engine
from services.puertorico.actions import (
    BUILD_ACTION,
    DRAFT_ACTION,
    DRAFT_COST_ACTION,
    PASS_ACTION,
    SHIP_SMALL_WHARF_ACTION,
    SMALL_WHARF_ACTION,
    WHARF_ACTION,
    small_wharf_goods,
)
from services.puertorico.codec import CODEC
from services.puertorico.data import (
    BUILDER,
    BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM,
    BUILDINGS,
    CAPTAIN,
    CHURCH,
    CLOISTER,
    COFFEE,
    CORN,
    CRAFTSMAN,
    FOREST_HOUSE,
    FORTRESS,
    HACIENDA,
    INDIGO,
    LIBRARY,
    LIGHTHOUSE,
    PROSPECTOR,
    SMALL_INDIGO_PLANT,
    SMALL_WHARF,
    SPECIALTY_FACTORY,
    SUGAR,
    SUGAR_MILL,
    TOBACCO,
    WHARF,
)
from services.puertorico.events import DOUBLOONS_LIGHTHOUSE, DoubloonsReceived, EndTriggered
from services.puertorico.labels import label
from services.puertorico.scoring import final_scores
from services.puertorico.setup import new_game
from services.puertorico.state import CHOOSE_ROLE, DRAFT_BUILDING, TRIGGER_VP_POOL, Config, State
from tests.puertorico.scenario import (
    choose_role,
    expansion_game,
    finish_role,
    legal,
    of_type,
    play,
    set_player,
    set_ship,
)

OPEN_POINT_OPTIONS = (
    "small_wharf_rounding",
    "lighthouse_captain_needs_load",
    "lighthouse_counts_private_ships",
    "specialty_factory_counts_corn",
    "library_craftsman_distinct",
    "library_multiplier",
    "draft_hacienda_forest_exclusive",
    "cloister_kinds",
    "vp_trigger_any_phase",
)


def game(**options: Any) -> State:
    """`expansion_game` (4 players, every building for sale) with some options changed."""
    state = expansion_game()
    state.config = replace(state.config, **options)
    return state


def block_ships(state: State) -> None:
    """Fill every cargo ship of a 4-player game, so nobody can load a cargo ship."""
    set_ship(state, 5, INDIGO, 5)
    set_ship(state, 6, TOBACCO, 6)
    set_ship(state, 7, COFFEE, 7)


def lighthouse_pay(events: list[Any]) -> list[tuple[int, int]]:
    return [
        (e.seat, e.amount) for e in of_type(events, DoubloonsReceived) if e.reason == DOUBLOONS_LIGHTHOUSE
    ]


# --- Each option changes the outcome --------------------------------------------------------------


@pytest.mark.parametrize(("rounding", "one", "three"), [("floor", 0, 1), ("ceil", 1, 2)])
def test_small_wharf_rounding(rounding: str, one: int, three: int) -> None:
    """OP-3: 1 and 3 goods on the small wharf are 0 and 1 VP rounded down (default), 1 and 2 rounded up."""
    state = game(small_wharf_rounding=rounding)
    block_ships(state)
    set_player(state, 0, goods={CORN: 3}, buildings={SMALL_WHARF: 1})
    choose_role(state, 1, CAPTAIN)
    play(state, 0, SMALL_WHARF_ACTION)
    play(state, 0, small_wharf_goods(CORN, 1))
    assert label(state, SHIP_SMALL_WHARF_ACTION).endswith(f"for {one} VP")
    play(state, 0, small_wharf_goods(CORN, 2))  # nothing left to add: shipped at once
    assert state.players[0].vp == three


@pytest.mark.parametrize(("needs_load", "paid"), [(False, [(1, 1)]), (True, [])])
def test_lighthouse_captain_needs_load(needs_load: bool, paid: list[tuple[int, int]]) -> None:
    """OP-5: a captain who ships nothing gets the lighthouse doubloon by default, not when it needs a load."""
    state = game(lighthouse_captain_needs_load=needs_load)
    set_player(state, 1, buildings={LIGHTHOUSE: 1})
    set_player(state, 2, goods={CORN: 2})
    events = choose_role(state, 1, CAPTAIN)
    events += finish_role(state)
    assert lighthouse_pay(events) == paid


@pytest.mark.parametrize("needs_load", [False, True])
def test_lighthouse_captain_who_loads_gets_both_doubloons_either_way(needs_load: bool) -> None:
    """OP-5: a captain who loads gets the captain doubloon and the load's doubloon with both values."""
    state = game(lighthouse_captain_needs_load=needs_load)
    set_player(state, 1, goods={CORN: 2}, buildings={LIGHTHOUSE: 1})
    events = choose_role(state, 1, CAPTAIN)
    events += finish_role(state)
    assert state.players[1].doubloons == 2
    assert lighthouse_pay(events) == [(1, 1), (1, 1)]


@pytest.mark.parametrize(("counts", "doubloons"), [(True, 1), (False, 0)])
def test_lighthouse_counts_private_ships(counts: bool, doubloons: int) -> None:
    """OP-6: a wharf shipment pays the lighthouse by default, not when private ships do not count."""
    state = game(lighthouse_counts_private_ships=counts)
    block_ships(state)
    set_player(state, 0, goods={CORN: 3}, buildings={WHARF: 1, LIGHTHOUSE: 1})
    choose_role(state, 1, CAPTAIN)
    play(state, 0, WHARF_ACTION[CORN])
    assert state.players[0].doubloons == doubloons


@pytest.mark.parametrize(("counts", "doubloons"), [(False, 2), (True, 3)])
def test_specialty_factory_counts_corn(counts: bool, doubloons: int) -> None:
    """OP-7: 4 corn, 3 sugar, 1 indigo pay 3 - 1 = 2 without corn (default), 4 - 1 = 3 with corn."""
    state = game(specialty_factory_counts_corn=counts)
    buildings = {SPECIALTY_FACTORY: 1, SUGAR_MILL: 3, SMALL_INDIGO_PLANT: 1}
    set_player(state, 0, tiles={CORN: (4, 4), SUGAR: (3, 3), INDIGO: (1, 1)}, buildings=buildings)
    choose_role(state, 1, CRAFTSMAN)
    assert state.players[0].doubloons == doubloons


@pytest.mark.parametrize(("distinct", "extra_corn"), [(True, 1), (False, 2)])
def test_library_craftsman_distinct(distinct: bool, extra_corn: int) -> None:
    """OP-8: with only corn produced, a library gives 1 extra good by default, 2 if kinds may repeat."""
    state = game(library_craftsman_distinct=distinct)
    set_player(state, 0, tiles={CORN: (2, 2)}, buildings={LIBRARY: 1})
    choose_role(state, 0, CRAFTSMAN)
    produced = state.players[0].goods[CORN]
    while state.step != CHOOSE_ROLE:
        bonus = min(a for a in legal(state) if a != PASS_ACTION)
        play(state, 0, bonus)
    assert state.players[0].goods[CORN] - produced == extra_corn


@pytest.mark.parametrize(("multiplier", "doubloons"), [(2, 2), (1, 1), (3, 3)])
def test_library_multiplier(multiplier: int, doubloons: int) -> None:
    """OP-9: the prospector's doubloon times the multiplier (2 by default)."""
    state = game(library_multiplier=multiplier)
    set_player(state, 0, buildings={LIBRARY: 1})
    choose_role(state, 0, PROSPECTOR)
    assert state.players[0].doubloons == doubloons


@pytest.mark.parametrize("multiplier", [1, 3])
def test_library_multiplier_craftsman_goods(multiplier: int) -> None:
    """OP-9 with OP-8: as many extra goods as the multiplier, of different kinds produced."""
    state = game(library_multiplier=multiplier)
    tiles = {CORN: (1, 1), INDIGO: (1, 1), SUGAR: (1, 1)}
    set_player(state, 0, tiles=tiles, buildings={LIBRARY: 1, SMALL_INDIGO_PLANT: 1, SUGAR_MILL: 1})
    choose_role(state, 0, CRAFTSMAN)
    produced = sum(state.players[0].goods)
    message = CODEC.state_to_proto(state)
    assert CODEC.state_to_proto(CODEC.state_from_proto(message)) == message
    while state.step != CHOOSE_ROLE:
        bonus = min(a for a in legal(state) if a != PASS_ACTION)
        play(state, 0, bonus)
    assert sum(state.players[0].goods) - produced == multiplier


@pytest.mark.parametrize(("exclusive", "offered"), [(True, False), (False, True)])
def test_draft_hacienda_forest_exclusive(exclusive: bool, offered: bool) -> None:
    """OP-10: after the hacienda is drafted the forest house is gone by default, still offered otherwise."""
    config = Config(buildings=BUILDING_SET_DRAFT, draft_hacienda_forest_exclusive=exclusive)
    state, events = new_game(4, config, b"draft")
    engine.settle(state, events)
    play(state, state.actor, DRAFT_COST_ACTION[2])
    play(state, state.actor, DRAFT_ACTION[HACIENDA])
    play(state, state.actor, DRAFT_COST_ACTION[2])
    assert state.step == DRAFT_BUILDING
    assert (DRAFT_ACTION[FOREST_HOUSE] in legal(state)) == offered
    if offered:
        play(state, state.actor, DRAFT_ACTION[FOREST_HOUSE])
        message = CODEC.state_to_proto(state)
        assert CODEC.state_to_proto(CODEC.state_from_proto(message)) == message


@pytest.mark.parametrize("exclusive", [True, False])
def test_random_set_hacienda_forest_exclusive(exclusive: bool) -> None:
    """OP-10 in the random set: never both by default; both in some sets when they do not exclude."""
    both = 0
    for index in range(40):
        config = Config(buildings=BUILDING_SET_RANDOM, draft_hacienda_forest_exclusive=exclusive)
        state, _ = new_game(4, config, f"random-{index}".encode())
        violet = {b for b, copies in enumerate(state.stock) if copies and BUILDINGS[b].violet}
        both += HACIENDA in violet and FOREST_HOUSE in violet
    assert (both > 0) == (not exclusive)


@pytest.mark.parametrize(("kinds", "bonus"), [("all", 3), ("plantations", 1)])
def test_cloister_kinds(kinds: str, bonus: int) -> None:
    """OP-11: 3 indigo plantations, 3 forests: 2 sets (3 VP) by default, 1 set (1 VP) if plantations only."""
    state = game(cloister_kinds=kinds)
    set_player(state, 0, tiles={INDIGO: 3}, forests={CORN: 3}, buildings={CLOISTER: 1})
    items = dict(final_scores(state).seats[0].items)
    assert items["cloister"] == bonus


@pytest.mark.parametrize(("any_phase", "triggers"), [(True, [TRIGGER_VP_POOL]), (False, [])])
def test_vp_trigger_any_phase(any_phase: bool, triggers: list[int]) -> None:
    """OP-20: the church emptying the pool in the builder phase ends the game by default, not otherwise."""
    state = game(vp_trigger_any_phase=any_phase)
    state.vp_pool = 1
    set_player(state, 0, doubloons=20, buildings={CHURCH: 1})
    choose_role(state, 1, BUILDER)
    while state.actor != 0:
        play(state, state.actor, PASS_ACTION)
    events = play(state, 0, BUILD_ACTION[FORTRESS])
    assert (state.players[0].vp, state.vp_pool) == (2, 0)
    assert [e.trigger for e in of_type(events, EndTriggered)] == triggers
    assert state.end_triggers == triggers


# --- Options, codec and validation ----------------------------------------------------------------


def test_open_point_options_are_listed_with_their_defaults() -> None:
    """Each option names a Config field; its default choice, read the way a lobby's option string is
    (the gateway's build_config, then the codec), gives the native default config."""
    info = info_to_proto(GAME.info, GAME)
    options = {option.name: option for option in info.options}
    assert {f.name for f in fields(Config)} == set(options)
    assert set(OPEN_POINT_OPTIONS) <= set(options)
    for name, option in options.items():
        assert option.default_value in option.choices, name
        value = gateway_pb2.GameOptionValue(name=name, value=option.default_value)
        message = pb.Config()
        assert build_config(info, [value]).Unpack(message), name
        assert CODEC.config_from_proto(message) == Config(), name


def test_default_config_encodes_without_the_new_fields() -> None:
    """A default config sets no open-point field: stored states and golden files keep their bytes."""
    message = CODEC.config_to_proto(Config())
    assert {field.name for field, _ in message.ListFields()} <= {"public_vp", "vp_pool_5p", "buildings"}
    assert CODEC.config_from_proto(pb.Config()) == Config()


NON_DEFAULT = Config(
    buildings=BUILDING_SET_RANDOM,
    small_wharf_rounding="ceil",
    lighthouse_captain_needs_load=True,
    lighthouse_counts_private_ships=False,
    specialty_factory_counts_corn=True,
    library_craftsman_distinct=False,
    library_multiplier=3,
    draft_hacienda_forest_exclusive=False,
    cloister_kinds="plantations",
    vp_trigger_any_phase=False,
)


def test_non_default_config_round_trips() -> None:
    message = CODEC.config_to_proto(NON_DEFAULT)
    assert CODEC.config_from_proto(pb.Config.FromString(message.SerializeToString())) == NON_DEFAULT
    assert message.HasField("lighthouse_counts_private_ships") and not message.lighthouse_counts_private_ships
    state, _ = new_game(3, NON_DEFAULT, b"options")
    assert CODEC.state_from_proto(CODEC.state_to_proto(state)).config == NON_DEFAULT


def test_explicit_default_values_read_as_defaults() -> None:
    """An `optional bool` set to true, or an enum set to its default value, means the default."""
    message = pb.Config(
        lighthouse_counts_private_ships=True,
        library_craftsman_distinct=True,
        draft_hacienda_forest_exclusive=True,
        vp_trigger_any_phase=True,
        small_wharf_rounding=pb.SMALL_WHARF_ROUNDING_FLOOR,
        cloister_kinds=pb.CLOISTER_KINDS_ALL,
        library_multiplier=2,
    )
    assert CODEC.config_from_proto(message) == Config()


@pytest.mark.parametrize(
    "message",
    [
        pb.Config(small_wharf_rounding=99),  # type: ignore[arg-type]
        pb.Config(cloister_kinds=99),  # type: ignore[arg-type]
        pb.Config(library_multiplier=4),
        pb.Config(library_multiplier=-1),
    ],
    ids=["rounding", "cloister-kinds", "multiplier-4", "multiplier-negative"],
)
def test_bad_option_values_are_refused(message: pb.Config) -> None:
    with pytest.raises(InvalidConfig):
        CODEC.config_from_proto(message)
    state, _ = new_game(3, Config(), b"options")
    forged = CODEC.state_to_proto(state)
    forged.table.config.CopyFrom(message)
    with pytest.raises(MalformedRequest):
        CODEC.state_from_proto(forged)


def test_privilege_goods_left_is_checked_against_the_multiplier() -> None:
    """A state with more library goods left than its multiplier allows is refused."""
    state = game(library_multiplier=1)
    tiles = {CORN: (1, 1), INDIGO: (1, 1)}
    set_player(state, 0, tiles=tiles, buildings={LIBRARY: 1, SMALL_INDIGO_PLANT: 1})
    choose_role(state, 0, CRAFTSMAN)
    assert state.privilege_goods_left == 1
    forged = CODEC.state_to_proto(state)
    forged.table.privilege_goods_left = 2
    with pytest.raises(MalformedRequest):
        CODEC.state_from_proto(forged)

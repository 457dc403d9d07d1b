"""Expansion I buildings (shared/rules/puerto_rico.md §6.2, rulings 30-36, open points OP-3..OP-20).

Each test sets up a position with `tests.puertorico.scenario` (every building for sale, the
Expansion I rules on) and drives the real engine; expected numbers come from the rules file.
Worked example T11 (union hall) is here, as it needs the expansion.
"""

from __future__ import annotations

import pytest

from services.puertorico import engine
from services.puertorico.actions import (
    BUILD_ACTION,
    FOREST_ACTION,
    GUEST_BUILDING,
    HACIENDA_ACTION,
    HOSPICE_ACTION,
    KEEP_SINGLE,
    MARKET_COLONIST_ACTION,
    MARKET_GOOD_ACTION,
    MARKET_VP_ACTION,
    PASS_ACTION,
    PLACE_AS_FOREST,
    PLANTATION,
    PRIVILEGE_ACTION,
    QUARRY_ACTION,
    RETURN_FROM_BUILDING,
    RETURN_FROM_SAN_JUAN,
    SELL_ACTION,
    SHIP_SMALL_WHARF_ACTION,
    SMALL_WHARF_ACTION,
    TRADING_POST_ACTION,
    UNIVERSITY_ACTION,
    WHARF_ACTION,
    small_wharf_goods,
)
from services.puertorico.codec import CODEC
from services.puertorico.data import (
    AQUEDUCT,
    BLACK_MARKET,
    BUILDER,
    CAPTAIN,
    CHURCH,
    CITY_HALL,
    CLOISTER,
    COFFEE,
    CORN,
    CRAFTSMAN,
    FACTORY,
    FOREST,
    FOREST_HOUSE,
    FORTRESS,
    GUESTHOUSE,
    HACIENDA,
    HARBOR,
    HOSPICE,
    INDIGO,
    INDIGO_PLANT,
    LARGE_MARKET,
    LIBRARY,
    LIGHTHOUSE,
    MAYOR,
    OFFICE,
    PROSPECTOR,
    QUARRY,
    SETTLER,
    SMALL_INDIGO_PLANT,
    SMALL_MARKET,
    SMALL_SUGAR_MILL,
    SMALL_WAREHOUSE,
    SMALL_WHARF,
    SPECIALTY_FACTORY,
    STATUE,
    STOREHOUSE,
    SUGAR,
    SUGAR_MILL,
    TOBACCO,
    TOBACCO_STORAGE,
    TRADER,
    TRADING_POST,
    UNION_HALL,
    UNIVERSITY,
    WHARF,
)
from services.puertorico.events import (
    DOUBLOONS_LIGHTHOUSE,
    DOUBLOONS_SPECIALTY_FACTORY,
    VP_CAPTAIN,
    VP_CHURCH,
    VP_HARBOR,
    VP_SHIPPING,
    VP_UNION_HALL,
    BlackMarketReturned,
    DoubloonsReceived,
    EndTriggered,
    GoodsLoaded,
    GoodSold,
    GoodsProduced,
    GuestMoved,
    SmallWharfShipped,
    VpReceived,
)
from services.puertorico.labels import label
from services.puertorico.scoring import score_items
from services.puertorico.state import (
    BLACK_MARKET_COLONIST_STEP,
    BLACK_MARKET_STEP,
    BUILD,
    CHOOSE_ROLE,
    GAME_OVER,
    GUESTS,
    HACIENDA_PLACE,
    HOSPICE_STEP,
    LOAD,
    SMALL_WHARF_STEP,
    TAKE_TILE,
    TRIGGER_CITY,
    TRIGGER_VP_POOL,
    UNIVERSITY_STEP,
    State,
)
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


def block_ships(state: State) -> None:
    """Fill every cargo ship of a 4-player game, so nobody can load a cargo ship."""
    set_ship(state, 5, INDIGO, 5)
    set_ship(state, 6, TOBACCO, 6)
    set_ship(state, 7, COFFEE, 7)


def produced_by(events: list, building: int) -> list[GoodsProduced]:  # type: ignore[type-arg]
    return [e for e in of_type(events, GoodsProduced) if e.building == building]


def builder_turn(state: State, seat: int, *, selector: int = 1) -> None:
    """Choose the builder for `selector` and pass every seat before `seat`."""
    choose_role(state, selector, BUILDER)
    while state.actor != seat:
        play(state, state.actor, PASS_ACTION)


# --- Aqueduct (craftsman) ----------------------------------------------------------------------


def test_aqueduct_needs_the_large_plant_to_produce() -> None:
    """Aqueduct: +1 indigo with an occupied indigo plant producing; a small sugar mill alone gives nothing."""
    state = expansion_game()
    set_player(
        state,
        0,
        tiles={INDIGO: (2, 2), SUGAR: (1, 1)},
        buildings={AQUEDUCT: 1, INDIGO_PLANT: 2, SMALL_SUGAR_MILL: 1, SUGAR_MILL: 0},
    )
    events = choose_role(state, 1, CRAFTSMAN)
    assert state.players[0].goods == [0, 3, 1, 0, 0]
    assert [e.goods for e in produced_by(events, AQUEDUCT)] == [(0, 1, 0, 0, 0)]


def test_aqueduct_credits_production_to_the_large_plant_first() -> None:
    """OP-12: small and large indigo plants occupied, 1 indigo made: the large plant made it."""
    state = expansion_game()
    set_player(
        state, 0, tiles={INDIGO: (1, 1)}, buildings={AQUEDUCT: 1, SMALL_INDIGO_PLANT: 1, INDIGO_PLANT: 1}
    )
    choose_role(state, 1, CRAFTSMAN)
    assert state.players[0].goods[INDIGO] == 2


def test_aqueduct_unoccupied_does_nothing() -> None:
    state = expansion_game()
    set_player(state, 0, tiles={SUGAR: (3, 3)}, buildings={AQUEDUCT: 0, SUGAR_MILL: 3})
    choose_role(state, 1, CRAFTSMAN)
    assert state.players[0].goods[SUGAR] == 3


# --- Specialty factory (craftsman) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("aqueduct", "doubloons"),
    [(False, 2), (True, 3)],
    ids=["largest-kind-minus-one", "aqueduct-good-counts"],
)
def test_specialty_factory_pays_largest_kind_less_one(aqueduct: bool, doubloons: int) -> None:
    """Specialty factory: 4 corn (OP-7: not counted), 3 sugar, 1 indigo -> 3 - 1 = 2; the aqueduct's
    extra sugar counts (OP-19) -> 4 - 1 = 3."""
    state = expansion_game()
    buildings = {SPECIALTY_FACTORY: 1, SUGAR_MILL: 3, SMALL_INDIGO_PLANT: 1}
    if aqueduct:
        buildings[AQUEDUCT] = 1
    set_player(state, 0, tiles={CORN: (4, 4), SUGAR: (3, 3), INDIGO: (1, 1)}, buildings=buildings)
    events = choose_role(state, 1, CRAFTSMAN)
    paid = [e for e in of_type(events, DoubloonsReceived) if e.reason == DOUBLOONS_SPECIALTY_FACTORY]
    assert [e.amount for e in paid] == [doubloons]
    assert state.players[0].doubloons == doubloons


# --- Forest house (settler, builder) -----------------------------------------------------------


def test_forest_house_takes_a_face_up_plantation_as_a_hidden_forest() -> None:
    """Forest house: a face-up plantation goes face down as a forest; only its owner sees the kind."""
    state = expansion_game()
    state.face_up_plantations = [CORN, INDIGO, SUGAR, TOBACCO, COFFEE]
    set_player(state, 1, buildings={FOREST_HOUSE: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, PASS_ACTION)
    assert state.actor == 1 and FOREST_ACTION[COFFEE] in legal(state)
    play(state, 1, FOREST_ACTION[COFFEE])
    owner = state.players[1]
    assert (owner.tiles[FOREST], owner.tiles[COFFEE], owner.forests) == (1, 0, [0, 0, 0, 0, 1])
    assert CODEC.view_to_proto(state, 1).forests.coffee == 1
    assert CODEC.view_to_proto(state, 2).forests.coffee == 0
    assert not CODEC.view_to_proto(state, None).HasField("forests")


@pytest.mark.parametrize(
    ("forests", "occupied", "price"),
    [(5, 1, 5 - 2), (5, 0, 5), (1, 1, 5)],
    ids=["two-per-doubloon", "unoccupied", "one-forest"],
)
def test_forest_discount(forests: int, occupied: int, price: int) -> None:
    """Forest house: -1 per 2 forests on any building, no column cap (OP-16: needs a colonist)."""
    state = expansion_game()
    set_player(state, 0, forests={CORN: forests}, buildings={FOREST_HOUSE: occupied}, doubloons=10)
    builder_turn(state, 0)
    play(state, 0, BUILD_ACTION[OFFICE])
    assert state.players[0].doubloons == 10 - price


def test_forest_discount_has_no_column_cap() -> None:
    """6 forests take 3 off a Col-1 building (small warehouse, cost 3)."""
    state = expansion_game()
    set_player(state, 0, forests={SUGAR: 6}, buildings={FOREST_HOUSE: 1}, doubloons=0)
    builder_turn(state, 0)
    assert BUILD_ACTION[SMALL_WAREHOUSE] in legal(state)


def test_hospice_with_a_forest_puts_the_colonist_in_san_juan() -> None:
    """Ruling 30: hospice + forest -> the colonist goes to San Juan."""
    state = expansion_game()
    state.face_up_plantations = [CORN, INDIGO, SUGAR, TOBACCO, COFFEE]
    set_player(state, 0, buildings={FOREST_HOUSE: 1, HOSPICE: 1})
    supply = state.colonist_supply
    choose_role(state, 0, SETTLER)
    play(state, 0, FOREST_ACTION[SUGAR])
    assert state.step == HOSPICE_STEP
    play(state, 0, HOSPICE_ACTION)
    player = state.players[0]
    assert (player.san_juan, player.tiles[FOREST], sum(player.occupied)) == (1, 1, 0)
    assert state.colonist_supply == supply - 1


def test_hacienda_tile_is_seen_before_being_placed_as_a_forest() -> None:
    """Ruling 30: hacienda + forest house: the drawer looks at the tile, then may place it as a forest;
    nobody else ever sees its kind."""
    state = expansion_game()
    state.plantation_stack = [INDIGO, TOBACCO]
    set_player(state, 0, buildings={HACIENDA: 1, FOREST_HOUSE: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, HACIENDA_ACTION)
    assert state.step == HACIENDA_PLACE
    assert CODEC.view_to_proto(state, 0).hacienda_tile == TOBACCO + 1
    assert CODEC.view_to_proto(state, 1).hacienda_tile == 0
    assert "tobacco" in label(state, PLACE_AS_FOREST)
    play(state, 0, PLACE_AS_FOREST)
    assert state.players[0].forests == [0, 0, 0, 1, 0]
    assert state.step == TAKE_TILE and state.actor == 0
    assert CODEC.view_to_proto(state, 1).forests.tobacco == 0


def test_hacienda_without_forest_house_places_face_up_at_once() -> None:
    state = expansion_game()
    state.plantation_stack = [INDIGO, TOBACCO]
    set_player(state, 0, buildings={HACIENDA: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, HACIENDA_ACTION)
    assert state.step == TAKE_TILE and state.players[0].tiles[TOBACCO] == 1


# --- Black market (builder) --------------------------------------------------------------------


def test_black_market_one_item_of_each_kind() -> None:
    """Black market: -1 per item (a VP, a good, a colonist), one of each; the items go back to the
    pool and the supplies; the colonist may come from San Juan (OP-14)."""
    state = expansion_game()
    set_player(state, 0, doubloons=2, vp=3, goods={CORN: 2}, buildings={BLACK_MARKET: 1}, san_juan=1)
    pool, colonists, corn = state.vp_pool, state.colonist_supply, state.goods_supply[CORN]
    builder_turn(state, 0)
    assert BUILD_ACTION[OFFICE] in legal(state)  # 5 - 3 items = 2: affordable only with the market
    play(state, 0, BUILD_ACTION[OFFICE])
    assert state.step == BLACK_MARKET_STEP
    assert legal(state) == {MARKET_COLONIST_ACTION, MARKET_GOOD_ACTION[CORN], MARKET_VP_ACTION}
    play(state, 0, MARKET_VP_ACTION)
    play(state, 0, MARKET_GOOD_ACTION[CORN])
    # 3 left > 2 doubloons: paying is not yet legal; the colonist, the only choice, is taken at once
    assert state.step == BLACK_MARKET_COLONIST_STEP
    assert legal(state) == {RETURN_FROM_SAN_JUAN, RETURN_FROM_BUILDING[BLACK_MARKET]}
    events = play(state, 0, RETURN_FROM_SAN_JUAN)  # then only paying is left: taken automatically
    player = state.players[0]
    assert OFFICE in player.buildings and player.doubloons == 0
    assert (player.vp, player.goods[CORN], player.san_juan) == (2, 1, 0)
    assert (state.vp_pool, state.colonist_supply, state.goods_supply[CORN]) == (
        pool + 1,
        colonists + 1,
        corn + 1,
    )
    assert len(of_type(events, BlackMarketReturned)) == 1


def test_black_market_gives_no_change() -> None:
    """Ruling 32: once the price is 0 no further item is offered."""
    state = expansion_game()
    set_player(state, 0, doubloons=0, vp=3, goods={CORN: 2}, buildings={BLACK_MARKET: 1}, san_juan=1)
    builder_turn(state, 0)
    play(state, 0, BUILD_ACTION[SMALL_MARKET])  # price 1
    play(state, 0, MARKET_VP_ACTION)
    player = state.players[0]
    assert SMALL_MARKET in player.buildings and state.step != BLACK_MARKET_STEP
    assert (player.vp, player.goods[CORN], player.san_juan) == (2, 2, 1)


def test_black_market_vp_returned_after_the_trigger_does_not_cancel_it() -> None:
    """§7.1 (c): a VP returned to an empty pool leaves trigger (c) fired."""
    state = expansion_game()
    state.vp_pool = 0
    state.end_triggers = [TRIGGER_VP_POOL]
    set_player(state, 0, doubloons=0, vp=5, buildings={BLACK_MARKET: 1})
    builder_turn(state, 0)
    play(state, 0, BUILD_ACTION[SMALL_MARKET])
    play(state, 0, MARKET_VP_ACTION)
    assert state.vp_pool == 1 and state.end_triggers == [TRIGGER_VP_POOL]


# --- Church (builder) --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("building", "vp"),
    [(SMALL_MARKET, 0), (LARGE_MARKET, 1), (TOBACCO_STORAGE, 1), (HARBOR, 1), (FORTRESS, 2), (STATUE, 2)],
    ids=["col1", "col2", "production-col3", "col3", "col4", "statue"],
)
def test_church_pays_by_column(building: int, vp: int) -> None:
    """Church: Col 1 -> 0, Col 2-3 -> +1, Col 4 (large, statue) -> +2 (ruling 36)."""
    state = expansion_game()
    set_player(state, 0, doubloons=20, buildings={CHURCH: 1})
    builder_turn(state, 0)
    events = play(state, 0, BUILD_ACTION[building])
    assert state.players[0].vp == vp
    assert sum(e.amount for e in of_type(events, VpReceived) if e.reason == VP_CHURCH) == vp


def test_building_the_church_itself_gives_nothing() -> None:
    """Ruling 36: even with a university colonist on the new church."""
    state = expansion_game()
    set_player(state, 0, doubloons=20, buildings={UNIVERSITY: 1})
    builder_turn(state, 0)
    play(state, 0, BUILD_ACTION[CHURCH])
    assert state.step == UNIVERSITY_STEP
    play(state, 0, UNIVERSITY_ACTION)
    assert state.players[0].buildings[CHURCH] == 1 and state.players[0].vp == 0


def test_church_emptying_the_pool_fires_trigger_c_in_the_builder_phase() -> None:
    """OP-20: VP leaving the pool outside the captain phase fire trigger (c)."""
    state = expansion_game()
    state.vp_pool = 1
    set_player(state, 0, doubloons=20, buildings={CHURCH: 1})
    builder_turn(state, 0)
    events = play(state, 0, BUILD_ACTION[FORTRESS])
    assert (state.players[0].vp, state.vp_pool) == (2, 0)
    assert [e.trigger for e in of_type(events, EndTriggered)] == [TRIGGER_VP_POOL]


# --- Statue, cloister (scoring) ----------------------------------------------------------------


def test_statue_needs_no_colonist_and_university_sends_one_to_san_juan() -> None:
    """Statue: 0 circles; the university colonist goes to San Juan (S000); 8 VP; city hall counts it."""
    state = expansion_game()
    set_player(state, 0, doubloons=20, buildings={UNIVERSITY: 1, CITY_HALL: 1})
    builder_turn(state, 0)
    play(state, 0, BUILD_ACTION[STATUE])
    play(state, 0, UNIVERSITY_ACTION)
    player = state.players[0]
    assert (player.buildings[STATUE], player.san_juan) == (0, 1)
    lines = dict(score_items(player, state.config))
    assert lines["buildings"] == 3 + 4 + 8
    assert lines["city hall"] == 3


@pytest.mark.parametrize(
    ("tiles", "forests", "occupied", "bonus"),
    [
        ({CORN: 6, QUARRY: 3, SUGAR: 2}, 0, 1, 6),  # T14: 3 sets
        ({CORN: 6, QUARRY: 3, SUGAR: 2}, 0, 0, None),  # unoccupied: no bonus
        ({INDIGO: 3}, 3, 1, 3),  # forests are a kind of their own (OP-11)
        ({CORN: 3, INDIGO: 3, SUGAR: 3}, 3, 1, 10),  # 4 sets: the maximum
        ({CORN: 2, INDIGO: 2}, 2, 1, 0),
    ],
    ids=["T14", "unoccupied", "forests", "four-sets", "no-set"],
)
def test_cloister_sets(tiles: dict[int, int], forests: int, occupied: int, bonus: int | None) -> None:
    """Cloister: sets of 3 tiles of one kind, 1/2/3/4+ sets -> 1/3/6/10 VP, tiles counted occupied or not."""
    state = expansion_game()
    set_player(state, 0, tiles=tiles, forests={CORN: forests}, buildings={CLOISTER: occupied})
    assert dict(score_items(state.players[0], state.config)).get("cloister") == bonus


# --- Storehouse (captain storage) --------------------------------------------------------------


@pytest.mark.parametrize(("storehouse", "kept"), [(1, 4), (0, 1)], ids=["storehouse", "without"])
def test_storehouse_keeps_three_more_single_goods(storehouse: int, kept: int) -> None:
    """Storehouse: 1 windrose good + 3 more singles of any kinds (S000)."""
    state = expansion_game()
    block_ships(state)
    set_player(
        state,
        0,
        goods={CORN: 1, INDIGO: 1, SUGAR: 1, TOBACCO: 1, COFFEE: 1},
        buildings={STOREHOUSE: storehouse},
    )
    choose_role(state, 1, CAPTAIN)
    while state.step != CHOOSE_ROLE:
        single = min(a for a in legal(state) if a.kind == KEEP_SINGLE)
        play(state, state.actor, single)
    assert sum(state.players[0].goods) == kept


# --- Union hall (captain) ----------------------------------------------------------------------


def test_t11_union_hall_before_any_loading() -> None:
    """T11 (S000): 4 corn + 3 coffee at the start of the captain phase -> +3 VP before any loading;
    owners are paid in seat order from the captain (ruling 34)."""
    state = expansion_game()
    set_player(state, 0, goods={CORN: 4, COFFEE: 3}, buildings={UNION_HALL: 1})
    set_player(state, 2, goods={SUGAR: 2}, buildings={UNION_HALL: 1})
    events = choose_role(state, 1, CAPTAIN)
    paid = [(e.seat, e.amount) for e in of_type(events, VpReceived) if e.reason == VP_UNION_HALL]
    assert paid == [(2, 1), (0, 3)]
    assert not of_type(events[: events.index(of_type(events, VpReceived)[-1])], GoodsLoaded)
    assert state.players[0].vp >= 3


def test_union_hall_emptying_the_pool_fires_trigger_c() -> None:
    state = expansion_game()
    state.vp_pool = 2
    block_ships(state)
    set_player(state, 0, goods={CORN: 4, COFFEE: 3}, buildings={UNION_HALL: 1})
    events = choose_role(state, 1, CAPTAIN)
    assert state.players[0].vp == 3 and state.vp_pool == 0
    assert TRIGGER_VP_POOL in [e.trigger for e in of_type(events, EndTriggered)]


# --- Small wharf and lighthouse (captain) ------------------------------------------------------


def test_small_wharf_ships_a_mix_and_counts_as_a_load() -> None:
    """Small wharf: any mix, 1 VP per 2 goods (OP-3: 5 goods -> 2); it is the captain's first load (+1),
    the harbor pays (+1, OP-4), the lighthouse pays its doubloon for it (OP-6) and its captain coin (OP-5)."""
    state = expansion_game()
    block_ships(state)
    set_player(state, 0, goods={CORN: 3, SUGAR: 2}, buildings={SMALL_WHARF: 1, HARBOR: 1, LIGHTHOUSE: 1})
    choose_role(state, 0, CAPTAIN)
    assert state.players[0].doubloons == 1  # the captain's lighthouse coin, before any load
    assert legal(state) == {PASS_ACTION, SMALL_WHARF_ACTION}
    play(state, 0, SMALL_WHARF_ACTION)
    assert state.step == SMALL_WHARF_STEP
    assert legal(state) == {
        small_wharf_goods(CORN, 1),
        small_wharf_goods(CORN, 3),
        small_wharf_goods(SUGAR, 1),
        small_wharf_goods(SUGAR, 2),
    }
    play(state, 0, small_wharf_goods(CORN, 3))
    assert SHIP_SMALL_WHARF_ACTION in legal(state)
    events = play(state, 0, small_wharf_goods(SUGAR, 2))  # nothing left to add: shipped at once
    player = state.players[0]
    assert [e.goods for e in of_type(events, SmallWharfShipped)] == [(3, 0, 2, 0, 0)]
    vp = {e.reason: e.amount for e in of_type(events, VpReceived)}
    assert vp == {VP_SHIPPING: 2, VP_CAPTAIN: 1, VP_HARBOR: 1}
    assert (player.vp, player.doubloons, sum(player.goods)) == (4, 2, 0)


def test_small_wharf_rounds_down() -> None:
    """OP-3: 3 goods -> 1 VP."""
    state = expansion_game()
    block_ships(state)
    set_player(state, 0, goods={CORN: 3}, buildings={SMALL_WHARF: 1})
    choose_role(state, 1, CAPTAIN)
    play(state, 0, SMALL_WHARF_ACTION)
    play(state, 0, small_wharf_goods(CORN, 3))  # the only choice left, shipping, is taken at once
    assert state.players[0].vp == 1


def test_wharf_and_small_wharf_in_one_phase_on_different_turns() -> None:
    """Ruling 35; and the lighthouse pays per load action, wharf included (OP-6)."""
    state = expansion_game()
    block_ships(state)
    set_player(state, 0, goods={CORN: 3, SUGAR: 2}, buildings={WHARF: 1, SMALL_WHARF: 1, LIGHTHOUSE: 1})
    choose_role(state, 1, CAPTAIN)
    assert state.actor == 0
    play(state, 0, WHARF_ACTION[CORN])
    assert state.actor == 0 and state.step == LOAD  # the next lap: only seat 0 has something to do
    assert legal(state) == {PASS_ACTION, SMALL_WHARF_ACTION}
    play(state, 0, SMALL_WHARF_ACTION)
    play(state, 0, small_wharf_goods(SUGAR, 2))
    assert state.players[0].vp == 3 + 1
    assert state.players[0].doubloons == 2


def test_lighthouse_captain_coin_without_shipping_and_per_load() -> None:
    """OP-5: the captain's extra doubloon comes even if they ship nothing; a loader gets 1 per load."""
    state = expansion_game()
    set_player(state, 1, buildings={LIGHTHOUSE: 1})
    set_player(state, 2, goods={CORN: 2}, buildings={LIGHTHOUSE: 1})
    events = choose_role(state, 1, CAPTAIN)
    events += finish_role(state)
    paid = [
        (e.seat, e.amount) for e in of_type(events, DoubloonsReceived) if e.reason == DOUBLOONS_LIGHTHOUSE
    ]
    assert paid == [(1, 1), (2, 1)]


def test_lighthouse_unoccupied_pays_nothing() -> None:
    state = expansion_game()
    set_player(state, 1, goods={CORN: 2}, buildings={LIGHTHOUSE: 0})
    choose_role(state, 1, CAPTAIN)
    finish_role(state)
    assert state.players[1].doubloons == 0


# --- Trading post (trader) ---------------------------------------------------------------------


def test_trading_post_ignores_markets_office_and_a_full_house() -> None:
    """Ruling 33 / OP-15: the post takes any kind even with a full house; markets add nothing."""
    state = expansion_game()
    state.trading_house = [CORN, INDIGO, SUGAR, COFFEE]
    set_player(
        state,
        0,
        goods={COFFEE: 1},
        buildings={TRADING_POST: 1, SMALL_MARKET: 1, LARGE_MARKET: 1, OFFICE: 1},
    )
    supply = state.goods_supply[COFFEE]
    choose_role(state, 1, TRADER)
    assert state.actor == 0
    assert legal(state) == {PASS_ACTION, TRADING_POST_ACTION[COFFEE]}
    events = play(state, 0, TRADING_POST_ACTION[COFFEE])
    assert [(e.price, e.trading_post) for e in of_type(events, GoodSold)] == [(4, True)]
    # the coffee sold, and the house's coffee when the full house is emptied at the end of the phase
    assert state.players[0].doubloons == 4 and state.goods_supply[COFFEE] == supply + 2


def test_trading_post_with_the_trader_privilege() -> None:
    """The trader privilege applies to a trading-post sale; markets still do not."""
    state = expansion_game()
    state.trading_house = [TOBACCO]
    set_player(state, 1, goods={TOBACCO: 1}, buildings={TRADING_POST: 1, LARGE_MARKET: 1})
    choose_role(state, 1, TRADER)
    assert SELL_ACTION[TOBACCO] not in legal(state)
    play(state, 1, TRADING_POST_ACTION[TOBACCO])
    assert state.players[1].doubloons == 3 + 1 and state.trading_house == [TOBACCO]


# --- Guesthouse (OP-13 windows) ----------------------------------------------------------------


def test_guest_moves_before_production_at_the_start_of_the_craftsman() -> None:
    """OP-13 window 2: at the start of a role, before anyone acts, a guest moves to an empty circle and
    works there at once."""
    state = expansion_game()
    set_player(state, 0, tiles={INDIGO: (1, 1)}, buildings={GUESTHOUSE: 2, SMALL_INDIGO_PLANT: 0})
    choose_role(state, 1, CRAFTSMAN)
    assert state.step == GUESTS and state.actor == 0
    assert legal(state) == {PASS_ACTION, GUEST_BUILDING[SMALL_INDIGO_PLANT]}
    events = play(state, 0, GUEST_BUILDING[SMALL_INDIGO_PLANT])
    assert of_type(events, GuestMoved) == [GuestMoved(0, -1, SMALL_INDIGO_PLANT)]
    player = state.players[0]
    assert (player.buildings[GUESTHOUSE], player.buildings[SMALL_INDIGO_PLANT], player.goods[INDIGO]) == (
        1,
        1,
        1,
    )


def test_guest_moves_on_the_owners_own_turn_then_the_university_works() -> None:
    """OP-13 window 1: at the owner's own builder turn, before building."""
    state = expansion_game()
    set_player(state, 0, doubloons=5, buildings={GUESTHOUSE: 1, UNIVERSITY: 0})
    builder_turn(state, 0, selector=0)
    assert state.step == GUESTS  # window 2 first; decline it
    play(state, 0, PASS_ACTION)
    assert state.step == BUILD and GUEST_BUILDING[UNIVERSITY] in legal(state)
    play(state, 0, GUEST_BUILDING[UNIVERSITY])
    assert state.step == BUILD and state.actor == 0
    play(state, 0, BUILD_ACTION[SMALL_MARKET])
    assert state.step == UNIVERSITY_STEP


def test_guest_moves_before_the_final_score() -> None:
    """OP-13 window 3: once before final scoring, e.g. onto an empty large building."""
    state = expansion_game()
    state.end_triggers = [TRIGGER_CITY]
    set_player(state, 1, tiles={CORN: (12, 12)}, buildings={GUESTHOUSE: 1, FACTORY: 1, FORTRESS: 0})
    choose_role(state, 3, PROSPECTOR)
    assert state.step == GUESTS and state.actor == 1
    assert legal(state) == {PASS_ACTION, GUEST_BUILDING[FORTRESS]}
    play(state, 1, GUEST_BUILDING[FORTRESS])
    assert state.step == GAME_OVER
    assert dict(score_items(state.players[1], state.config))["fortress"] == 14 // 3


# --- Library (every privilege of a role its owner selects is doubled) --------------------------


def test_library_settler_second_tile_is_a_plantation_never_a_quarry() -> None:
    """Ruling 31: the settler's quarry, then after everyone a second tile: a plantation only."""
    state = expansion_game()
    state.face_up_plantations = [CORN, INDIGO, SUGAR, TOBACCO, COFFEE]
    set_player(state, 0, buildings={LIBRARY: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, QUARRY_ACTION)
    for seat in (1, 2, 3):
        play(state, seat, PASS_ACTION)
    assert state.actor == 0
    options = legal(state)
    assert QUARRY_ACTION not in options and PLANTATION[COFFEE] in options
    events = play(state, 0, PLANTATION[COFFEE])
    player = state.players[0]
    assert (player.tiles[QUARRY], player.tiles[COFFEE]) == (1, 1)
    assert state.step == CHOOSE_ROLE and events


def test_library_and_forest_house_give_up_to_two_forests() -> None:
    """Ruling 30: library + forest house: 0-2 forests."""
    state = expansion_game()
    state.face_up_plantations = [CORN, INDIGO, SUGAR, TOBACCO, COFFEE]
    set_player(state, 0, buildings={LIBRARY: 1, FOREST_HOUSE: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, FOREST_ACTION[CORN])
    for seat in (1, 2, 3):
        play(state, seat, PASS_ACTION)
    assert FOREST_ACTION[SUGAR] in legal(state)
    play(state, 0, FOREST_ACTION[SUGAR])
    assert state.players[0].forests == [1, 0, 1, 0, 0] and state.players[0].tiles[FOREST] == 2


def test_library_mayor_takes_two_colonists() -> None:
    state = expansion_game()
    set_player(state, 0, buildings={LIBRARY: 1})
    state.colonist_ship = 0
    choose_role(state, 0, MAYOR)
    play(state, 0, PRIVILEGE_ACTION)
    assert state.players[0].colonists() == 1 + 2  # the library's own colonist and the privilege


def test_library_builder_discount_is_two() -> None:
    state = expansion_game()
    set_player(state, 0, doubloons=3, buildings={LIBRARY: 1})
    choose_role(state, 0, BUILDER)
    play(state, 0, BUILD_ACTION[OFFICE])
    assert state.players[0].doubloons == 0


@pytest.mark.parametrize(
    ("tiles", "buildings", "extra"),
    [
        ({CORN: (2, 2), INDIGO: (1, 1)}, {SMALL_INDIGO_PLANT: 1}, [1, 1, 0, 0, 0]),
        ({CORN: (2, 2)}, {}, [1, 0, 0, 0, 0]),
    ],
    ids=["two-kinds", "one-kind-one-good"],
)
def test_library_craftsman_two_goods_of_different_kinds(
    tiles: dict[int, tuple[int, int]], buildings: dict[int, int], extra: list[int]
) -> None:
    """OP-8: two extra goods of different kinds produced; with one kind produced, only one."""
    state = expansion_game()
    set_player(state, 0, tiles=tiles, buildings={LIBRARY: 1, **buildings})
    choose_role(state, 0, CRAFTSMAN)
    produced = list(state.players[0].goods)
    while state.step != CHOOSE_ROLE:
        bonus = min(a for a in legal(state) if a != PASS_ACTION)
        play(state, 0, bonus)
    assert [a - b for a, b in zip(state.players[0].goods, produced, strict=True)] == extra


def test_library_trader_privilege_is_two() -> None:
    state = expansion_game()
    set_player(state, 0, goods={SUGAR: 1}, buildings={LIBRARY: 1})
    choose_role(state, 0, TRADER)
    play(state, 0, SELL_ACTION[SUGAR])
    assert state.players[0].doubloons == 2 + 2


def test_library_captain_privilege_is_two_vp() -> None:
    state = expansion_game()
    set_player(state, 0, goods={CORN: 2}, buildings={LIBRARY: 1})
    events = choose_role(state, 0, CAPTAIN)
    events += finish_role(state)
    assert [e.amount for e in of_type(events, VpReceived) if e.reason == VP_CAPTAIN] == [2]
    assert state.players[0].vp == 2 + 2


def test_library_prospector_two_doubloons() -> None:
    state = expansion_game()
    set_player(state, 0, buildings={LIBRARY: 1})
    choose_role(state, 0, PROSPECTOR)
    assert state.players[0].doubloons == 2


def test_library_of_another_player_does_not_double() -> None:
    state = expansion_game()
    set_player(state, 1, buildings={LIBRARY: 1})
    choose_role(state, 0, PROSPECTOR)
    assert state.players[0].doubloons == 1


def test_expansion_effects_are_legal_action_labels() -> None:
    """Every new decision carries a readable label."""
    state = expansion_game()
    set_player(state, 0, doubloons=2, vp=3, goods={CORN: 2}, buildings={BLACK_MARKET: 1}, san_juan=1)
    builder_turn(state, 0)
    play(state, 0, BUILD_ACTION[OFFICE])
    labels = sorted(label(state, a) for a in engine.legal_actions(state, 0))
    assert labels == [
        "Return 1 VP to the pool (black market, 1 doubloon off)",
        "Return 1 corn to the supply (black market, 1 doubloon off)",
        "Return a colonist to the supply (black market, 1 doubloon off)",
    ]
    assert legal(state, 1) == set()

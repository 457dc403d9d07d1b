"""The worked examples of the rules file (shared/rules/puerto_rico.md §12, T1-T15), base game only.

Each test sets up the example's position with `tests.puertorico.scenario` and drives the real
engine; every expected number comes from the rules file, not from the engine.
T11 (union hall) is Expansion I and waits for the Expansion I issue (see docs/games/puertorico.md).
"""

from __future__ import annotations

import pytest

from services.common.errors import IllegalAction
from services.puertorico import engine
from services.puertorico.actions import (
    BUILD_ACTION,
    LOAD_ACTION,
    ON_BUILDING,
    PASS_ACTION,
    PRIVILEGE_ACTION,
    ROLE,
    SELL_ACTION,
    SINGLE_ACTION,
    WAREHOUSE_ACTION,
    WHARF_ACTION,
)
from services.puertorico.captain import WHARF_SHIP
from services.puertorico.data import (
    BUILDER,
    BUILDINGS,
    CAPTAIN,
    CITY_HALL,
    COFFEE,
    COFFEE_ROASTER,
    CONSTRUCTION_HUT,
    CORN,
    CRAFTSMAN,
    CUSTOMS_HOUSE,
    FACTORY,
    FORTRESS,
    GUILD_HALL,
    HARBOR,
    INDIGO,
    INDIGO_PLANT,
    LARGE_WAREHOUSE,
    MAYOR,
    OFFICE,
    PROSPECTOR,
    QUARRY,
    RESIDENCE,
    SETTLER,
    SMALL_INDIGO_PLANT,
    SMALL_MARKET,
    SMALL_SUGAR_MILL,
    SMALL_WAREHOUSE,
    SUGAR,
    SUGAR_MILL,
    TOBACCO,
    TOBACCO_STORAGE,
    TRADER,
    WHARF,
)
from services.puertorico.events import (
    DOUBLOONS_FACTORY,
    DOUBLOONS_PROSPECTOR,
    DOUBLOONS_ROLE_CARD,
    FROM_PRIVILEGE,
    FROM_SHIP,
    VP_CAPTAIN,
    VP_HARBOR,
    VP_SHIPPING,
    BuildingBuilt,
    ColonistShipRefilled,
    ColonistsReceived,
    DoubloonsReceived,
    EndTriggered,
    GameEnded,
    GoodsDiscarded,
    GoodsLoaded,
    GoodSold,
    GoodsProduced,
    Passed,
    RoundEnded,
    ShipsCleared,
    TradingHouseCleared,
    VpReceived,
)
from services.puertorico.scoring import final_scores
from services.puertorico.state import (
    CHOOSE_ROLE,
    LOAD,
    MAYOR_PRIVILEGE,
    SELL,
    STORE,
    TRIGGER_COLONISTS,
    TRIGGER_VP_POOL,
    State,
)
from tests.puertorico.scenario import (
    blank_game,
    choose_role,
    finish_role,
    legal,
    of_type,
    play,
    set_player,
    set_ship,
    ship_of,
)

# --- T1 Captain phase (4p) -------------------------------------------------------------------

ANNA, BENNO, CLARA, DONI = range(4)


def t1_position() -> State:
    """Anna is the captain; the 6-hold carries 3 corn; the 5- and 7-hold ships are empty."""
    state = blank_game(4, governor=ANNA)
    set_ship(state, 6, CORN, 3)
    set_player(state, ANNA, goods={CORN: 2, SUGAR: 6})
    set_player(state, BENNO, goods={SUGAR: 2, TOBACCO: 3})
    set_player(state, CLARA, goods={CORN: 2, TOBACCO: 1})
    set_player(state, DONI, goods={CORN: 1, INDIGO: 5})
    return state


def test_t1_captain_phase_legal_loads_forced_loads_storage_and_clearing() -> None:
    """T1: the whole table of legal loads and choices, then VP, storage and the cleared ships."""
    state = t1_position()
    s5, s6, s7 = ship_of(state, 5), ship_of(state, 6), ship_of(state, 7)
    pool, supply = state.vp_pool, state.goods_supply[:]

    choose_role(state, ANNA, CAPTAIN)
    # 1. Anna: corn -> 6 (2) or sugar -> 7 (6); sugar -> 5 is illegal as the 7-hold takes more.
    assert (state.step, state.actor) == (LOAD, ANNA)
    assert legal(state) == {LOAD_ACTION[CORN][s6], LOAD_ACTION[SUGAR][s7]}
    events = play(state, ANNA, LOAD_ACTION[SUGAR][s7])
    assert of_type(events, VpReceived) == [
        VpReceived(ANNA, 6, VP_SHIPPING, False),
        VpReceived(ANNA, 1, VP_CAPTAIN, False),
    ]
    assert state.players[ANNA].vp == 7

    # 2. Benno: sugar -> 7 (1) or tobacco -> 5 (3).
    assert state.actor == BENNO
    assert legal(state) == {LOAD_ACTION[SUGAR][s7], LOAD_ACTION[TOBACCO][s5]}
    play(state, BENNO, LOAD_ACTION[SUGAR][s7])
    assert (state.ship_good[s7], state.ship_count[s7]) == (SUGAR, 7)
    assert state.players[BENNO].vp == 1

    # 3. Clara: corn -> 6 (2) or tobacco -> 5 (1). Steps 4-7 are all forced and follow at once.
    assert state.actor == CLARA
    assert legal(state) == {LOAD_ACTION[CORN][s6], LOAD_ACTION[TOBACCO][s5]}
    events = play(state, CLARA, LOAD_ACTION[TOBACCO][s5])
    assert of_type(events, GoodsLoaded) == [
        GoodsLoaded(CLARA, TOBACCO, 1, s5),
        GoodsLoaded(DONI, CORN, 1, s6),  # 4. forced; indigo has no eligible ship
        GoodsLoaded(ANNA, CORN, 2, s6),  # 5. forced; 6-hold full, no second privilege
        GoodsLoaded(BENNO, TOBACCO, 3, s5),  # 6. forced; 5-hold has 4 tobacco
    ]
    assert of_type(events, VpReceived) == [
        VpReceived(CLARA, 1, VP_SHIPPING, False),
        VpReceived(DONI, 1, VP_SHIPPING, False),
        VpReceived(ANNA, 2, VP_SHIPPING, False),
        VpReceived(BENNO, 3, VP_SHIPPING, False),
    ]

    # End state.
    assert [p.vp for p in state.players] == [9, 4, 1, 1]
    assert state.vp_pool == pool - 15
    assert [p.goods for p in state.players] == [
        [0, 0, 0, 0, 0],
        [0, 0, 1, 0, 0],
        [1, 0, 0, 0, 0],
        [0, 1, 0, 0, 0],
    ]
    assert of_type(events, GoodsDiscarded) == [
        GoodsDiscarded(CLARA, (1, 0, 0, 0, 0)),
        GoodsDiscarded(DONI, (0, 4, 0, 0, 0)),
    ]
    assert of_type(events, ShipsCleared) == [ShipsCleared((s6, s7))]
    assert (state.ship_good, state.ship_count) == ([TOBACCO, -1, -1], [4, 0, 0])
    # Returned: 6 corn (ship) + 1 corn (Clara), 4 indigo (Doni), 7 sugar (ship).
    assert [now - before for now, before in zip(state.goods_supply, supply, strict=True)] == [7, 4, 7, 0, 0]
    assert (state.step, state.actor) == (CHOOSE_ROLE, BENNO)


def test_t1_forced_steps_offer_exactly_one_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """T1 steps 4-7 with the engine's auto-play of forced decisions turned off: each is one legal load."""
    monkeypatch.setattr(engine.LOOP, "auto_resolve", False)
    state = t1_position()
    s5, s6, s7 = ship_of(state, 5), ship_of(state, 6), ship_of(state, 7)
    choose_role(state, ANNA, CAPTAIN)
    play(state, ANNA, LOAD_ACTION[SUGAR][s7])
    play(state, BENNO, LOAD_ACTION[SUGAR][s7])
    play(state, CLARA, LOAD_ACTION[TOBACCO][s5])
    forced = [
        (DONI, LOAD_ACTION[CORN][s6]),  # 4. indigo has no eligible ship
        (ANNA, LOAD_ACTION[CORN][s6]),  # 5.
        (BENNO, LOAD_ACTION[TOBACCO][s5]),  # 6.
    ]
    for seat, load in forced:
        assert (state.step, state.actor) == (LOAD, seat)
        assert legal(state) == {load}
        play(state, seat, load)
    # 7. Nobody can load any more (Clara's corn, Doni's indigo, Benno's sugar fit no ship): storage.
    assert (state.step, state.actor) == (STORE, CLARA)
    assert legal(state) == {SINGLE_ACTION[CORN]}
    play(state, CLARA, SINGLE_ACTION[CORN])
    assert (state.step, state.actor, legal(state)) == (STORE, DONI, {SINGLE_ACTION[INDIGO]})
    play(state, DONI, SINGLE_ACTION[INDIGO])
    assert state.step == CHOOSE_ROLE
    assert [p.vp for p in state.players] == [9, 4, 1, 1]


# --- T2 Production ---------------------------------------------------------------------------


def test_t2_production_is_limited_by_occupied_plantations_and_circles() -> None:
    """T2: production is min(occupied plantations, occupied circles); corn needs no building."""
    state = blank_game(4)
    set_player(
        state,
        1,
        tiles={CORN: (3, 2), TOBACCO: (2, 2), SUGAR: (4, 3)},
        buildings={TOBACCO_STORAGE: 1, SMALL_SUGAR_MILL: 1, SUGAR_MILL: 3},
    )
    events = choose_role(state, 0, CRAFTSMAN)
    # +2 corn (3rd plantation empty), +1 tobacco (2nd circle empty), +3 sugar (4th plantation empty).
    assert of_type(events, GoodsProduced) == [GoodsProduced(1, (2, 0, 3, 1, 0), False)]
    assert state.players[1].goods == [2, 0, 3, 1, 0]
    assert state.step == CHOOSE_ROLE  # the craftsman produced nothing: no privilege


def test_t2_coffee_roaster_without_coffee_plantation_produces_nothing() -> None:
    """T2 extra check: a colonist on a coffee roaster without a coffee plantation produces 0."""
    state = blank_game(4)
    set_player(state, 1, tiles={CORN: (1, 0)}, buildings={COFFEE_ROASTER: 2})
    events = choose_role(state, 0, CRAFTSMAN)
    assert of_type(events, GoodsProduced) == []
    assert state.players[1].goods == [0, 0, 0, 0, 0]


# --- T3 Factory with a short supply ----------------------------------------------------------


def test_t3_factory_pays_for_the_kinds_actually_received() -> None:
    """T3: corn supply 0, sugar 2: the owner receives 0 corn, 2 sugar, 1 tobacco; the factory pays 1."""
    state = blank_game(4)
    set_player(
        state,
        1,
        tiles={CORN: (3, 3), SUGAR: (3, 3), TOBACCO: (1, 1)},
        buildings={FACTORY: 1, SUGAR_MILL: 3, TOBACCO_STORAGE: 1},
    )
    state.goods_supply = [0, 11, 2, 9, 9]
    events = choose_role(state, 0, CRAFTSMAN)
    assert of_type(events, GoodsProduced) == [GoodsProduced(1, (0, 0, 2, 1, 0), False)]
    assert of_type(events, DoubloonsReceived) == [DoubloonsReceived(1, 1, DOUBLOONS_FACTORY)]
    assert state.players[1].goods == [0, 0, 2, 1, 0]
    assert state.players[1].doubloons == 1
    assert state.goods_supply == [0, 11, 0, 8, 9]


# --- T4 Harbor + wharf -----------------------------------------------------------------------

P = 1  # the harbor and wharf owner; seat 0 is the captain and holds nothing


def t4_position(extra_goods: dict[int, int] | None = None) -> State:
    """The tobacco ship (5-hold, 2 tobacco) has 3 free holds; the sugar ship (6-hold, 1 sugar) has 5."""
    state = blank_game(4)
    set_ship(state, 5, TOBACCO, 2)
    set_ship(state, 6, SUGAR, 1)
    set_player(state, P, goods={TOBACCO: 5, SUGAR: 2, **(extra_goods or {})}, buildings={HARBOR: 1, WHARF: 1})
    return state


def test_t4_harbor_and_wharf() -> None:
    """T4: tobacco 3 + 1, sugar 2 + 1, wharf 2 tobacco + 1: 10 VP, 3 of them from the harbor."""
    state = t4_position()
    s5, s6 = ship_of(state, 5), ship_of(state, 6)
    choose_role(state, 0, CAPTAIN)

    # Turn 1: tobacco, only 3 fit -> 3 + 1 harbor.
    assert state.actor == P
    assert legal(state) == {
        LOAD_ACTION[TOBACCO][s5],
        LOAD_ACTION[SUGAR][s6],
        WHARF_ACTION[TOBACCO],
        WHARF_ACTION[SUGAR],
    }
    events = play(state, P, LOAD_ACTION[TOBACCO][s5])
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(P, TOBACCO, 3, s5)]
    assert state.players[P].vp == 4

    # Turn 2: 2 sugar -> 2 + 1.
    assert state.actor == P
    assert legal(state) == {LOAD_ACTION[SUGAR][s6], WHARF_ACTION[TOBACCO], WHARF_ACTION[SUGAR]}
    play(state, P, LOAD_ACTION[SUGAR][s6])
    assert state.players[P].vp == 7

    # Turn 3: tobacco fits no cargo ship; the wharf takes the 2 tobacco -> 2 + 1.
    assert state.actor == P
    assert legal(state) == {WHARF_ACTION[TOBACCO], PASS_ACTION}
    tobacco_supply = state.goods_supply[TOBACCO]
    events = play(state, P, WHARF_ACTION[TOBACCO])
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(P, TOBACCO, 2, WHARF_SHIP)]
    assert of_type(events, VpReceived) == [
        VpReceived(P, 2, VP_SHIPPING, False),
        VpReceived(P, 1, VP_HARBOR, False),
    ]
    assert state.players[P].vp == 10
    assert state.players[P].goods == [0, 0, 0, 0, 0]
    # The wharf's 2 tobacco and the full 5-hold's 5 tobacco go back to the supply.
    assert state.goods_supply[TOBACCO] == tobacco_supply + 2 + 5
    assert state.step == CHOOSE_ROLE


def test_t4_second_wharf_use_in_the_phase_is_illegal() -> None:
    """T4 check: after the wharf shipment, a further wharf use this phase is illegal."""
    # As T4, and P also holds 1 corn + 1 indigo that fit on the empty 7-hold.
    state = t4_position({CORN: 1, INDIGO: 1})
    s5, s6, s7 = ship_of(state, 5), ship_of(state, 6), ship_of(state, 7)
    choose_role(state, 0, CAPTAIN)
    play(state, P, LOAD_ACTION[TOBACCO][s5])
    play(state, P, LOAD_ACTION[SUGAR][s6])
    play(state, P, WHARF_ACTION[TOBACCO])
    assert state.players[P].vp == 10
    # Turn 4: P must load a cargo ship; the wharf is used up for this phase.
    assert (state.step, state.actor) == (LOAD, P)
    assert legal(state) == {LOAD_ACTION[CORN][s7], LOAD_ACTION[INDIGO][s7]}
    with pytest.raises(IllegalAction):
        play(state, P, WHARF_ACTION[CORN])
    assert state.players[P].goods == [1, 1, 0, 0, 0]


# --- T5 Mayor distribution -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("on_ship", "received"),
    [
        # §4.2 dealing rule: 5 colonists one at a time from the mayor -> 2, 1, 1, 1 (+1 privilege).
        (5, [3, 1, 1, 1]),
        # The example's own split "mayor 3 (1 + 2), player 2 gets 2, players 3 and 4 get 1" needs 6
        # colonists on the ship: with 5 it hands out one more colonist than exists (see the report).
        (6, [3, 2, 1, 1]),
    ],
)
def test_t5_mayor_deals_the_ship_one_at_a_time_from_the_mayor(on_ship: int, received: list[int]) -> None:
    """T5: the mayor takes the privilege; the ship is dealt from the mayor clockwise; refill per §4.2."""
    state = blank_game(4)
    state.colonist_ship = on_ship
    supply = state.colonist_supply
    choose_role(state, 0, MAYOR)
    assert (state.step, state.actor) == (MAYOR_PRIVILEGE, 0)
    assert legal(state) == {PRIVILEGE_ACTION, PASS_ACTION}
    events = play(state, 0, PRIVILEGE_ACTION)
    assert of_type(events, ColonistsReceived) == [ColonistsReceived(0, 1, FROM_PRIVILEGE)] + [
        ColonistsReceived(seat, count - (seat == 0), FROM_SHIP) for seat, count in enumerate(received)
    ]
    assert [p.san_juan for p in state.players] == received  # nobody has a circle
    # Refill: max(4 players, 0 empty building circles) = 4.
    assert of_type(events, ColonistShipRefilled) == [ColonistShipRefilled(4)]
    assert state.colonist_ship == 4
    assert state.colonist_supply == supply - 1 - 4
    assert state.step == CHOOSE_ROLE


# --- T6 Quarry discount ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("building", "as_builder", "price"),
    [
        (CONSTRUCTION_HUT, False, 1),
        (OFFICE, False, 3),
        (HARBOR, False, 5),
        (CITY_HALL, False, 7),
        (CONSTRUCTION_HUT, True, 0),
        (OFFICE, True, 2),
        (HARBOR, True, 4),
        (CITY_HALL, True, 6),
    ],
)
def test_t6_quarry_discount(building: int, as_builder: bool, price: int) -> None:
    """T6: 3 occupied quarries: construction hut 1, office 3, harbor 5, city hall 7; as builder 0/2/4/6."""
    buyer = 0 if as_builder else 1
    state = blank_game(4)
    set_player(state, buyer, tiles={QUARRY: (3, 3)}, doubloons=price)
    choose_role(state, 0, BUILDER)
    if not as_builder:
        play(state, 0, PASS_ACTION)
    assert state.actor == buyer
    assert BUILD_ACTION[building] in legal(state)
    if price:
        poorer = state.copy()
        set_player(poorer, buyer, doubloons=price - 1)
        assert BUILD_ACTION[building] not in legal(poorer)
    events = play(state, buyer, BUILD_ACTION[building])
    assert of_type(events, BuildingBuilt) == [BuildingBuilt(buyer, building, price)]
    assert state.players[buyer].doubloons == 0


# --- T7 Office -------------------------------------------------------------------------------


def test_t7_office_sells_a_kind_already_in_the_house_but_never_into_a_full_house() -> None:
    """T7: two office owners sell tobacco into a house holding tobacco; a player without office may not; a
    full house takes nothing."""
    a, b, c, d = range(4)
    state = blank_game(4)
    state.trading_house = [TOBACCO]
    set_player(state, a, goods={TOBACCO: 1}, buildings={OFFICE: 1})
    set_player(state, b, goods={TOBACCO: 1}, buildings={OFFICE: 1})
    set_player(state, c, goods={TOBACCO: 1, CORN: 1})
    set_player(state, d, goods={TOBACCO: 1}, buildings={OFFICE: 1})
    choose_role(state, a, TRADER)

    assert (state.step, state.actor) == (SELL, a)
    assert legal(state) == {SELL_ACTION[TOBACCO], PASS_ACTION}
    play(state, a, SELL_ACTION[TOBACCO])
    assert legal(state) == {SELL_ACTION[TOBACCO], PASS_ACTION}
    play(state, b, SELL_ACTION[TOBACCO])
    assert state.trading_house == [TOBACCO, TOBACCO, TOBACCO]

    # C has no office: tobacco is illegal.
    assert legal(state) == {SELL_ACTION[CORN], PASS_ACTION}
    with pytest.raises(IllegalAction):
        play(state, c, SELL_ACTION[TOBACCO])
    events = play(state, c, SELL_ACTION[CORN])
    # The house holds 4: D, an office owner, may not sell (forced pass); then the house is emptied.
    assert of_type(events, Passed) == [Passed(d, SELL)]
    assert of_type(events, TradingHouseCleared) == [TradingHouseCleared()]
    assert state.trading_house == []
    assert state.players[d].goods[TOBACCO] == 1
    assert [p.doubloons for p in state.players] == [3 + 1, 3, 0, 0]


# --- T8 Small market -------------------------------------------------------------------------


@pytest.mark.parametrize(("seller_is_trader", "revenue"), [(False, 1), (True, 2)])
def test_t8_small_market_on_a_corn_sale(seller_is_trader: bool, revenue: int) -> None:
    """T8: a small market owner sells corn: +1, or +2 as the trader."""
    seller = 0 if seller_is_trader else 1
    state = blank_game(4)
    set_player(state, seller, goods={CORN: 1}, buildings={SMALL_MARKET: 1})
    choose_role(state, 0, TRADER)
    if not seller_is_trader:
        assert state.actor == seller  # the trader holds nothing and passes by force
    events = play(state, seller, SELL_ACTION[CORN])
    assert of_type(events, GoodSold) == [GoodSold(seller, CORN, revenue)]
    assert state.players[seller].doubloons == revenue


# --- T9 Prospector ---------------------------------------------------------------------------


def test_t9_prospector_card_with_two_doubloons_yields_three() -> None:
    """T9: the prospector card carries 2 doubloons; the selector ends with +3."""
    state = blank_game(4)
    state.role_doubloons[state.roles.index(PROSPECTOR)] = 2
    events = choose_role(state, 2, PROSPECTOR)
    assert of_type(events, DoubloonsReceived) == [
        DoubloonsReceived(2, 2, DOUBLOONS_ROLE_CARD),
        DoubloonsReceived(2, 1, DOUBLOONS_PROSPECTOR),
    ]
    assert state.players[2].doubloons == 3
    assert [p.doubloons for p in state.players] == [0, 0, 3, 0]
    assert state.role_doubloons[state.roles.index(PROSPECTOR)] == 0


# --- T10 Warehouses --------------------------------------------------------------------------


def test_t10_small_and_large_warehouse_keep_three_kinds_and_one_good() -> None:
    """T10: small + large warehouse holding 5 kinds: all of 3 kinds + 1 good of a 4th are kept."""
    owner = 1
    state = blank_game(4)
    # Each ship has one free hold, so the owner must load 1 corn, 1 indigo and 1 sugar first.
    set_ship(state, 5, CORN, 4)
    set_ship(state, 6, INDIGO, 5)
    set_ship(state, 7, SUGAR, 6)
    set_player(
        state,
        owner,
        goods={CORN: 3, INDIGO: 3, SUGAR: 3, TOBACCO: 3, COFFEE: 3},
        buildings={SMALL_WAREHOUSE: 1, LARGE_WAREHOUSE: 1},
    )
    choose_role(state, 0, CAPTAIN)
    play(state, owner, LOAD_ACTION[CORN][ship_of(state, 5)])
    play(state, owner, LOAD_ACTION[INDIGO][ship_of(state, 6)])  # then sugar is forced
    assert state.players[owner].goods == [2, 2, 2, 3, 3]

    assert (state.step, state.actor) == (STORE, owner)
    assert legal(state) == {WAREHOUSE_ACTION[g] for g in (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)}
    play(state, owner, WAREHOUSE_ACTION[TOBACCO])
    play(state, owner, WAREHOUSE_ACTION[COFFEE])
    play(state, owner, WAREHOUSE_ACTION[CORN])
    assert legal(state) == {SINGLE_ACTION[INDIGO], SINGLE_ACTION[SUGAR]}
    events = play(state, owner, SINGLE_ACTION[SUGAR])
    assert of_type(events, GoodsDiscarded) == [GoodsDiscarded(owner, (0, 2, 1, 0, 0))]
    assert state.players[owner].goods == [2, 0, 1, 3, 3]
    assert state.step == CHOOSE_ROLE


def test_t10_small_warehouse_keeps_all_tobacco_and_one_indigo() -> None:
    """T10: a small warehouse only, holding indigo and tobacco: 1 indigo + all tobacco are kept."""
    owner = 1
    state = blank_game(4)
    # No empty ship, none carrying indigo or tobacco: nothing can be loaded.
    set_ship(state, 5, CORN, 1)
    set_ship(state, 6, SUGAR, 1)
    set_ship(state, 7, COFFEE, 1)
    set_player(state, owner, goods={INDIGO: 3, TOBACCO: 4}, buildings={SMALL_WAREHOUSE: 1})
    choose_role(state, 0, CAPTAIN)
    assert (state.step, state.actor) == (STORE, owner)
    assert legal(state) == {WAREHOUSE_ACTION[INDIGO], WAREHOUSE_ACTION[TOBACCO]}
    events = play(state, owner, WAREHOUSE_ACTION[TOBACCO])  # the single indigo is then forced
    assert of_type(events, GoodsDiscarded) == [GoodsDiscarded(owner, (0, 2, 0, 0, 0))]
    assert state.players[owner].goods == [0, 1, 0, 4, 0]


# T11 (union hall) is Expansion I: it comes with the Expansion I issue.

# --- T12 Game end by colonists ---------------------------------------------------------------


def test_t12_short_colonist_supply_ends_the_game_after_the_round() -> None:
    """T12: 6 empty building circles, supply 5: the ship gets 5, trigger (a) fires, the round is finished."""
    mayor = 2
    state = blank_game(4, governor=0)
    state.colonist_supply = 5
    state.colonist_ship = 4
    # Seat 3 has 7 empty building circles and gets 1 colonist from the ship: 6 stay empty.
    set_player(state, 3, buildings={TOBACCO_STORAGE: 0, SUGAR_MILL: 0, SMALL_MARKET: 0})
    choose_role(state, mayor, MAYOR)
    play(state, mayor, PASS_ACTION)  # declines the privilege: the supply stays at 5
    assert state.actor == 3
    assert legal(state) == {ON_BUILDING[b] for b in (SMALL_MARKET, TOBACCO_STORAGE, SUGAR_MILL)}
    play(state, 3, ON_BUILDING[SUGAR_MILL])
    events = play(state, 3, PASS_ACTION)  # keeps the arrangement
    assert of_type(events, ColonistShipRefilled) == [ColonistShipRefilled(5)]
    assert of_type(events, EndTriggered) == [EndTriggered(TRIGGER_COLONISTS)]
    assert (state.colonist_ship, state.colonist_supply) == (5, 0)
    # The game does not end at once: seat 3 still chooses the last role of the round.
    assert not state.terminal
    assert (state.step, state.actor) == (CHOOSE_ROLE, 3)
    events = play(state, 3, ROLE[PROSPECTOR])
    assert of_type(events, RoundEnded) == [RoundEnded(1, 1)]
    assert len(of_type(events, GameEnded)) == 1
    assert state.terminal


def test_t12_mayor_with_an_empty_supply_has_no_privilege_no_refill_and_fires_the_trigger() -> None:
    """T12 separate check: a mayor phase starting with supply 0: no privilege, no refill, trigger (a)."""
    state = blank_game(4)
    state.colonist_supply = 0
    state.colonist_ship = 4
    events = choose_role(state, 0, MAYOR)  # nothing to decide: the phase resolves at once
    assert of_type(events, ColonistsReceived) == [ColonistsReceived(s, 1, FROM_SHIP) for s in range(4)]
    assert of_type(events, ColonistShipRefilled) == [ColonistShipRefilled(0)]
    assert of_type(events, EndTriggered) == [EndTriggered(TRIGGER_COLONISTS)]
    assert (state.colonist_ship, state.colonist_supply) == (0, 0)
    assert (state.step, state.terminal) == (CHOOSE_ROLE, False)


# --- T13 VP beyond the pool ------------------------------------------------------------------


def test_t13_vp_beyond_the_pool_still_count_and_fire_the_trigger() -> None:
    """T13: the pool holds 2, a load of 4 gives 4 VP; trigger (c) fires; a later load still scores."""
    state = blank_game(4)
    state.vp_pool = 2
    set_ship(state, 5, CORN, 1)
    set_ship(state, 6, SUGAR, 1)
    set_player(state, 1, goods={CORN: 4})
    set_player(state, 2, goods={SUGAR: 3})
    events = choose_role(state, 0, CAPTAIN)  # every load is forced
    assert of_type(events, VpReceived) == [
        VpReceived(1, 4, VP_SHIPPING, False),
        VpReceived(2, 3, VP_SHIPPING, False),
    ]
    assert of_type(events, EndTriggered) == [EndTriggered(TRIGGER_VP_POOL)]
    assert [p.vp for p in state.players] == [0, 4, 3, 0]
    assert state.vp_pool == 0
    assert (state.step, state.terminal) == (CHOOSE_ROLE, False)


# --- T14 Large-building tables ---------------------------------------------------------------


def score_lines(state: State, seat: int) -> dict[str, int]:
    """The lines of `seat`'s final score, by name."""
    return dict(final_scores(state).seats[seat].items)


@pytest.mark.parametrize(("filled", "bonus"), [(9, 4), (10, 5), (11, 6), (12, 7)])
def test_t14_residence(filled: int, bonus: int) -> None:
    """T14: residence with 9 / 10 / 11 / 12 filled island spaces -> 4 / 5 / 6 / 7."""
    state = blank_game(4)
    set_player(state, 0, tiles={CORN: (filled - 3, 1), QUARRY: (3, 0)}, buildings={RESIDENCE: 1})
    assert score_lines(state, 0)["residence"] == bonus


def test_t14_fortress_with_14_colonists() -> None:
    """T14: fortress with 14 colonists -> 4."""
    state = blank_game(4)
    set_player(state, 0, tiles={CORN: (10, 10)}, buildings={FORTRESS: 1}, san_juan=3)
    assert state.players[0].colonists() == 14
    assert score_lines(state, 0)["fortress"] == 4


def test_t14_customs_house_with_23_chip_vp() -> None:
    """T14: customs house with 23 chip VP -> 5."""
    state = blank_game(4)
    set_player(state, 0, vp=23, buildings={CUSTOMS_HOUSE: 1})
    assert score_lines(state, 0)["customs house"] == 5


def test_t14_guild_hall_counts_production_buildings_of_any_occupancy() -> None:
    """T14: guild hall with small indigo + indigo plant + coffee roaster -> 1 + 2 + 2 = 5."""
    state = blank_game(4)
    set_player(state, 0, buildings={GUILD_HALL: 1, SMALL_INDIGO_PLANT: 0, INDIGO_PLANT: 3, COFFEE_ROASTER: 0})
    assert score_lines(state, 0)["guild hall"] == 1 + 2 + 2


# The cloister line of T14 is Expansion I: it comes with the Expansion I issue.


@pytest.mark.parametrize("building", [RESIDENCE, FORTRESS, CUSTOMS_HOUSE, GUILD_HALL])
def test_t14_unoccupied_large_building_gives_no_bonus(building: int) -> None:
    """T14: each bonus requires its building to be occupied; unoccupied -> 0 (printed VP still count)."""
    state = blank_game(4)
    set_player(
        state,
        0,
        vp=23,
        tiles={CORN: (12, 12)},
        buildings={building: 0, INDIGO_PLANT: 3, SUGAR_MILL: 3},
        san_juan=5,
    )
    lines = score_lines(state, 0)
    assert BUILDINGS[building].name not in lines
    assert lines == {"VP chips": 23, "buildings": 4 + 2 + 2}
    assert final_scores(state).seats[0].total == 23 + 8


# --- T15 2-player round ----------------------------------------------------------------------


def test_t15_two_player_round_order_unused_role_doubloon_and_governor_passes() -> None:
    """T15: G, O, G, O, G, O; 1 doubloon on the one role left; the governor passes to O."""
    g, o = 0, 1
    state = blank_game(2, governor=g)
    for seat in (g, o):
        set_player(state, seat, doubloons=3)
    picks = [(g, SETTLER), (o, MAYOR), (g, BUILDER), (o, CRAFTSMAN), (g, TRADER), (o, CAPTAIN)]
    for number, (seat, role) in enumerate(picks):
        assert (state.step, state.actor) == (CHOOSE_ROLE, seat), f"pick {number + 1}"
        assert len(legal(state)) == 7 - number
        events = play(state, seat, ROLE[role])
        if role in (SETTLER, BUILDER):  # both players decide: selector first, then the other
            assert state.actor == seat
            events += play(state, seat, PASS_ACTION)
            assert state.actor == 1 - seat
        events += finish_role(state)
    assert of_type(events, RoundEnded) == [RoundEnded(1, o)]
    # The one role not taken, the prospector, gets 1 doubloon; the governor card passes to O.
    assert state.role_doubloons == [1 if r == PROSPECTOR else 0 for r in state.roles]
    assert (state.governor, state.round) == (o, 2)
    assert (state.step, state.actor) == (CHOOSE_ROLE, o)
    play(state, o, ROLE[PROSPECTOR])
    assert [p.doubloons for p in state.players] == [3, 3 + 1 + 1]
    assert (state.step, state.actor) == (CHOOSE_ROLE, g)

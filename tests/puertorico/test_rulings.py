"""The numbered rulings of the rules file (shared/rules/puerto_rico.md §8, rulings 1-29: the base game).

One test (or a small group) per ruling; each docstring cites its ruling. Positions are set up with
`tests.puertorico.scenario` and played through the real engine.
"""

from __future__ import annotations

from collections import Counter

import pytest

from services.common.errors import IllegalAction
from services.puertorico.actions import (
    BONUS,
    BUILD_ACTION,
    BUILDING_SPACE,
    HACIENDA_ACTION,
    HOSPICE_ACTION,
    LOAD_ACTION,
    MOVE,
    ON_BUILDING,
    ON_TILE,
    PASS_ACTION,
    PLANTATION,
    QUARRY_ACTION,
    SELL_ACTION,
    SINGLE_ACTION,
    UNIVERSITY_ACTION,
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
    FACTORY,
    GUILD_HALL,
    HACIENDA,
    HARBOR,
    HOSPICE,
    INDIGO,
    INDIGO_PLANT,
    LARGE_MARKET,
    LARGE_WAREHOUSE,
    MAYOR,
    OFFICE,
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
    UNIVERSITY,
    WHARF,
)
from services.puertorico.events import (
    DOUBLOONS_FACTORY,
    DOUBLOONS_ROLE_CARD,
    FROM_HOSPICE,
    FROM_PRIVILEGE,
    FROM_SHIP,
    FROM_UNIVERSITY,
    TILE_HACIENDA,
    TILE_QUARRY,
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
    PlantationsRevealed,
    ShipsCleared,
    TileTaken,
    TradingHouseCleared,
    VpReceived,
)
from services.puertorico.scoring import final_scores
from services.puertorico.state import (
    BUILD,
    CHOOSE_ROLE,
    CRAFTSMAN_PRIVILEGE,
    HACIENDA_STEP,
    HOSPICE_STEP,
    LOAD,
    PLACE_COLONIST,
    STORE,
    TAKE_TILE,
    TRIGGER_CITY,
    UNIVERSITY_STEP,
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


def vp_events(events: list[object], seat: int) -> list[tuple[int, int]]:
    """(amount, reason) of every VP award to `seat`."""
    return [(e.amount, e.reason) for e in of_type(events, VpReceived) if e.seat == seat]


# --- Captain phase ---------------------------------------------------------------------------


def test_ruling_01_compulsory_loading_any_kind_on_the_ship_taking_most() -> None:
    """Ruling 1: a player who can load must; any loadable kind, as many as fit, on the ship taking most."""
    state = blank_game(4)
    s5, s6, s7 = ship_of(state, 5), ship_of(state, 6), ship_of(state, 7)
    set_player(state, 1, goods={CORN: 2, SUGAR: 6})
    choose_role(state, 0, CAPTAIN)
    assert (state.step, state.actor) == (LOAD, 1)
    # Corn: every ship takes both (a tie, free choice); sugar: the 6- and 7-hold take all 6, the 5-hold
    # only 5. No pass, although the player may want to keep the goods.
    assert legal(state) == {
        LOAD_ACTION[CORN][s5],
        LOAD_ACTION[CORN][s6],
        LOAD_ACTION[CORN][s7],
        LOAD_ACTION[SUGAR][s6],
        LOAD_ACTION[SUGAR][s7],
    }
    with pytest.raises(IllegalAction):
        play(state, 1, PASS_ACTION)
    with pytest.raises(IllegalAction):
        play(state, 1, LOAD_ACTION[SUGAR][s5])
    # The smaller load is allowed; then sugar is forced onto a ship that takes all 6.
    events = play(state, 1, LOAD_ACTION[CORN][s7])
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(1, CORN, 2, s7), GoodsLoaded(1, SUGAR, 6, s6)]
    assert state.players[1].goods == [0, 0, 0, 0, 0]


def test_ruling_02_one_kind_per_ship_each_kind_on_one_ship_full_ships_take_nothing() -> None:
    """Ruling 2: a ship holds one kind, a kind on one ship cannot go on another, full ships take nothing."""
    state = blank_game(4)
    s5, s6, s7 = ship_of(state, 5), ship_of(state, 6), ship_of(state, 7)
    set_ship(state, 5, CORN, 2)
    set_player(state, 1, goods={CORN: 4, INDIGO: 2})
    set_player(state, 2, goods={CORN: 3, SUGAR: 1})
    choose_role(state, 0, CAPTAIN)
    # Corn only on the corn ship (3 free), although the empty ships would take all 4; indigo on an empty one.
    assert legal(state) == {LOAD_ACTION[CORN][s5], LOAD_ACTION[INDIGO][s6], LOAD_ACTION[INDIGO][s7]}
    play(state, 1, LOAD_ACTION[CORN][s5])
    assert (state.ship_good[s5], state.ship_count[s5]) == (CORN, 5)
    # The corn ship is full: seat 2's corn fits nowhere; sugar may not join indigo's or corn's ship.
    assert state.actor == 2
    assert legal(state) == {LOAD_ACTION[SUGAR][s6], LOAD_ACTION[SUGAR][s7]}
    with pytest.raises(IllegalAction):
        play(state, 2, LOAD_ACTION[CORN][s6])


def test_ruling_03_captain_privilege_once_only_on_the_first_load() -> None:
    """Ruling 3: the captain gets +1 VP once, on the first load, even when loading several kinds."""
    state = blank_game(4)
    set_ship(state, 5, CORN, 1)
    set_ship(state, 6, SUGAR, 1)
    set_player(state, 0, goods={CORN: 2, SUGAR: 3})
    events = choose_role(state, 0, CAPTAIN)
    play_events = play(state, 0, LOAD_ACTION[CORN][ship_of(state, 5)])  # then sugar is forced
    assert vp_events(events + play_events, 0) == [(2, VP_SHIPPING), (1, VP_CAPTAIN), (3, VP_SHIPPING)]
    assert state.players[0].vp == 6


def test_ruling_03_no_captain_privilege_without_a_load() -> None:
    """Ruling 3: there is no privilege if the captain never loads."""
    state = blank_game(4)
    set_ship(state, 5, CORN, 1)
    set_ship(state, 6, SUGAR, 1)
    set_ship(state, 7, COFFEE, 1)
    set_player(state, 0, goods={INDIGO: 2})  # indigo fits no ship: every ship carries another kind
    set_player(state, 1, goods={CORN: 1})
    events = choose_role(state, 0, CAPTAIN)
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(1, CORN, 1, ship_of(state, 5))]
    assert vp_events(events, 0) == []
    assert state.players[0].vp == 0


def test_ruling_03_captain_privilege_on_a_wharf_shipment() -> None:
    """Ruling 3: the privilege also comes when the captain's first load is a wharf shipment."""
    state = blank_game(4)
    set_player(state, 0, goods={COFFEE: 3}, buildings={WHARF: 1})
    choose_role(state, 0, CAPTAIN)
    assert legal(state) == {
        LOAD_ACTION[COFFEE][ship_of(state, 5)],
        LOAD_ACTION[COFFEE][ship_of(state, 6)],
        LOAD_ACTION[COFFEE][ship_of(state, 7)],
        WHARF_ACTION[COFFEE],
    }
    events = play(state, 0, WHARF_ACTION[COFFEE])
    assert vp_events(events, 0) == [(3, VP_SHIPPING), (1, VP_CAPTAIN)]


def test_ruling_04_wharf_duplicates_a_kind_satisfies_the_duty_then_cargo_loading_resumes() -> None:
    """Ruling 4: the wharf is optional, once per phase, may ship a kind already on a cargo ship and
    satisfies the duty; on later turns the owner must still load a cargo ship if able."""
    owner = 1
    state = blank_game(4)
    s5, s6, s7 = ship_of(state, 5), ship_of(state, 6), ship_of(state, 7)
    set_ship(state, 5, CORN, 1)
    set_player(state, owner, goods={CORN: 3, INDIGO: 2}, buildings={WHARF: 1})
    choose_role(state, 0, CAPTAIN)
    assert legal(state) == {
        LOAD_ACTION[CORN][s5],
        LOAD_ACTION[INDIGO][s6],
        LOAD_ACTION[INDIGO][s7],
        WHARF_ACTION[CORN],
        WHARF_ACTION[INDIGO],
    }
    corn_supply = state.goods_supply[CORN]
    events = play(state, owner, WHARF_ACTION[CORN])
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(owner, CORN, 3, WHARF_SHIP)]
    assert state.goods_supply[CORN] == corn_supply + 3
    assert (state.ship_good[s5], state.ship_count[s5]) == (CORN, 1)  # the cargo ship is untouched
    assert (state.step, state.actor) == (LOAD, owner)
    assert legal(state) == {LOAD_ACTION[INDIGO][s6], LOAD_ACTION[INDIGO][s7]}
    with pytest.raises(IllegalAction):
        play(state, owner, WHARF_ACTION[INDIGO])
    with pytest.raises(IllegalAction):
        play(state, owner, PASS_ACTION)


def test_ruling_05_harbor_pays_per_load_action_including_the_wharf() -> None:
    """Ruling 5: the harbor gives +1 VP per load action, cargo ship or wharf."""
    owner = 1
    state = blank_game(4)
    set_ship(state, 5, CORN, 1)
    set_player(state, owner, goods={CORN: 2, COFFEE: 4}, buildings={HARBOR: 1, WHARF: 1})
    choose_role(state, 0, CAPTAIN)
    events = play(state, owner, LOAD_ACTION[CORN][ship_of(state, 5)])
    events += play(state, owner, WHARF_ACTION[COFFEE])
    assert vp_events(events, owner) == [(2, VP_SHIPPING), (1, VP_HARBOR), (4, VP_SHIPPING), (1, VP_HARBOR)]
    assert state.players[owner].vp == 8


def test_ruling_06_warehouse_does_not_exempt_goods_from_compulsory_loading() -> None:
    """Ruling 6: warehouses only protect what is left after loading (S002)."""
    owner = 1
    state = blank_game(4)
    set_ship(state, 5, SUGAR, 1)
    set_ship(state, 6, CORN, 1)
    set_ship(state, 7, COFFEE, 1)
    set_player(state, owner, goods={SUGAR: 6, INDIGO: 1}, buildings={SMALL_WAREHOUSE: 1})
    # The warehouse could keep all 6 sugar, yet 4 must be loaded (the only load, so it is forced).
    events = choose_role(state, 0, CAPTAIN)
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(owner, SUGAR, 4, ship_of(state, 5))]
    # What is left fits: 2 sugar in the warehouse, 1 indigo on the windrose.
    assert of_type(events, GoodsDiscarded) == []
    assert state.players[owner].goods == [0, 1, 2, 0, 0]


def test_ruling_06_storage_only_at_the_end_of_the_captain_phase() -> None:
    """Ruling 6: between captain phases a player may hold any number of goods; storage is checked only
    at the end of the captain phase, where the windrose good may be of any kind."""
    holder = 1
    state = blank_game(4)
    set_player(state, holder, tiles={CORN: (4, 4)}, goods={SUGAR: 3})
    choose_role(state, 0, CRAFTSMAN)
    finish_role(state)
    choose_role(state, 1, TRADER)  # the holder is the trader and sells nothing
    events = play(state, holder, PASS_ACTION)
    events += finish_role(state)
    assert of_type(events, GoodsDiscarded) == []
    assert state.players[holder].goods == [4, 0, 3, 0, 0]
    # Captain: every ship carries another kind, nothing loads; the holder keeps 1 good of a chosen kind.
    set_ship(state, 5, TOBACCO, 1)
    set_ship(state, 6, COFFEE, 1)
    set_ship(state, 7, INDIGO, 1)
    choose_role(state, 2, CAPTAIN)
    assert (state.step, state.actor) == (STORE, holder)
    assert legal(state) == {SINGLE_ACTION[CORN], SINGLE_ACTION[SUGAR]}
    events = play(state, holder, SINGLE_ACTION[SUGAR])
    assert of_type(events, GoodsDiscarded) == [GoodsDiscarded(holder, (4, 0, 2, 0, 0))]
    assert state.players[holder].goods == [0, 0, 1, 0, 0]


def test_ruling_07_only_full_ships_are_cleared() -> None:
    """Ruling 7: only full ships are emptied; a partly loaded ship keeps its cargo and kind."""
    state = blank_game(4)
    s5 = ship_of(state, 5)
    set_ship(state, 5, CORN, 3)
    set_ship(state, 6, SUGAR, 1)
    set_player(state, 1, goods={CORN: 2, SUGAR: 2})
    supply = state.goods_supply[:]
    choose_role(state, 0, CAPTAIN)
    events = play(state, 1, LOAD_ACTION[CORN][s5])  # then sugar is forced onto the 6-hold
    assert of_type(events, ShipsCleared) == [ShipsCleared((s5,))]
    assert (state.ship_good, state.ship_count) == ([-1, SUGAR, -1], [0, 3, 0])
    assert state.goods_supply[CORN] == supply[CORN] + 5
    assert state.goods_supply[SUGAR] == supply[SUGAR]


# --- Settler phase ---------------------------------------------------------------------------


def test_ruling_08_hacienda_draws_before_the_face_up_choice_never_a_quarry_no_hospice() -> None:
    """Ruling 8: the hacienda tile is drawn before the face-up choice and placed at once, unoccupied;
    it is never a quarry and the hospice never applies to it."""
    owner = 1
    state = blank_game(4)
    state.plantation_stack = [INDIGO, INDIGO, COFFEE]  # drawn from the end: coffee first
    state.face_up_plantations = [CORN, SUGAR, SUGAR, TOBACCO, TOBACCO]
    set_player(state, owner, buildings={HACIENDA: 1, HOSPICE: 1})
    quarries, supply = state.quarries, state.colonist_supply
    choose_role(state, 0, SETTLER)
    play(state, 0, PASS_ACTION)
    assert (state.step, state.actor) == (HACIENDA_STEP, owner)
    assert legal(state) == {HACIENDA_ACTION, PASS_ACTION}
    events = play(state, owner, HACIENDA_ACTION)
    assert of_type(events, TileTaken) == [TileTaken(owner, COFFEE, TILE_HACIENDA)]
    assert of_type(events, ColonistsReceived) == []  # no hospice step for the hacienda tile
    assert state.players[owner].tiles[COFFEE] == 1
    assert state.players[owner].occupied[COFFEE] == 0
    # Now the face-up choice; no quarry (neither the settler nor a construction hut owner).
    assert (state.step, state.actor) == (TAKE_TILE, owner)
    assert legal(state) == {PLANTATION[CORN], PLANTATION[SUGAR], PLANTATION[TOBACCO], PASS_ACTION}
    play(state, owner, PLANTATION[SUGAR])
    assert (state.step, legal(state)) == (HOSPICE_STEP, {HOSPICE_ACTION, PASS_ACTION})
    events = play(state, owner, HOSPICE_ACTION)
    assert of_type(events, ColonistsReceived) == [ColonistsReceived(owner, 1, FROM_HOSPICE)]
    player = state.players[owner]
    assert (player.tiles, player.occupied) == ([0, 0, 1, 0, 1, 0, 0], [0, 0, 1, 0, 0, 0])
    assert (state.quarries, state.colonist_supply) == (quarries, supply - 1)


def test_ruling_09_settler_with_construction_hut_still_gets_one_quarry() -> None:
    """Ruling 9: a settler who also has a construction hut gets one quarry only."""
    state = blank_game(4)
    set_player(state, 0, buildings={CONSTRUCTION_HUT: 1})
    quarries = state.quarries
    choose_role(state, 0, SETTLER)
    assert legal(state) == {
        *(PLANTATION[g] for g in set(state.face_up_plantations)),
        QUARRY_ACTION,
        PASS_ACTION,
    }
    events = play(state, 0, QUARRY_ACTION)
    assert of_type(events, TileTaken) == [TileTaken(0, QUARRY, TILE_QUARRY)]
    assert state.players[0].tiles[QUARRY] == 1
    assert state.quarries == quarries - 1
    assert (state.step, state.actor) == (TAKE_TILE, 1)  # the settler's turn is over


def test_ruling_09_empty_quarry_stack_voids_privilege_and_construction_hut() -> None:
    """Ruling 9: with no quarry left, the settler's privilege and the construction hut do nothing."""
    state = blank_game(4)
    state.quarries = 0
    set_player(state, 1, buildings={CONSTRUCTION_HUT: 1})
    face_up = {PLANTATION[g] for g in set(state.face_up_plantations)}
    choose_role(state, 0, SETTLER)
    assert legal(state) == face_up | {PASS_ACTION}
    play(state, 0, PASS_ACTION)
    assert state.actor == 1
    assert legal(state) == face_up | {PASS_ACTION}


def test_ruling_10_hospice_takes_from_the_ship_when_the_supply_is_empty() -> None:
    """Ruling 10: the hospice colonist comes from the ship when the supply is empty; none if both are."""
    state = blank_game(4)
    state.colonist_supply, state.colonist_ship = 0, 1
    set_player(state, 0, buildings={HOSPICE: 1})
    set_player(state, 1, buildings={HOSPICE: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, QUARRY_ACTION)
    events = play(state, 0, HOSPICE_ACTION)
    assert of_type(events, ColonistsReceived) == [ColonistsReceived(0, 1, FROM_HOSPICE)]
    assert state.players[0].occupied[QUARRY] == 1
    assert (state.colonist_supply, state.colonist_ship) == (0, 0)
    # Supply and ship are now empty: seat 1 is not offered the hospice after taking a tile.
    events = play(state, 1, PLANTATION[state.face_up_plantations[0]])
    assert state.step == TAKE_TILE and state.actor == 2
    assert of_type(events, ColonistsReceived) == []


def test_ruling_10_university_gives_exactly_one_colonist_from_the_ship() -> None:
    """Ruling 10: the university gives exactly 1 colonist, even to a 3-circle building, from the ship
    when the supply is empty."""
    state = blank_game(4)
    state.colonist_supply, state.colonist_ship = 0, 3
    set_player(state, 0, buildings={UNIVERSITY: 1}, doubloons=3)
    choose_role(state, 0, BUILDER)
    play(state, 0, BUILD_ACTION[SUGAR_MILL])
    assert (state.step, legal(state)) == (UNIVERSITY_STEP, {UNIVERSITY_ACTION, PASS_ACTION})
    events = play(state, 0, UNIVERSITY_ACTION)
    assert of_type(events, ColonistsReceived) == [ColonistsReceived(0, 1, FROM_UNIVERSITY)]
    assert state.players[0].buildings == {UNIVERSITY: 1, SUGAR_MILL: 1}
    assert (state.colonist_supply, state.colonist_ship) == (0, 2)


def test_ruling_10_university_with_supply_and_ship_empty_gives_nothing() -> None:
    """Ruling 10: with supply and ship both empty the university does nothing (no step is offered)."""
    state = blank_game(4)
    state.colonist_supply, state.colonist_ship = 0, 0
    set_player(state, 0, buildings={UNIVERSITY: 1}, doubloons=3)
    set_player(state, 1, doubloons=1)
    choose_role(state, 0, BUILDER)
    play(state, 0, BUILD_ACTION[SUGAR_MILL])
    assert (state.step, state.actor) == (BUILD, 1)
    assert state.players[0].buildings == {UNIVERSITY: 1, SUGAR_MILL: 0}


# --- Mayor phase -----------------------------------------------------------------------------


def test_ruling_11_mayor_privilege_only_from_the_supply() -> None:
    """Ruling 11: the privilege colonist comes from the supply, never the ship; none if the supply is
    empty. The ship is dealt one at a time from the mayor."""
    state = blank_game(4)
    state.colonist_supply, state.colonist_ship = 0, 6
    events = choose_role(state, 1, MAYOR)  # no privilege step, nothing else to decide
    assert of_type(events, ColonistsReceived) == [
        ColonistsReceived(1, 2, FROM_SHIP),
        ColonistsReceived(2, 2, FROM_SHIP),
        ColonistsReceived(3, 1, FROM_SHIP),
        ColonistsReceived(0, 1, FROM_SHIP),
    ]
    assert FROM_PRIVILEGE not in {e.source for e in of_type(events, ColonistsReceived)}
    assert [p.san_juan for p in state.players] == [1, 2, 2, 1]


def test_ruling_11_san_juan_only_when_no_circle_is_empty() -> None:
    """Ruling 11: colonists may stay in San Juan only when the player has no empty circle."""
    state = blank_game(4)
    state.colonist_ship = 4
    # Seat 0: 2 colonists (1 on the ship's deal + 1 already placed) and 3 circles: both must be placed.
    set_player(state, 0, tiles={CORN: (1, 1), SUGAR: (1, 0)}, buildings={SMALL_MARKET: 0})
    # Seat 1: 4 colonists (3 in San Juan + 1 dealt) and 2 circles: both fill, 2 stay in San Juan.
    set_player(state, 1, tiles={INDIGO: (1, 0)}, buildings={SMALL_INDIGO_PLANT: 0}, san_juan=3)
    choose_role(state, 0, MAYOR)
    play(state, 0, PASS_ACTION)
    assert (state.step, state.actor) == (PLACE_COLONIST, 0)
    # The new colonist waits in San Juan while circles are empty: it must be placed (no pass).
    assert legal(state) == {ON_TILE[SUGAR], ON_BUILDING[SMALL_MARKET]}
    with pytest.raises(IllegalAction):
        play(state, 0, PASS_ACTION)
    play(state, 0, ON_TILE[SUGAR])
    # The corn colonist may move too; moving it onto the market leaves nothing else to decide.
    play(state, 0, MOVE[CORN, BUILDING_SPACE + SMALL_MARKET])
    assert state.step == CHOOSE_ROLE
    first, second = state.players[0], state.players[1]
    assert (first.occupied[:3], first.buildings, first.san_juan) == ([0, 0, 1], {SMALL_MARKET: 1}, 0)
    assert (second.occupied[INDIGO], second.buildings, second.san_juan) == (1, {SMALL_INDIGO_PLANT: 1}, 2)


@pytest.mark.parametrize(
    ("n", "buildings", "refill"),
    [
        # 1 + 1 empty building circles: the minimum, 4 players, applies.
        (4, [{}, {SMALL_MARKET: 0}, {SMALL_SUGAR_MILL: 0}, {}], 4),
        # 2 (sugar mill with 1 colonist) + 3 + 1 = 6 empty building circles.
        (4, [{}, {SUGAR_MILL: 1}, {TOBACCO_STORAGE: 0, SMALL_MARKET: 0}, {}], 6),
        (2, [{}, {}], 2),
        (3, [{COFFEE_ROASTER: 0}, {SUGAR_MILL: 0}, {}], 5),
        (5, [{SMALL_MARKET: 0}, {}, {}, {}, {}], 5),
    ],
)
def test_ruling_12_ship_refill_counts_empty_building_circles_with_players_as_minimum(
    n: int, buildings: list[dict[int, int]], refill: int
) -> None:
    """Ruling 12: the refill counts empty building circles of all players (not plantations or
    quarries), with a minimum equal to the number of players."""
    state = blank_game(n)
    state.colonist_ship = 0
    for seat, owned in enumerate(buildings):
        set_player(state, seat, buildings=owned)
    set_player(state, n - 1, tiles={CORN: (6, 0), QUARRY: (3, 0)})  # 9 empty circles that do not count
    supply = state.colonist_supply
    events = choose_role(state, 0, MAYOR)
    events += play(state, 0, PASS_ACTION)  # no privilege: nobody gets a colonist
    assert of_type(events, ColonistShipRefilled) == [ColonistShipRefilled(refill)]
    assert (state.colonist_ship, state.colonist_supply) == (refill, supply - refill)
    assert of_type(events, EndTriggered) == []


# --- End of the game -------------------------------------------------------------------------


def test_ruling_13_end_trigger_acts_at_the_end_of_the_round() -> None:
    """Ruling 13: a trigger never ends the game at once; the round is played out in full."""
    state = blank_game(3, governor=0)
    eleven = [
        SMALL_INDIGO_PLANT,
        SMALL_SUGAR_MILL,
        INDIGO_PLANT,
        SUGAR_MILL,
        TOBACCO_STORAGE,
        COFFEE_ROASTER,
        SMALL_MARKET,
        HACIENDA,
        CONSTRUCTION_HUT,
        SMALL_WAREHOUSE,
        HOSPICE,
    ]
    set_player(state, 0, buildings=dict.fromkeys(eleven, 0), doubloons=5)
    set_player(state, 1, doubloons=5)
    choose_role(state, 0, BUILDER)
    events = play(state, 0, BUILD_ACTION[OFFICE])  # the 12th city space
    assert of_type(events, EndTriggered) == [EndTriggered(TRIGGER_CITY)]
    assert state.players[0].city_used() == 12
    # The other players still build, and the two remaining roles are still chosen and carried out.
    assert (state.step, state.actor) == (BUILD, 1)
    play(state, 1, BUILD_ACTION[LARGE_MARKET])
    assert state.players[1].buildings == {LARGE_MARKET: 0}
    assert (state.step, state.actor) == (CHOOSE_ROLE, 1)
    choose_role(state, 1, CRAFTSMAN)
    assert (state.step, state.actor, state.terminal) == (CHOOSE_ROLE, 2, False)
    events = choose_role(state, 2, TRADER)
    assert len(of_type(events, GameEnded)) == 1
    assert state.terminal


def test_ruling_14_factory_counts_kinds_received_not_the_privilege_good() -> None:
    """Ruling 14: the factory pays on the kinds actually received; the privilege good does not count."""
    state = blank_game(4)
    set_player(
        state,
        0,
        tiles={CORN: (1, 1), INDIGO: (1, 1), SUGAR: (1, 1)},
        buildings={FACTORY: 1, SMALL_INDIGO_PLANT: 1, SMALL_SUGAR_MILL: 1},
    )
    state.goods_supply[SUGAR] = 0
    events = choose_role(state, 0, CRAFTSMAN)
    assert of_type(events, GoodsProduced) == [GoodsProduced(0, (1, 1, 0, 0, 0), False)]
    assert of_type(events, DoubloonsReceived) == [DoubloonsReceived(0, 1, DOUBLOONS_FACTORY)]  # 2 kinds
    events = play(state, 0, BONUS[INDIGO])
    assert of_type(events, DoubloonsReceived) == []
    assert (state.players[0].goods, state.players[0].doubloons) == ([1, 2, 0, 0, 0], 1)


# --- Trader phase ----------------------------------------------------------------------------


def test_ruling_15_one_sale_each_and_the_house_is_emptied_only_when_full() -> None:
    """Ruling 15: each player sells at most 1 good; the house is emptied only when it holds 4 goods."""
    state = blank_game(4)
    state.trading_house = [CORN, INDIGO]
    set_player(state, 0, goods={SUGAR: 3, TOBACCO: 1})
    set_player(state, 2, goods={COFFEE: 1})
    choose_role(state, 0, TRADER)
    assert legal(state) == {SELL_ACTION[SUGAR], SELL_ACTION[TOBACCO], PASS_ACTION}
    play(state, 0, SELL_ACTION[SUGAR])
    assert state.actor == 2  # one sale only: the turn moves on (seat 1 holds nothing)
    events = play(state, 2, PASS_ACTION)
    assert of_type(events, TradingHouseCleared) == []
    assert state.trading_house == [CORN, INDIGO, SUGAR]  # 3 goods stay for the next trader phase
    assert state.players[0].goods == [0, 0, 2, 1, 0]
    assert state.step == CHOOSE_ROLE


def test_ruling_15_full_house_emptied_at_the_end_of_the_phase() -> None:
    """Ruling 15: a house holding exactly 4 goods at the end of the phase is emptied into the supply."""
    state = blank_game(4)
    state.trading_house = [CORN, INDIGO, SUGAR]
    set_player(state, 1, goods={COFFEE: 1})
    supply = state.goods_supply[:]
    events = choose_role(state, 0, TRADER)  # seat 0 holds nothing: forced pass
    events += play(state, 1, SELL_ACTION[COFFEE])
    assert of_type(events, TradingHouseCleared) == [TradingHouseCleared()]
    assert state.trading_house == []
    assert [now - before for now, before in zip(state.goods_supply, supply, strict=True)] == [1, 1, 1, 0, 1]


@pytest.mark.parametrize(
    ("seller", "buildings", "revenue"),
    [
        (1, {}, 0),  # corn for 0 is a legal sale
        (0, {}, 1),  # the trader's privilege
        (1, {SMALL_MARKET: 1}, 1),
        (1, {SMALL_MARKET: 1, LARGE_MARKET: 1}, 3),
        (0, {SMALL_MARKET: 1, LARGE_MARKET: 1}, 4),
    ],
)
def test_ruling_16_corn_sells_for_zero_plus_bonuses(
    seller: int, buildings: dict[int, int], revenue: int
) -> None:
    """Ruling 16: corn may be sold for 0 plus bonuses; the small market gives +1 on a corn sale."""
    state = blank_game(4)
    set_player(state, seller, goods={CORN: 1}, buildings=buildings)
    choose_role(state, 0, TRADER)
    assert state.actor == seller
    assert legal(state) == {SELL_ACTION[CORN], PASS_ACTION}
    events = play(state, seller, SELL_ACTION[CORN])
    assert of_type(events, GoodSold) == [GoodSold(seller, CORN, revenue)]
    assert state.players[seller].doubloons == revenue
    assert state.trading_house == [CORN]


# --- Roles -----------------------------------------------------------------------------------


@pytest.mark.parametrize("role", [BUILDER, TRADER, SETTLER])
def test_ruling_17_role_doubloons_taken_even_when_declining(role: int) -> None:
    """Ruling 17: the selector takes the doubloons on the role even if they decline the action."""
    state = blank_game(4)
    state.role_doubloons[state.roles.index(role)] = 2
    set_player(state, 0, goods={SUGAR: 1})
    events = choose_role(state, 0, role)
    assert of_type(events, DoubloonsReceived) == [DoubloonsReceived(0, 2, DOUBLOONS_ROLE_CARD)]
    events = play(state, 0, PASS_ACTION)
    assert of_type(events, Passed)[0].seat == 0
    finish_role(state)
    assert state.players[0].doubloons == 2
    assert state.role_doubloons[state.roles.index(role)] == 0


def test_ruling_18_craftsman_privilege_only_a_produced_kind_in_supply() -> None:
    """Ruling 18: one good of a kind the craftsman received this phase, if the supply has one."""
    state = blank_game(4)
    set_player(state, 0, tiles={CORN: (1, 1), INDIGO: (2, 2)}, buildings={INDIGO_PLANT: 2})
    set_player(state, 1, tiles={INDIGO: (2, 2)}, buildings={INDIGO_PLANT: 2})
    state.goods_supply[INDIGO] = 4  # seat 0 takes 2, seat 1 the last 2
    choose_role(state, 0, CRAFTSMAN)
    assert (state.step, state.actor) == (CRAFTSMAN_PRIVILEGE, 0)
    assert state.goods_supply[INDIGO] == 0
    assert legal(state) == {BONUS[CORN], PASS_ACTION}  # indigo produced but gone; sugar never produced
    with pytest.raises(IllegalAction):
        play(state, 0, BONUS[SUGAR])
    events = play(state, 0, BONUS[CORN])
    assert of_type(events, GoodsProduced) == [GoodsProduced(0, (1, 0, 0, 0, 0), True)]
    assert state.players[0].goods == [2, 2, 0, 0, 0]


def test_ruling_18_no_craftsman_privilege_without_production() -> None:
    """Ruling 18: there is no privilege if the craftsman produced nothing."""
    state = blank_game(4)
    set_player(state, 1, tiles={CORN: (2, 2)})
    events = choose_role(state, 0, CRAFTSMAN)
    assert of_type(events, GoodsProduced) == [GoodsProduced(1, (2, 0, 0, 0, 0), False)]
    assert state.step == CHOOSE_ROLE
    assert state.players[0].goods == [0, 0, 0, 0, 0]


def test_ruling_19_full_island_takes_nothing() -> None:
    """Ruling 19: a player with 12 filled island spaces takes nothing (is not even asked)."""
    state = blank_game(4)
    set_player(state, 1, tiles={CORN: (6, 0), QUARRY: (6, 0)}, buildings={HACIENDA: 1})
    choose_role(state, 0, SETTLER)
    events = play(state, 0, PASS_ACTION)
    assert (state.step, state.actor) == (TAKE_TILE, 2)
    assert of_type(events, TileTaken) == []
    assert state.players[1].island_used() == 12


def test_ruling_19_refill_reshuffles_the_discards_when_the_stack_runs_out() -> None:
    """Ruling 19: face-up tiles not taken are discarded; the refill reshuffles the discards when the
    stack runs out."""
    state = blank_game(4)
    state.face_up_plantations = [CORN, INDIGO, SUGAR, TOBACCO, COFFEE]
    state.plantation_stack = [SUGAR, SUGAR]
    state.plantation_discards = [INDIGO]
    choose_role(state, 0, SETTLER)
    play(state, 0, PLANTATION[CORN])
    events = finish_role(state)
    revealed = of_type(events, PlantationsRevealed)
    assert len(revealed) == 1
    assert len(state.face_up_plantations) == 5
    # 2 sugar from the stack, then 3 of the 5 reshuffled discards; the other 2 form the new stack.
    assert Counter(state.face_up_plantations) - Counter([SUGAR, SUGAR]) + Counter(
        state.plantation_stack
    ) == Counter([INDIGO, INDIGO, SUGAR, TOBACCO, COFFEE])
    assert len(state.plantation_stack) == 2
    assert state.plantation_discards == []
    assert list(revealed[0].tiles) == sorted(state.face_up_plantations)


def test_ruling_19_fewer_tiles_revealed_when_still_short() -> None:
    """Ruling 19: if the stack and discards together are short, fewer tiles are revealed."""
    state = blank_game(4)
    state.face_up_plantations = [CORN, INDIGO]
    state.plantation_stack = []
    state.plantation_discards = [TOBACCO]
    choose_role(state, 0, SETTLER)
    play(state, 0, PLANTATION[CORN])
    events = finish_role(state)
    assert of_type(events, PlantationsRevealed) == [PlantationsRevealed((INDIGO, TOBACCO))]
    assert (state.face_up_plantations, state.plantation_stack, state.plantation_discards) == (
        [INDIGO, TOBACCO],
        [],
        [],
    )


# --- Builder phase and buildings -------------------------------------------------------------


def score_lines(state: State, seat: int) -> dict[str, int]:
    """The lines of `seat`'s final score, by name."""
    return dict(final_scores(state).seats[seat].items)


def test_ruling_20_residence_counts_filled_island_spaces_occupied_or_not() -> None:
    """Ruling 20: the residence counts filled island spaces, occupied or not."""
    state = blank_game(4)
    set_player(state, 0, tiles={CORN: (5, 0), SUGAR: (3, 0), QUARRY: (3, 0)}, buildings={RESIDENCE: 1})
    assert score_lines(state, 0)["residence"] == 6


def test_ruling_21_one_building_of_each_name() -> None:
    """Ruling 21: one building of each name; small and large production buildings are different names."""
    state = blank_game(4)
    set_player(state, 0, buildings={SMALL_INDIGO_PLANT: 1, SMALL_MARKET: 1}, doubloons=2)
    choose_role(state, 0, BUILDER)
    # 2 doubloons + privilege: cost <= 3. Owned names are missing; the indigo plant is offered.
    assert legal(state) == {
        BUILD_ACTION[SMALL_SUGAR_MILL],
        BUILD_ACTION[INDIGO_PLANT],
        BUILD_ACTION[HACIENDA],
        BUILD_ACTION[CONSTRUCTION_HUT],
        BUILD_ACTION[SMALL_WAREHOUSE],
        PASS_ACTION,
    }
    with pytest.raises(IllegalAction):
        play(state, 0, BUILD_ACTION[SMALL_INDIGO_PLANT])
    play(state, 0, BUILD_ACTION[INDIGO_PLANT])
    assert set(state.players[0].buildings) == {SMALL_INDIGO_PLANT, SMALL_MARKET, INDIGO_PLANT}


def test_ruling_22_builder_privilege_is_not_money() -> None:
    """Ruling 22: a builder who builds nothing gets no doubloon for the privilege."""
    state = blank_game(4)
    set_player(state, 0, doubloons=4)
    events = choose_role(state, 0, BUILDER)
    events += play(state, 0, PASS_ACTION)
    events += finish_role(state)
    assert of_type(events, DoubloonsReceived) == []
    assert state.players[0].doubloons == 4


@pytest.mark.parametrize(
    ("building", "as_builder", "price"),
    [
        (SMALL_MARKET, True, 0),  # 1 - 1 quarry (col 1) - 1 privilege = -1 -> 0
        (SMALL_MARKET, False, 0),
        (INDIGO_PLANT, False, 1),  # 3 - 2 (col 2, although 4 quarries are occupied)
        (HARBOR, False, 5),  # 8 - 3 (col 3)
        (HARBOR, True, 4),  # the privilege stacks with the capped quarries
        (CITY_HALL, False, 6),  # 10 - 4 (col 4)
    ],
)
def test_ruling_23_price_floor_and_quarry_cap(building: int, as_builder: bool, price: int) -> None:
    """Ruling 23: the price never goes below 0; the quarry discount is capped at Col."""
    buyer = 0 if as_builder else 1
    state = blank_game(4)
    set_player(state, buyer, tiles={QUARRY: (5, 4)}, doubloons=price)
    choose_role(state, 0, BUILDER)
    if not as_builder:
        play(state, 0, PASS_ACTION)
    assert state.actor == buyer
    events = play(state, buyer, BUILD_ACTION[building])
    assert of_type(events, BuildingBuilt) == [BuildingBuilt(buyer, building, price)]
    assert state.players[buyer].doubloons == 0


def test_ruling_24_large_building_needs_two_free_city_spaces() -> None:
    """Ruling 24: a large building needs 2 free city spaces."""
    state = blank_game(4)
    eleven = [
        SMALL_INDIGO_PLANT,
        SMALL_SUGAR_MILL,
        INDIGO_PLANT,
        SUGAR_MILL,
        TOBACCO_STORAGE,
        COFFEE_ROASTER,
        SMALL_MARKET,
        HACIENDA,
        CONSTRUCTION_HUT,
        SMALL_WAREHOUSE,
        HOSPICE,
    ]
    set_player(state, 0, buildings=dict.fromkeys(eleven, 0), doubloons=20)
    choose_role(state, 0, BUILDER)
    offered = {action.arg for action in legal(state) if action != PASS_ACTION}
    assert offered == {OFFICE, LARGE_MARKET, LARGE_WAREHOUSE, FACTORY, UNIVERSITY, HARBOR, WHARF}
    assert all(BUILDINGS[b].spaces == 1 for b in offered)
    with pytest.raises(IllegalAction):
        play(state, 0, BUILD_ACTION[RESIDENCE])


def test_ruling_25_printed_vp_count_unoccupied_bonuses_only_occupied() -> None:
    """Ruling 25: printed VP count whether or not the building is occupied; large-building bonuses only
    if it is occupied."""
    state = blank_game(4)
    set_player(state, 0, vp=3, buildings={HARBOR: 0, CITY_HALL: 0, SMALL_MARKET: 0})
    set_player(state, 1, vp=3, buildings={HARBOR: 0, CITY_HALL: 1, SMALL_MARKET: 0})
    assert score_lines(state, 0) == {"VP chips": 3, "buildings": 3 + 4 + 1}
    assert score_lines(state, 1) == {"VP chips": 3, "buildings": 3 + 4 + 1, "city hall": 3}
    scores = final_scores(state)
    assert (scores.seats[0].total, scores.seats[1].total) == (11, 14)


def test_ruling_26_only_occupied_buildings_function() -> None:
    """Ruling 26: only occupied buildings function: an empty harbor, wharf and small market do nothing."""
    state = blank_game(4)
    set_ship(state, 5, CORN, 1)
    set_player(state, 1, goods={CORN: 2, COFFEE: 2}, buildings={HARBOR: 0, WHARF: 0, SMALL_MARKET: 0})
    choose_role(state, 0, CAPTAIN)
    # No wharf shipment is offered; corn is the only load (coffee would go on an empty ship).
    assert legal(state, 1) == {
        LOAD_ACTION[CORN][ship_of(state, 5)],
        LOAD_ACTION[COFFEE][ship_of(state, 6)],
        LOAD_ACTION[COFFEE][ship_of(state, 7)],
    }
    events = play(state, 1, LOAD_ACTION[CORN][ship_of(state, 5)])
    events += play(state, 1, LOAD_ACTION[COFFEE][ship_of(state, 6)])
    assert vp_events(events, 1) == [(2, VP_SHIPPING), (2, VP_SHIPPING)]  # no harbor VP
    state.trading_house = []
    set_player(state, 1, goods={SUGAR: 1})
    choose_role(state, 1, TRADER)
    events = play(state, 1, SELL_ACTION[SUGAR])
    assert of_type(events, GoodSold) == [GoodSold(1, SUGAR, 2 + 1)]  # price + privilege, no market


def test_ruling_27_violet_effects_are_optional_the_wharf_may_be_declined() -> None:
    """Ruling 27: an owner may decline to use the wharf (when no cargo ship can be loaded)."""
    owner = 1
    state = blank_game(4)
    set_ship(state, 5, CORN, 1)
    set_ship(state, 6, SUGAR, 1)
    set_ship(state, 7, INDIGO, 1)
    set_player(state, owner, goods={COFFEE: 2}, buildings={WHARF: 1})
    choose_role(state, 0, CAPTAIN)
    assert legal(state) == {WHARF_ACTION[COFFEE], PASS_ACTION}
    events = play(state, owner, PASS_ACTION)
    assert of_type(events, Passed) == [Passed(owner, LOAD)]
    assert of_type(events, GoodsDiscarded) == [GoodsDiscarded(owner, (0, 0, 0, 0, 1))]
    assert state.players[owner].goods == [0, 0, 0, 0, 1]
    assert state.players[owner].vp == 0


def test_ruling_28_craftsman_production_in_seat_order_with_a_short_supply() -> None:
    """Ruling 28: production is resolved in seat order from the craftsman; earlier players get the goods."""
    state = blank_game(4)
    for seat in range(4):
        set_player(state, seat, tiles={SUGAR: (2, 2)}, buildings={SUGAR_MILL: 2})
    state.goods_supply[SUGAR] = 3
    events = choose_role(state, 2, CRAFTSMAN)
    assert of_type(events, GoodsProduced) == [
        GoodsProduced(2, (0, 0, 2, 0, 0), False),
        GoodsProduced(3, (0, 0, 1, 0, 0), False),
    ]
    assert [p.goods[SUGAR] for p in state.players] == [0, 0, 2, 1]
    assert state.goods_supply[SUGAR] == 0
    assert state.step == CHOOSE_ROLE  # no sugar left for the privilege


def test_ruling_29_guild_hall_counts_unoccupied_production_buildings() -> None:
    """Ruling 29: guild hall bonuses count production buildings whether or not they are occupied."""
    state = blank_game(4)
    set_player(
        state,
        0,
        buildings={GUILD_HALL: 1, SMALL_SUGAR_MILL: 0, SUGAR_MILL: 0, TOBACCO_STORAGE: 0, COFFEE_ROASTER: 0},
    )
    assert score_lines(state, 0)["guild hall"] == 1 + 2 + 2 + 2

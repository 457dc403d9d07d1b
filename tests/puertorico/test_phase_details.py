"""Further phase details of the rules file (shared/rules/puerto_rico.md §3-§5, §7.1) that neither a
worked example nor a numbered ruling pins down on its own: role choice, hacienda edge cases, the
factory table, the trader privilege, the captain privilege on a later lap, the warehouses one by
one, copies for sale, the city hall, and trigger (b) with a large building."""

from __future__ import annotations

import pytest

from services.common.errors import IllegalAction
from services.puertorico.actions import (
    BUILD_ACTION,
    HACIENDA_ACTION,
    PASS_ACTION,
    PLANTATION,
    QUARRY_ACTION,
    ROLE,
    SELL_ACTION,
    SINGLE_ACTION,
    WAREHOUSE_ACTION,
    WHARF_ACTION,
    Action,
)
from services.puertorico.data import (
    BUILDER,
    CAPTAIN,
    CITY_HALL,
    COFFEE,
    COFFEE_ROASTER,
    CONSTRUCTION_HUT,
    CORN,
    CRAFTSMAN,
    FACTORY,
    HACIENDA,
    HARBOR,
    INDIGO,
    INDIGO_PLANT,
    LARGE_WAREHOUSE,
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
    WHARF,
)
from services.puertorico.events import (
    DOUBLOONS_FACTORY,
    TILE_HACIENDA,
    VP_CAPTAIN,
    VP_SHIPPING,
    BuildingBuilt,
    DoubloonsReceived,
    EndTriggered,
    GoodsDiscarded,
    GoodsLoaded,
    GoodSold,
    TileTaken,
    VpReceived,
)
from services.puertorico.scoring import final_scores
from services.puertorico.state import (
    CHOOSE_ROLE,
    HACIENDA_STEP,
    LOAD,
    STORE,
    TAKE_TILE,
    TRIGGER_CITY,
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
)

# --- §3 Role choice --------------------------------------------------------------------------


def test_role_choice_is_compulsory_and_a_taken_role_is_gone_for_the_round() -> None:
    """§3 steps 2 and 4: passing is not allowed; a role taken this round cannot be taken again."""
    state = blank_game(4, governor=0)
    with pytest.raises(IllegalAction):
        play(state, 0, PASS_ACTION)
    play(state, 0, ROLE[CRAFTSMAN])
    assert (state.step, state.actor) == (CHOOSE_ROLE, 1)
    with pytest.raises(IllegalAction):
        play(state, 1, ROLE[CRAFTSMAN])
    assert ROLE[CRAFTSMAN] not in legal(state)


# --- §4.1 Settler: hacienda edge cases -------------------------------------------------------


def test_hacienda_tile_filling_the_island_ends_the_turn() -> None:
    """§4.1 steps 1-2: with 11 filled spaces, the hacienda tile fills the 12th; then P takes nothing."""
    owner = 1
    state = blank_game(4)
    state.plantation_stack = [TOBACCO]
    set_player(state, owner, tiles={CORN: (6, 0), QUARRY: (5, 0)}, buildings={HACIENDA: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, PASS_ACTION)
    events = play(state, owner, HACIENDA_ACTION)
    assert of_type(events, TileTaken) == [TileTaken(owner, TOBACCO, TILE_HACIENDA)]
    assert state.players[owner].island_used() == 12
    assert (state.step, state.actor) == (TAKE_TILE, 2)


def test_hacienda_reshuffles_the_discards_when_the_stack_is_empty() -> None:
    """§4.1 step 2: if the stack is empty, the discard pile is reshuffled into a new stack first."""
    owner = 1
    state = blank_game(4)
    state.plantation_stack, state.plantation_discards = [], [COFFEE]
    set_player(state, owner, buildings={HACIENDA: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, PASS_ACTION)
    assert (state.step, legal(state)) == (HACIENDA_STEP, {HACIENDA_ACTION, PASS_ACTION})
    events = play(state, owner, HACIENDA_ACTION)
    assert of_type(events, TileTaken) == [TileTaken(owner, COFFEE, TILE_HACIENDA)]
    assert (state.plantation_stack, state.plantation_discards) == ([], [])


def test_hacienda_does_nothing_without_any_tile_to_draw() -> None:
    """§4.1 step 2: with no stack and no discards the hacienda does nothing (no draw is offered)."""
    owner = 1
    state = blank_game(4)
    state.plantation_stack, state.plantation_discards = [], []
    set_player(state, owner, buildings={HACIENDA: 1, CONSTRUCTION_HUT: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, PASS_ACTION)
    assert (state.step, state.actor) == (TAKE_TILE, owner)
    assert legal(state) == {
        *(PLANTATION[g] for g in set(state.face_up_plantations)),
        QUARRY_ACTION,
        PASS_ACTION,
    }


# --- §4.4 Factory table ----------------------------------------------------------------------


@pytest.mark.parametrize(("kinds", "pay"), [(1, 0), (2, 1), (3, 2), (4, 3), (5, 5)])
def test_factory_pays_by_kinds_produced(kinds: int, pay: int) -> None:
    """§4.4: the factory pays 0/1/2/3/5 doubloons for 1/2/3/4/5 kinds (0 or 1 kind -> 0)."""
    goods = [CORN, INDIGO, SUGAR, TOBACCO, COFFEE][:kinds]
    plants = {
        INDIGO: SMALL_INDIGO_PLANT,
        SUGAR: SMALL_SUGAR_MILL,
        TOBACCO: TOBACCO_STORAGE,
        COFFEE: COFFEE_ROASTER,
    }
    state = blank_game(4)
    set_player(
        state,
        1,
        tiles={good: (1, 1) for good in goods},
        buildings={FACTORY: 1, **{plants[good]: 1 for good in goods if good != CORN}},
    )
    events = choose_role(state, 0, CRAFTSMAN)
    assert state.players[1].goods == [1 if good in goods else 0 for good in range(5)]
    assert of_type(events, DoubloonsReceived) == (
        [DoubloonsReceived(1, pay, DOUBLOONS_FACTORY)] if pay else []
    )
    assert state.players[1].doubloons == pay


# --- §4.5 Trader privilege -------------------------------------------------------------------


def test_trader_privilege_only_when_the_trader_sells() -> None:
    """§4.5 step 2: the trader's +1 applies only if the trader actually sells."""
    state = blank_game(4)
    set_player(state, 0, goods={COFFEE: 1})
    set_player(state, 1, goods={COFFEE: 1})
    choose_role(state, 0, TRADER)
    events = play(state, 0, PASS_ACTION)
    events += play(state, 1, SELL_ACTION[COFFEE])
    assert of_type(events, GoodSold) == [GoodSold(1, COFFEE, 4)]
    assert [p.doubloons for p in state.players] == [0, 4, 0, 0]


# --- §4.6 Captain ----------------------------------------------------------------------------


def test_captain_privilege_on_a_first_load_in_a_later_lap() -> None:
    """§4.6 step 3: the +1 comes with the captain's first load of the phase, even in a later lap."""
    state = blank_game(4)
    set_ship(state, 5, CORN, 1)
    set_ship(state, 6, SUGAR, 1)
    set_ship(state, 7, INDIGO, 1)
    set_player(state, 0, goods={COFFEE: 2}, buildings={WHARF: 1})
    set_player(state, 1, goods={CORN: 1})
    choose_role(state, 0, CAPTAIN)
    assert (state.step, state.actor) == (LOAD, 0)
    assert legal(state) == {WHARF_ACTION[COFFEE], PASS_ACTION}
    events = play(state, 0, PASS_ACTION)  # lap 1: the captain passes; seat 1's corn load is forced
    assert of_type(events, GoodsLoaded) == [GoodsLoaded(1, CORN, 1, 0)]
    assert (state.step, state.actor) == (LOAD, 0)  # lap 2
    events = play(state, 0, WHARF_ACTION[COFFEE])
    assert of_type(events, VpReceived) == [
        VpReceived(0, 2, VP_SHIPPING, False),
        VpReceived(0, 1, VP_CAPTAIN, False),
    ]


@pytest.mark.parametrize(
    ("buildings", "choices", "kept"),
    [
        # Small warehouse: all of 1 kind + the windrose good.
        ({SMALL_WAREHOUSE: 1}, [WAREHOUSE_ACTION[SUGAR], SINGLE_ACTION[CORN]], [1, 0, 4, 0, 0]),
        # Large warehouse: all of 2 kinds + the windrose good (the single corn is then the only choice
        # left, so the engine takes it).
        (
            {LARGE_WAREHOUSE: 1},
            [WAREHOUSE_ACTION[SUGAR], WAREHOUSE_ACTION[INDIGO]],
            [1, 3, 4, 0, 0],
        ),
        # Unoccupied warehouses keep nothing: only the windrose good.
        ({LARGE_WAREHOUSE: 0, SMALL_WAREHOUSE: 0}, [SINGLE_ACTION[INDIGO]], [0, 1, 0, 0, 0]),
    ],
)
def test_warehouse_capacity(buildings: dict[int, int], choices: list[Action], kept: list[int]) -> None:
    """§4.6 step 5: the windrose keeps 1 good of any kind; an occupied small warehouse also all goods
    of 1 kind, a large one of 2 kinds; the rest goes back to the supply."""
    owner = 1
    state = blank_game(2)
    set_ship(state, 4, COFFEE, 1)  # no empty ship: corn, indigo and sugar cannot be loaded
    set_ship(state, 6, TOBACCO, 1)
    held = [3, 3, 4, 0, 0]
    set_player(state, owner, goods=dict(enumerate(held)), buildings=buildings)
    supply = state.goods_supply[:]
    choose_role(state, 0, CAPTAIN)
    assert (state.step, state.actor) == (STORE, owner)
    first = WAREHOUSE_ACTION if choices[0] in WAREHOUSE_ACTION else SINGLE_ACTION
    assert legal(state) == {first[CORN], first[INDIGO], first[SUGAR]}
    events = []
    for choice in choices:
        events += play(state, owner, choice)
    lost = tuple(h - k for h, k in zip(held, kept, strict=True))
    assert of_type(events, GoodsDiscarded) == [GoodsDiscarded(owner, lost)]
    assert state.players[owner].goods == kept
    assert [now - before for now, before in zip(state.goods_supply, supply, strict=True)] == list(lost)
    assert state.step == CHOOSE_ROLE


# --- §4.3 Builder: copies for sale ---------------------------------------------------------


def test_building_needs_a_copy_left_for_sale() -> None:
    """§4.3: a copy of the building must be left. With 2 players there is 1 copy of each violet
    building: once the governor builds the harbor, the other player cannot."""
    g, o = 0, 1
    state = blank_game(2, governor=g)
    set_player(state, g, doubloons=7)
    set_player(state, o, doubloons=8)
    choose_role(state, g, BUILDER)
    assert state.stock[HARBOR] == 1
    play(state, g, BUILD_ACTION[HARBOR])
    assert state.stock[HARBOR] == 0
    assert state.actor == o
    assert BUILD_ACTION[HARBOR] not in legal(state)
    assert BUILD_ACTION[WHARF] not in legal(state)  # 9 > 8 doubloons
    assert BUILD_ACTION[LARGE_WAREHOUSE] in legal(state)
    with pytest.raises(IllegalAction):
        play(state, o, BUILD_ACTION[HARBOR])


# --- §5 City hall, §7.1 trigger (b) ----------------------------------------------------------


def test_city_hall_counts_violet_buildings_itself_included() -> None:
    """§5: the city hall gives +1 per violet building owned, itself included, occupied or not."""
    state = blank_game(4)
    set_player(
        state,
        0,
        buildings={CITY_HALL: 1, RESIDENCE: 0, SMALL_MARKET: 0, HARBOR: 1, INDIGO_PLANT: 3, SUGAR_MILL: 0},
    )
    lines = dict(final_scores(state).seats[0].items)
    assert lines["city hall"] == 4
    assert lines["buildings"] == 4 + 4 + 1 + 3 + 2 + 2
    assert "residence" not in lines


def test_large_building_filling_the_twelfth_space_fires_trigger_b() -> None:
    """§7.1 (b): a large building counts 2 spaces; filling the 12th space fires the trigger."""
    state = blank_game(4)
    ten = [SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL, INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE]
    ten += [COFFEE_ROASTER, SMALL_MARKET, HACIENDA, CONSTRUCTION_HUT, SMALL_WAREHOUSE]
    set_player(state, 0, buildings=dict.fromkeys(ten, 0), doubloons=9)
    choose_role(state, 0, BUILDER)
    events = play(state, 0, BUILD_ACTION[RESIDENCE])
    assert of_type(events, BuildingBuilt) == [BuildingBuilt(0, RESIDENCE, 9)]
    assert of_type(events, EndTriggered) == [EndTriggered(TRIGGER_CITY)]
    assert state.players[0].city_used() == 12
    assert not state.terminal


def test_eleven_spaces_do_not_fire_trigger_b() -> None:
    """§7.1 (b): only the 12th filled city space fires the trigger."""
    state = blank_game(4)
    ten = [SMALL_INDIGO_PLANT, SMALL_SUGAR_MILL, INDIGO_PLANT, SUGAR_MILL, TOBACCO_STORAGE]
    ten += [COFFEE_ROASTER, SMALL_MARKET, HACIENDA, CONSTRUCTION_HUT, SMALL_WAREHOUSE]
    set_player(state, 0, buildings=dict.fromkeys(ten, 0), doubloons=9)
    choose_role(state, 0, BUILDER)
    events = play(state, 0, BUILD_ACTION[OFFICE])
    events += finish_role(state)
    assert state.players[0].city_used() == 11
    assert of_type(events, EndTriggered) == []
    assert state.end_triggers == []

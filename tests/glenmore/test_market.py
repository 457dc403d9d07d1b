"""The warehouse (§6, T4): buying only the shortfall, at the next empty slot's price; selling from
the highest filled slot; tile costs paid from the player's own tiles."""

from __future__ import annotations

import pytest

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import GRAIN, ROAD, SHEEP, STONE, WOOD
from services.glenmore.state import ACTIVATE, CHOOSE_TILE, PAY
from tests.glenmore.scenario import (
    blank_game,
    cubes_at,
    legal,
    of_kind,
    play,
    put,
    set_track,
    take_and_place,
    tile,
)

STONE_VILLAGE = tile("Village", edge=ROAD, stack=1)  # costs 1 stone
WOOD_VILLAGE = tile("Village", edge=1, stack=1, nth=1)  # costs 1 wood
SPARE = [tile("Quarry", edge=ROAD, stack=0), tile("Forest", edge=ROAD, stack=0)]  # free, two choices


def _take_stone_village(state):
    set_track(state, 0, [STONE_VILLAGE])
    return take_and_place(state, STONE_VILLAGE, 1, 0)


@pytest.mark.parametrize(("filled", "price"), [(0, 1), (1, 2), (2, 3)])
def test_buying_pays_the_next_empty_slot(filled, price):
    """T4 (4p): from an empty stone row, buys cost 1, 2, 3; the bought cube is spent at once.
    Ruling 3: a bought cube is spent at once, never kept."""
    state = blank_game(4)
    state.market[STONE] = filled
    events = _take_stone_village(state)
    assert ev.CubeBought(0, STONE, price) in events  # the only way to pay: taken by the engine
    assert state.players[0].coins == 6 - price
    assert state.market[STONE] == filled + 1
    assert state.step == ACTIVATE and sum(state.players[0].own) == 0


def test_a_full_row_cannot_be_bought_from():
    """T4: with all 3 stone slots filled the stone village cannot be paid, so it is not offered.
    Rulings 2 and 3: a row with 3 filled slots cannot be bought from, so a tile needing it cannot be taken."""
    state = blank_game(4)
    state.market[STONE] = 3
    set_track(state, 0, [STONE_VILLAGE, *SPARE])
    assert act.Action(act.TAKE_TILE, STONE_VILLAGE) not in legal(state)
    state.market[STONE] = 2
    state.players[0].coins = 2
    state.legal = None
    assert act.Action(act.TAKE_TILE, STONE_VILLAGE) not in legal(state)  # price 3, only 2 coins


def test_selling_pays_the_highest_filled_slot():
    """T4: selling a stone into a row with 3 filled slots pays 3 and empties one."""
    state = blank_game(4)
    put(state, 0, tile("Quarry", edge=ROAD), 1, 0, cubes={STONE: 1})
    state.market[STONE] = 3
    set_track(state, 0, SPARE)
    assert act.SELL_ACTION[STONE] in legal(state)
    assert act.SELL_ACTION[WOOD] not in legal(state)  # no wood to sell
    events = play(state, act.SELL_ACTION[STONE])
    assert events == [ev.CubeSold(0, STONE, 3, (1, 0))]
    assert state.players[0].coins == 9 and state.market[STONE] == 2
    assert state.step == CHOOSE_TILE  # selling does not end the decision


def test_two_players_start_with_the_price_1_slots_filled():
    """T4 (2p): the first wood bought costs 2; the first wood sold before any buy pays 1."""
    state = blank_game(2)
    set_track(state, 0, [WOOD_VILLAGE])
    play(state, act.Action(act.TAKE_TILE, WOOD_VILLAGE))
    events = play(state, act.Action(act.PLACE_TILE, 0, 1))
    assert ev.CubeBought(0, WOOD, 2) in events

    state = blank_game(2)
    put(state, 0, tile("Forest", edge=1), 0, 1, cubes={WOOD: 1})
    set_track(state, 0, SPARE)
    assert play(state, act.SELL_ACTION[WOOD]) == [ev.CubeSold(0, WOOD, 1, (0, 1))]
    assert state.market[WOOD] == 0
    assert act.SELL_ACTION[WOOD] not in legal(state)  # an empty row cannot be sold to


def test_an_empty_row_cannot_be_sold_to():
    """§6: selling needs a filled slot (4p rows start empty).
    Ruling 3: an empty row cannot be sold to."""
    state = blank_game(4)
    put(state, 0, tile("Quarry", edge=ROAD), 1, 0, cubes={STONE: 2})
    set_track(state, 0, [tile("Forest", edge=1)])
    assert of_kind(legal(state), act.SELL) == []


def test_own_cubes_are_used_before_buying():
    """OP-17: owning a stone, the player pays with it and buys nothing.
    Ruling 3: purchases are only for the shortfall."""
    state = blank_game(4)
    put(state, 0, tile("Quarry", edge=ROAD, nth=1), -1, 0, cubes={STONE: 1})
    events = _take_stone_village(state)
    assert ev.CubeSpent(0, STONE, (-1, 0)) in events
    assert not any(isinstance(e, ev.CubeBought) for e in events)
    assert state.players[0].coins == 6 and state.market[STONE] == 0


def test_payment_chooses_the_tile_a_cube_comes_from():
    """With stone on two tiles, the payment is a decision between them.
    Ruling 5: cubes stay on their production tile, and any tile's cubes may pay."""
    state = blank_game(4)
    put(state, 0, tile("Quarry", edge=ROAD, nth=1), -1, 0, cubes={STONE: 1})
    put(state, 0, tile("Quarry", edge=1), 0, 1, cubes={STONE: 2})
    set_track(state, 0, [STONE_VILLAGE])
    take_and_place(state, STONE_VILLAGE, 1, 0)
    assert state.step == PAY
    assert legal(state) == [act.Action(act.PAY_CUBE, -1, 0, STONE), act.Action(act.PAY_CUBE, 0, 1, STONE)]
    play(state, act.Action(act.PAY_CUBE, 0, 1, STONE))
    assert cubes_at(state, 0, 0, 1) == [0, 1, 0, 0, 0] and cubes_at(state, 0, -1, 0) == [0, 1, 0, 0, 0]


def test_castle_cost_mixes_own_cubes_and_purchases():
    """Castle Moil (wood + stone + grain) owning only wood: wood from the forest, stone and grain bought."""
    state = blank_game(4)
    moil = tile("Castle Moil")
    put(state, 0, tile("Forest", edge=1), 0, 1, cubes={WOOD: 1}, clans=1)
    put(state, 0, tile("Quarry", edge=ROAD), 1, 0)
    set_track(state, 0, [moil])
    play(state, act.Action(act.TAKE_TILE, moil))
    events = play(state, act.Action(act.PLACE_TILE, 1, 1))
    assert ev.CubeSpent(0, WOOD, (0, 1)) in events
    assert ev.CubeBought(0, STONE, 1) in events and ev.CubeBought(0, GRAIN, 1) in events
    assert state.players[0].coins == 4


def test_sale_comes_from_the_tile_holding_most_of_the_kind():
    """A sheep sold comes from the pasture holding 2 rather than the one holding 1."""
    state = blank_game(4)
    put(state, 0, tile("Sheep pasture", edge=1), 0, 1, cubes={SHEEP: 1})
    put(state, 0, tile("Sheep pasture", edge=1, nth=1), 0, -1, cubes={SHEEP: 2})
    state.market[SHEEP] = 2
    set_track(state, 0, SPARE)
    assert play(state, act.SELL_ACTION[SHEEP]) == [ev.CubeSold(0, SHEEP, 2, (0, -1))]

"""The 13 special locations (§8): immediate, per-turn and end-game effects."""

from __future__ import annotations

import pytest

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import (
    ARMADALE_CASTLE,
    CASTLE_MOIL,
    CASTLE_STALKER,
    CATTLE,
    DONAN_CASTLE,
    GRAIN,
    IONA_ABBEY,
    LOCH_LOCHY,
    LOCH_MORAR,
    LOCH_NESS,
    ROAD,
    SHEEP,
    STONE,
    WOOD,
)
from services.glenmore.scoring import chieftain_value, end_card_vp
from services.glenmore.state import ACTIVATE, CHOOSE_CUBE, PAY
from services.glenmore.territory import cell
from tests.glenmore.scenario import (
    activation_cells,
    blank_game,
    clans_at,
    cubes_at,
    legal,
    play,
    put,
    set_track,
    take_and_place,
    tile,
)

ROAD_QUARRY = tile("Quarry", edge=ROAD, stack=0)
RIVER_FOREST = tile("Forest", edge=1, stack=0)


def _take(state, tile_index, x, y, coins=20):
    """Seat 0 takes `tile_index` (buying whatever it lacks) and places it at (x, y)."""
    state.players[0].coins = coins
    set_track(state, 0, [tile_index, ROAD_QUARRY])
    return take_and_place(state, tile_index, x, y)


def _castle_ground(state):
    """A road quarry at (1, 0): (1, 1) then takes a featureless tile next to the start village's clan."""
    put(state, 0, ROAD_QUARRY, 1, 0)


def test_loch_lochy_gives_two_cubes_of_choice():
    """Loch Lochy: 2 cubes of choice; on a production tile of the kind, else the emptiest tile (OP-26)."""
    state = blank_game(4)
    put(state, 0, tile("Forest", edge=ROAD, stack=0), -1, 0)
    _take(state, tile("Loch Lochy"), 0, 1)
    assert state.step == CHOOSE_CUBE and LOCH_LOCHY in state.players[0].cards
    assert legal(state) == list(act.CHOOSE_ACTION)
    play(state, act.CHOOSE_ACTION[WOOD])
    assert cubes_at(state, 0, -1, 0) == [1, 0, 0, 0, 0]
    events = play(state, act.CHOOSE_ACTION[GRAIN])
    assert ev.CubeGained(0, GRAIN, (0, 0)) in events  # no field: the earliest of the emptiest tiles
    assert state.step == ACTIVATE


def test_loch_morar_scores_green_tiles_at_the_end():
    """Loch Morar: 2 VP per green tile; the loch itself is blue.
    Ruling 19: Loch Morar is blue, so it does not count itself."""
    state = blank_game(4)
    put(state, 0, tile("Loch Morar"), 0, 1)
    put(state, 0, tile("Field", edge=ROAD), 1, 0)
    put(state, 0, tile("Sheep pasture", edge=1), 0, -1)
    put(state, 0, tile("Cattle pasture", edge=1), 0, 2)
    assert LOCH_MORAR in state.players[0].cards
    assert end_card_vp(state.players[0]) == 6


@pytest.mark.parametrize(
    ("clans", "chieftains", "expected"),
    [
        (1, 0, None),
        (2, 0, [act.Action(act.PAY_CLAN, 0, 0)]),
        (1, 1, [act.PAY_CHIEFTAIN_ACTION]),
        (2, 1, [act.Action(act.PAY_CLAN, 0, 0), act.PAY_CHIEFTAIN_ACTION]),
    ],
)
def test_loch_ness_costs_a_clan_member_or_a_chieftain(clans, chieftains, expected):
    """Loch Ness: 1 clan member (1 must remain) or 1 chieftain; otherwise it cannot be taken.
    Ruling 10: paying Loch Ness with a clan member also leaves at least 1 in the territory."""
    state = blank_game(4)
    ness = tile("Loch Ness")
    state.players[0].clans[0] = clans
    state.players[0].chieftains = chieftains
    set_track(state, 0, [ness, ROAD_QUARRY])
    if expected is None:
        assert act.Action(act.TAKE_TILE, ness) not in legal(state)
        return
    take_and_place(state, ness, 0, 1)
    if len(expected) > 1:
        assert state.step == PAY and legal(state) == expected
        play(state, expected[0])
    assert LOCH_NESS in state.players[0].cards
    assert state.players[0].clan_total() + state.players[0].chieftains == clans + chieftains - 1


def test_loch_ness_adds_one_activation_anywhere_from_the_next_turn():
    """Loch Ness: in a later turn one tile outside the neighbourhood may be activated, once."""
    state = blank_game(4)
    put(state, 0, tile("Loch Ness"), 0, 1)
    put(state, 0, RIVER_FOREST, 0, 2)
    put(state, 0, ROAD_QUARRY, 1, 0)
    put(state, 0, tile("Quarry", edge=ROAD, stack=3), 2, 0)
    field = tile("Field", edge=ROAD, stack=0)
    set_track(state, 0, [field, RIVER_FOREST])
    take_and_place(state, field, -1, 0)
    options = legal(state)
    assert {(0, 2), (2, 0)} <= activation_cells(options)
    far = act.Action(act.ACTIVATE, 0, 2)
    assert "(Loch Ness)" in _label(state, far)
    events = play(state, far)
    assert ev.TileActivated(0, RIVER_FOREST, (0, 2), True) in events
    assert activation_cells(legal(state)) == {(-1, 0), (0, 0)}  # the quarries east are out of reach now


def test_loch_ness_gives_nothing_in_the_turn_it_is_taken():
    """§8 'every later turn': the extra activation starts with the owner's next turn."""
    state = blank_game(4)
    state.players[0].clans[0] = 2
    put(state, 0, ROAD_QUARRY, 1, 0)
    put(state, 0, tile("Quarry", edge=ROAD, stack=3), 2, 0)
    _take(state, tile("Loch Ness"), 0, 1)
    assert (2, 0) not in activation_cells(legal(state))


def test_loch_shiel_fills_every_empty_production_tile():
    """Loch Shiel: 1 cube on each empty production tile; full ones keep theirs; an empty abbey asks.
    Ruling 13: Loch Shiel also fills an empty Iona Abbey."""
    state = blank_game(4)
    put(state, 0, RIVER_FOREST, 0, 1)
    put(state, 0, ROAD_QUARRY, 1, 0, cubes={STONE: 1})
    put(state, 0, tile("Field", edge=ROAD), -1, 0)
    put(state, 0, tile("Distillery", edge=0), -1, 1)
    put(state, 0, tile("Iona Abbey"), -2, 0)
    _take(state, tile("Loch Shiel"), 0, -1)
    assert cubes_at(state, 0, 0, 1) == [1, 0, 0, 0, 0]
    assert cubes_at(state, 0, 1, 0) == [0, 1, 0, 0, 0]
    assert cubes_at(state, 0, -1, 0) == [0, 0, 1, 0, 0]
    assert cubes_at(state, 0, -1, 1) == [0, 0, 0, 0, 0]  # a distillery is no production tile
    assert state.step == CHOOSE_CUBE
    play(state, act.CHOOSE_ACTION[SHEEP])
    assert cubes_at(state, 0, -2, 0) == [0, 0, 0, 0, 1]


def test_loch_oich_costs_two_kinds_and_opens_the_whole_territory():
    """Loch Oich: 2 different cubes; in its turn every tile of the territory may be activated."""
    state = blank_game(4)
    put(state, 0, tile("Forest", edge=ROAD, stack=0), -1, 0, cubes={WOOD: 2})
    put(state, 0, ROAD_QUARRY, 1, 0, cubes={STONE: 1})
    put(state, 0, tile("Quarry", edge=ROAD, stack=3), 2, 0)
    put(state, 0, tile("Field", edge=ROAD, stack=1), 3, 0)
    state.players[0].coins = 0
    oich = tile("Loch Oich")
    set_track(state, 0, [oich, ROAD_QUARRY])
    take_and_place(state, oich, 0, -1)
    assert state.step == PAY
    assert legal(state) == [act.Action(act.PAY_CUBE, -1, 0, WOOD), act.Action(act.PAY_CUBE, 1, 0, STONE)]
    play(state, act.Action(act.PAY_CUBE, -1, 0, WOOD))
    assert state.step == ACTIVATE  # the stone was the only different kind left
    assert activation_cells(legal(state)) == {(-1, 0), (0, 0), (1, 0), (2, 0), (3, 0)}


def test_iona_abbey_produces_a_kind_of_choice_and_scores_yellow_tiles():
    """Iona Abbey: activation makes 1 cube of any kind; at the end 2 VP per yellow tile, itself included.
    Rulings 13 and 19: the abbey offers the 5 resource kinds, never whisky; yellow, it counts itself."""
    state = blank_game(4)
    _castle_ground(state)
    put(state, 0, tile("Forest", edge=ROAD, stack=0), -1, 0)
    state.players[0].clans[1] = 1  # a clan member on the quarry at (1, 0)
    abbey = tile("Iona Abbey")
    set_track(state, 0, [abbey, ROAD_QUARRY])
    state.players[0].coins = 20
    take_and_place(state, abbey, 2, 0)
    assert IONA_ABBEY in state.players[0].cards
    assert [a.d for a in legal(state) if a.kind == act.ACTIVATE and (a.a, a.b) == (2, 0)] == [1, 2, 3, 4, 5]
    play(state, act.Action(act.ACTIVATE, 2, 0, 0, CATTLE + 1))
    assert cubes_at(state, 0, 2, 0) == [0, 0, 0, 1, 0]
    assert end_card_vp(state.players[0]) == 2 * 3  # a quarry, a forest and the abbey


@pytest.mark.parametrize(
    ("name", "x", "y", "card", "clans", "whisky", "coins"),
    [
        ("Castle Stalker", 0, 1, CASTLE_STALKER, 2, 0, 0),
        ("Castle Moil", 1, 1, CASTLE_MOIL, 1, 1, 0),
        ("Armadale Castle", 1, 1, ARMADALE_CASTLE, 1, 0, 3),
        ("Donan Castle", -1, 0, DONAN_CASTLE, 1, 2, 0),
    ],
)
def test_castle_immediate_effects(name, x, y, card, clans, whisky, coins):
    """Stalker: a second clan member; Moil: 1 whisky; Armadale: 3 coins; Donan: 2 whisky.
    Ruling 12: Castle Stalker puts 2 clan members on its tile."""
    state = blank_game(4)
    _castle_ground(state)
    events = _take(state, tile(name), x, y, coins=20)
    player = state.players[0]
    bought = sum(e.price for e in events if isinstance(e, ev.CubeBought))
    assert card in player.cards
    assert clans_at(state, 0, x, y) == clans
    assert player.whisky == whisky
    assert player.coins == 20 - bought + coins


def test_duart_castle_scores_villages_not_castles():
    """Duart Castle: 3 VP per village, the start village included (OP-19); castles do not count."""
    state = blank_game(4)
    put(state, 0, tile("Duart Castle"), 1, 1)
    put(state, 0, tile("Castle Moil"), 2, 1)
    put(state, 0, tile("Village", edge=ROAD, stack=0), 1, 0)
    put(state, 0, tile("Village", edge=1, stack=1), 0, 1)
    assert end_card_vp(state.players[0]) == 9


def test_t2_castle_of_mey_and_cawdor():
    """T2: 2 chieftains with Castle of Mey -> 2 x 2 + 1 = 5; with Cawdor Castle too -> 8."""
    state = blank_game(4)
    player = state.players[0]
    player.chieftains = 2
    assert chieftain_value(player) == 2
    put(state, 0, tile("Castle of Mey"), 1, 1)
    assert chieftain_value(player) == 5
    put(state, 0, tile("Cawdor Castle"), 2, 1)
    assert chieftain_value(player) == 8


def _label(state, action):
    from services.glenmore.labels import label

    return label(state, action)


def test_cells_are_sorted_like_coordinates():
    """Cells sort by (x, y), so activation and placement lists come out in coordinate order."""
    assert sorted([cell(1, -1), cell(0, 5), cell(-1, 3)]) == [cell(-1, 3), cell(0, 5), cell(1, -1)]

"""Placement legality (§5, T6), the activation neighbourhood (§4 step 6) and movement (§4 step 7)."""

from __future__ import annotations

import pytest

from services.common.errors import IllegalAction
from services.glenmore import actions as act
from services.glenmore.data import NO_EDGE, RIVER, ROAD, WOOD
from services.glenmore.state import ACTIVATE, CHOOSE_TILE, MOVE, PLACE_TILE
from services.glenmore.territory import legal_cells, xy
from tests.glenmore.scenario import (
    activating,
    activation_cells,
    blank_game,
    clans_at,
    cubes_at,
    legal,
    of_kind,
    play,
    put,
    set_track,
    tile,
)

RIVER_TILE = tile("Forest", edge=RIVER)
ROAD_TILE = tile("Quarry", edge=ROAD)
PLAIN_TILE = tile("Sheep pasture", edge=NO_EDGE)


def cells(state, edge):
    return [xy(c) for c in legal_cells(state.players[0], edge)]


def test_t6_placement_around_the_start_village():
    """T6: river N/S of the village, road E/W, nothing featureless, nothing diagonal."""
    state = blank_game(4)
    assert cells(state, RIVER) == [(0, -1), (0, 1)]
    assert cells(state, ROAD) == [(-1, 0), (1, 0)]
    assert cells(state, NO_EDGE) == []


def test_t6_continuation_featureless_tile_beside_the_road():
    """T6: after a road tile at (1, 0), a featureless tile fits at (1, 1): orthogonal contact, the clan
    member diagonally at (0, 0), and no feature on the road tile's north side."""
    state = blank_game(4)
    put(state, 0, ROAD_TILE, 1, 0)
    assert cells(state, NO_EDGE) == [(1, -1), (1, 1)]
    assert (1, 1) not in cells(state, RIVER)  # a river tile may not sit beside a road tile's side
    assert cells(state, ROAD) == [(-1, 0)]  # (2, 0) has no clan member around it (P3)


def test_p3_needs_a_clan_member_in_the_8_cells_around():
    """P3: the road continues at (2, 0) only with a clan member next to it."""
    state = blank_game(4)
    put(state, 0, ROAD_TILE, 1, 0)
    put(state, 0, tile("Quarry", edge=ROAD, nth=1), -1, 0)
    assert cells(state, ROAD) == []  # (2, 0) and (-2, 0) have no clan member around
    state.players[0].clans = [0, 1, 0]
    assert cells(state, ROAD) == [(2, 0)]


def test_p5_river_and_road_never_turn_or_branch():
    """P4/P5: a river tile needs a river north or south of it, and a road only continues east-west.
    Ruling 9: the river and the road each form one straight line through the start village."""
    state = blank_game(4)
    put(state, 0, RIVER_TILE, 0, 1, clans=1)
    assert cells(state, RIVER) == [(0, -1), (0, 2)]
    assert (1, 1) not in cells(state, RIVER) and (-1, 1) not in cells(state, RIVER)
    assert cells(state, NO_EDGE) == [(-1, 1), (1, 1)]  # beside the river tile's plain sides
    assert cells(state, ROAD) == [(-1, 0), (1, 0)]


def test_placement_choices_are_offered_through_the_engine():
    """Taking a river tile offers exactly the two river cells; an illegal cell is refused."""
    state = blank_game(4)
    set_track(state, 0, [RIVER_TILE])
    play(state, act.Action(act.TAKE_TILE, RIVER_TILE))
    assert state.step == PLACE_TILE
    assert legal(state) == [act.Action(act.PLACE_TILE, 0, -1), act.Action(act.PLACE_TILE, 0, 1)]
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.PLACE_TILE, 1, 0))
    play(state, act.Action(act.PLACE_TILE, 0, 1))
    assert state.step == ACTIVATE


def _neighbourhood_territory():
    state = blank_game(4)
    put(state, 0, ROAD_TILE, 1, 0)
    put(state, 0, RIVER_TILE, 0, 1)
    put(state, 0, tile("Field", edge=ROAD), -1, 0)
    put(state, 0, tile("Quarry", edge=ROAD, nth=1), 2, 0)
    put(state, 0, PLAIN_TILE, 1, 1)  # the new tile
    return state


def test_activation_neighbourhood_is_the_new_tile_and_its_8_neighbours():
    """Diagonal neighbours count; tiles two cells away do not."""
    state = _neighbourhood_territory()
    activating(state, 0, 1, 1)
    assert activation_cells(legal(state)) == {(0, 0), (1, 0), (0, 1), (2, 0), (1, 1)}
    assert act.END_ACTIVATIONS_ACTION in legal(state)


def test_each_tile_activates_once_per_turn_in_any_order():
    """After activating the quarry at (1, 0) it is no longer offered; the order is the player's.
    Ruling 6: each tile is activated at most once per turn."""
    state = _neighbourhood_territory()
    activating(state, 0, 1, 1)
    play(state, act.Action(act.ACTIVATE, 0, 1))
    play(state, act.Action(act.ACTIVATE, 1, 0))
    assert cubes_at(state, 0, 1, 0) == [0, 1, 0, 0, 0]
    assert cubes_at(state, 0, 0, 1) == [1, 0, 0, 0, 0]
    assert activation_cells(legal(state)) == {(0, 0), (2, 0), (1, 1)}
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.ACTIVATE, 1, 0))


def test_production_is_capped_at_3_cubes_per_tile():
    """A production tile holding 3 cubes is not offered (it would produce nothing).
    Ruling 5: production onto a tile holding 3 cubes is lost."""
    state = _neighbourhood_territory()
    slot = state.players[0].grid[state.players[0].cells[2]]
    for _ in range(3):
        state.players[0].add_cube(slot, WOOD)
    activating(state, 0, 1, 1)
    assert (0, 1) not in activation_cells(legal(state))


def test_village_gives_a_movement_point_spent_after_activating():
    """The start village's activation gives 1 point; the clan member may move to any of the 8 tiles around.
    Ruling 10: the last clan member cannot become a chieftain."""
    state = _neighbourhood_territory()
    activating(state, 0, 1, 1)
    play(state, act.Action(act.ACTIVATE, 0, 0))
    assert state.movement_points == 1
    play(state, act.END_ACTIVATIONS_ACTION)
    assert state.step == MOVE
    moves = of_kind(legal(state), act.MOVE_CLAN)
    assert {(m.c, m.d) for m in moves} == {(1, 0), (0, 1), (-1, 0), (1, 1)}
    assert of_kind(legal(state), act.MAKE_CHIEFTAIN) == []  # the only clan member must stay
    play(state, act.Action(act.MOVE_CLAN, 0, 0, 1, 1))
    assert clans_at(state, 0, 1, 1) == 1 and clans_at(state, 0, 0, 0) == 0
    assert state.step == CHOOSE_TILE  # the point is spent: the turn is over


def test_chieftain_needs_a_clan_member_left_behind():
    """With 2 clan members, 1 point makes a chieftain; the last clan member stays.
    Ruling 10: 1 movement point makes a permanent chieftain; 1 clan member must remain."""
    state = _neighbourhood_territory()
    state.players[0].clans[0] = 2
    activating(state, 0, 1, 1)
    play(state, act.Action(act.ACTIVATE, 0, 0))
    play(state, act.END_ACTIVATIONS_ACTION)
    assert act.Action(act.MAKE_CHIEFTAIN, 0, 0) in legal(state)
    play(state, act.Action(act.MAKE_CHIEFTAIN, 0, 0))
    assert state.players[0].chieftains == 1 and state.players[0].clan_total() == 1


def test_unspent_movement_points_are_lost():
    """Stopping early forfeits the remaining points and ends the turn."""
    state = _neighbourhood_territory()
    activating(state, 0, 1, 1)
    play(state, act.Action(act.ACTIVATE, 0, 0))
    play(state, act.END_ACTIVATIONS_ACTION)
    play(state, act.END_MOVEMENT_ACTION)
    assert state.step == CHOOSE_TILE and state.movement_points == 0 and clans_at(state, 0, 0, 0) == 1

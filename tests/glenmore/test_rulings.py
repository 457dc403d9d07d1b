"""Rulings of §11 of shared/rules/glen_more.md that no other scenario asserted exactly, each played
through the engine on a concrete position (the others name their ruling in their own files)."""

from __future__ import annotations

import pytest

from services.common.errors import IllegalAction
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import LOCH_NESS, ROAD, STONE, TRACK_LENGTH, WOOD
from services.glenmore.state import ACTIVATE, CHOOSE_TILE, figure
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
    take_and_place,
    tile,
)

ROAD_QUARRY = tile("Quarry", edge=ROAD, stack=0)  # free, fits (1, 0) or (-1, 0)
RIVER_FOREST = tile("Forest", edge=1, stack=0)  # free, fits (0, 1) or (0, -1)
STONE_VILLAGE = tile("Village", edge=ROAD, stack=1)  # costs 1 stone
ROAD_VILLAGE = tile("Village", edge=ROAD, stack=0)  # free, with a clan member as its bonus
PASTURE = tile("Sheep pasture", edge=0)  # featureless, free


def test_ruling_1_the_rearmost_figure_moves_next_and_a_short_move_keeps_the_turn():
    """Ruling 1: [A, forest, B, quarry, C, D]: A takes the forest (the next entry) and, still
    rearmost, plays again; A then jumps B to the quarry, and B, now rearmost, moves next."""
    state = blank_game(4)
    set_track(state, 0, [RIVER_FOREST])
    state.track = [figure(0), RIVER_FOREST, figure(1), ROAD_QUARRY, figure(2), figure(3)]
    take_and_place(state, RIVER_FOREST, 0, 1)
    events = play(state, act.END_ACTIVATIONS_ACTION)
    assert ev.TurnEnded(0) in events
    assert state.track[:3] == [figure(0), figure(1), ROAD_QUARRY]
    assert state.actor == 0 and state.step == CHOOSE_TILE
    take_and_place(state, ROAD_QUARRY, 1, 0)
    play(state, act.END_ACTIVATIONS_ACTION)
    assert state.track[:2] == [figure(1), figure(0)]
    assert state.actor == 1 and state.step == CHOOSE_TILE


def test_ruling_2_a_tile_that_cannot_be_paid_or_placed_is_refused():
    """Ruling 2: without stone or coins the stone village is refused; the free pasture, with no
    legal cell around the start village, is refused too; the free quarry is the only choice."""
    state = blank_game(4)
    state.players[0].coins = 0
    set_track(state, 0, [STONE_VILLAGE, PASTURE, ROAD_QUARRY])
    assert of_kind(legal(state), act.TAKE_TILE) == [act.Action(act.TAKE_TILE, ROAD_QUARRY)]
    for refused in (STONE_VILLAGE, PASTURE):
        with pytest.raises(IllegalAction):
            play(state, act.Action(act.TAKE_TILE, refused))
    assert state.track[1:3] == [STONE_VILLAGE, PASTURE] and state.step == CHOOSE_TILE
    state.players[0].coins = 1  # the stone can now be bought (price 1)
    state.legal = None
    assert act.Action(act.TAKE_TILE, STONE_VILLAGE) in legal(state)


def _loch_ness_territory():
    """Loch Ness at (0, 1); forest (0, 2), quarries (1, 0) and (2, 0) lie outside the neighbourhood
    of a field placed at (-1, 0)."""
    state = blank_game(4)
    put(state, 0, tile("Loch Ness"), 0, 1)
    put(state, 0, RIVER_FOREST, 0, 2)
    put(state, 0, ROAD_QUARRY, 1, 0)
    put(state, 0, tile("Quarry", edge=ROAD, stack=3), 2, 0)
    field = tile("Field", edge=ROAD, stack=0)
    set_track(state, 0, [field, RIVER_FOREST])
    take_and_place(state, field, -1, 0)
    return state


def test_ruling_6_loch_ness_cannot_activate_a_tile_twice():
    """Ruling 6: the new field, once activated, is not offered again, not even as Loch Ness's extra
    activation; the tile Loch Ness activated is not offered again either."""
    state = _loch_ness_territory()
    play(state, act.Action(act.ACTIVATE, -1, 0))
    assert cubes_at(state, 0, -1, 0) == [0, 0, 1, 0, 0]
    assert activation_cells(legal(state)) == {(0, 0), (0, 2), (1, 0), (2, 0)}
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.ACTIVATE, -1, 0))
    events = play(state, act.Action(act.ACTIVATE, 1, 0))
    assert ev.TileActivated(0, ROAD_QUARRY, (1, 0), True) in events
    assert activation_cells(legal(state)) == {(0, 0)}
    for twice in ((1, 0), (-1, 0)):
        with pytest.raises(IllegalAction):
            play(state, act.Action(act.ACTIVATE, *twice))
    assert cubes_at(state, 0, -1, 0) == [0, 0, 1, 0, 0] and cubes_at(state, 0, 1, 0) == [0, 1, 0, 0, 0]


def test_ruling_6_loch_oich_activates_each_tile_once():
    """Ruling 6: in Loch Oich's turn a far quarry activated once is not offered again."""
    state = blank_game(4)
    put(state, 0, tile("Forest", edge=ROAD, stack=0), -1, 0, cubes={WOOD: 2})
    put(state, 0, ROAD_QUARRY, 1, 0, cubes={STONE: 1})
    put(state, 0, tile("Quarry", edge=ROAD, stack=3), 2, 0)
    state.players[0].coins = 0
    oich = tile("Loch Oich")
    set_track(state, 0, [oich, RIVER_FOREST])
    take_and_place(state, oich, 0, -1)
    play(state, act.Action(act.PAY_CUBE, -1, 0, WOOD))  # the stone then is paid by the engine
    assert state.step == ACTIVATE
    assert activation_cells(legal(state)) == {(-1, 0), (0, 0), (1, 0), (2, 0)}
    play(state, act.Action(act.ACTIVATE, 2, 0))
    assert activation_cells(legal(state)) == {(-1, 0), (0, 0), (1, 0)}
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.ACTIVATE, 2, 0))
    assert cubes_at(state, 0, 2, 0) == [0, 1, 0, 0, 0]


def test_ruling_8_the_new_villages_own_clan_member_does_not_make_its_cell_legal():
    """Ruling 8: with road tiles at (-1, 0) and (1, 0) and the only clan member at (0, 0), the ends
    of the road touch a tile but have no clan member around: the road village is refused, though
    its bonus would bring one. With a clan member on the east quarry it fits (2, 0)."""
    state = blank_game(4)
    put(state, 0, ROAD_QUARRY, 1, 0)
    put(state, 0, tile("Forest", edge=ROAD, stack=0), -1, 0)
    set_track(state, 0, [ROAD_VILLAGE, RIVER_FOREST])
    assert act.Action(act.TAKE_TILE, ROAD_VILLAGE) not in legal(state)
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.TAKE_TILE, ROAD_VILLAGE))
    assert state.track[1] == ROAD_VILLAGE and state.step == CHOOSE_TILE
    state.players[0].clans = [0, 1, 0]
    state.legal = None
    events = play(state, act.Action(act.TAKE_TILE, ROAD_VILLAGE))
    assert ev.TilePlaced(0, ROAD_VILLAGE, (2, 0)) in events  # the only cell: placed by the engine
    assert clans_at(state, 0, 2, 0) == 1


def test_ruling_8_diagonal_contact_alone_is_not_enough():
    """Ruling 8: the clan member at (0, 0) stands diagonally to (1, 1), but nothing touches (1, 1)
    orthogonally, so the featureless pasture cannot be placed there (nor anywhere: refused)."""
    state = blank_game(4)
    set_track(state, 0, [PASTURE, ROAD_QUARRY])
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.TAKE_TILE, PASTURE))
    put(state, 0, ROAD_QUARRY, 1, 0)  # now (1, 1) touches the quarry: the pasture fits there
    state.legal = None
    play(state, act.Action(act.TAKE_TILE, PASTURE))
    assert legal(state) == [act.Action(act.PLACE_TILE, 1, -1), act.Action(act.PLACE_TILE, 1, 1)]


def test_ruling_11_loch_ness_paid_with_a_chieftain_lowers_the_chieftain_count():
    """Ruling 11: the only chieftain pays for Loch Ness (the single clan member must stay) in the
    turn that uses up stack 1: at scoring 1 its owner counts 0 chieftains, like everyone else."""
    state = blank_game(4)
    ness = tile("Loch Ness")
    state.players[0].chieftains = 1
    set_track(state, 0, [ness])
    state.track += [state.stacks[3].pop() for _ in range(TRACK_LENGTH - len(state.track))]
    state.stacks[1] = state.stacks[1][:1]
    events = take_and_place(state, ness, 0, 1)
    assert ev.ClanMemberSpent(0, True, None) in events
    assert state.players[0].chieftains == 0 and state.players[0].clan_total() == 1
    assert LOCH_NESS in state.players[0].cards
    events = play(state, act.END_ACTIVATIONS_ACTION)
    scoring = next(e for e in events if isinstance(e, ev.ScoringDone))
    assert scoring.number == 1
    assert scoring.seats[0] == ev.SeatScoring(0, 0, 0, 0, 0, 1, 1)
    assert state.players[0].vp == 1


def test_ruling_14_a_fair_counts_different_kinds_and_never_whisky():
    """Ruling 14: with 3 whisky, 2 wood and no coins, fair(3) is offered only for 1 kind; paying it
    takes a wood and leaves the whisky."""
    state = blank_game(4)
    state.players[0].coins = 0
    state.players[0].whisky = 3
    put(state, 0, RIVER_FOREST, 0, 1, cubes={WOOD: 2})
    put(state, 0, tile("Fair (3)", edge=0), 1, 1)
    activating(state, 0, 1, 1)
    assert [a.c for a in legal(state) if a.kind == act.ACTIVATE and (a.a, a.b) == (1, 1)] == [1]
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.ACTIVATE, 1, 1, 2))
    events = play(state, act.Action(act.ACTIVATE, 1, 1, 1))
    assert ev.CubeSpent(0, WOOD, (0, 1)) in events
    assert state.step == ACTIVATE
    assert state.players[0].vp == 1 and state.players[0].whisky == 3
    assert cubes_at(state, 0, 0, 1) == [1, 0, 0, 0, 0]


def test_ruling_20_a_discarded_tile_is_never_taken_later():
    """Ruling 20: A jumps the quarry to the forest; the quarry, passed by every figure, leaves the
    game, and in A's next turn taking it is refused."""
    state = blank_game(4)
    field = tile("Field", edge=ROAD, stack=0)
    set_track(state, 0, [ROAD_QUARRY, RIVER_FOREST, field])
    events = take_and_place(state, RIVER_FOREST, 0, 1)
    assert ev.TileDiscarded(ROAD_QUARRY, ev.DISCARD_PASSED) in events
    play(state, act.END_ACTIVATIONS_ACTION)
    assert state.actor == 0 and state.step == CHOOSE_TILE
    assert ROAD_QUARRY not in state.track and ROAD_QUARRY in state.discarded_tiles
    assert act.Action(act.TAKE_TILE, ROAD_QUARRY) not in legal(state)
    with pytest.raises(IllegalAction):
        play(state, act.Action(act.TAKE_TILE, ROAD_QUARRY))

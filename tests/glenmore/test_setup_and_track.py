"""Setup per player count (T5), the rondel as a chain (T7, OP-3, OP-14), the die (T10) and the
scoring trigger (T9) of shared/rules/glen_more.md."""

from __future__ import annotations

import pytest

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import START_COINS, TILES, TRACK_LENGTH
from services.glenmore.state import ACTIVATE, CHOOSE_TILE, DIE, GAME_OVER, PLACE_TILE, figure
from services.glenmore.track import advance, die_turn, refill
from tests.glenmore.scenario import blank_game, legal, play, rng_rolling, set_track, tile


@pytest.mark.parametrize(
    ("players", "from_stack_0", "from_stack_1", "figures"),
    [(5, 8, 0, 5), (4, 8, 1, 4), (3, 8, 1, 4), (2, 8, 2, 3)],
)
def test_setup_fills_13_spaces_from_stacks_0_then_1(players, from_stack_0, from_stack_1, figures):
    """T5: tiles dealt per player count; the space behind the start player stays empty."""
    state = blank_game(players)
    tiles = [e for e in state.track if e >= 0]
    assert len(state.track) == TRACK_LENGTH
    assert [TILES[t].stack for t in tiles] == [0] * from_stack_0 + [1] * from_stack_1
    assert len(state.stacks[0]) == 0
    assert len(state.stacks[1]) == 23 - from_stack_1
    assert state.track[:figures] == [
        *(figure((state.start_player + i) % players) for i in range(players)),
        *([DIE] if players < 4 else []),
    ]
    assert state.actor == state.start_player and state.step == CHOOSE_TILE


@pytest.mark.parametrize(("players", "filled"), [(2, 1), (3, 1), (4, 0), (5, 0)])
def test_setup_holdings_and_market(players, filled):
    """Every player has 6 coins, a start village with 1 clan member at (0, 0); 2-3p pre-fill the market."""
    state = blank_game(players)
    for seat, player in enumerate(state.players):
        assert player.coins == START_COINS
        assert player.clans == [1]
        assert TILES[player.tiles[0]].name == "Start village" and TILES[player.tiles[0]].number == 68 + seat
    assert state.market == [filled] * 5


def test_chain_turn_order_examples():
    """T7: moving to the next entry keeps the turn; tiles passed by every figure are discarded.
    Ruling 1: the rearmost figure moves next; one moving to the next entry keeps the turn."""
    state = blank_game(2)
    a, b = figure(0), figure(1)
    t1, t2, t3, t4 = 20, 21, 22, 23
    state.track = [a, t1, b, t2, t3, t4]
    events: list = []
    assert advance(state, 1, events) == t1
    assert state.track == [a, b, t2, t3, t4]  # A moves again
    assert advance(state, 3, events) == t3
    assert state.track == [b, t2, a, t4] and events == []

    state.track = [a, t1, b, t2, t3, t4]
    assert advance(state, 3, events) == t2
    assert state.track == [b, a, t3, t4]
    assert events == [ev.TileDiscarded(t1, ev.DISCARD_PASSED)]
    assert state.discarded_tiles == [t1]


def test_refill_tops_the_chain_up_to_13_entries():
    """OP-3: after a discard the refill adds two tiles, drawn from the end of the lowest stack."""
    state = blank_game(4)
    state.track = state.track[:11]
    top = state.stacks[1][-2:]
    events: list = []
    refill(state, events)
    assert len(state.track) == TRACK_LENGTH
    assert state.track[-2:] == top[::-1]
    assert events == [ev.TilesDrawn(tuple(top[::-1]))]


def test_a_turn_moves_the_figure_and_discards_what_nobody_can_reach():
    """The rearmost figure jumps a tile that no figure stands behind: that tile is discarded at once.
    Ruling 20: a tile passed by every figure is discarded."""
    state = blank_game(4)
    quarry, forest, field = tile("Quarry", edge=2), tile("Forest", edge=1), tile("Field", edge=2)
    set_track(state, 0, [quarry, forest, field])
    events = play(state, act.Action(act.TAKE_TILE, forest))
    assert state.track[:3] == [figure(0), field, figure(1)]
    assert ev.TileDiscarded(quarry, ev.DISCARD_PASSED) in events
    assert state.step == PLACE_TILE and state.tile == forest


def test_no_takeable_tile_discards_the_first_tile_ahead():
    """OP-14: with nothing payable and placeable, the figure moves onto the first tile, which is removed.
    Ruling 2: a tile that cannot be placed legally cannot be taken."""
    state = blank_game(4)
    pasture, field = tile("Sheep pasture", edge=0), tile("Field", edge=0)  # no cell takes them yet
    set_track(state, 0, [pasture, field])
    assert legal(state) == [act.DISCARD_FIRST_ACTION]
    events = play(state, act.DISCARD_FIRST_ACTION)
    assert ev.TileDiscarded(pasture, ev.DISCARD_NO_LEGAL_TILE) in events
    assert pasture in state.discarded_tiles
    assert state.players[0].tiles == [state.players[0].tiles[0]]  # nothing placed


def test_die_counts_tiles_skipping_figures():
    """T10: the die rolls 2 with [A, t1, t2, ...] ahead: it stops on t2, which leaves the game."""
    state = blank_game(2)
    a, b = figure(0), figure(1)
    t1, t2, t3 = 20, 21, 22
    state.track = [DIE, a, t1, t2, t3, b]
    state.rng = rng_rolling(2)
    events: list = []
    die_turn(state, events)
    assert state.last_die_roll == 2
    assert state.track == [a, t1, DIE, t3, b]
    assert events == [ev.DieRolled(2), ev.TileDiscarded(t2, ev.DISCARD_DIE)]


def test_die_stops_on_the_last_tile_when_fewer_lie_ahead():
    """OP-4: a roll of 3 with two tiles ahead stops on the second."""
    state = blank_game(3)
    t1, t2 = 20, 21
    state.track = [DIE, t1, figure(0), t2, figure(1), figure(2)]
    state.rng = rng_rolling(3)
    events: list = []
    die_turn(state, events)
    assert t2 in state.discarded_tiles and t1 in state.discarded_tiles  # t1 was passed by every figure
    assert state.track == [figure(0), DIE, figure(1), figure(2)]


def test_scoring_1_when_the_last_tile_of_stack_1_is_drawn():
    """T9: the refill draws the last tile of stack 1: scoring 1 at the end of the turn, then stack 2."""
    state = blank_game(4)
    quarry = tile("Quarry", edge=2)
    set_track(state, 0, [quarry])
    state.track += [tile("Field", nth=3)] * (TRACK_LENGTH - len(state.track))
    state.stacks[1] = state.stacks[1][:1]
    last_of_1 = state.stacks[1][0]
    first_of_2 = state.stacks[2][-1]
    state.players[1].whisky = 2
    play(state, act.Action(act.TAKE_TILE, quarry))
    if state.step == PLACE_TILE:
        play(state, act.Action(act.PLACE_TILE, 1, 0))
    assert state.step == ACTIVATE
    events = play(state, act.END_ACTIVATIONS_ACTION)
    drawn = next(e for e in events if isinstance(e, ev.TilesDrawn))
    assert drawn.tiles == (last_of_1,)
    scoring = next(e for e in events if isinstance(e, ev.ScoringDone))
    assert scoring.number == 1 and state.scorings_done == 1
    assert [s.whisky_vp for s in scoring.seats] == [0, 2, 0, 0]
    assert state.players[1].vp == 2 and state.players[1].scoring_vp == 2
    state.track.pop()
    refill(state, [])
    assert state.track[-1] == first_of_2


def test_scoring_3_ends_the_game():
    """OP-2: when stack 3 is used up, scoring 3 and the final scoring follow at once."""
    state = blank_game(4)
    quarry = tile("Quarry", edge=2)
    set_track(state, 0, [quarry])
    state.track += [tile("Field", nth=3)] * (TRACK_LENGTH - len(state.track))
    state.stacks[1], state.stacks[2], state.stacks[3] = [], [], state.stacks[3][:1]
    state.scorings_done = 2
    play(state, act.Action(act.TAKE_TILE, quarry))
    if state.step == PLACE_TILE:
        play(state, act.Action(act.PLACE_TILE, 1, 0))
    events = play(state, act.END_ACTIVATIONS_ACTION)
    assert [e.number for e in events if isinstance(e, ev.ScoringDone)] == [3]
    assert isinstance(events[-1], ev.GameEnded)
    assert state.step == GAME_OVER and legal(state) == []

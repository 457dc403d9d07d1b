"""Scenarios for rules the engine implements that no other scenario checked (audit of
shared/rules/glen_more.md): a die turn reached through a real turn (§10, OP-22), taverns (§7.2),
the bonnets of the other castles (§8, OP-11), the distillery's placement bonus (§4 step 5), selling
in the activation step (ruling 4), pooled movement points (§4 step 7, OP-16), refills across stacks
with two scorings in one turn (ruling 21) and the random start player (OP-24)."""

from __future__ import annotations

import pytest

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import (
    ARMADALE_CASTLE,
    CASTLE_MOIL,
    CASTLE_STALKER,
    DONAN_CASTLE,
    DUART_CASTLE,
    ROAD,
    STONE,
    TILES,
    TRACK_LENGTH,
)
from services.glenmore.scoring import intermediate_scoring
from services.glenmore.setup import new_game
from services.glenmore.state import ACTIVATE, CHOOSE_TILE, DIE, MOVE, Config, figure
from tests.glenmore.scenario import (
    activation_cells,
    blank_game,
    clans_at,
    cubes_at,
    legal,
    of_kind,
    play,
    put,
    rng_rolling,
    set_track,
    take_and_place,
    tile,
)

ROAD_QUARRY = tile("Quarry", edge=ROAD, stack=0)  # free, fits (1, 0) or (-1, 0)
ROAD_FIELD = tile("Field", edge=ROAD, stack=0)
RIVER_FOREST = tile("Forest", edge=1, stack=0)  # free, fits (0, 1) or (0, -1)


def _pop(stack: list[int], count: int) -> list[int]:
    """`count` tiles taken off the end of a stack (to fill the track with distinct tiles)."""
    return [stack.pop() for _ in range(count)]


# 1. The die turn after a real turn (§10 step 4, OP-22, ruling 21)


def _die_behind_the_actor(stack_1_left: int):
    """2p: [A, die, B, quarry, t2, t3, t4, ...]; A takes the quarry, so the die becomes rearmost."""
    state = blank_game(2)
    spare = _pop(state.stacks[3], TRACK_LENGTH - 4)
    t2, t3, t4 = spare[:3]
    state.track = [figure(0), DIE, figure(1), ROAD_QUARRY, *spare]
    state.actor, state.step, state.legal = 0, CHOOSE_TILE, None
    state.stacks[1] = state.stacks[1][-stack_1_left:]
    state.rng = rng_rolling(2)
    play(state, act.Action(act.TAKE_TILE, ROAD_QUARRY))
    play(state, act.Action(act.PLACE_TILE, 1, 0))
    assert state.step == ACTIVATE and state.track[:3] == [DIE, figure(1), figure(0)]
    return state, (t2, t3, t4), spare[3:]


def test_die_turn_follows_a_turn_that_leaves_the_die_rearmost():
    """§10: the turn ends, the track refills, the die rolls 2 and removes the 2nd tile ahead
    (skipping figures); the track refills again and the turn passes to the rearmost figure."""
    state, (t2, t3, t4), rest = _die_behind_the_actor(stack_1_left=5)
    first, second = state.stacks[1][-1], state.stacks[1][-2]
    events = play(state, act.END_ACTIVATIONS_ACTION)
    assert events == [
        ev.TurnEnded(0),
        ev.TilesDrawn((first,)),
        ev.DieRolled(2),
        ev.TileDiscarded(t3, ev.DISCARD_DIE),
        ev.TilesDrawn((second,)),
    ]
    assert state.track == [figure(1), figure(0), t2, DIE, t4, *rest, first, second]
    assert len(state.track) == TRACK_LENGTH
    assert t3 in state.discarded_tiles and state.last_die_roll == 2
    assert state.actor == 1 and state.step == CHOOSE_TILE
    assert state.scorings_done == 0


def test_stack_used_up_by_the_die_turns_refill_scores_at_the_end_of_the_die_turn():
    """OP-22 / ruling 21: the die turn's refill draws the last tile of stack 1, so scoring 1
    follows that die turn (not the player's turn before it); stack 2 is still untouched."""
    state, (_, t3, _), _ = _die_behind_the_actor(stack_1_left=2)
    last_of_1 = state.stacks[1][0]
    top_of_2 = state.stacks[2][-1]
    state.players[1].whisky = 1
    events = play(state, act.END_ACTIVATIONS_ACTION)
    kinds = [type(e) for e in events]
    assert kinds == [
        ev.TurnEnded,
        ev.TilesDrawn,
        ev.DieRolled,
        ev.TileDiscarded,
        ev.TilesDrawn,
        ev.ScoringDone,
    ]
    assert events[3] == ev.TileDiscarded(t3, ev.DISCARD_DIE)
    assert events[4] == ev.TilesDrawn((last_of_1,))
    assert events[5].number == 1 and state.scorings_done == 1
    assert [s.whisky_vp for s in events[5].seats] == [0, 1]
    assert state.players[1].vp == 1
    assert state.stacks[1] == [] and state.stacks[2][-1] == top_of_2
    assert state.actor == 1 and state.step == CHOOSE_TILE


# 2. Taverns (§7.1, §7.2 tiles 33, 42, 63)


@pytest.mark.parametrize(("nth", "number", "vp"), [(0, 33, 3), (1, 42, 3), (2, 63, 4)])
def test_tavern_costs_one_whisky_and_scores_its_vp(nth, number, vp):
    """§7.2: a tavern is bought with 1 whisky (no coins, no cubes); activating it gives +3 VP
    (tiles 33, 42) or +4 VP (tile 63), with no payment."""
    tavern = tile("Tavern", nth=nth)
    assert TILES[tavern].number == number
    state = blank_game(4)
    put(state, 0, ROAD_QUARRY, 1, 0)  # a featureless tile then fits (1, 1), by the village's clan
    state.players[0].whisky = 2
    set_track(state, 0, [tavern, RIVER_FOREST])
    events = take_and_place(state, tavern, 1, 1)
    player = state.players[0]
    assert ev.WhiskySpent(0, 1) in events
    assert player.whisky == 1 and player.coins == 6 and state.market == [0] * 5
    assert state.step == ACTIVATE
    events = play(state, act.Action(act.ACTIVATE, 1, 1))
    assert ev.VpGained(0, vp, ev.VP_ACTIVATION) in events
    assert player.vp == vp and player.whisky == 1


def test_tavern_cannot_be_taken_without_whisky():
    """§4 step 1: the tavern's whisky cannot be bought, so without whisky it is not offered."""
    state = blank_game(4)
    put(state, 0, ROAD_QUARRY, 1, 0)
    tavern = tile("Tavern", nth=2)
    set_track(state, 0, [tavern, RIVER_FOREST])
    assert act.Action(act.TAKE_TILE, tavern) not in legal(state)
    assert act.Action(act.TAKE_TILE, RIVER_FOREST) in legal(state)


# 3. Bonnets of the other castles (§8, OP-11)


def test_castle_stalker_counts_one_bonnet_at_the_next_scoring():
    """§8: taking Castle Stalker in the turn that uses up stack 1 -> at scoring 1 its owner,
    with no chieftain, counts 1 (its bonnet) in the chieftain category: 1 VP, plus 1 for the card."""
    state = blank_game(4)
    stalker = tile("Castle Stalker")
    set_track(state, 0, [stalker])
    state.track += _pop(state.stacks[3], TRACK_LENGTH - len(state.track))
    state.stacks[1] = [t for t in state.stacks[1] if t != stalker][:1]
    take_and_place(state, stalker, 0, 1)
    assert state.step == ACTIVATE and CASTLE_STALKER in state.players[0].cards
    assert state.players[0].chieftains == 0 and clans_at(state, 0, 0, 1) == 2
    events = play(state, act.END_ACTIVATIONS_ACTION)
    scoring = next(e for e in events if isinstance(e, ev.ScoringDone))
    assert scoring.number == 1
    assert scoring.seats[0] == ev.SeatScoring(0, 0, 0, 1, 1, 1, 1)
    assert scoring.seats[1] == ev.SeatScoring(1, 0, 0, 0, 0, 0, 0)
    assert state.players[0].vp == 2


@pytest.mark.parametrize(
    ("name", "card", "bonnets"),
    [
        ("Castle Stalker", CASTLE_STALKER, 1),
        ("Castle Moil", CASTLE_MOIL, 1),
        ("Armadale Castle", ARMADALE_CASTLE, 1),
        ("Donan Castle", DONAN_CASTLE, 1),
        ("Duart Castle", DUART_CASTLE, 0),
    ],
)
def test_castle_bonnets_add_to_the_chieftain_category(name, card, bonnets):
    """§8 / OP-11: Stalker, Moil, Armadale and Donan have 1 bonnet, Duart none; with 2 chieftains
    against a player with 2, the owner's category value is 2 + bonnets -> difference-table VP."""
    state = blank_game(2)
    put(state, 0, tile(name), 1, 1)
    assert state.players[0].cards == [card]
    state.players[0].chieftains = 2
    state.players[1].chieftains = 2
    events: list = []
    intermediate_scoring(state, 1, events)
    seat_0, seat_1 = events[0].seats
    assert (seat_0.chieftains, seat_0.chieftain_vp) == (2 + bonnets, bonnets)
    assert (seat_1.chieftains, seat_1.chieftain_vp) == (2, 0)


def test_other_bonnets_are_not_doubled_by_castle_of_mey():
    """Ruling 15: with Castle of Mey and Castle Stalker, 2 chieftains count 2 x 2 + 1 + 1 = 6."""
    state = blank_game(2)
    put(state, 0, tile("Castle of Mey"), 1, 1)
    put(state, 0, tile("Castle Stalker"), 2, 1)
    state.players[0].chieftains = 2
    events: list = []
    intermediate_scoring(state, 1, events)
    assert events[0].seats[0].chieftains == 6 and events[0].seats[0].chieftain_vp == 8


# 4. The distillery's placement bonus (§4 step 5)


def test_placing_a_distillery_gives_one_whisky_before_the_activations():
    """§4 step 5 / ruling 7: the distillery (cost 1 stone, bought) gives 1 whisky on placement,
    before any activation and without any grain."""
    state = blank_game(4)
    distillery = tile("Distillery", edge=ROAD, stack=1)
    set_track(state, 0, [distillery, RIVER_FOREST])
    events = take_and_place(state, distillery, 1, 0)
    assert ev.CubeBought(0, STONE, 1) in events
    assert ev.WhiskyGained(0, 1) in events
    assert not any(isinstance(e, ev.TileActivated) for e in events)
    assert state.players[0].whisky == 1 and state.players[0].coins == 5
    assert state.step == ACTIVATE


def test_a_tile_without_the_bonus_gives_no_whisky():
    """Control: a quarry (also yellow) gives no placement whisky."""
    state = blank_game(4)
    set_track(state, 0, [ROAD_QUARRY, RIVER_FOREST])
    events = take_and_place(state, ROAD_QUARRY, 1, 0)
    assert not any(isinstance(e, ev.WhiskyGained) for e in events)
    assert state.players[0].whisky == 0


# 5. Selling at any time in one's own turn (ruling 4, §4 step 8)


def test_selling_during_the_activation_step_reopens_a_full_production_tile():
    """Ruling 4: in the activation step the player sells a stone from a full quarry; the turn goes
    on, and the quarry, no longer full, may now be activated."""
    state = blank_game(4)
    put(state, 0, tile("Quarry", edge=ROAD, stack=3), 1, 0, clans=1, cubes={STONE: 3})
    state.market[STONE] = 2
    set_track(state, 0, [ROAD_FIELD, RIVER_FOREST])
    take_and_place(state, ROAD_FIELD, 2, 0)
    assert state.step == ACTIVATE
    options = legal(state)
    assert (1, 0) not in activation_cells(options)  # 3 cubes: nothing to produce
    assert of_kind(options, act.SELL) == [act.SELL_ACTION[STONE]]
    events = play(state, act.SELL_ACTION[STONE])
    assert events == [ev.CubeSold(0, STONE, 2, (1, 0))]
    assert state.players[0].coins == 8 and state.market[STONE] == 1
    assert state.step == ACTIVATE and state.actor == 0
    assert (1, 0) in activation_cells(legal(state))
    play(state, act.Action(act.ACTIVATE, 1, 0))
    assert cubes_at(state, 0, 1, 0) == [0, 3, 0, 0, 0]


# 6. Pooled movement points (§4 step 7, OP-16)


def test_movement_points_of_several_villages_and_castles_are_pooled():
    """§4 step 7: the start village, a village and a castle around the new tile give 1 point each;
    the 3 points are spent after the activations, all by one clan member."""
    state = blank_game(4)
    put(state, 0, tile("Village", edge=ROAD, stack=0), 1, 0, clans=1)
    put(state, 0, tile("Castle Moil"), 1, 1, clans=1)
    set_track(state, 0, [RIVER_FOREST, ROAD_QUARRY])
    take_and_place(state, RIVER_FOREST, 0, 1)
    gained = []
    for x, y in ((0, 0), (1, 0), (1, 1)):
        gained += play(state, act.Action(act.ACTIVATE, x, y))
    assert [e for e in gained if isinstance(e, ev.MovementGained)] == [
        ev.MovementGained(0, 1),
        ev.MovementGained(0, 2),
        ev.MovementGained(0, 3),
    ]
    assert state.step == ACTIVATE  # points wait for the end of the activations
    play(state, act.END_ACTIVATIONS_ACTION)
    assert state.step == MOVE and state.movement_points == 3
    play(state, act.Action(act.MOVE_CLAN, 1, 1, 0, 1))
    play(state, act.Action(act.MOVE_CLAN, 0, 1, 0, 0))
    assert state.step == MOVE and state.movement_points == 1
    events = play(state, act.Action(act.MAKE_CHIEFTAIN, 0, 0))
    assert ev.ChieftainMade(0, (0, 0)) in events and ev.TurnEnded(0) in events
    player = state.players[0]
    assert player.chieftains == 1 and state.movement_points == 0
    assert [clans_at(state, 0, x, y) for x, y in ((0, 0), (1, 0), (1, 1), (0, 1))] == [1, 1, 0, 0]


# 7. Refills across stacks, two scorings in one turn (ruling 21, OP-1, OP-3)


def _jump(jumped: int, stack_2_size: int):
    """4p: seat 0 jumps `jumped` tiles, which are discarded, so the refill draws jumped + 1 tiles;
    stack 1 holds 1 tile and stack 2 `stack_2_size` tiles."""
    state = blank_game(4)
    spare = state.stacks[1][:-1]
    state.stacks[1] = state.stacks[1][-1:]
    state.stacks[2] = state.stacks[2][-stack_2_size:]
    passed = spare[:jumped]
    fillers = spare[jumped : jumped + TRACK_LENGTH - 5 - jumped]
    set_track(state, 0, [*passed, ROAD_QUARRY, *fillers])
    assert len(state.track) == TRACK_LENGTH
    events = play(state, act.Action(act.TAKE_TILE, ROAD_QUARRY))
    assert [e for e in events if isinstance(e, ev.TileDiscarded)] == [
        ev.TileDiscarded(t, ev.DISCARD_PASSED) for t in passed
    ]
    play(state, act.Action(act.PLACE_TILE, 1, 0))
    state.players[1].whisky = 1
    return state


def test_refill_crosses_from_stack_1_to_stack_2():
    """Ruling 21: the refill draws the last tile of stack 1, then goes on with stack 2; scoring 1
    follows at the end of the turn, and only scoring 1."""
    state = _jump(1, stack_2_size=5)
    last_of_1, top_of_2 = state.stacks[1][0], state.stacks[2][-1]
    events = play(state, act.END_ACTIVATIONS_ACTION)
    assert ev.TilesDrawn((last_of_1, top_of_2)) in events
    assert [e.number for e in events if isinstance(e, ev.ScoringDone)] == [1]
    assert state.scorings_done == 1 and len(state.stacks[2]) == 4
    assert len(state.track) == TRACK_LENGTH and state.step == CHOOSE_TILE
    assert state.players[1].vp == 1


def test_one_refill_using_up_stacks_1_and_2_gives_two_scorings_in_one_turn():
    """Ruling 21: three tiles to draw with 1 left in stack 1 and 1 in stack 2 -> the refill draws
    from stacks 1, 2 and 3, and scorings 1 and 2 both follow at the end of that turn."""
    state = _jump(2, stack_2_size=1)
    last_of_1, only_of_2, top_of_3 = state.stacks[1][0], state.stacks[2][0], state.stacks[3][-1]
    events = play(state, act.END_ACTIVATIONS_ACTION)
    drawn = [e for e in events if isinstance(e, ev.TilesDrawn)]
    assert drawn == [ev.TilesDrawn((last_of_1, only_of_2, top_of_3))]
    assert [e.number for e in events if isinstance(e, ev.ScoringDone)] == [1, 2]
    assert state.scorings_done == 2 and state.step == CHOOSE_TILE
    assert not any(isinstance(e, ev.GameEnded) for e in events)
    assert state.players[1].vp == 2 and state.players[1].scoring_vp == 2  # whisky 1 vs 0, twice
    assert state.stacks[1] == [] and state.stacks[2] == [] and len(state.stacks[3]) == 16


# 8. The start player (§2 step 3, OP-24)


@pytest.mark.parametrize("players", [2, 4, 5])
def test_start_player_is_random(players):
    """OP-24: the start player is drawn uniformly from the seed: different seeds give different
    start players (every seat occurs), the same seed the same one; the figures follow from it."""
    starts = []
    for i in range(40):
        seed = b"start player %d" % i
        state, events = new_game(players, Config(), seed)
        start = state.start_player
        assert events[0] == ev.GameStarted(start)
        assert state.actor == start and state.step == CHOOSE_TILE
        assert state.track[:players] == [figure((start + k) % players) for k in range(players)]
        assert new_game(players, Config(), seed)[0].start_player == start
        starts.append(start)
    assert set(starts) == set(range(players))

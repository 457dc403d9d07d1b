"""Conversions on activation (§7.1): distillery, butchers, fairs (T8), grocer, bridge, taverns."""

from __future__ import annotations

import pytest

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import CATTLE, GRAIN, ROAD, SHEEP, STONE, WOOD
from services.glenmore.state import ACTIVATE, PAY
from tests.glenmore.scenario import activating, blank_game, legal, of_kind, play, put, tile

FAIR_3 = tile("Fair (3)", edge=0)
FAIR_5 = tile("Fair (5)")


def _with_cubes(cubes, coins=0):
    """A 4p game where seat 0 owns production tiles holding `cubes` (kind -> count) and `coins`."""
    state = blank_game(4)
    state.players[0].coins = coins
    producers = {
        WOOD: tile("Forest", edge=1),
        STONE: tile("Quarry", edge=ROAD),
        GRAIN: tile("Field", edge=ROAD),
        CATTLE: tile("Cattle pasture", edge=1),
        SHEEP: tile("Sheep pasture", edge=1),
    }
    for x, (kind, count) in enumerate(sorted(cubes.items()), start=1):
        put(state, 0, producers[kind], x, 5, cubes={kind: count})
    return state


def test_t8_fair_3_pays_different_kinds():
    """T8: fair(3) with 1 wood, 1 stone, 1 sheep paid -> 5 VP; a second wood is never offered.
    Ruling 14: a fair takes 1 cube each of different kinds."""
    state = _with_cubes({WOOD: 2, STONE: 1, SHEEP: 1})
    put(state, 0, FAIR_3, 1, 1)
    activating(state, 0, 1, 1)
    assert [a.c for a in legal(state) if a.kind == act.ACTIVATE and (a.a, a.b) == (1, 1)] == [1, 2, 3]
    play(state, act.Action(act.ACTIVATE, 1, 1, 3))
    assert state.step == PAY
    assert {a.c for a in of_kind(legal(state), act.PAY_CUBE)} == {WOOD, STONE, SHEEP}
    play(state, act.Action(act.PAY_CUBE, 1, 5, WOOD))
    assert {a.c for a in of_kind(legal(state), act.PAY_CUBE)} == {STONE, SHEEP}
    play(state, act.Action(act.PAY_CUBE, 2, 5, STONE))
    assert state.step == ACTIVATE  # the sheep was the only way left: paid by the engine
    assert state.players[0].vp == 5
    assert state.players[0].own == [1, 0, 0, 0, 0]


@pytest.mark.parametrize(("kinds", "vp"), [(1, 1), (2, 3), (3, 5), (4, 8), (5, 12)])
def test_fair_5_table(kinds, vp):
    """§7.1: m different kinds -> 1, 3, 5, 8, 12 VP; fair(5) with 5 kinds -> 12."""
    state = _with_cubes({WOOD: 1, STONE: 1, GRAIN: 1, CATTLE: 1, SHEEP: 1})
    put(state, 0, FAIR_5, 1, 1)
    activating(state, 0, 1, 1)
    play(state, act.Action(act.ACTIVATE, 1, 1, kinds))
    while state.step == PAY:
        play(state, legal(state)[0])
    assert state.players[0].vp == vp
    assert sum(state.players[0].own) == 5 - kinds


def test_butchers():
    """Sheep butcher: 1 -> 2 VP, 2 -> 4 VP; the mixed butcher: 1 sheep + 1 cattle -> 5 VP."""
    state = _with_cubes({SHEEP: 2, CATTLE: 1})
    put(state, 0, tile("Butcher (sheep)"), 1, 1)
    put(state, 0, tile("Butcher (sheep and cattle)"), 2, 1)
    activating(state, 0, 1, 1)
    options = legal(state)
    assert act.Action(act.ACTIVATE, 1, 1, 1) in options and act.Action(act.ACTIVATE, 1, 1, 2) in options
    play(state, act.Action(act.ACTIVATE, 1, 1, 2))
    assert state.players[0].vp == 4
    assert act.Action(act.ACTIVATE, 2, 1) not in legal(state)  # no sheep left, no coins to buy one
    state.players[0].coins = 1
    state.legal = None
    play(state, act.Action(act.ACTIVATE, 2, 1))
    assert state.players[0].vp == 9 and state.players[0].coins == 0 and state.market[SHEEP] == 1


def test_cattle_butcher_offers_only_what_can_be_paid():
    """With 1 cattle and no coins, only the 1-cube conversion of the cattle butcher is offered."""
    state = _with_cubes({CATTLE: 1})
    put(state, 0, tile("Butcher (cattle)"), 1, 1)
    activating(state, 0, 1, 1)
    assert [a for a in legal(state) if a.kind == act.ACTIVATE and (a.a, a.b) == (1, 1)] == [
        act.Action(act.ACTIVATE, 1, 1, 1)
    ]
    play(state, act.Action(act.ACTIVATE, 1, 1, 1))
    assert state.players[0].vp == 2


def test_distillery_grocer_bridge_and_tavern():
    """Distillery: grain -> whisky; grocer: any 3 cubes -> 8; bridge: wood + stone -> 7; tavern: +3."""
    state = _with_cubes({WOOD: 2, STONE: 2, GRAIN: 1, SHEEP: 1})
    put(state, 0, tile("Distillery", edge=0), 1, 1)
    put(state, 0, tile("Grocer"), 2, 1)
    put(state, 0, tile("Bridge"), 3, 1)
    put(state, 0, tile("Tavern"), 0, 1)
    activating(state, 0, 0, 1)
    state.activate_all = True  # the whole territory at hand, as with Loch Oich
    state.legal = None
    play(state, act.Action(act.ACTIVATE, 1, 1))
    assert state.players[0].whisky == 1 and state.players[0].own[GRAIN] == 0
    play(state, act.Action(act.ACTIVATE, 3, 1))
    assert state.players[0].vp == 7
    play(state, act.Action(act.ACTIVATE, 0, 1))
    assert state.players[0].vp == 10
    play(state, act.Action(act.ACTIVATE, 2, 1))
    for _ in range(3):
        if state.step == PAY:
            play(state, of_kind(legal(state), act.PAY_CUBE)[0])
    assert state.step == ACTIVATE
    assert state.players[0].vp == 18 and sum(state.players[0].own) == 0


def test_an_unpayable_conversion_is_not_offered():
    """The bridge needs wood and stone: with neither and no coins it is not offered."""
    state = _with_cubes({})
    put(state, 0, tile("Bridge"), 1, 1)
    activating(state, 0, 1, 1)
    assert (1, 1) not in {(a.a, a.b) for a in legal(state) if a.kind == act.ACTIVATE}
    events = play(state, act.END_ACTIVATIONS_ACTION)
    assert ev.TurnEnded(0) in events

"""Activations (§4 step 6, §7.1, §8): the new tile and its 8 neighbours, in the player's order.

Each tile activates at most once per turn; activations that would do nothing (a full production
tile, a loch, a conversion the player cannot pay) are not offered, and every activation is
optional (OP-15). Loch Oich opens the whole territory in its turn; Loch Ness adds one activation
of any tile from the owner's next turn on.
"""

from __future__ import annotations

from typing import Final

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore import payment
from services.glenmore.actions import Action
from services.glenmore.data import (
    BRIDGE,
    BRIDGE_VP,
    BUTCHER,
    BUTCHER_VP,
    CATTLE,
    CHOSEN_CUBE,
    DISTILLERY,
    FAIR,
    FAIR_VP,
    GRAIN,
    GROCER,
    GROCER_CUBES,
    GROCER_VP,
    MIXED_BUTCHER,
    MIXED_BUTCHER_VP,
    MOVEMENT,
    PRODUCE,
    SHEEP,
    STONE,
    TAVERN,
    TILE_CUBE_CAP,
    TILES,
    WOOD,
    Cost,
)
from services.glenmore.market import can_pay_any, can_pay_cubes, can_pay_different
from services.glenmore.state import ACTIVATE, MOVE, NO_CELL, PAY, PAY_FOR_ACTIVATION, Player, State
from services.glenmore.territory import cell, in_neighbourhood, neighbourhood_mask, xy
from services.glenmore.tiles import play_sell, sell_actions
from services.glenmore.turns import end_turn

_MIXED: Final = (SHEEP, CATTLE)
_BRIDGE: Final = (WOOD, STONE)
_GRAIN: Final = (GRAIN,)


def _options(player: Player, market: list[int], slot: int, found: list[Action]) -> None:
    """Append the ways to activate one tile."""
    tile = TILES[player.tiles[slot]]
    effect = tile.effect
    x, y = xy(player.cells[slot])
    coins = player.coins
    if effect == PRODUCE:
        if player.load[slot] < TILE_CUBE_CAP:
            found.append(act.action(act.ACTIVATE, x, y))
    elif effect in (MOVEMENT, TAVERN):
        found.append(act.action(act.ACTIVATE, x, y))
    elif effect == DISTILLERY:
        if can_pay_cubes(player, market, _GRAIN, coins):
            found.append(act.action(act.ACTIVATE, x, y))
    elif effect == CHOSEN_CUBE:
        if player.load[slot] < TILE_CUBE_CAP:
            found.extend(act.action(act.ACTIVATE, x, y, 0, kind + 1) for kind in range(5))
    elif effect == BUTCHER:
        for count in (1, 2):
            if can_pay_cubes(player, market, (tile.arg,) * count, coins):
                found.append(act.action(act.ACTIVATE, x, y, count))
    elif effect == MIXED_BUTCHER:
        if can_pay_cubes(player, market, _MIXED, coins):
            found.append(act.action(act.ACTIVATE, x, y))
    elif effect == FAIR:
        for count in range(1, tile.arg + 1):
            if can_pay_different(player, market, count, [], coins):
                found.append(act.action(act.ACTIVATE, x, y, count))
    elif effect == GROCER:
        if can_pay_any(player, market, GROCER_CUBES, coins):
            found.append(act.action(act.ACTIVATE, x, y))
    elif effect == BRIDGE and can_pay_cubes(player, market, _BRIDGE, coins):
        found.append(act.action(act.ACTIVATE, x, y))


def legal(state: State) -> list[Action]:
    """Activate a tile not yet activated this turn, sell, or end the activations."""
    player = state.players[state.actor]
    market = state.market
    found: list[Action] = []
    mask = neighbourhood_mask(state, player)
    ness = state.loch_ness_ready and not state.loch_ness_used
    done = state.activated
    for slot in range(len(player.tiles)):
        bit = 1 << slot
        if not done & bit and (ness or mask & bit):
            _options(player, market, slot, found)
    found.append(act.END_ACTIVATIONS_ACTION)
    sell_actions(state, found)
    found.sort()
    return found


def _cost(effect: int, arg: int, count: int) -> Cost:
    if effect == DISTILLERY:
        return Cost(_GRAIN)
    if effect == BUTCHER:
        return Cost((arg,) * count)
    if effect == MIXED_BUTCHER:
        return Cost(_MIXED)
    if effect == FAIR:
        return Cost(different=count)
    if effect == GROCER:
        return Cost()
    return Cost(_BRIDGE)


def play(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Carry out an activation, a sale, or the end of the activations."""
    kind = action.kind
    if kind == act.SELL:
        play_sell(state, action, events)
        return
    if kind == act.END_ACTIVATIONS:
        if state.movement_points:
            state.step = MOVE
        else:
            end_turn(state, events)
        return
    seat = state.actor
    player = state.players[seat]
    c = cell(action.a, action.b)
    slot = player.grid[c]
    loch_ness = not in_neighbourhood(state, player, slot)
    if loch_ness:
        state.loch_ness_used = True
    state.activated |= 1 << slot
    tile_index = player.tiles[slot]
    tile = TILES[tile_index]
    where = (action.a, action.b)
    events.append(ev.TileActivated(seat, tile_index, where, loch_ness))
    effect = tile.effect
    if effect in (PRODUCE, CHOSEN_CUBE):
        cube = tile.arg if effect == PRODUCE else action.d - 1
        player.add_cube(slot, cube)
        events.append(ev.CubeGained(seat, cube, where))
    elif effect == TAVERN:
        _vp(state, tile.arg, events)
    elif effect == MOVEMENT:
        state.movement_points += 1
        events.append(ev.MovementGained(seat, state.movement_points))
    else:
        state.activation_cell = c
        state.activation_count = action.c
        any_cubes = GROCER_CUBES if effect == GROCER else 0
        if payment.start(state, _cost(effect, tile.arg, action.c), PAY_FOR_ACTIVATION, events, any_cubes):
            state.step = PAY
        else:
            after_payment(state, events)


def _vp(state: State, amount: int, events: list) -> None:  # type: ignore[type-arg]
    state.players[state.actor].vp += amount
    events.append(ev.VpGained(state.actor, amount, ev.VP_ACTIVATION, state.config.public_vp))


def after_payment(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The reward of a conversion once its cost is paid."""
    player = state.players[state.actor]
    slot = player.grid[state.activation_cell]
    tile = TILES[player.tiles[slot]]
    effect = tile.effect
    count = state.activation_count
    state.activation_cell = NO_CELL
    state.activation_count = 0
    state.step = ACTIVATE
    if effect == DISTILLERY:
        player.whisky += 1
        events.append(ev.WhiskyGained(state.actor, 1))
    elif effect == BUTCHER:
        _vp(state, BUTCHER_VP[count - 1], events)
    elif effect == MIXED_BUTCHER:
        _vp(state, MIXED_BUTCHER_VP, events)
    elif effect == FAIR:
        _vp(state, FAIR_VP[count - 1], events)
    elif effect == GROCER:
        _vp(state, GROCER_VP, events)
    else:
        _vp(state, BRIDGE_VP, events)

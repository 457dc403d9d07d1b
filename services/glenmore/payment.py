"""Paying a cost one part per decision (STEP_PAY): which tile a cube comes from, or buying it.

A payment pays its named cubes first, in order, then cubes of different kinds, then cubes of any
kind, then a clan member or chieftain. A cube is bought only when the territory has none of the
kind needed (OP-17). Options that would leave the rest unpayable are not offered, so a payment
once started always completes.
"""

from __future__ import annotations

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.actions import Action
from services.glenmore.data import MARKET_SLOTS, Cost
from services.glenmore.market import buy_price, can_pay_any, can_pay_different
from services.glenmore.state import NO_PAYMENT, Player, State
from services.glenmore.territory import cell, xy


def start(state: State, cost: Cost, purpose: int, events: list, any_cubes: int = 0) -> bool:  # type: ignore[type-arg]
    """Begin paying `cost` (plus `any_cubes` cubes of any kinds); whisky is paid at once.

    Returns whether anything is left to decide.
    """
    player = state.players[state.actor]
    if cost.whisky:
        player.whisky -= cost.whisky
        events.append(ev.WhiskySpent(state.actor, cost.whisky))
    state.purpose = purpose
    state.resources = list(cost.cubes)
    state.different_cubes = cost.different
    state.kinds_paid = []
    state.any_cubes = any_cubes
    state.clan_member = cost.clan_member
    if pending(state):
        return True
    _finish(state)
    return False


def _finish(state: State) -> None:
    """The payment is complete: nothing of it stays in the state (a state equals its decoding)."""
    state.purpose = NO_PAYMENT
    state.kinds_paid = []


def pending(state: State) -> bool:
    """Whether part of the payment in progress is still to pay."""
    return bool(state.resources or state.different_cubes or state.any_cubes or state.clan_member)


def _pay_from_tiles(player: Player, kind: int, found: list[Action]) -> None:
    cubes = player.cubes
    for slot, c in enumerate(player.cells):
        if cubes[5 * slot + kind]:
            x, y = xy(c)
            found.append(act.action(act.PAY_CUBE, x, y, kind))


def _after_buying(market: list[int], kind: int) -> list[int]:
    """A copy of the market with one more cube of `kind` bought from it."""
    after = market[:]
    after[kind] += 1
    return after


def legal(state: State) -> list[Action]:
    """The ways to pay the next part of the cost."""
    player = state.players[state.actor]
    market = state.market
    found: list[Action] = []
    if state.resources:
        kind = state.resources[0]
        if player.own[kind]:
            _pay_from_tiles(player, kind, found)
        else:
            found.append(act.BUY_ACTION[kind])
    elif state.different_cubes:
        rest = state.different_cubes - 1
        used = state.kinds_paid
        for kind in range(5):
            if kind in used:
                continue
            after = [*used, kind]
            if player.own[kind]:
                if can_pay_different(player, market, rest, after, player.coins):
                    _pay_from_tiles(player, kind, found)
            elif market[kind] < MARKET_SLOTS:
                coins = player.coins - buy_price(market, kind)
                if coins >= 0 and can_pay_different(player, market, rest, after, coins):
                    found.append(act.BUY_ACTION[kind])
    elif state.any_cubes:
        if sum(player.own):
            for kind in range(5):
                if player.own[kind]:
                    _pay_from_tiles(player, kind, found)
        else:
            for kind in range(5):
                if market[kind] < MARKET_SLOTS:
                    coins = player.coins - buy_price(market, kind)
                    after = _after_buying(market, kind)
                    if coins >= 0 and can_pay_any(player, after, state.any_cubes - 1, coins):
                        found.append(act.BUY_ACTION[kind])
    elif state.clan_member:
        if player.clan_total() > 1:
            for slot, c in enumerate(player.cells):
                if player.clans[slot]:
                    x, y = xy(c)
                    found.append(act.action(act.PAY_CLAN, x, y))
        if player.chieftains:
            found.append(act.PAY_CHIEFTAIN_ACTION)
    found.sort()
    return found


def _paid_cube(state: State, kind: int) -> None:
    if state.resources:
        state.resources.pop(0)
    elif state.different_cubes:
        state.different_cubes -= 1
        state.kinds_paid.append(kind)
    else:
        state.any_cubes -= 1


def play(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Pay one part; returns whether the payment is complete."""
    seat = state.actor
    player = state.players[seat]
    kind = action.kind
    if kind == act.PAY_CUBE:
        cube = action.c
        player.remove_cube(player.grid[_cell(action)], cube)
        events.append(ev.CubeSpent(seat, cube, (action.a, action.b)))
        _paid_cube(state, cube)
    elif kind == act.BUY_CUBE:
        cube = action.a
        price = buy_price(state.market, cube)
        player.coins -= price
        state.market[cube] += 1
        events.append(ev.CubeBought(seat, cube, price))
        _paid_cube(state, cube)
    elif kind == act.PAY_CLAN:
        player.clans[player.grid[_cell(action)]] -= 1
        state.clan_member = False
        events.append(ev.ClanMemberSpent(seat, False, (action.a, action.b)))
    else:
        player.chieftains -= 1
        state.clan_member = False
        events.append(ev.ClanMemberSpent(seat, True, None))
    if pending(state):
        return False
    _finish(state)
    return True


def _cell(action: Action) -> int:
    return cell(action.a, action.b)

"""Trader phase (§4.5): at most one sale each to the trading house; markets and the privilege add.

Expansion I: a trading post owner may sell to their own post instead (price and privilege only).
"""

from __future__ import annotations

from typing import Final

from services.puertorico.actions import (
    PASS_ACTION,
    SELL,
    SELL_ACTION,
    SELL_TO_TRADING_POST,
    TRADING_POST_ACTION,
    Action,
)
from services.puertorico.board import privilege
from services.puertorico.data import (
    GOODS,
    LARGE_MARKET,
    LARGE_MARKET_BONUS,
    OFFICE,
    PRICE,
    SMALL_MARKET,
    SMALL_MARKET_BONUS,
    TRADING_HOUSE_CAPACITY,
    TRADING_POST,
    TRADING_POST_IGNORES_HOUSE,
)
from services.puertorico.events import GoodSold, Passed, TradingHouseCleared
from services.puertorico.state import SELL as SELL_STEP
from services.puertorico.state import State

TRADER_PRIVILEGE: Final = 1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Begin with the trader's turn."""
    state.step = SELL_STEP
    state.actor = state.role_selector
    return False


def revenue(state: State, seat: int, good: int) -> int:
    """Doubloons for one good: its price, the privilege, and market bonuses."""
    player = state.players[seat]
    amount = PRICE[good]
    if seat == state.role_selector:
        amount += TRADER_PRIVILEGE * privilege(state, seat)
    if player.has(SMALL_MARKET):
        amount += SMALL_MARKET_BONUS
    if player.has(LARGE_MARKET):
        amount += LARGE_MARKET_BONUS
    return amount


def post_revenue(state: State, seat: int, good: int) -> int:
    """Doubloons for a good sold to one's own trading post: price and privilege, no markets (ruling 33)."""
    amount = PRICE[good]
    if seat == state.role_selector:
        amount += TRADER_PRIVILEGE * privilege(state, seat)
    return amount


def legal_sell(state: State) -> list[Action]:
    """Each kind held that the house accepts (a new kind, or any kind with an office); or nothing;
    with a trading post, any kind held to the post (OP-15: even when the house is full)."""
    actions = []
    player = state.players[state.actor]
    house_open = len(state.trading_house) < TRADING_HOUSE_CAPACITY
    if house_open:
        office = player.has(OFFICE)
        actions = [
            SELL_ACTION[g] for g in GOODS if player.goods[g] and (office or g not in state.trading_house)
        ]
    actions.append(PASS_ACTION)
    if player.has(TRADING_POST) and (house_open or TRADING_POST_IGNORES_HOUSE):
        actions.extend(TRADING_POST_ACTION[g] for g in GOODS if player.goods[g])
    return actions


def play_sell(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Sell one good; after the last player a full house is emptied (ruling 15)."""
    seat = state.actor
    if action.kind == SELL:
        good = action.arg
        amount = revenue(state, seat, good)
        player = state.players[seat]
        player.goods[good] -= 1
        player.doubloons += amount
        state.trading_house.append(good)
        events.append(GoodSold(seat, good, amount))
    elif action.kind == SELL_TO_TRADING_POST:
        good = action.arg
        amount = post_revenue(state, seat, good)
        player = state.players[seat]
        player.goods[good] -= 1
        player.doubloons += amount
        state.goods_supply[good] += 1
        events.append(GoodSold(seat, good, amount, True))
    else:
        events.append(Passed(seat, SELL_STEP))
    state.role_turn += 1
    if state.role_turn < state.n:
        state.actor = (state.role_selector + state.role_turn) % state.n
        return False
    if len(state.trading_house) >= TRADING_HOUSE_CAPACITY:
        for good in state.trading_house:
            state.goods_supply[good] += 1
        state.trading_house = []
        events.append(TradingHouseCleared())
    return True

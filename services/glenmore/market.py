"""The warehouse (§6) and what a player can pay: prices, selling, and payment feasibility.

A row's filled slots are always its cheapest ones, so a row is one count: buying costs
filled + 1 and fills a slot; selling pays `filled` and empties one. Purchases only cover the
shortfall of the player's own cubes (OP-17), so a cost is payable when the coins cover the
cheapest purchases of what the territory lacks.
"""

from __future__ import annotations

from typing import Final

from services.glenmore import events as ev
from services.glenmore.data import MARKET_SLOTS, Cost
from services.glenmore.state import Player, State
from services.glenmore.territory import xy

UNBUYABLE: Final = 1 << 20


def buy_price(market: list[int], kind: int) -> int:
    """Coins to buy one cube of `kind` now; UNBUYABLE when its row is full."""
    filled = market[kind]
    return filled + 1 if filled < MARKET_SLOTS else UNBUYABLE


def can_pay_cubes(player: Player, market: list[int], kinds: tuple[int, ...] | list[int], coins: int) -> bool:
    """Whether `coins` buy what the territory lacks of the named cubes."""
    own = player.own
    if len(kinds) == 1:
        kind = kinds[0]
        return own[kind] > 0 or (market[kind] < MARKET_SLOTS and market[kind] + 1 <= coins)
    need = [0, 0, 0, 0, 0]
    for kind in kinds:
        need[kind] += 1
    for kind in range(5):
        short = need[kind] - own[kind]
        if short > 0:
            filled = market[kind]
            if filled + short > MARKET_SLOTS:
                return False
            coins -= short * filled + short * (short + 1) // 2
    return coins >= 0


def can_pay_different(player: Player, market: list[int], count: int, used: list[int], coins: int) -> bool:
    """Whether `count` cubes of kinds different from each other and from `used` can be paid."""
    if count <= 0:
        return True
    own = player.own
    costs = []
    for kind in range(5):
        if kind in used:
            continue
        if own[kind]:
            costs.append(0)
        elif market[kind] < MARKET_SLOTS:
            costs.append(market[kind] + 1)
    if len(costs) < count:
        return False
    costs.sort()
    return sum(costs[:count]) <= coins


def can_pay_any(player: Player, market: list[int], count: int, coins: int) -> bool:
    """Whether `count` cubes of any kinds can be paid (buying only once the territory has none)."""
    short = count - sum(player.own)
    if short <= 0:
        return True
    filled = market[:]
    for _ in range(short):
        kind = min(range(5), key=lambda k: filled[k])
        if filled[kind] >= MARKET_SLOTS:
            return False
        filled[kind] += 1
        coins -= filled[kind]
    return coins >= 0


def can_pay(player: Player, market: list[int], cost: Cost) -> bool:
    """Whether a tile's buy cost can be paid now."""
    if cost.cubes:
        return can_pay_cubes(player, market, cost.cubes, player.coins)
    if cost.different:
        return can_pay_different(player, market, cost.different, [], player.coins)
    if cost.whisky:
        return player.whisky >= cost.whisky
    if cost.clan_member:
        return player.chieftains > 0 or player.clan_total() > 1
    return True


def richest_slot(player: Player, kind: int) -> int:
    """The slot holding the most cubes of `kind` (the earliest among equals); -1 if none."""
    best, best_count = -1, 0
    cubes = player.cubes
    for slot in range(len(player.tiles)):
        count = cubes[5 * slot + kind]
        if count > best_count:
            best, best_count = slot, count
    return best


def can_sell(state: State, player: Player, kind: int) -> bool:
    """Whether a cube of `kind` can be sold now."""
    return player.own[kind] > 0 and state.market[kind] > 0


def sell(state: State, seat: int, kind: int, events: list) -> None:  # type: ignore[type-arg]
    """Sell one cube of `kind` from the tile holding the most of it."""
    player = state.players[seat]
    slot = richest_slot(player, kind)
    price = state.market[kind]
    player.remove_cube(slot, kind)
    state.market[kind] -= 1
    player.coins += price
    events.append(ev.CubeSold(seat, kind, price, xy(player.cells[slot])))

"""Captain phase (§4.6): compulsory loading in laps, wharf, harbor, storage, clearing full ships.

Expansion I: union hall VP before loading, the lighthouse's doubloons, the small wharf (goods chosen
one decision at a time, then shipped), and the storehouse's single goods.
"""

from __future__ import annotations

from typing import Final

from services.puertorico.actions import (
    KEEP_SINGLE,
    LOAD,
    LOAD_ACTION,
    PASS_ACTION,
    SHIP_SMALL_WHARF_ACTION,
    SHIP_WITH_WHARF,
    SINGLE_ACTION,
    SMALL_WHARF_ACTION,
    STORE_IN_WAREHOUSE,
    USE_SMALL_WHARF,
    WAREHOUSE_ACTION,
    WHARF_ACTION,
    Action,
    small_wharf_goods,
)
from services.puertorico.board import award_vp, privilege
from services.puertorico.data import (
    GOODS,
    HARBOR,
    LIGHTHOUSE,
    LIGHTHOUSE_CAPTAIN_DOUBLOONS,
    LIGHTHOUSE_DOUBLOONS,
    SMALL_WHARF,
    SMALL_WHARF_COUNTS_AS_LOAD,
    SMALL_WHARF_GOODS_PER_VP,
    STOREHOUSE,
    STOREHOUSE_SINGLES,
    UNION_HALL,
    WAREHOUSE_KINDS,
    WHARF,
    WINDROSE_GOODS,
)
from services.puertorico.events import (
    DOUBLOONS_LIGHTHOUSE,
    VP_CAPTAIN,
    VP_HARBOR,
    VP_SHIPPING,
    VP_UNION_HALL,
    DoubloonsReceived,
    GoodsDiscarded,
    GoodsLoaded,
    Passed,
    ShipsCleared,
    SmallWharfShipped,
)
from services.puertorico.state import LOAD as LOAD_STEP
from services.puertorico.state import SMALL_WHARF_STEP, STORE, Player, State

CAPTAIN_PRIVILEGE_VP: Final = 1
HARBOR_VP: Final = 1
WHARF_SHIP: Final = -1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Begin loading with the captain."""
    state.passes_in_row = 0
    state.captain_loaded = False
    for player in state.players:
        player.wharf_used = False
        player.small_wharf_used = False
    if state.expansion:
        _before_loading(state, events)
    return _begin_load_turn(state, events)


def _before_loading(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Union hall VP for every owner from the captain on (ruling 34); the captain's lighthouse coin (OP-5)."""
    n = state.n
    for turn in range(n):
        seat = (state.role_selector + turn) % n
        player = state.players[seat]
        if player.has(UNION_HALL):
            award_vp(state, seat, sum(held // 2 for held in player.goods), VP_UNION_HALL, events)
    captain = state.players[state.role_selector]
    if captain.has(LIGHTHOUSE) and not state.config.lighthouse_captain_needs_load:
        _lighthouse_pay(state, state.role_selector, LIGHTHOUSE_CAPTAIN_DOUBLOONS, events)


def _lighthouse_pay(state: State, seat: int, amount: int, events: list) -> None:  # type: ignore[type-arg]
    state.players[seat].doubloons += amount
    events.append(DoubloonsReceived(seat, amount, DOUBLOONS_LIGHTHOUSE))


def _can_use_wharf(player: Player) -> bool:
    return player.has(WHARF) and not player.wharf_used


def _can_use_small_wharf(player: Player) -> bool:
    return player.has(SMALL_WHARF) and not player.small_wharf_used


def _loads(state: State, player: Player) -> list[Action]:
    """Legal cargo-ship loads: per kind, the eligible ships that take the most (ruling 1)."""
    actions: list[Action] = []
    ship_good = state.ship_good
    for good in GOODS:
        held = player.goods[good]
        if not held:
            continue
        on_a_ship = good in ship_good
        best = 0
        ships: list[int] = []
        for ship, capacity in enumerate(state.ship_cap):
            free = capacity - state.ship_count[ship]
            if not free or not (ship_good[ship] == good or (ship_good[ship] < 0 and not on_a_ship)):
                continue
            amount = min(held, free)
            if amount > best:
                best, ships = amount, [ship]
            elif amount == best:
                ships.append(ship)
        actions.extend(LOAD_ACTION[good][ship] for ship in ships)
    return actions


def _begin_load_turn(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Find the next player with something to do; after a full lap without a load, go to storage."""
    n = state.n
    while state.passes_in_row < n:
        seat = (state.role_selector + state.role_turn) % n
        player = state.players[seat]
        if any(player.goods) and (
            _can_use_wharf(player) or _can_use_small_wharf(player) or _loads(state, player)
        ):
            state.step = LOAD_STEP
            state.actor = seat
            return False
        state.passes_in_row += 1
        state.role_turn += 1
    state.role_turn = 0
    return _begin_store_turn(state, events)


def legal_load(state: State) -> list[Action]:
    """Loads (compulsory when any exists), wharf shipments, and passing only when no load is possible."""
    player = state.players[state.actor]
    actions = _loads(state, player)
    can_pass = not actions
    if _can_use_wharf(player):
        actions.extend(WHARF_ACTION[g] for g in GOODS if player.goods[g])
    if can_pass:
        actions.append(PASS_ACTION)
    if _can_use_small_wharf(player):
        actions.append(SMALL_WHARF_ACTION)
    return actions


def _score_load(state: State, seat: int, vp: int, events: list, private: bool = False) -> None:  # type: ignore[type-arg]
    """VP for the goods, the captain's privilege on their first load, the harbor and lighthouse per load."""
    award_vp(state, seat, vp, VP_SHIPPING, events)
    player = state.players[seat]
    if seat == state.role_selector and not state.captain_loaded:
        state.captain_loaded = True
        award_vp(state, seat, CAPTAIN_PRIVILEGE_VP * privilege(state, seat), VP_CAPTAIN, events)
        if state.config.lighthouse_captain_needs_load and player.has(LIGHTHOUSE):
            _lighthouse_pay(state, seat, LIGHTHOUSE_CAPTAIN_DOUBLOONS, events)
    if player.has(HARBOR):
        award_vp(state, seat, HARBOR_VP, VP_HARBOR, events)
    if player.has(LIGHTHOUSE) and (state.config.lighthouse_counts_private_ships or not private):
        _lighthouse_pay(state, seat, LIGHTHOUSE_DOUBLOONS, events)


def play_load(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Load a cargo ship, ship with the wharf, or pass; then the next player."""
    seat = state.actor
    player = state.players[seat]
    if action.kind == LOAD:
        good, ship = action.arg, action.arg2
        amount = min(player.goods[good], state.ship_cap[ship] - state.ship_count[ship])
        player.goods[good] -= amount
        state.ship_good[ship] = good
        state.ship_count[ship] += amount
        events.append(GoodsLoaded(seat, good, amount, ship))
        _score_load(state, seat, amount, events)
        state.passes_in_row = 0
    elif action.kind == SHIP_WITH_WHARF:
        good = action.arg
        amount = player.goods[good]
        player.goods[good] = 0
        state.goods_supply[good] += amount
        player.wharf_used = True
        events.append(GoodsLoaded(seat, good, amount, WHARF_SHIP))
        _score_load(state, seat, amount, events, private=True)
        state.passes_in_row = 0
    elif action.kind == USE_SMALL_WHARF:
        state.small_wharf_goods = [0, 0, 0, 0, 0]
        state.step = SMALL_WHARF_STEP
        return False
    else:
        events.append(Passed(seat, LOAD_STEP))
        state.passes_in_row += 1
    state.role_turn += 1
    return _begin_load_turn(state, events)


def legal_small_wharf(state: State) -> list[Action]:
    """Add 1 (or all the rest) of a kind held to the shipment; ship once at least one good is chosen."""
    player = state.players[state.actor]
    chosen = state.small_wharf_goods
    actions = []
    for good in GOODS:
        rest = player.goods[good] - chosen[good]
        if rest:
            actions.append(small_wharf_goods(good, 1))
        if rest > 1:
            actions.append(small_wharf_goods(good, rest))
    if any(chosen):
        actions.append(SHIP_SMALL_WHARF_ACTION)
    return actions


def small_wharf_vp(state: State, goods: int) -> int:
    """VP for a small-wharf shipment: 1 per 2 goods (OP-3: rounded down by default)."""
    if state.config.small_wharf_rounding == "floor":
        return goods // SMALL_WHARF_GOODS_PER_VP
    return -(-goods // SMALL_WHARF_GOODS_PER_VP)


def play_small_wharf(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Add goods to the shipment, or ship them: the turn's load action (OP-4)."""
    if action != SHIP_SMALL_WHARF_ACTION:
        state.small_wharf_goods[action.arg] += action.arg2
        return False
    seat = state.actor
    player = state.players[seat]
    shipped = state.small_wharf_goods
    for good, amount in enumerate(shipped):
        player.goods[good] -= amount
        state.goods_supply[good] += amount
    player.small_wharf_used = True
    state.small_wharf_goods = [0, 0, 0, 0, 0]
    events.append(SmallWharfShipped(seat, tuple(shipped)))
    vp = small_wharf_vp(state, sum(shipped))
    if SMALL_WHARF_COUNTS_AS_LOAD:
        _score_load(state, seat, vp, events, private=True)
    else:
        award_vp(state, seat, vp, VP_SHIPPING, events)
    state.passes_in_row = 0
    state.step = LOAD_STEP
    state.role_turn += 1
    return _begin_load_turn(state, events)


def _capacity(player: Player) -> tuple[int, int]:
    """Warehouse kinds and single goods a player may keep (a storehouse keeps 3 more singles)."""
    kinds = sum(count for building, count in WAREHOUSE_KINDS if player.has(building))
    singles = WINDROSE_GOODS + (STOREHOUSE_SINGLES if player.has(STOREHOUSE) else 0)
    return kinds, singles


def _at_risk(state: State, player: Player) -> list[int]:
    """Goods not yet kept, per good."""
    return [
        0 if good in state.warehoused else player.goods[good] - state.singles_kept[good] for good in GOODS
    ]


def _room_left(state: State, player: Player) -> tuple[int, int]:
    kinds, singles = _capacity(player)
    return kinds - len(state.warehoused), singles - sum(state.singles_kept)


def _settle_storage(state: State, seat: int, events: list) -> bool:  # type: ignore[type-arg]
    """Finish a player's storage if no choice is left: keep all if it fits, or lose what has no room."""
    player = state.players[seat]
    at_risk = _at_risk(state, player)
    kinds_left, singles_left = _room_left(state, player)
    piles = sorted((amount for amount in at_risk if amount), reverse=True)
    if sum(piles[kinds_left:]) <= singles_left:
        return True
    if kinds_left or singles_left:
        return False
    for good, amount in enumerate(at_risk):
        player.goods[good] -= amount
        state.goods_supply[good] += amount
    events.append(GoodsDiscarded(seat, tuple(at_risk)))
    return True


def _begin_store_turn(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Storage in order from the captain; then clear the full ships."""
    n = state.n
    while state.role_turn < n:
        seat = (state.role_selector + state.role_turn) % n
        state.warehoused = []
        state.singles_kept = [0, 0, 0, 0, 0]
        if not _settle_storage(state, seat, events):
            state.step = STORE
            state.actor = seat
            return False
        state.role_turn += 1
    state.warehoused = []
    state.singles_kept = [0, 0, 0, 0, 0]
    _clear_ships(state, events)
    return True


def legal_store(state: State) -> list[Action]:
    """Warehouse a kind while warehouse room is left, then keep single goods."""
    player = state.players[state.actor]
    at_risk = _at_risk(state, player)
    kinds_left, _ = _room_left(state, player)
    table = WAREHOUSE_ACTION if kinds_left else SINGLE_ACTION
    return [table[good] for good in GOODS if at_risk[good]]


def play_store(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Keep the chosen goods; when nothing is left to choose, the next player stores."""
    if action.kind == STORE_IN_WAREHOUSE:
        state.warehoused.append(action.arg)
    elif action.kind == KEEP_SINGLE:
        state.singles_kept[action.arg] += 1
    if not _settle_storage(state, state.actor, events):
        return False
    state.role_turn += 1
    return _begin_store_turn(state, events)


def _clear_ships(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Empty every full cargo ship into the supply; partly loaded ships keep their cargo (ruling 7)."""
    cleared = []
    for ship, capacity in enumerate(state.ship_cap):
        if state.ship_count[ship] == capacity:
            state.goods_supply[state.ship_good[ship]] += capacity
            state.ship_count[ship] = 0
            state.ship_good[ship] = -1
            cleared.append(ship)
    if cleared:
        events.append(ShipsCleared(tuple(cleared)))
    for player in state.players:
        player.wharf_used = False
        player.small_wharf_used = False

"""Captain phase (§4.6): compulsory loading in laps, wharf, harbor, storage, clearing full ships."""

from __future__ import annotations

from services.puertorico.actions import (
    KEEP_SINGLE,
    LOAD,
    LOAD_ACTION,
    PASS_ACTION,
    SHIP_WITH_WHARF,
    SINGLE_ACTION,
    STORE_IN_WAREHOUSE,
    WAREHOUSE_ACTION,
    WHARF_ACTION,
    Action,
)
from services.puertorico.board import award_vp
from services.puertorico.data import GOODS, HARBOR, WAREHOUSE_KINDS, WHARF, WINDROSE_GOODS
from services.puertorico.events import (
    VP_CAPTAIN,
    VP_HARBOR,
    VP_SHIPPING,
    GoodsDiscarded,
    GoodsLoaded,
    Passed,
    ShipsCleared,
)
from services.puertorico.state import LOAD as LOAD_STEP
from services.puertorico.state import STORE, Player, State

CAPTAIN_PRIVILEGE_VP = 1
HARBOR_VP = 1
WHARF_SHIP = -1


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Begin loading with the captain."""
    state.passes_in_row = 0
    state.captain_loaded = False
    for player in state.players:
        player.wharf_used = False
    return _begin_load_turn(state, events)


def _can_use_wharf(player: Player) -> bool:
    return player.has(WHARF) and not player.wharf_used


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
        seat = (state.selector + state.role_turn) % n
        player = state.players[seat]
        if any(player.goods) and (_can_use_wharf(player) or _loads(state, player)):
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
    return actions


def _score_load(state: State, seat: int, amount: int, events: list) -> None:  # type: ignore[type-arg]
    """1 VP per good, the captain's privilege on their first load, the harbor per load."""
    award_vp(state, seat, amount, VP_SHIPPING, events)
    if seat == state.selector and not state.captain_loaded:
        state.captain_loaded = True
        award_vp(state, seat, CAPTAIN_PRIVILEGE_VP, VP_CAPTAIN, events)
    if state.players[seat].has(HARBOR):
        award_vp(state, seat, HARBOR_VP, VP_HARBOR, events)


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
        _score_load(state, seat, amount, events)
        state.passes_in_row = 0
    else:
        events.append(Passed(seat, LOAD_STEP))
        state.passes_in_row += 1
    state.role_turn += 1
    return _begin_load_turn(state, events)


def _capacity(player: Player) -> tuple[int, int]:
    """Warehouse kinds and single goods a player may keep."""
    kinds = sum(count for building, count in WAREHOUSE_KINDS if player.has(building))
    return kinds, WINDROSE_GOODS


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
        seat = (state.selector + state.role_turn) % n
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

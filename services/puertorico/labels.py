"""Readable labels for actions and texts for events: what a client shows its players."""

from __future__ import annotations

from collections.abc import Callable

from services.common.helpers import plural
from services.puertorico import actions as act
from services.puertorico import events as ev
from services.puertorico.builder import price
from services.puertorico.captain import small_wharf_vp
from services.puertorico.data import (
    BLACK_MARKET_COLONIST,
    BLACK_MARKET_VP,
    BUILDINGS,
    DRAFT_SLOTS,
    GOOD_NAMES,
    ROLE_NAMES,
    TILE_NAMES,
)
from services.puertorico.state import (
    BLACK_MARKET_STEP,
    BUILD,
    CRAFTSMAN_PRIVILEGE,
    GUESTS,
    HACIENDA_STEP,
    HOSPICE_STEP,
    LIBRARY_TILE,
    LOAD,
    MAYOR_PRIVILEGE,
    PLACE_COLONIST,
    SELL,
    TAKE_TILE,
    TRIGGER_CITY,
    TRIGGER_COLONISTS,
    TRIGGER_VP_POOL,
    UNIVERSITY_STEP,
    State,
)
from services.puertorico.trader import post_revenue, revenue

PASS_LABELS = {
    HACIENDA_STEP: "Do not draw with the hacienda",
    TAKE_TILE: "Take no tile",
    HOSPICE_STEP: "Do not use the hospice",
    MAYOR_PRIVILEGE: "Decline the extra colonist",
    PLACE_COLONIST: "Keep this arrangement of colonists",
    BUILD: "Build nothing",
    UNIVERSITY_STEP: "Do not use the university",
    CRAFTSMAN_PRIVILEGE: "Decline the extra good",
    SELL: "Sell nothing",
    LOAD: "Load nothing",
    LIBRARY_TILE: "Take no second tile",
    GUESTS: "Leave the guests where they are",
}
PASS_WORDS = {
    HACIENDA_STEP: "did not draw with the hacienda",
    TAKE_TILE: "took no tile",
    HOSPICE_STEP: "did not use the hospice",
    MAYOR_PRIVILEGE: "declined the extra colonist",
    BUILD: "built nothing",
    UNIVERSITY_STEP: "did not use the university",
    CRAFTSMAN_PRIVILEGE: "declined the extra good",
    SELL: "sold nothing",
    LOAD: "loaded nothing",
    LIBRARY_TILE: "took no second tile (library)",
    GUESTS: "left their guests where they are",
}
TRIGGER_WORDS = {
    TRIGGER_COLONISTS: "the colonist supply ran short",
    TRIGGER_CITY: "a city is full",
    TRIGGER_VP_POOL: "the VP pool is empty",
}
SOURCE_WORDS = {
    ev.FROM_SHIP: "from the colonist ship",
    ev.FROM_PRIVILEGE: "as the mayor's privilege",
    ev.FROM_HOSPICE: "with the hospice",
    ev.FROM_UNIVERSITY: "with the university",
}
TILE_SOURCE_WORDS = {
    ev.TILE_FACE_UP: "",
    ev.TILE_QUARRY: "",
    ev.TILE_HACIENDA: " with the hacienda",
    ev.TILE_LIBRARY: " as the library's second tile",
}
DOUBLOON_WORDS = {
    ev.DOUBLOONS_ROLE_CARD: "from the role card",
    ev.DOUBLOONS_PROSPECTOR: "as the prospector",
    ev.DOUBLOONS_FACTORY: "from the factory",
    ev.DOUBLOONS_SPECIALTY_FACTORY: "from the specialty factory",
    ev.DOUBLOONS_LIGHTHOUSE: "from the lighthouse",
}
VP_WORDS = {
    ev.VP_SHIPPING: "for shipping",
    ev.VP_CAPTAIN: "as the captain",
    ev.VP_HARBOR: "from the harbor",
    ev.VP_CHURCH: "from the church",
    ev.VP_UNION_HALL: "from the union hall",
}
MARKET_WORDS = "black market, 1 doubloon off"


def _a(name: str) -> str:
    return f"an {name}" if name[0] in "aeiou" else f"a {name}"


def _goods(goods: tuple[int, ...]) -> str:
    parts = [f"{count} {GOOD_NAMES[good]}" for good, count in enumerate(goods) if count]
    return ", ".join(parts) if parts else "nothing"


def _space(space: int) -> str:
    """A space of a board in words: "a corn plantation", "the small market"."""
    if space < act.BUILDING_SPACE:
        return _a(TILE_NAMES[space])
    return f"the {BUILDINGS[space - act.BUILDING_SPACE].name}"


def _returned(source: int, where: int) -> str:
    """Returning a colonist to the supply with the black market, from San Juan, a tile or a building."""
    if source == act.FROM_SAN_JUAN:
        return "Return a colonist from San Juan"
    if source == act.FROM_TILE:
        return f"Return the colonist from {_a(TILE_NAMES[where])}"
    return f"Return the colonist from the {BUILDINGS[where].name}"


def _ship(state: State, ship: int) -> str:
    return f"the {state.ship_cap[ship]}-hold ship"


# The labels that depend on the action alone, by kind: each is worded once per action (REMEMBERED).
ACTION_WORDS: dict[int, Callable[[int, int], str]] = {
    act.TAKE_PLANTATION: lambda tile, _: f"Take {_a(TILE_NAMES[tile])}",
    act.TAKE_QUARRY: lambda *_: "Take a quarry",
    act.HACIENDA_DRAW: lambda *_: "Draw a hidden plantation with the hacienda",
    act.MAYOR_PRIVILEGE: lambda *_: "Take 1 extra colonist from the supply",
    act.PLACE_ON_TILE: lambda tile, _: f"Place a colonist from San Juan on {_a(TILE_NAMES[tile])}",
    act.PLACE_ON_BUILDING: lambda building, _: (
        f"Place a colonist from San Juan on the {BUILDINGS[building].name}"
    ),
    act.MOVE_COLONIST: lambda source, target: f"Move a colonist from {_space(source)} to {_space(target)}",
    act.CRAFTSMAN_BONUS: lambda good, _: f"Take 1 extra {GOOD_NAMES[good]}",
    act.STORE_IN_WAREHOUSE: lambda good, _: f"Keep all {GOOD_NAMES[good]} in a warehouse",
    act.KEEP_SINGLE: lambda good, _: f"Keep 1 {GOOD_NAMES[good]}",
    act.DRAFT_COST: lambda cost, _: (
        f"Fill a violet slot of cost {cost} ({plural(DRAFT_SLOTS[cost], 'slot')} of that cost)"
    ),
    act.DRAFT_BUILDING: lambda building, _: f"Draft the {BUILDINGS[building].name}",
    act.TAKE_FOREST: lambda tile, _: f"Take {_a(TILE_NAMES[tile])} as a face-down forest",
    act.BLACK_MARKET_COLONIST: lambda *_: f"Return a colonist to the supply ({MARKET_WORDS})",
    act.BLACK_MARKET_GOOD: lambda good, _: f"Return 1 {GOOD_NAMES[good]} to the supply ({MARKET_WORDS})",
    act.BLACK_MARKET_VP: lambda *_: f"Return 1 VP to the pool ({MARKET_WORDS})",
    act.RETURN_COLONIST: _returned,
    act.USE_SMALL_WHARF: lambda *_: "Ship goods of any kinds with the small wharf (1 VP per 2 goods)",
    act.GUEST_TO_TILE: lambda tile, _: f"Move a guest to {_a(TILE_NAMES[tile])}",
    act.GUEST_TO_BUILDING: lambda building, _: f"Move a guest to the {BUILDINGS[building].name}",
}
# The ACTION_WORDS labels worded so far, by action (at most LABEL_MEMO; the legal ones are far fewer).
REMEMBERED: dict[act.Action, str] = {}
LABEL_MEMO = 4096


def label(state: State, action: act.Action) -> str:
    """What a legal action does, in the words of the game."""
    text = REMEMBERED.get(action)
    if text is None:
        words = ACTION_WORDS.get(action[0])
        if words is None:
            return _state_label(state, action)
        if len(REMEMBERED) >= LABEL_MEMO:
            REMEMBERED.clear()
        text = REMEMBERED[action] = words(action[1], action[2])
    return text


def _state_label(state: State, action: act.Action) -> str:
    """The label of an action whose words depend on the state (its price, amount, bonus or step)."""
    kind, arg, arg2 = action
    player = state.players[state.actor]
    if kind == act.CHOOSE_ROLE:
        doubloons = state.role_doubloons[state.roles.index(arg)] if arg in state.roles else 0
        bonus = f" (+{plural(doubloons, 'doubloon')})" if doubloons else ""
        return f"Choose the {ROLE_NAMES[arg]}{bonus}"
    if kind == act.HOSPICE_COLONIST:
        return f"Put a colonist on the new {TILE_NAMES[state.tile_taken]} (hospice)"
    if kind == act.BUILD:
        cost = price(state, state.actor, arg)
        short = " less black market items" if cost > player.doubloons else ""
        return f"Build the {BUILDINGS[arg].name} for {plural(cost, 'doubloon')}{short}"
    if kind == act.UNIVERSITY_COLONIST:
        return f"Put a colonist on the new {BUILDINGS[state.just_built].name} (university)"
    if kind == act.SELL:
        return f"Sell 1 {GOOD_NAMES[arg]} for {plural(revenue(state, state.actor, arg), 'doubloon')}"
    if kind == act.LOAD:
        amount = min(player.goods[arg], state.ship_cap[arg2] - state.ship_count[arg2])
        return f"Load {amount} {GOOD_NAMES[arg]} onto {_ship(state, arg2)}"
    if kind == act.SHIP_WITH_WHARF:
        return f"Ship {player.goods[arg]} {GOOD_NAMES[arg]} with the wharf"
    if kind == act.PASS:
        if state.step == BLACK_MARKET_STEP:
            left = state.pending_price - len(state.black_market_items)
            return f"Pay {plural(left, 'doubloon')} and build the {BUILDINGS[state.pending_build].name}"
        return PASS_LABELS.get(state.step, "Pass")
    if kind == act.PLACE_DRAWN_TILE:
        tile = TILE_NAMES[state.hacienda_tile]
        return f"Place the drawn {tile} face down as a forest" if arg else f"Place the drawn {tile} face up"
    if kind == act.SMALL_WHARF_GOODS:  # its count is not bounded by a table: worded each time
        return f"Put {arg2} {GOOD_NAMES[arg]} on the small wharf"
    if kind == act.SHIP_SMALL_WHARF:
        chosen = tuple(state.small_wharf_goods)
        return f"Ship {_goods(chosen)} with the small wharf for {small_wharf_vp(state, sum(chosen))} VP"
    if kind == act.SELL_TO_TRADING_POST:
        amount = post_revenue(state, state.actor, arg)
        return f"Sell 1 {GOOD_NAMES[arg]} to the trading post for {plural(amount, 'doubloon')}"
    raise ValueError(f"no label for {action!r}")


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """One readable sentence for an event."""
    seat = f"Seat {event.seat}" if hasattr(event, "seat") else ""
    if isinstance(event, ev.GameStarted):
        return f"The game begins; seat {event.governor} is the governor"
    if isinstance(event, ev.RoleChosen):
        return f"{seat} chose the {ROLE_NAMES[event.role]}"
    if isinstance(event, ev.Passed):
        return f"{seat} {PASS_WORDS.get(event.step, 'passed')}"
    if isinstance(event, ev.TileTaken):
        return f"{seat} took {_a(TILE_NAMES[event.tile])}{TILE_SOURCE_WORDS[event.source]}"
    if isinstance(event, ev.ColonistsReceived):
        return f"{seat} received {plural(event.colonists, 'colonist')} {SOURCE_WORDS[event.source]}"
    if isinstance(event, ev.ColonistsArranged):
        return f"{seat} arranged their colonists ({event.san_juan} left in San Juan)"
    if isinstance(event, ev.BuildingBuilt):
        return f"{seat} built the {BUILDINGS[event.building].name} for {plural(event.price, 'doubloon')}"
    if isinstance(event, ev.GoodsProduced):
        what = "took the extra good" if event.privilege else "produced"
        if event.building >= 0:
            what = f"received from the {BUILDINGS[event.building].name}"
        return f"{seat} {what}: {_goods(event.goods)}"
    if isinstance(event, ev.DoubloonsReceived):
        return f"{seat} received {plural(event.amount, 'doubloon')} {DOUBLOON_WORDS[event.reason]}"
    if isinstance(event, ev.GoodSold):
        where = " to the trading post" if event.trading_post else ""
        return f"{seat} sold 1 {GOOD_NAMES[event.good]}{where} for {plural(event.price, 'doubloon')}"
    if isinstance(event, ev.GoodsLoaded):
        where = "with the wharf" if event.ship < 0 else f"onto ship {event.ship}"
        return f"{seat} shipped {event.barrels} {GOOD_NAMES[event.good]} {where}"
    if isinstance(event, ev.VpReceived):
        return f"{seat} received {event.amount} VP {VP_WORDS[event.reason]}"
    if isinstance(event, ev.GoodsDiscarded):
        return f"{seat} returned {_goods(event.goods)} to the supply"
    if isinstance(event, ev.ShipsCleared):
        return f"Full ships emptied: {', '.join(str(s) for s in event.ships)}"
    if isinstance(event, ev.TradingHouseCleared):
        return "The full trading house was emptied"
    if isinstance(event, ev.PlantationsRevealed):
        tiles = ", ".join(TILE_NAMES[t] for t in event.tiles) or "none"
        return f"New plantations face up: {tiles}"
    if isinstance(event, ev.ColonistShipRefilled):
        return f"The colonist ship now carries {plural(event.colonists, 'colonist')}"
    if isinstance(event, ev.EndTriggered):
        return f"The game will end after this round: {TRIGGER_WORDS[event.trigger]}"
    if isinstance(event, ev.RoundEnded):
        return f"Round {event.round} ended; seat {event.next_governor} is the next governor"
    if isinstance(event, ev.DraftPicked):
        return f"{seat} drafted the {BUILDINGS[event.building].name}"
    if isinstance(event, ev.GuestMoved):
        where = _a(TILE_NAMES[event.tile]) if event.tile >= 0 else f"the {BUILDINGS[event.building].name}"
        return f"{seat} moved a guest to {where}"
    if isinstance(event, ev.BlackMarketReturned):
        if event.item == BLACK_MARKET_COLONIST:
            what = "a colonist"
        elif event.item == BLACK_MARKET_VP:
            what = "1 VP"
        else:
            what = f"1 {GOOD_NAMES[event.good]}"
        return f"{seat} returned {what} with the black market"
    if isinstance(event, ev.SmallWharfShipped):
        return f"{seat} shipped {_goods(event.goods)} with the small wharf"
    if isinstance(event, ev.GameEnded):
        scores = ", ".join(f"seat {s}: {total}" for s, total in enumerate(event.scores))
        winners = " and ".join(f"seat {w}" for w in event.winners)
        return f"Game over ({scores}); winner: {winners}"
    raise TypeError(f"unknown event {event!r}")

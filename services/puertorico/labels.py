"""Readable labels for actions and texts for events: what a client shows its players."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from i18n.messages import Domain, Term, Value, text
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

CATALOGS = Domain("puertorico", Path(__file__).parent / "locale")
"""Puerto Rico's catalogs (locale/<locale>.po): every label and event text is one of their messages."""
_ = CATALOGS.message
STEP_IDS = {
    HACIENDA_STEP: "hacienda",
    TAKE_TILE: "take_tile",
    HOSPICE_STEP: "hospice",
    MAYOR_PRIVILEGE: "mayor_privilege",
    PLACE_COLONIST: "place_colonist",
    BUILD: "build",
    UNIVERSITY_STEP: "university",
    CRAFTSMAN_PRIVILEGE: "craftsman_privilege",
    SELL: "sell",
    LOAD: "load",
    LIBRARY_TILE: "library_tile",
    GUESTS: "guests",
}
TRIGGER_IDS = {TRIGGER_COLONISTS: "colonists", TRIGGER_CITY: "city", TRIGGER_VP_POOL: "vp_pool"}
SOURCE_IDS = {
    ev.FROM_SHIP: "ship",
    ev.FROM_PRIVILEGE: "privilege",
    ev.FROM_HOSPICE: "hospice",
    ev.FROM_UNIVERSITY: "university",
}
TILE_SOURCE_IDS = {
    ev.TILE_FACE_UP: "",
    ev.TILE_QUARRY: "",
    ev.TILE_HACIENDA: ".hacienda",
    ev.TILE_LIBRARY: ".library",
}
DOUBLOON_IDS = {
    ev.DOUBLOONS_ROLE_CARD: "role_card",
    ev.DOUBLOONS_PROSPECTOR: "prospector",
    ev.DOUBLOONS_FACTORY: "factory",
    ev.DOUBLOONS_SPECIALTY_FACTORY: "specialty_factory",
    ev.DOUBLOONS_LIGHTHOUSE: "lighthouse",
}
VP_IDS = {
    ev.VP_SHIPPING: "shipping",
    ev.VP_CAPTAIN: "captain",
    ev.VP_HARBOR: "harbor",
    ev.VP_CHURCH: "church",
    ev.VP_UNION_HALL: "union_hall",
}


def _id(name: str) -> str:
    return name.replace(" ", "_")


def good(index: int) -> Term:
    """A good's term: "corn"."""
    return Term(f"puertorico.good.{GOOD_NAMES[index]}")


def tile(index: int) -> Term:
    """A tile kind's term: "corn plantation"."""
    return Term(f"puertorico.tile.{_id(TILE_NAMES[index])}")


def a_tile(index: int) -> Term:
    """A tile kind's term with its article: "a corn plantation"."""
    return Term(f"puertorico.tile.{_id(TILE_NAMES[index])}.a")


def building(index: int) -> Term:
    """A building's term: "small market"."""
    return Term(f"puertorico.building.{_id(BUILDINGS[index].name)}")


def role(index: int) -> Term:
    """A role's term: "settler"."""
    return Term(f"puertorico.role.{ROLE_NAMES[index]}")


def joined(items: list[Value], template: str = "puertorico.list") -> Value:
    """A list as nested Texts of `template` ("{head}, {tail}"); one item is itself."""
    if len(items) == 1:
        return items[0]
    return text(template, head=items[0], tail=joined(items[1:], template))


def _goods(goods: tuple[int, ...]) -> Value:
    parts: list[Value] = [
        text("puertorico.goods.item", count=count, good=good(kind))
        for kind, count in enumerate(goods)
        if count
    ]
    return joined(parts) if parts else Term("puertorico.goods.nothing")


def _space(space: int) -> Value:
    """A space of a board: "a corn plantation", "the small market"."""
    if space < act.BUILDING_SPACE:
        return a_tile(space)
    return text("puertorico.space.building", building=building(space - act.BUILDING_SPACE))


def _returned(source: int, where: int) -> str:
    """Returning a colonist to the supply with the black market, from San Juan, a tile or a building."""
    if source == act.FROM_SAN_JUAN:
        return _("puertorico.action.return_colonist.san_juan")
    if source == act.FROM_TILE:
        return _("puertorico.action.return_colonist.tile", tile=a_tile(where))
    return _("puertorico.action.return_colonist.building", building=building(where))


# The labels that depend on the action alone, by kind: each is worded once per action (REMEMBERED).
ACTION_WORDS: dict[int, Callable[[int, int], str]] = {
    act.TAKE_PLANTATION: lambda t, _a: _("puertorico.action.take_plantation", tile=a_tile(t)),
    act.TAKE_QUARRY: lambda *_a: _("puertorico.action.take_quarry"),
    act.HACIENDA_DRAW: lambda *_a: _("puertorico.action.hacienda_draw"),
    act.MAYOR_PRIVILEGE: lambda *_a: _("puertorico.action.mayor_privilege"),
    act.PLACE_ON_TILE: lambda t, _a: _("puertorico.action.place_on_tile", tile=a_tile(t)),
    act.PLACE_ON_BUILDING: lambda b, _a: _("puertorico.action.place_on_building", building=building(b)),
    act.MOVE_COLONIST: lambda source, target: _(
        "puertorico.action.move_colonist", source=_space(source), target=_space(target)
    ),
    act.CRAFTSMAN_BONUS: lambda g, _a: _("puertorico.action.craftsman_bonus", good=good(g)),
    act.STORE_IN_WAREHOUSE: lambda g, _a: _("puertorico.action.store_in_warehouse", good=good(g)),
    act.KEEP_SINGLE: lambda g, _a: _("puertorico.action.keep_single", good=good(g)),
    act.DRAFT_COST: lambda cost, _a: _("puertorico.action.draft_cost", cost=cost, slots=DRAFT_SLOTS[cost]),
    act.DRAFT_BUILDING: lambda b, _a: _("puertorico.action.draft_building", building=building(b)),
    act.TAKE_FOREST: lambda t, _a: _("puertorico.action.take_forest", tile=a_tile(t)),
    act.BLACK_MARKET_COLONIST: lambda *_a: _("puertorico.action.black_market_colonist"),
    act.BLACK_MARKET_GOOD: lambda g, _a: _("puertorico.action.black_market_good", good=good(g)),
    act.BLACK_MARKET_VP: lambda *_a: _("puertorico.action.black_market_vp"),
    act.RETURN_COLONIST: _returned,
    act.USE_SMALL_WHARF: lambda *_a: _("puertorico.action.use_small_wharf"),
    act.GUEST_TO_TILE: lambda t, _a: _("puertorico.action.guest_to_tile", tile=a_tile(t)),
    act.GUEST_TO_BUILDING: lambda b, _a: _("puertorico.action.guest_to_building", building=building(b)),
}
# The ACTION_WORDS labels worded so far, by action (at most LABEL_MEMO; the legal ones are far fewer).
REMEMBERED: dict[act.Action, str] = {}
LABEL_MEMO = 4096


def label(state: State, action: act.Action) -> str:
    """What a legal action does, in the words of the game: a Message of the catalogs."""
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
        return _("puertorico.action.choose_role", role=role(arg), doubloons=doubloons)
    if kind == act.HOSPICE_COLONIST:
        return _("puertorico.action.hospice_colonist", tile=tile(state.tile_taken))
    if kind == act.BUILD:
        cost = price(state, state.actor, arg)
        short = int(cost > player.doubloons)
        return _("puertorico.action.build", building=building(arg), price=cost, short=short)
    if kind == act.UNIVERSITY_COLONIST:
        return _("puertorico.action.university_colonist", building=building(state.just_built))
    if kind == act.SELL:
        return _("puertorico.action.sell", good=good(arg), price=revenue(state, state.actor, arg))
    if kind == act.LOAD:
        amount = min(player.goods[arg], state.ship_cap[arg2] - state.ship_count[arg2])
        return _("puertorico.action.load", amount=amount, good=good(arg), capacity=state.ship_cap[arg2])
    if kind == act.SHIP_WITH_WHARF:
        return _("puertorico.action.ship_with_wharf", amount=player.goods[arg], good=good(arg))
    if kind == act.PASS:
        if state.step == BLACK_MARKET_STEP:
            left = state.pending_price - len(state.black_market_items)
            return _("puertorico.action.pay_and_build", price=left, building=building(state.pending_build))
        step = STEP_IDS.get(state.step)
        return _(f"puertorico.action.pass.{step}" if step else "puertorico.action.pass")
    if kind == act.PLACE_DRAWN_TILE:
        drawn = tile(state.hacienda_tile)
        return _(f"puertorico.action.place_drawn_tile.{'forest' if arg else 'face_up'}", tile=drawn)
    if kind == act.SMALL_WHARF_GOODS:  # its count is not bounded by a table: worded each time
        return _("puertorico.action.small_wharf_goods", amount=arg2, good=good(arg))
    if kind == act.SHIP_SMALL_WHARF:
        chosen = tuple(state.small_wharf_goods)
        vp = small_wharf_vp(state, sum(chosen))
        return _("puertorico.action.ship_small_wharf", goods=_goods(chosen), vp=vp)
    if kind == act.SELL_TO_TRADING_POST:
        amount = post_revenue(state, state.actor, arg)
        return _("puertorico.action.sell_to_trading_post", good=good(arg), price=amount)
    raise ValueError(f"no label for {action!r}")


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """One readable sentence for an event: a Message of the catalogs."""
    e = "puertorico.event."
    if isinstance(event, ev.GameStarted):
        return _(e + "game_started", governor=event.governor)
    if isinstance(event, ev.RoleChosen):
        return _(e + "role_chosen", seat=event.seat, role=role(event.role))
    if isinstance(event, ev.Passed):
        step = STEP_IDS.get(event.step)
        return _(e + (f"passed.{step}" if step and step != "place_colonist" else "passed"), seat=event.seat)
    if isinstance(event, ev.TileTaken):
        where = TILE_SOURCE_IDS[event.source]
        return _(e + "tile_taken" + where, seat=event.seat, tile=a_tile(event.tile))
    if isinstance(event, ev.ColonistsReceived):
        source = SOURCE_IDS[event.source]
        return _(e + f"colonists_received.{source}", seat=event.seat, colonists=event.colonists)
    if isinstance(event, ev.ColonistsArranged):
        return _(e + "colonists_arranged", seat=event.seat, san_juan=event.san_juan)
    if isinstance(event, ev.BuildingBuilt):
        return _(e + "building_built", seat=event.seat, building=building(event.building), price=event.price)
    if isinstance(event, ev.GoodsProduced):
        goods = _goods(event.goods)
        if event.building >= 0:
            return _(
                e + "goods_produced.building", seat=event.seat, building=building(event.building), goods=goods
            )
        return _(
            e + ("goods_produced.privilege" if event.privilege else "goods_produced"),
            seat=event.seat,
            goods=goods,
        )
    if isinstance(event, ev.DoubloonsReceived):
        return _(e + f"doubloons_received.{DOUBLOON_IDS[event.reason]}", seat=event.seat, amount=event.amount)
    if isinstance(event, ev.GoodSold):
        where = ".trading_post" if event.trading_post else ""
        return _(e + "good_sold" + where, seat=event.seat, good=good(event.good), price=event.price)
    if isinstance(event, ev.GoodsLoaded):
        if event.ship < 0:
            return _(e + "goods_loaded.wharf", seat=event.seat, barrels=event.barrels, good=good(event.good))
        return _(
            e + "goods_loaded", seat=event.seat, barrels=event.barrels, good=good(event.good), ship=event.ship
        )
    if isinstance(event, ev.VpReceived):
        return _(e + f"vp_received.{VP_IDS[event.reason]}", seat=event.seat, amount=event.amount)
    if isinstance(event, ev.GoodsDiscarded):
        return _(e + "goods_discarded", seat=event.seat, goods=_goods(event.goods))
    if isinstance(event, ev.ShipsCleared):
        return _(e + "ships_cleared", ships=joined([str(s) for s in event.ships]))
    if isinstance(event, ev.TradingHouseCleared):
        return _(e + "trading_house_cleared")
    if isinstance(event, ev.PlantationsRevealed):
        tiles = joined([tile(t) for t in event.tiles]) if event.tiles else Term("puertorico.none")
        return _(e + "plantations_revealed", tiles=tiles)
    if isinstance(event, ev.ColonistShipRefilled):
        return _(e + "colonist_ship_refilled", colonists=event.colonists)
    if isinstance(event, ev.EndTriggered):
        return _(e + f"end_triggered.{TRIGGER_IDS[event.trigger]}")
    if isinstance(event, ev.RoundEnded):
        return _(e + "round_ended", round=event.round, governor=event.next_governor)
    if isinstance(event, ev.DraftPicked):
        return _(e + "draft_picked", seat=event.seat, building=building(event.building))
    if isinstance(event, ev.GuestMoved):
        if event.tile >= 0:
            return _(e + "guest_moved.tile", seat=event.seat, tile=a_tile(event.tile))
        return _(e + "guest_moved.building", seat=event.seat, building=building(event.building))
    if isinstance(event, ev.BlackMarketReturned):
        if event.item == BLACK_MARKET_COLONIST:
            return _(e + "black_market_returned.colonist", seat=event.seat)
        if event.item == BLACK_MARKET_VP:
            return _(e + "black_market_returned.vp", seat=event.seat)
        return _(e + "black_market_returned.good", seat=event.seat, good=good(event.good))
    if isinstance(event, ev.SmallWharfShipped):
        return _(e + "small_wharf_shipped", seat=event.seat, goods=_goods(event.goods))
    if isinstance(event, ev.GameEnded):
        scores = joined([text(e + "score", seat=s, total=t) for s, t in enumerate(event.scores)])
        winners = joined([text(e + "winner", seat=w) for w in event.winners], "puertorico.list.and")
        return _(e + "game_ended", scores=scores, winners=winners)
    raise TypeError(f"unknown event {event!r}")

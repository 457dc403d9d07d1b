"""Readable labels for actions and texts for events: what a client shows its players.

Each is a Message of Glen More's catalogs (locale/<locale>.po): its English beside a Text naming the
message and its arguments. The game's terms are messages of their own, `glenmore.<kind>.<key>` (a
tile, resource, card or step; the key is the English name in lower case with `_` between words, as
the web client's board looks them up)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path

from boardgame.rules.v1 import rules_pb2

from i18n.messages import Domain, Message, Term, Value, text
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import (
    BRIDGE,
    BRIDGE_VP,
    BUTCHER,
    BUTCHER_VP,
    CARD_NAMES,
    CHOSEN_CUBE,
    DISTILLERY,
    FAIR,
    FAIR_VP,
    GROCER,
    GROCER_CUBES,
    GROCER_VP,
    IONA_ABBEY,
    LOCH_LOCHY,
    MIXED_BUTCHER,
    MIXED_BUTCHER_VP,
    MOVEMENT,
    PRODUCE,
    RESOURCE_NAMES,
    TAVERN,
    TILES,
    Cost,
)
from services.glenmore.market import buy_price, richest_slot
from services.glenmore.state import CUBES_LOCH_SHIEL, State
from services.glenmore.territory import cell, neighbourhood_mask

CATALOGS = Domain("glenmore", Path(__file__).parent / "locale")
"""Glen More's catalogs: every label, event text and score line is one of their messages."""
_ = CATALOGS.message


def key(name: str) -> str:
    """A term's key: its English name in lower case, `_` between words ("Fair (3)" -> "fair_3")."""
    return re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")


RESOURCES = tuple(Term(f"glenmore.resource.{key(name)}") for name in RESOURCE_NAMES)
"""Each resource's term, by kind."""
TILE_TERMS = tuple(Term(f"glenmore.tile.{key(tile.name)}") for tile in TILES)
"""Each tile's name as a term, by tile index."""
CARDS = tuple(Term(f"glenmore.card.{key(name)}") for name in CARD_NAMES)
"""Each special-location card's term, by card."""
IONA_TILE = next(i for i, tile in enumerate(TILES) if tile.card == IONA_ABBEY)
"""Iona Abbey's tile index (Loch Shiel's cube on it)."""
DISCARD_IDS = {
    ev.DISCARD_PASSED: "passed",
    ev.DISCARD_DIE: "die",
    ev.DISCARD_NO_LEGAL_TILE: "no_legal_tile",
}
VP_IDS = {ev.VP_SCORING: "scoring", ev.VP_ACTIVATION: "activation"}


def joined(items: list[Value], template: str = "glenmore.list") -> Value:
    """A list as nested Texts of `template` ("{head}, {tail}"); one item is itself."""
    if len(items) == 1:
        return items[0]
    return text(template, head=items[0], tail=joined(items[1:], template))


def tile_name(tile: int) -> str:
    """A tile's name with its number, in English ("Field [5]")."""
    return CATALOGS.catalogs["en"].render(_numbered(tile))


def _numbered(tile: int) -> rules_pb2.Text:
    return text("glenmore.numbered_tile", tile=TILE_TERMS[tile], number=TILES[tile].number)


def cost_words(cost: Cost) -> Value:
    """A buy cost as a message argument: "1 wood + 1 stone", "2 cubes of different kinds", "free"."""
    if cost.cubes:
        counts: dict[int, int] = {}
        for kind in cost.cubes:
            counts[kind] = counts.get(kind, 0) + 1
        items: list[Value] = [
            text("glenmore.cost.cubes", count=count, resource=RESOURCES[kind])
            for kind, count in counts.items()
        ]
        return joined(items, "glenmore.list.plus")
    if cost.different:
        return text("glenmore.cost.different", count=cost.different)
    if cost.whisky:
        return text("glenmore.cost.whisky", count=cost.whisky)
    if cost.clan_member:
        return Term("glenmore.cost.clan_member")
    return Term("glenmore.cost.free")


COSTS = tuple(cost_words(tile.cost) for tile in TILES)
"""Each tile's buy cost as a message argument, by tile index."""


def cost_message(cost: Cost) -> Message:
    """A buy cost as the title's data gives it: its English words, carrying its Text."""
    words = cost_words(cost)
    message = text(words.id) if isinstance(words, Term) else words
    assert isinstance(message, rules_pb2.Text)
    return Message(CATALOGS.catalogs["en"].render(message), message)


# Labels with a nested Text (a tile's cost) are remembered here, since the catalogs' own memo keeps
# only messages whose arguments are plain values; at most LABEL_MEMO (the live ones are far fewer).
REMEMBERED: dict[tuple[int, ...], Message] = {}
LABEL_MEMO = 4096


def _take(tile: int, ahead: int) -> Message:
    found = REMEMBERED.get((act.TAKE_TILE, tile, ahead))
    if found is None:
        if len(REMEMBERED) >= LABEL_MEMO:
            REMEMBERED.clear()
        found = REMEMBERED[(act.TAKE_TILE, tile, ahead)] = _(
            "glenmore.action.take_tile",
            tile=TILE_TERMS[tile],
            number=TILES[tile].number,
            ahead=ahead,
            cost=COSTS[tile],
        )
    return found


# What an activation gives, by effect: the message's last part and its arguments, from the tile's
# argument and the action's count and chosen kind.
EFFECTS: dict[int, Callable[[int, int, int], tuple[str, Mapping[str, Value]]]] = {
    PRODUCE: lambda arg, _count, _kind: ("produce", {"resource": RESOURCES[arg]}),
    CHOSEN_CUBE: lambda _arg, _count, kind: ("produce", {"resource": RESOURCES[kind]}),
    MOVEMENT: lambda *_a: ("movement", {}),
    TAVERN: lambda arg, _count, _kind: ("tavern", {"vp": arg}),
    DISTILLERY: lambda *_a: ("distillery", {}),
    BUTCHER: lambda arg, count, _kind: (
        "butcher",
        {"count": count, "resource": RESOURCES[arg], "vp": BUTCHER_VP[count - 1]},
    ),
    MIXED_BUTCHER: lambda *_a: ("mixed_butcher", {"vp": MIXED_BUTCHER_VP}),
    FAIR: lambda _arg, count, _kind: ("fair", {"count": count, "vp": FAIR_VP[count - 1]}),
    GROCER: lambda *_a: ("grocer", {"cubes": GROCER_CUBES, "vp": GROCER_VP}),
    BRIDGE: lambda *_a: ("bridge", {"vp": BRIDGE_VP}),
}


def _activation(state: State, action: act.Action) -> str:
    player = state.players[state.actor]
    slot = player.grid[cell(action.a, action.b)]
    tile = TILES[player.tiles[slot]]
    words = EFFECTS.get(tile.effect)
    effect, arguments = words(tile.arg, action.c, action.d - 1) if words else ("nothing", {})
    ness = int(
        state.loch_ness_ready
        and not state.loch_ness_used
        and not neighbourhood_mask(state, player) & (1 << slot)
    )
    return _(
        f"glenmore.action.activate.{effect}",
        tile=TILE_TERMS[player.tiles[slot]],
        x=action.a,
        y=action.b,
        **arguments,
        loch_ness=ness,
    )


def label(state: State, action: act.Action) -> str:
    """What a legal action does, in the words of the game: a Message of the catalogs."""
    kind = action.kind
    player = state.players[state.actor]
    a = "glenmore.action."
    if kind == act.TAKE_TILE:
        return _take(action.a, state.track.index(action.a))
    if kind == act.DISCARD_FIRST:
        return _(a + "discard_first")
    if kind == act.PLACE_TILE:
        placed = state.tile
        return _(
            a + "place_tile", tile=TILE_TERMS[placed], number=TILES[placed].number, x=action.a, y=action.b
        )
    if kind == act.PAY_CUBE:
        slot = player.grid[cell(action.a, action.b)]
        tile = TILE_TERMS[player.tiles[slot]]
        return _(a + "pay_cube", resource=RESOURCES[action.c], tile=tile, x=action.a, y=action.b)
    if kind == act.BUY_CUBE:
        price = buy_price(state.market, action.a)
        return _(a + "buy_cube", resource=RESOURCES[action.a], price=price)
    if kind == act.PAY_CLAN:
        return _(a + "pay_clan", x=action.a, y=action.b)
    if kind == act.PAY_CHIEFTAIN:
        return _(a + "pay_chieftain")
    if kind == act.CHOOSE_CUBE:
        if state.cube_purpose == CUBES_LOCH_SHIEL:
            return _(a + "choose_cube.iona_abbey", resource=RESOURCES[action.a], tile=TILE_TERMS[IONA_TILE])
        return _(a + "choose_cube.loch_lochy", resource=RESOURCES[action.a], card=CARDS[LOCH_LOCHY])
    if kind == act.ACTIVATE:
        return _activation(state, action)
    if kind == act.END_ACTIVATIONS:
        return _(a + "end_activations")
    if kind == act.MOVE_CLAN:
        return _(a + "move_clan", x=action.a, y=action.b, to_x=action.c, to_y=action.d)
    if kind == act.MAKE_CHIEFTAIN:
        return _(a + "make_chieftain", x=action.a, y=action.b)
    if kind == act.END_MOVEMENT:
        return _(a + "end_movement", points=state.movement_points)
    slot = richest_slot(player, action.a)
    source = TILE_TERMS[player.tiles[slot]]
    return _(a + "sell", resource=RESOURCES[action.a], tile=source, price=state.market[action.a])


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """One readable sentence for an event: a Message of the catalogs."""
    e = "glenmore.event."
    if isinstance(event, ev.GameStarted):
        return _(e + "game_started", seat=event.start_player)
    if isinstance(event, ev.TilesDrawn):
        return _(e + "tiles_drawn", tiles=joined([_numbered(t) for t in event.tiles]))
    if isinstance(event, ev.TileTaken):
        tile, number = TILE_TERMS[event.tile], TILES[event.tile].number
        return _(e + "tile_taken", seat=event.seat, tile=tile, number=number)
    if isinstance(event, ev.TileDiscarded):
        tile, number = TILE_TERMS[event.tile], TILES[event.tile].number
        return _(e + f"tile_discarded.{DISCARD_IDS[event.reason]}", tile=tile, number=number)
    if isinstance(event, ev.DieRolled):
        return _(e + "die_rolled", roll=event.roll)
    if isinstance(event, ev.TilePlaced):
        x, y = event.cell
        tile, number = TILE_TERMS[event.tile], TILES[event.tile].number
        return _(e + "tile_placed", seat=event.seat, tile=tile, number=number, x=x, y=y)
    if isinstance(event, ev.CubeSpent):
        x, y = event.cell
        return _(e + "cube_spent", seat=event.seat, resource=RESOURCES[event.resource], x=x, y=y)
    if isinstance(event, ev.CubeBought):
        return _(e + "cube_bought", seat=event.seat, resource=RESOURCES[event.resource], price=event.price)
    if isinstance(event, ev.CubeSold):
        x, y = event.cell
        resource = RESOURCES[event.resource]
        return _(e + "cube_sold", seat=event.seat, resource=resource, x=x, y=y, price=event.price)
    if isinstance(event, ev.ClanMemberSpent):
        if event.chieftain or event.cell is None:
            return _(e + "chieftain_spent", seat=event.seat)
        x, y = event.cell
        return _(e + "clan_member_spent", seat=event.seat, x=x, y=y)
    if isinstance(event, ev.WhiskySpent):
        return _(e + "whisky_spent", seat=event.seat, barrels=event.barrels)
    if isinstance(event, ev.CardTaken):
        return _(e + "card_taken", seat=event.seat, card=CARDS[event.card])
    if isinstance(event, ev.TileActivated):
        x, y = event.cell
        tile, number = TILE_TERMS[event.tile], TILES[event.tile].number
        ness = int(event.loch_ness)
        return _(e + "tile_activated", seat=event.seat, tile=tile, number=number, x=x, y=y, loch_ness=ness)
    if isinstance(event, ev.CubeGained):
        if event.cell is None:
            return _(e + "cube_lost", seat=event.seat, resource=RESOURCES[event.resource])
        x, y = event.cell
        return _(e + "cube_gained", seat=event.seat, resource=RESOURCES[event.resource], x=x, y=y)
    if isinstance(event, ev.VpGained):
        return _(e + f"vp_gained.{VP_IDS[event.reason]}", seat=event.seat, amount=event.amount)
    if isinstance(event, ev.WhiskyGained):
        return _(e + "whisky_gained", seat=event.seat, barrels=event.barrels)
    if isinstance(event, ev.CoinsGained):
        return _(e + "coins_gained", seat=event.seat, amount=event.amount)
    if isinstance(event, ev.ClanMembersGained):
        x, y = event.cell
        return _(e + "clan_members_gained", seat=event.seat, members=event.members, x=x, y=y)
    if isinstance(event, ev.MovementGained):
        return _(e + "movement_gained", seat=event.seat, points=event.points)
    if isinstance(event, ev.ClanMemberMoved):
        (x, y), (to_x, to_y) = event.from_, event.to
        return _(e + "clan_member_moved", seat=event.seat, x=x, y=y, to_x=to_x, to_y=to_y)
    if isinstance(event, ev.ChieftainMade):
        x, y = event.cell
        return _(e + "chieftain_made", seat=event.seat, x=x, y=y)
    if isinstance(event, ev.TurnEnded):
        return _(e + "turn_ended", seat=event.seat)
    if isinstance(event, ev.ScoringDone):
        if event.vp_hidden:  # OP-23: the counts are public, the VP are not
            template = e + "scoring_hidden"
            seats = [
                text(template + ".seat", seat=s.seat, whisky=s.whisky, chieftains=s.chieftains, cards=s.cards)
                for s in event.seats
            ]
        else:
            template = e + "scoring"
            seats = [
                text(
                    template + ".seat",
                    seat=s.seat,
                    vp=s.whisky_vp + s.chieftain_vp + s.card_vp,
                    whisky=s.whisky,
                    chieftains=s.chieftains,
                    cards=s.cards,
                )
                for s in event.seats
            ]
        return _(template, number=event.number, seats=joined(list(seats), "glenmore.list.semicolon"))
    if isinstance(event, ev.GameEnded):
        scores = joined([text(e + "score", seat=s.seat, total=s.total) for s in event.seats])
        winners = joined([text(e + "winner", seat=w) for w in event.winners], "glenmore.list.and")
        return _(e + "game_ended", scores=scores, winners=winners)
    raise TypeError(f"unknown event {event!r}")

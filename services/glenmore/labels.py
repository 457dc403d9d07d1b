"""Readable labels for actions and texts for events: what a client shows its players."""

from __future__ import annotations

from services.common.helpers import plural
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.activation import neighbourhood_mask
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
from services.glenmore.territory import cell

DISCARD_WORDS = {
    ev.DISCARD_PASSED: "every figure has passed it",
    ev.DISCARD_DIE: "the die figure landed on it",
    ev.DISCARD_NO_LEGAL_TILE: "no tile could be taken",
}


def _coins(count: int) -> str:
    return plural(count, "coin")


def _at(x: int, y: int) -> str:
    return f"({x}, {y})"


def tile_name(tile: int) -> str:
    """A tile's name with its number."""
    return f"{TILES[tile].name} [{TILES[tile].number}]"


def cost_text(cost: Cost) -> str:
    """A buy cost in words."""
    if cost.cubes:
        counts: dict[int, int] = {}
        for kind in cost.cubes:
            counts[kind] = counts.get(kind, 0) + 1
        return " + ".join(f"{count} {RESOURCE_NAMES[kind]}" for kind, count in counts.items())
    if cost.different:
        return f"{cost.different} cubes of different kinds"
    if cost.whisky:
        return plural(cost.whisky, "whisky")
    if cost.clan_member:
        return "1 clan member or chieftain"
    return "free"


def _activation(state: State, action: act.Action) -> str:
    player = state.players[state.actor]
    slot = player.grid[cell(action.a, action.b)]
    tile = TILES[player.tiles[slot]]
    where = f"{tile.name} at {_at(action.a, action.b)}"
    count = action.c
    effect = tile.effect
    if effect == PRODUCE:
        what = f"produce 1 {RESOURCE_NAMES[tile.arg]}"
    elif effect == CHOSEN_CUBE:
        what = f"produce 1 {RESOURCE_NAMES[action.d - 1]}"
    elif effect == MOVEMENT:
        what = "1 movement point"
    elif effect == TAVERN:
        what = f"{tile.arg} VP"
    elif effect == DISTILLERY:
        what = "1 grain for 1 whisky"
    elif effect == BUTCHER:
        what = f"{count} {RESOURCE_NAMES[tile.arg]} for {BUTCHER_VP[count - 1]} VP"
    elif effect == MIXED_BUTCHER:
        what = f"1 sheep + 1 cattle for {MIXED_BUTCHER_VP} VP"
    elif effect == FAIR:
        kinds = "1 kind" if count == 1 else f"{count} different kinds"
        what = f"{kinds} for {FAIR_VP[count - 1]} VP"
    elif effect == GROCER:
        what = f"{GROCER_CUBES} cubes for {GROCER_VP} VP"
    elif effect == BRIDGE:
        what = f"1 wood + 1 stone for {BRIDGE_VP} VP"
    else:
        what = "nothing"
    ness = ""
    if (
        state.loch_ness_ready
        and not state.loch_ness_used
        and not neighbourhood_mask(state, player) & (1 << slot)
    ):
        ness = " (Loch Ness)"
    return f"Activate {where}: {what}{ness}"


def label(state: State, action: act.Action) -> str:
    """What a legal action does, in the words of the game."""
    kind = action.kind
    player = state.players[state.actor]
    if kind == act.TAKE_TILE:
        ahead = state.track.index(action.a)
        tile = TILES[action.a]
        return f"Take {tile_name(action.a)}, {ahead} spaces ahead ({cost_text(tile.cost)})"
    if kind == act.DISCARD_FIRST:
        return "No tile can be taken: move onto the first tile ahead and discard it"
    if kind == act.PLACE_TILE:
        return f"Place {tile_name(state.tile)} at {_at(action.a, action.b)}"
    if kind == act.PAY_CUBE:
        slot = player.grid[cell(action.a, action.b)]
        where = f"{TILES[player.tiles[slot]].name} at {_at(action.a, action.b)}"
        return f"Pay 1 {RESOURCE_NAMES[action.c]} from {where}"
    if kind == act.BUY_CUBE:
        price = _coins(buy_price(state.market, action.a))
        return f"Buy 1 {RESOURCE_NAMES[action.a]} for {price} and pay with it"
    if kind == act.PAY_CLAN:
        return f"Pay with a clan member from {_at(action.a, action.b)}"
    if kind == act.PAY_CHIEFTAIN:
        return "Pay with a chieftain"
    if kind == act.CHOOSE_CUBE:
        where = "on Iona Abbey" if state.cube_purpose == CUBES_LOCH_SHIEL else "(Loch Lochy)"
        return f"Take 1 {RESOURCE_NAMES[action.a]} {where}"
    if kind == act.ACTIVATE:
        return _activation(state, action)
    if kind == act.END_ACTIVATIONS:
        return "End the activations"
    if kind == act.MOVE_CLAN:
        return f"Move a clan member from {_at(action.a, action.b)} to {_at(action.c, action.d)}"
    if kind == act.MAKE_CHIEFTAIN:
        return f"Make a clan member at {_at(action.a, action.b)} a chieftain"
    if kind == act.END_MOVEMENT:
        return f"Stop moving ({plural(state.movement_points, 'movement point')} lost)"
    slot = richest_slot(player, action.a)
    source = TILES[player.tiles[slot]].name
    return f"Sell 1 {RESOURCE_NAMES[action.a]} from {source} for {_coins(state.market[action.a])}"


def _where(where: tuple[int, int] | None) -> str:
    return "nowhere" if where is None else _at(*where)


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """One readable sentence for an event."""
    seat = f"Seat {event.seat}" if hasattr(event, "seat") else ""
    if isinstance(event, ev.GameStarted):
        return f"The game begins; seat {event.start_player} moves first"
    if isinstance(event, ev.TilesDrawn):
        return "New tiles on the track: " + ", ".join(tile_name(t) for t in event.tiles)
    if isinstance(event, ev.TileTaken):
        return f"{seat} took {tile_name(event.tile)}"
    if isinstance(event, ev.TileDiscarded):
        return f"{tile_name(event.tile)} left the game: {DISCARD_WORDS[event.reason]}"
    if isinstance(event, ev.DieRolled):
        return f"The die rolled {event.roll}"
    if isinstance(event, ev.TilePlaced):
        return f"{seat} placed {tile_name(event.tile)} at {_where(event.cell)}"
    if isinstance(event, ev.CubeSpent):
        return f"{seat} paid 1 {RESOURCE_NAMES[event.resource]} from {_where(event.cell)}"
    if isinstance(event, ev.CubeBought):
        return f"{seat} bought 1 {RESOURCE_NAMES[event.resource]} for {_coins(event.price)}"
    if isinstance(event, ev.CubeSold):
        sold = f"{seat} sold 1 {RESOURCE_NAMES[event.resource]}"
        return f"{sold} from {_where(event.cell)} for {_coins(event.price)}"
    if isinstance(event, ev.ClanMemberSpent):
        what = "a chieftain" if event.chieftain else f"a clan member from {_where(event.cell)}"
        return f"{seat} paid with {what}"
    if isinstance(event, ev.WhiskySpent):
        return f"{seat} paid {plural(event.barrels, 'whisky')}"
    if isinstance(event, ev.CardTaken):
        return f"{seat} took the card {CARD_NAMES[event.card]}"
    if isinstance(event, ev.TileActivated):
        ness = " with Loch Ness" if event.loch_ness else ""
        return f"{seat} activated {tile_name(event.tile)} at {_where(event.cell)}{ness}"
    if isinstance(event, ev.CubeGained):
        if event.cell is None:
            return f"{seat} lost 1 {RESOURCE_NAMES[event.resource]}: no tile has room"
        return f"{seat} put 1 {RESOURCE_NAMES[event.resource]} on {_where(event.cell)}"
    if isinstance(event, ev.VpGained):
        why = "at a scoring" if event.reason == ev.VP_SCORING else "from an activation"
        return f"{seat} gained {event.amount} VP {why}"
    if isinstance(event, ev.WhiskyGained):
        return f"{seat} gained {plural(event.barrels, 'whisky')}"
    if isinstance(event, ev.CoinsGained):
        return f"{seat} gained {_coins(event.amount)}"
    if isinstance(event, ev.ClanMembersGained):
        return f"{seat} put {plural(event.members, 'clan member')} on {_where(event.cell)}"
    if isinstance(event, ev.MovementGained):
        return f"{seat} has {plural(event.points, 'movement point')}"
    if isinstance(event, ev.ClanMemberMoved):
        return f"{seat} moved a clan member from {_where(event.from_)} to {_where(event.to)}"
    if isinstance(event, ev.ChieftainMade):
        return f"{seat} made a clan member from {_where(event.cell)} a chieftain"
    if isinstance(event, ev.TurnEnded):
        return f"{seat} ended their turn"
    if isinstance(event, ev.ScoringDone):
        if event.vp_hidden:  # OP-23: the counts are public, the VP are not
            parts = "; ".join(
                f"seat {s.seat}: whisky {s.whisky}, chieftains {s.chieftains}, cards {s.cards}"
                for s in event.seats
            )
            return f"Scoring {event.number} (VP hidden): {parts}"
        parts = "; ".join(
            f"seat {s.seat}: {s.whisky_vp + s.chieftain_vp + s.card_vp} VP "
            f"(whisky {s.whisky}, chieftains {s.chieftains}, cards {s.cards})"
            for s in event.seats
        )
        return f"Scoring {event.number}: {parts}"
    if isinstance(event, ev.GameEnded):
        scores = ", ".join(f"seat {s.seat}: {s.total}" for s in event.seats)
        winners = " and ".join(f"seat {w}" for w in event.winners)
        return f"Game over ({scores}); winner: {winners}"
    raise TypeError(f"unknown event {event!r}")

"""Taking a tile (§4 steps 1-5): choose it on the track, place it, pay, take the placement bonus.

Also the immediate effects of the special locations (§8) and the cube choices they need
(STEP_CHOOSE_CUBE).
"""

from __future__ import annotations

from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore import payment
from services.glenmore.actions import Action
from services.glenmore.data import (
    ABBEY,
    ARMADALE_CASTLE,
    ARMADALE_COINS,
    LOCH_LOCHY,
    LOCH_LOCHY_CUBES,
    LOCH_NESS,
    LOCH_OICH,
    LOCH_SHIEL,
    NO_CARD,
    PRODUCE,
    PRODUCTION,
    TILE_CUBE_CAP,
    TILES,
)
from services.glenmore.market import can_pay, can_sell, sell
from services.glenmore.state import (
    ACTIVATE,
    CHOOSE_CUBE,
    CUBES_LOCH_LOCHY,
    CUBES_LOCH_SHIEL,
    NO_CUBE_CHOICE,
    PAY,
    PAY_FOR_TILE,
    PLACE_TILE,
    Player,
    State,
)
from services.glenmore.territory import EDGES, cell, legal_cells, placeable_edges, xy
from services.glenmore.track import advance, first_tile
from services.glenmore.turns import end_turn


def sell_actions(state: State, found: list[Action]) -> None:
    """Append the acting player's possible sales."""
    player = state.players[state.actor]
    for kind in range(5):
        if can_sell(state, player, kind):
            found.append(act.SELL_ACTION[kind])


def play_sell(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Sell one cube."""
    sell(state, state.actor, action.a, events)


# STEP_CHOOSE_TILE


def takeable(state: State) -> list[int]:
    """The tiles on the track the acting player can both pay for and place, in track order."""
    player = state.players[state.actor]
    market = state.market
    track = state.track[1:]
    affordable = [entry for entry in track if entry >= 0 and can_pay(player, market, TILES[entry].cost)]
    wanted = 0
    for entry in affordable:
        wanted |= 1 << TILES[entry].edge
    edges = placeable_edges(player, wanted) if wanted else 0  # only the edges of tiles it can pay for
    return [entry for entry in affordable if edges >> TILES[entry].edge & 1]


def legal_choose(state: State) -> list[Action]:
    """Take a tile (or, when none can be taken, give the turn up: OP-14), or sell."""
    found = [act.action(act.TAKE_TILE, tile) for tile in takeable(state)]
    if not found:
        found.append(act.DISCARD_FIRST_ACTION)
    sell_actions(state, found)
    found.sort()
    return found


def play_choose(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Move the figure onto the chosen tile, or discard the first tile ahead."""
    kind = action.kind
    if kind == act.SELL:
        play_sell(state, action, events)
        return
    seat = state.actor
    if kind == act.DISCARD_FIRST:
        tile = advance(state, first_tile(state), events)
        state.discarded_tiles.append(tile)
        events.append(ev.TileDiscarded(tile, ev.DISCARD_NO_LEGAL_TILE))
        end_turn(state, events)
        return
    tile = action.a
    advance(state, state.track.index(tile), events)
    events.append(ev.TileTaken(seat, tile))
    state.tile = tile
    state.loch_ness_ready = LOCH_NESS in state.players[seat].cards
    state.step = PLACE_TILE


# STEP_PLACE_TILE


def legal_place(state: State) -> list[Action]:
    """The cells where the new tile may go."""
    player = state.players[state.actor]
    found = []
    for c in legal_cells(player, EDGES[state.tile]):
        x, y = xy(c)
        found.append(act.action(act.PLACE_TILE, x, y))
    return found


def play_place(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Place the tile, then pay for it."""
    seat = state.actor
    player = state.players[seat]
    tile = state.tile
    c = cell(action.a, action.b)
    player.add_tile(tile, c)
    state.placed = True
    state.cell = c
    events.append(ev.TilePlaced(seat, tile, (action.a, action.b)))
    if payment.start(state, TILES[tile].cost, PAY_FOR_TILE, events):
        state.step = PAY
    else:
        after_payment(state, events)


# After payment: the placement bonus and the special location's immediate effect.


def after_payment(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Take the tile's one-time bonus and card (§4 step 5), then go on to the activations."""
    seat = state.actor
    player = state.players[seat]
    tile = TILES[state.tile]
    slot = player.grid[state.cell]
    where = xy(state.cell)
    if tile.bonus_clan:
        player.clans[slot] += tile.bonus_clan
        events.append(ev.ClanMembersGained(seat, tile.bonus_clan, where))
    if tile.bonus_whisky:
        player.whisky += tile.bonus_whisky
        events.append(ev.WhiskyGained(seat, tile.bonus_whisky))
    state.step = ACTIVATE
    card = tile.card
    if card == NO_CARD:
        return
    player.cards.append(card)
    events.append(ev.CardTaken(seat, card))
    if card == ARMADALE_CASTLE:
        player.coins += ARMADALE_COINS
        events.append(ev.CoinsGained(seat, ARMADALE_COINS))
    elif card == LOCH_OICH:
        state.activate_all = True
    elif card == LOCH_LOCHY:
        state.cubes_to_choose = LOCH_LOCHY_CUBES
        state.cube_purpose = CUBES_LOCH_LOCHY
        state.step = CHOOSE_CUBE
    elif card == LOCH_SHIEL:
        _loch_shiel(state, player, events)


def _loch_shiel(state: State, player: Player, events: list) -> None:  # type: ignore[type-arg]
    """1 cube on every empty production tile; an empty Iona Abbey takes a cube of choice."""
    seat = state.actor
    for slot, tile_index in enumerate(player.tiles):
        tile = TILES[tile_index]
        if player.load[slot] == 0:
            if tile.effect == PRODUCE:
                player.add_cube(slot, tile.arg)
                events.append(ev.CubeGained(seat, tile.arg, xy(player.cells[slot])))
            elif tile.family == ABBEY:
                state.cubes_to_choose = 1
                state.cube_purpose = CUBES_LOCH_SHIEL
                state.step = CHOOSE_CUBE


# STEP_CHOOSE_CUBE


def legal_cube(state: State) -> list[Action]:
    """Any of the five kinds."""
    return list(act.CHOOSE_ACTION)


def lochy_slot(player: Player, kind: int) -> int:
    """Where a Loch Lochy cube goes (OP-26): a production tile of its kind with room, else any tile
    with room, the emptiest first (the earliest among equals); -1 if there is no room."""
    best, best_load = -1, TILE_CUBE_CAP
    for slot, tile_index in enumerate(player.tiles):
        tile = TILES[tile_index]
        if tile.family == PRODUCTION and tile.arg == kind and player.load[slot] < best_load:
            best, best_load = slot, player.load[slot]
    if best >= 0:
        return best
    for slot in range(len(player.tiles)):
        if player.load[slot] < best_load:
            best, best_load = slot, player.load[slot]
    return best


def play_cube(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Put a cube of the chosen kind on the territory."""
    seat = state.actor
    player = state.players[seat]
    kind = action.a
    if state.cube_purpose == CUBES_LOCH_SHIEL:
        slot = next(s for s, t in enumerate(player.tiles) if TILES[t].family == ABBEY)
    else:
        slot = lochy_slot(player, kind)
    if slot >= 0:
        player.add_cube(slot, kind)
        events.append(ev.CubeGained(seat, kind, xy(player.cells[slot])))
    else:
        events.append(ev.CubeGained(seat, kind, None))
    state.cubes_to_choose -= 1
    if state.cubes_to_choose == 0:
        state.cube_purpose = NO_CUBE_CHOICE
        state.step = ACTIVATE

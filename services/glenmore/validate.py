"""The consistency of a native state: what a state must satisfy to be one the rules can reach.

`validate` runs on every state a rules call decodes, so that a forged or damaged state is refused
as MalformedRequest before the engine sees it; what the decoding itself guarantees (declared enum
values, cells in range, one tile per cell, one record per seat) is the codec's.
"""

from __future__ import annotations

from typing import Final

from services.common.errors import MalformedRequest
from services.glenmore.data import (
    ABBEY,
    BRIDGE,
    BUTCHER,
    DIE_PLAYER_COUNTS,
    DISTILLERY,
    FAIR,
    GROCER,
    LOCH_LOCHY,
    LOCH_NESS,
    LOCH_OICH,
    LOCH_SHIEL,
    MARKET_SLOTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIXED_BUTCHER,
    NO_CARD,
    STACK_TILES,
    STACKS,
    TILE_CUBE_CAP,
    TILES,
    TRACK_LENGTH,
    TRACK_SPACES,
    start_village,
)
from services.glenmore.engine import legal_now
from services.glenmore.state import (
    CHOOSE_CUBE,
    CHOOSE_TILE,
    CUBES_LOCH_LOCHY,
    CUBES_LOCH_SHIEL,
    DIE,
    GAME_OVER,
    MOVE,
    NO_CELL,
    NO_CUBE_CHOICE,
    NO_PAYMENT,
    PAY,
    PAY_FOR_ACTIVATION,
    PAY_FOR_TILE,
    PLACE_TILE,
    Player,
    State,
    figure,
)
from services.glenmore.territory import EDGES, ORIGIN, ORTHOGONAL

CONVERSIONS: Final = (DISTILLERY, BUTCHER, MIXED_BUTCHER, FAIR, GROCER, BRIDGE)
STACK_OF: Final = tuple(tile.stack for tile in TILES)
CARD_OF: Final = tuple(tile.card for tile in TILES)
ALL_STACK_TILES: Final = list(range(STACK_TILES))


def bad(what: str) -> None:
    """Refuse the state: MalformedRequest ("invalid state: `what`")."""
    raise MalformedRequest(f"invalid state: {what}")


def validate(state: State) -> State:
    """`state`, if it is consistent; else MalformedRequest naming what is not."""
    n, step = state.n, state.step
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        bad("player count")
    if len(state.players) != n:
        bad("one player record per seat")
    if not (0 <= state.start_player < n and 0 <= state.actor < n):
        bad("seat out of range")
    if step == 0:
        bad("step")
    for seat, player in enumerate(state.players):
        _player(player, seat)
    if len(state.stacks) != STACKS:
        bad("four stacks")
    for number, stack in enumerate(state.stacks):
        if not all(0 <= t < STACK_TILES and STACK_OF[t] == number for t in stack):
            bad(f"a tile in the wrong stack {number}")
    _track(state)
    if not 0 <= state.track_space < TRACK_SPACES:
        bad("track space")
    if not all(0 <= t < STACK_TILES for t in state.discarded_tiles):
        bad("a discarded tile is not a stack tile")
    if not (len(state.market) == 5 and min(state.market) >= 0 and max(state.market) <= MARKET_SLOTS):
        bad("market row")
    if not (0 <= state.last_die_roll <= 3 and (n in DIE_PLAYER_COUNTS or state.last_die_roll == 0)):
        bad("die roll")
    exhausted = 0
    while exhausted < STACKS - 1 and not state.stacks[exhausted + 1]:
        exhausted += 1
    if state.scorings_done != exhausted:
        bad("scorings done against the stacks used up")
    if (step == GAME_OVER) != (exhausted == STACKS - 1):
        bad("game over exactly after scoring 3")
    if step == CHOOSE_TILE:
        if state.track[0] != figure(state.actor):
            bad("the acting seat's figure is not the rearmost")
        if len(state.track) != TRACK_LENGTH:
            bad("the track is not full at the start of a turn")
    paying_for_tile = step == PAY and state.purpose == PAY_FOR_TILE
    for seat, player in enumerate(state.players):
        tiles = player.tiles[:-1] if paying_for_tile and seat == state.actor else player.tiles
        if player.cards != [CARD_OF[t] for t in tiles if CARD_OF[t] != NO_CARD]:
            bad("special-location cards against the tiles")
    _turn(state)
    seen = [t for stack in state.stacks for t in stack]
    seen += [e for e in state.track if e >= 0]
    seen += state.discarded_tiles
    for player in state.players:
        seen += player.tiles[1:]
    if step not in (CHOOSE_TILE, GAME_OVER) and not state.placed:
        seen.append(state.tile)
    if sorted(seen) != ALL_STACK_TILES:
        bad("every stack tile exactly once")
    # A forged position can be consistent yet offer nothing (a payment nobody can complete).
    if step != GAME_OVER and not legal_now(state):
        bad("the acting seat has no legal action")
    return state


def _player(player: Player, seat: int) -> None:
    for value, what in (
        (player.coins, "coins"),
        (player.vp, "VP"),
        (player.scoring_vp, "scoring VP"),
        (player.whisky, "whisky"),
        (player.chieftains, "chieftains"),
    ):
        if value < 0:
            bad(f"negative {what}")
    if player.scoring_vp > player.vp:
        bad("scoring VP above VP")
    tiles, cells, grid, cubes = player.tiles, player.cells, player.grid, player.cubes
    if not tiles:
        bad("a territory without its start village")
    if tiles[0] != start_village(seat):
        bad("the first tile is not the seat's start village")
    if cells[0] != ORIGIN or ORIGIN in cells[1:]:
        bad("the start village is not at (0, 0)")
    for slot in range(1, len(tiles)):
        tile, c = tiles[slot], cells[slot]
        if not 0 <= tile < STACK_TILES:
            bad("a territory tile is not a stack tile")
        # Each tile must touch and match those placed before it (P4), as the engine placed them.
        earlier = [grid[c + d] for d in ORTHOGONAL if grid.get(c + d, slot) < slot]
        if not earlier:
            bad("a tile not touching the territory")
        edge = EDGES[tile]
        for d in ORTHOGONAL:
            other = grid.get(c + d)
            if other is not None and other < slot:
                feature = 1 if d in (1, -1) else 2
                if (edge & feature != 0) != (EDGES[tiles[other]] & feature != 0):
                    bad("a tile whose edges do not match its neighbours")
    if min(cubes, default=0) < 0 or max(player.load, default=0) > TILE_CUBE_CAP:
        bad("cubes on a tile")
    if min(player.clans) < 0:
        bad("negative clan members")
    if player.clan_total() < 1:
        bad("no clan member in a territory")


def _track(state: State) -> None:
    n = state.n
    figures = sorted(e for e in state.track if e < 0)
    expected = sorted([figure(s) for s in range(n)] + ([DIE] if n in DIE_PLAYER_COUNTS else []))
    if figures != expected:
        bad("figures on the track")
    if len(state.track) > TRACK_LENGTH:
        bad("too many entries on the track")
    if state.track[0] >= 0:
        bad("a tile behind the rearmost figure")


def _turn(state: State) -> None:
    step = state.step
    player = state.players[state.actor]
    if step in (CHOOSE_TILE, GAME_OVER):
        if not (
            state.tile == -1
            and not state.placed
            and state.purpose == NO_PAYMENT
            and state.cubes_to_choose == 0
            and state.cube_purpose == NO_CUBE_CHOICE
            and not (state.activate_all or state.loch_ness_ready or state.loch_ness_used or state.activated)
            and state.movement_points == 0
        ):
            bad("turn progress outside a turn")
        return
    if not 0 <= state.tile < STACK_TILES:
        bad("the tile of the turn is not a stack tile")
    if state.placed != (step != PLACE_TILE) or (state.cell != NO_CELL) != state.placed:
        bad("whether the tile of the turn is placed")
    if state.placed:
        slot = player.grid.get(state.cell)
        if slot != len(player.tiles) - 1 or player.tiles[slot] != state.tile:
            bad("the tile placed this turn")
    tile = TILES[state.tile]
    if (state.purpose != NO_PAYMENT) != (step == PAY):
        bad("a payment outside STEP_PAY")
    if step == PAY:
        _payment(state, player)
    if (state.cubes_to_choose > 0) != (step == CHOOSE_CUBE) or not 0 <= state.cubes_to_choose <= 2:
        bad("cubes to choose")
    purpose = state.cube_purpose
    if (purpose != NO_CUBE_CHOICE) != (step == CHOOSE_CUBE):
        bad("cube purpose")
    if purpose == CUBES_LOCH_LOCHY and tile.card != LOCH_LOCHY:
        bad("Loch Lochy cubes without Loch Lochy")
    if purpose == CUBES_LOCH_SHIEL:
        if tile.card != LOCH_SHIEL:
            bad("Loch Shiel cubes without Loch Shiel")
        if not any(TILES[t].family == ABBEY for t in player.tiles):
            bad("Loch Shiel cube without Iona Abbey")
    if state.activate_all and tile.card != LOCH_OICH:
        bad("activating everything without Loch Oich")
    if state.loch_ness_ready and LOCH_NESS not in player.cards:
        bad("Loch Ness ready without its card")
    if state.loch_ness_used and not state.loch_ness_ready:
        bad("Loch Ness used without being ready")
    if state.movement_points < 0 or (state.movement_points == 0 and step == MOVE):
        bad("movement points")


def _payment(state: State, player: Player) -> None:
    if state.purpose not in (PAY_FOR_TILE, PAY_FOR_ACTIVATION):
        bad("payment purpose")
    used = state.kinds_paid
    if min(used, default=0) < 0 or min(state.resources, default=0) < 0:
        bad("a resource to pay that is none")
    if len(set(used)) != len(used):
        bad("kinds paid twice")
    if not 0 <= state.different_cubes <= 5 - len(used):
        bad("different cubes to pay")
    if not 0 <= state.any_cubes <= 3:
        bad("cubes of any kind to pay")
    if len(state.resources) > 3:
        bad("cubes to pay")
    if not (state.resources or state.different_cubes or state.any_cubes or state.clan_member):
        bad("an empty payment")
    if not 0 <= state.activation_count <= 5:
        bad("activation count")
    if state.purpose == PAY_FOR_ACTIVATION:
        slot = player.grid.get(state.activation_cell)
        if slot is None or TILES[player.tiles[slot]].effect not in CONVERSIONS:
            bad("the activated tile")
    elif state.activation_cell != NO_CELL or state.activation_count:
        bad("tile payment")

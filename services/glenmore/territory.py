"""The territory grid (§5): cells, neighbourhoods and the placement rules P1-P5.

A cell is one int, (x + OFFSET) * STRIDE + (y + OFFSET), so that moving north adds 1 and moving east
adds STRIDE, and sorting cells sorts them by (x, y).
"""

from __future__ import annotations

from typing import Final

from services.glenmore.data import NO_EDGE, RIVER, ROAD, TILES
from services.glenmore.state import Player, State

OFFSET: Final = 128
STRIDE: Final = 256
MAX_COORDINATE: Final = 100  # far beyond any reachable cell: a territory has at most 68 tiles

NORTH: Final = 1
SOUTH: Final = -1
EAST: Final = STRIDE
WEST: Final = -STRIDE
ORTHOGONAL: Final = (NORTH, SOUTH, EAST, WEST)
AROUND: Final = (WEST + SOUTH, WEST, WEST + NORTH, SOUTH, NORTH, EAST + SOUTH, EAST, EAST + NORTH)
ORIGIN: Final = OFFSET * STRIDE + OFFSET

EDGES: Final = tuple(tile.edge for tile in TILES)
ALL_EDGES: Final = (1 << NO_EDGE) | (1 << RIVER) | (1 << ROAD)
NONE: Final = -1  # no tile on a cell (a grid's slots count from 0)


def cell(x: int, y: int) -> int:
    """The cell at column x, row y."""
    return (x + OFFSET) * STRIDE + (y + OFFSET)


def xy(c: int) -> tuple[int, int]:
    """The (x, y) of a cell."""
    return c // STRIDE - OFFSET, c % STRIDE - OFFSET


def in_range(x: int, y: int) -> bool:
    """Whether (x, y) is a coordinate a territory may use."""
    return -MAX_COORDINATE <= x <= MAX_COORDINATE and -MAX_COORDINATE <= y <= MAX_COORDINATE


def neighbourhood(player: Player, c: int) -> list[int]:
    """The slots of the player's tiles on the 8 cells around `c`."""
    grid = player.grid
    return [grid[c + d] for d in AROUND if c + d in grid]


def fitting(player: Player, c: int) -> int:
    """Which tiles may go on the empty cell `c` touching the territory (P1, P2), by P3-P5.

    Returns a bitmask with bit `edge` set for each edge feature (none, river, road) that fits.
    """
    # The neighbours found among the territory's cells (arithmetic on each, cheaper than looking the
    # 8 cells around up by their boxed keys): which slot is north, south, east and west (NONE: no tile),
    # and whether any of the 8 holds clan members.
    x, y = c // STRIDE, c % STRIDE
    clans = player.clans
    north = south = east = west = NONE
    touching = False
    for slot, other in enumerate(player.cells):
        dx = other // STRIDE - x
        if dx < -1 or dx > 1:
            continue
        dy = other % STRIDE - y
        if dy < -1 or dy > 1:
            continue
        if clans[slot]:
            touching = True
        if dx == 0:
            if dy == 1:
                north = slot
            elif dy == -1:
                south = slot
        elif dy == 0:
            if dx == 1:
                east = slot
            else:
                west = slot
    if not touching:
        return 0
    tiles = player.tiles
    # Count orthogonal neighbours by whether their facing side has a feature.
    vertical = vertical_river = horizontal = horizontal_road = 0
    if north != NONE:
        vertical += 1
        vertical_river += EDGES[tiles[north]] & RIVER != 0
    if south != NONE:
        vertical += 1
        vertical_river += EDGES[tiles[south]] & RIVER != 0
    if east != NONE:
        horizontal += 1
        horizontal_road += EDGES[tiles[east]] & ROAD != 0
    if west != NONE:
        horizontal += 1
        horizontal_road += EDGES[tiles[west]] & ROAD != 0
    mask = 0
    if not vertical_river and not horizontal_road:
        mask |= 1 << NO_EDGE
    if vertical_river and vertical_river == vertical and not horizontal_road:
        mask |= 1 << RIVER
    if horizontal_road and horizontal_road == horizontal and not vertical_river:
        mask |= 1 << ROAD
    return mask


def _frontier(player: Player) -> set[int]:
    found = {c + d for c in player.cells for d in ORTHOGONAL}
    found.difference_update(player.grid)  # the occupied cells, without looking each candidate up
    return found


def frontier(player: Player) -> list[int]:
    """The empty cells orthogonally next to the territory (P1, P2), sorted."""
    return sorted(_frontier(player))


def legal_cells(player: Player, edge: int) -> list[int]:
    """The cells where a tile with `edge` may be placed, sorted."""
    bit = 1 << edge
    return [c for c in frontier(player) if fitting(player, c) & bit]


def placeable_edges(player: Player, wanted: int = ALL_EDGES) -> int:
    """A bitmask of the edge features (bit `edge`) that some cell of the territory takes: all of them,
    or at least those of `wanted` that some cell takes (it stops looking once it has found those)."""
    mask = 0
    for c in _frontier(player):  # in any order: the same union
        mask |= fitting(player, c)
        if mask & wanted == wanted:
            break
    return mask


def in_neighbourhood(state: State, player: Player, slot: int) -> bool:
    """Whether `neighbourhood_mask` holds the slot (a tile of the player's territory)."""
    if state.activate_all:
        return True
    offset = player.cells[slot] - state.cell
    return offset == 0 or offset in AROUND


def neighbourhood_mask(state: State, player: Player) -> int:
    """The slots that may be activated this turn without Loch Ness, as a bitmask."""
    if state.activate_all:
        return (1 << len(player.tiles)) - 1
    c = state.cell
    mask = 1 << player.grid[c]
    x, y = c // STRIDE, c % STRIDE
    for slot, other in enumerate(player.cells):  # the 8 cells around, found as in `fitting`
        if -1 <= other // STRIDE - x <= 1 and -1 <= other % STRIDE - y <= 1:
            mask |= 1 << slot
    return mask

"""The territory grid (§5): cells, neighbourhoods and the placement rules P1-P5.

A cell is one int, (x + OFFSET) * STRIDE + (y + OFFSET), so that moving north adds 1 and moving east
adds STRIDE, and sorting cells sorts them by (x, y).
"""

from __future__ import annotations

from services.glenmore.data import NO_EDGE, RIVER, ROAD, TILES
from services.glenmore.state import Player

OFFSET = 128
STRIDE = 256
MAX_COORDINATE = 100  # far beyond any reachable cell: a territory has at most 68 tiles

NORTH, SOUTH, EAST, WEST = 1, -1, STRIDE, -STRIDE
ORTHOGONAL = (NORTH, SOUTH, EAST, WEST)
AROUND = (WEST + SOUTH, WEST, WEST + NORTH, SOUTH, NORTH, EAST + SOUTH, EAST, EAST + NORTH)
ORIGIN = OFFSET * STRIDE + OFFSET

EDGES = tuple(tile.edge for tile in TILES)
TAKEN_EDGES = (NO_EDGE, RIVER, ROAD)


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


def _fits(player: Player, c: int, edge: int) -> bool:
    """P3-P5 for a tile with `edge` on the empty cell `c` that touches the territory (P1, P2)."""
    grid = player.grid
    clans = player.clans
    for d in AROUND:
        slot = grid.get(c + d)
        if slot is not None and clans[slot]:
            break
    else:
        return False
    tiles = player.tiles
    river = edge == RIVER
    road = edge == ROAD
    river_link = road_link = False
    for d in (NORTH, SOUTH):
        slot = grid.get(c + d)
        if slot is not None:
            other = EDGES[tiles[slot]] & RIVER != 0
            if other != river:
                return False
            river_link = river_link or other
    for d in (EAST, WEST):
        slot = grid.get(c + d)
        if slot is not None:
            other = EDGES[tiles[slot]] & ROAD != 0
            if other != road:
                return False
            road_link = road_link or other
    return (river_link or not river) and (road_link or not road)


def frontier(player: Player) -> list[int]:
    """The empty cells orthogonally next to the territory (P1, P2), sorted."""
    grid = player.grid
    found = {c + d for c in player.cells for d in ORTHOGONAL}
    return sorted(c for c in found if c not in grid)


def legal_cells(player: Player, edge: int) -> list[int]:
    """The cells where a tile with `edge` may be placed, sorted."""
    return [c for c in frontier(player) if _fits(player, c, edge)]


def placeable_edges(player: Player) -> tuple[bool, bool, bool]:
    """Whether some cell takes a featureless tile, a river tile and a road tile."""
    cells = frontier(player)
    return (
        any(_fits(player, c, NO_EDGE) for c in cells),
        any(_fits(player, c, RIVER) for c in cells),
        any(_fits(player, c, ROAD) for c in cells),
    )

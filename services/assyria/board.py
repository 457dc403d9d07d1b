"""The map as the engine uses it: hexes by number, neighbours, the usable hexes and well sites of each
player count, and each site's 3 hexes.

A hex's number is its position in `data.HEXES` (column q ascending, then r), counting from 0; the
protobuf board lists are indexed by it. A well site's number is its position, counting from 1, in the
sorted list of all 58 sites (t, q, r), as docs/games/assyria.md lists them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from services.assyria.data import HEXES, MAP, NEIGHBOUR_STEPS, RIVERS, WELL_SITES, Region, WellSite

HEX_COUNT: Final = len(HEXES)
HEX_NUMBER: Final[Mapping[tuple[int, int], int]] = {(h.q, h.r): i for i, h in enumerate(HEXES)}
HEX_FOOD: Final[tuple[int, ...]] = tuple(int(h.food) for h in HEXES)
HEX_REGION: Final[tuple[int, ...]] = tuple(int(h.region) for h in HEXES)
IS_RIVER: Final[tuple[bool, ...]] = tuple(h.region in RIVERS for h in HEXES)
INSIDE: Final = int(Region.INSIDE)
OUTSIDE: Final = int(Region.OUTSIDE)

# Every site of the full map, sorted; a site's number is its index + 1.
SITES: Final[tuple[WellSite, ...]] = tuple(sorted(WELL_SITES[4], key=lambda s: (s.t, s.q, s.r)))
SITE_NUMBER: Final[Mapping[WellSite, int]] = {s: i + 1 for i, s in enumerate(SITES)}
SITE_HEXES: Final[tuple[tuple[int, ...], ...]] = (
    (),
    *(tuple(HEX_NUMBER[c] for c in s.hexes()) for s in SITES),
)


class Board:
    """A player count's board: which hexes are usable, their neighbours, and the usable sites."""

    __slots__ = ("hexes", "neighbours", "sites", "sites_of_hex", "usable")

    def __init__(self, players: int) -> None:
        usable = MAP[players]
        self.usable = tuple((h.q, h.r) in usable for h in HEXES)
        self.hexes = tuple(i for i in range(HEX_COUNT) if self.usable[i])
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(
            tuple(
                HEX_NUMBER[(h.q + dq, h.r + dr)]
                for dq, dr in NEIGHBOUR_STEPS
                if (h.q + dq, h.r + dr) in usable
            )
            if self.usable[i]
            else ()
            for i, h in enumerate(HEXES)
        )
        self.sites = tuple(sorted(SITE_NUMBER[s] for s in WELL_SITES[players]))
        self.sites_of_hex: tuple[tuple[int, ...], ...] = tuple(
            tuple(site for site in self.sites if i in SITE_HEXES[site]) for i in range(HEX_COUNT)
        )


BOARDS: Final[Mapping[int, Board]] = {players: Board(players) for players in MAP}


def coords(hex_number: int) -> tuple[int, int]:
    """The (q, r) of a hex number."""
    h = HEXES[hex_number]
    return h.q, h.r

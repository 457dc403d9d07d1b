"""The map as the web client draws it: each hex number's axial coordinates, region, food, river flag
and the player counts that use it, and each well site's 3 hexes by site number (index 0 unused)."""

from __future__ import annotations

from typing import Any

from services.assyria import board as assyria_board
from services.assyria.data import MAP


def board() -> dict[str, Any]:
    """Assyria's map by hex number, and the well sites' hexes by site number (index 0 unused)."""
    hexes = [
        {
            "q": h.q,
            "r": h.r,
            "region": h.region.name.lower(),
            "food": h.food.name.lower(),
            "river": assyria_board.IS_RIVER[number],
            "players": [players for players, usable in sorted(MAP.items()) if (h.q, h.r) in usable],
        }
        for number, h in enumerate(assyria_board.HEXES)
    ]
    return {"hexes": hexes, "siteHexes": [list(site) for site in assyria_board.SITE_HEXES]}

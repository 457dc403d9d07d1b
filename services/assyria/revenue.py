"""Phase 2e, revenue and prestige (§4, rulings 1, 7, 8; OP-17, OP-19): camels per river from the
player's river huts, capped at 10; VP for huts outside (1) and inside (2) and per ziggurat piece."""

from __future__ import annotations

from typing import Final

from services.assyria import events as ev
from services.assyria.board import BOARDS, HEX_REGION
from services.assyria.data import (
    CAMEL_CAP,
    PRESTIGE_VP,
    RIVER_FIRST_HUT_CAMELS,
    RIVER_FURTHER_HUT_CAMELS,
    RIVER_REVENUE,
    RIVERS,
    ZIGGURAT_PIECE_VP,
)
from services.assyria.state import State

REGION_VP: Final = {int(region): vp for region, vp in PRESTIGE_VP.items()}


def river_camels(huts_per_river: list[int]) -> int:
    """Camels for so many huts on each river: 3 for a river's first hut, 2 for each further one."""
    if RIVER_REVENUE != "per_river":
        huts_per_river = [sum(huts_per_river)]
    return sum(RIVER_FIRST_HUT_CAMELS + RIVER_FURTHER_HUT_CAMELS * (n - 1) for n in huts_per_river if n)


def gain_camels(state: State, seat: int, camels: int) -> tuple[int, int]:
    """Add camels up to the cap (OP-17); (added, lost)."""
    player = state.players[seat]
    added = min(camels, CAMEL_CAP - player.camels)
    player.camels += added
    return added, camels - added


def ziggurat_pieces(state: State, seat: int) -> int:
    """The pieces of the seat's ziggurats on the board."""
    return sum(h for s, h in zip(state.ziggurat_seats, state.ziggurat_heights, strict=True) if s == seat)


def prestige(state: State, seat: int) -> int:
    """VP for the seat's huts by region and its ziggurat pieces."""
    huts = state.hut_seats
    vp = sum(REGION_VP[HEX_REGION[h]] for h in BOARDS[state.n].hexes if huts[h] == seat)
    return vp + ZIGGURAT_PIECE_VP * ziggurat_pieces(state, seat)


def collect(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The acting seat's camels and prestige."""
    seat = state.actor
    huts = state.hut_seats
    per_river = [
        sum(1 for h in BOARDS[state.n].hexes if huts[h] == seat and HEX_REGION[h] == r) for r in RIVERS
    ]
    added, lost = gain_camels(state, seat, river_camels(per_river))
    vp = prestige(state, seat)
    state.players[seat].score += vp
    events.append(ev.RevenueGained(seat, added, lost, vp))

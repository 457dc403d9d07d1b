"""Phase 2d, wells (§4, §2.3, ruling 4, OP-14): a well on a free site of the board whose 3 hexes all
hold the player's huts (so no ziggurat is among them), while the supply lasts; 6 / 5 / 4 VP by reign."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.board import BOARDS, SITE_HEXES
from services.assyria.data import WELL_VP
from services.assyria.state import State


def legal_sites(state: State, seat: int) -> list[int]:
    """The sites where the seat may build a well now, ascending."""
    if not state.wells_supply:
        return []
    board = BOARDS[state.n]
    huts = state.hut_seats
    sites = {
        site
        for h in board.hexes
        if huts[h] == seat
        for site in board.sites_of_hex[h]
        if all(huts[x] == seat for x in SITE_HEXES[site])
    }
    return sorted(sites.difference(state.wells))


def legal(state: State) -> list[act.Action]:
    """A well on each legal site, or stop building."""
    return [act.action(act.BUILD_WELL, s) for s in legal_sites(state, state.actor)] + [act.END_WELLS_ACTION]


def play(state: State, action: act.Action, events: list) -> bool:  # type: ignore[type-arg]
    """Build a well (or stop); True when the wells step is over."""
    if action.kind == act.END_WELLS:
        return True
    vp = WELL_VP[state.reign - 1]
    state.wells.append(action.a)
    state.wells_supply -= 1
    state.players[state.actor].score += vp
    events.append(ev.WellBuilt(state.actor, action.a, vp))
    return not legal_sites(state, state.actor)


def well_hexes(state: State) -> set[int]:
    """The hexes around the built wells (no ziggurat base may go there: ruling 4)."""
    return {h for site in state.wells for h in SITE_HEXES[site]}

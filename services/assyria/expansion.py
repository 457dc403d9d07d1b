"""Phase 2, expansion (§4, OP-21): each player in turn order places huts, feeds, loses the unfed
huts, builds wells and collects revenue and prestige; then the actions phase begins."""

from __future__ import annotations

from services.assyria import feeding, huts, phase_actions, revenue, turns, wells
from services.assyria.state import FEED, PLACE_HUTS, WELLS, State


def begin(state: State, events: list) -> None:  # type: ignore[type-arg]
    """The first seat in turn order starts its expansion."""
    turns.start(state, PLACE_HUTS)
    _begin_player(state, events)


def _begin_player(state: State, events: list) -> None:  # type: ignore[type-arg]
    state.clear_turn_progress()
    state.huts_to_place = min(state.expansion_card, state.players[state.actor].huts)
    state.step = PLACE_HUTS
    if not huts.can_place(state):  # ruling 15, 16: nothing (more) to place
        state.huts_to_place = 0
        after_placing(state, events)


def after_placing(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Placements done: resupply, if a hut needs food."""
    state.huts_to_place = 0
    state.step = FEED
    if not feeding.needs_feeding(state):
        after_feeding(state, events)


def after_feeding(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Feeding done: famine, then wells if one can be built."""
    state.feeding_food = state.feeding_symbols = 0
    feeding.famine(state, events)
    state.step = WELLS
    if not wells.legal_sites(state, state.actor):
        after_wells(state, events)


def after_wells(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Wells done: revenue and prestige, then the next seat, or the actions phase."""
    revenue.collect(state, events)
    if turns.advance(state):
        _begin_player(state, events)
    else:
        phase_actions.begin(state, events)

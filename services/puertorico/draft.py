"""Expansion I building sets (§6.3, §6.4): the draft of the 17 violet slots, and the random set.

A draft pick is two small decisions: the cost of an open slot, then a building of that cost.
"""

from __future__ import annotations

from itertools import combinations
from typing import Final

from services.common.rng import Rng
from services.puertorico.actions import DRAFT_ACTION, DRAFT_COST_ACTION, Action
from services.puertorico.data import (
    BUILDINGS,
    DRAFT_CANDIDATES,
    DRAFT_PICKS,
    DRAFT_SLOTS,
    FOREST_HOUSE,
    HACIENDA,
)
from services.puertorico.events import DraftPicked
from services.puertorico.state import CHOOSE_ROLE, DRAFT_BUILDING, DRAFT_COST, Config, State

EXCLUSIVE: Final[tuple[tuple[int, int], ...]] = ((HACIENDA, FOREST_HOUSE),)  # OP-10, when the option is on


def copies(building: int, player_count: int) -> int:
    """Copies of a building in play: small violet buildings come in pairs, singly with 2 players."""
    info = BUILDINGS[building]
    return info.copies_2p if player_count == 2 else info.copies


def excluded(building: int, chosen: list[int], config: Config) -> bool:
    """Whether `building` is out because its exclusive partner was chosen (OP-10)."""
    if not config.draft_hacienda_forest_exclusive:
        return False
    return any((building == a and b in chosen) or (building == b and a in chosen) for a, b in EXCLUSIVE)


def open_slots(picks: list[int], cost: int) -> int:
    """Slots of `cost` not yet filled."""
    return DRAFT_SLOTS[cost] - sum(1 for b in picks if BUILDINGS[b].cost == cost)


def candidates(picks: list[int], cost: int, config: Config) -> list[int]:
    """The buildings still available for a slot of `cost`."""
    return [b for b in DRAFT_CANDIDATES[cost] if b not in picks and not excluded(b, picks, config)]


def legal_cost(state: State) -> list[Action]:
    """Every cost with an open slot."""
    return [DRAFT_COST_ACTION[cost] for cost in DRAFT_SLOTS if open_slots(state.draft_picks, cost)]


def play_cost(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Choose the slot's cost; the building comes next."""
    state.draft_cost = action.arg
    state.step = DRAFT_BUILDING
    return False


def legal_building(state: State) -> list[Action]:
    """The buildings available at the chosen cost."""
    return [DRAFT_ACTION[b] for b in candidates(state.draft_picks, state.draft_cost, state.config)]


def play_building(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Put the building on the slot (and its copies on sale); the next seat picks, or the game starts."""
    building = action.arg
    state.draft_picks.append(building)
    state.stock[building] = copies(building, state.n)
    state.draft_cost = 0
    events.append(DraftPicked(state.actor, building))
    state.actor = (state.governor + len(state.draft_picks)) % state.n
    state.step = DRAFT_COST if len(state.draft_picks) < DRAFT_PICKS else CHOOSE_ROLE
    if state.step == CHOOSE_ROLE:
        state.actor = state.governor
    return False


def random_set(rng: Rng, config: Config) -> list[int]:
    """A uniformly random legal choice of candidates per cost group (§6.4)."""
    chosen: list[int] = []
    for cost, slots in DRAFT_SLOTS.items():
        options = [
            group
            for group in combinations(DRAFT_CANDIDATES[cost], slots)
            if not any(excluded(b, chosen + list(group), config) for b in group)
        ]
        chosen.extend(options[rng.below(len(options))])
    return chosen

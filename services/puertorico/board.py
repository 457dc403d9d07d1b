"""Helpers every phase shares: VP from the pool, end triggers, colonists, the plantation stack."""

from __future__ import annotations

from services.puertorico.data import CAPTAIN, LIBRARY
from services.puertorico.events import EndTriggered, VpReceived
from services.puertorico.state import TRIGGER_VP_POOL, State


def privilege(state: State, seat: int) -> int:
    """How many times `seat` gets the privilege of the role it chose: doubled by a library (OP-9)."""
    return state.config.library_multiplier if state.players[seat].has(LIBRARY) else 1


def trigger_end(state: State, trigger: int, events: list) -> None:  # type: ignore[type-arg]
    """Record a game-end trigger; the game ends with the current round (§7.1)."""
    if trigger not in state.end_triggers:
        state.end_triggers.append(trigger)
        events.append(EndTriggered(trigger))


def award_vp(state: State, seat: int, amount: int, reason: int, events: list) -> None:  # type: ignore[type-arg]
    """Give VP chips; past an empty pool they still count (VP beyond the pool) and fire trigger (c)."""
    if amount <= 0:
        return
    state.players[seat].vp += amount
    state.vp_pool = max(0, state.vp_pool - amount)
    events.append(VpReceived(seat, amount, reason, state.config.public_vp))
    if state.vp_pool == 0 and (state.config.vp_trigger_any_phase or state.role == CAPTAIN):
        trigger_end(state, TRIGGER_VP_POOL, events)


def colonist_available(state: State) -> bool:
    """Whether a hospice or university colonist can come (from the supply, else from the ship)."""
    return state.colonist_supply > 0 or state.colonist_ship > 0


def take_colonist(state: State) -> None:
    """Take one colonist from the supply, or from the ship when the supply is empty (ruling 10)."""
    if state.colonist_supply > 0:
        state.colonist_supply -= 1
    else:
        state.colonist_ship -= 1


def draw_plantation(state: State) -> int:
    """Draw the top face-down plantation, reshuffling the discards when the stack is empty; -1 if none."""
    if not state.plantation_stack:
        if not state.plantation_discards:
            return -1
        state.plantation_stack = state.plantation_discards
        state.plantation_discards = []
        state.rng.shuffle(state.plantation_stack)
    return state.plantation_stack.pop()


def can_draw_plantation(state: State) -> bool:
    """Whether a face-down plantation can be drawn (from the stack or a reshuffled discard pile)."""
    return bool(state.plantation_stack) or bool(state.plantation_discards)

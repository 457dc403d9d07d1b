"""Offerings (§4 Phase 3, §5 IV, ruling 11, OP-6): the disc moves up one step per camel, at most 3
steps a turn and never past 7; at the Flood each ziggurat scores the position's multiplier."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.data import OFFERING_MULT, OFFERING_STEP_COST, OFFERING_STEPS_PER_TURN, OFFERINGS_MAX
from services.assyria.state import State
from services.assyria.ziggurats import ziggurats


def options(state: State, seat: int) -> list[act.Action]:
    """One more step, if allowed and affordable."""
    player = state.players[seat]
    if (
        state.offered_this_turn < OFFERING_STEPS_PER_TURN
        and player.offerings < OFFERINGS_MAX
        and player.camels >= OFFERING_STEP_COST
    ):
        return [act.MAKE_OFFERING_ACTION]
    return []


def play(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """One step up for one camel."""
    player = state.players[state.actor]
    player.camels -= OFFERING_STEP_COST
    player.offerings += 1
    state.offered_this_turn += 1
    events.append(ev.OfferingMade(state.actor, player.offerings))


def score(state: State, events: list) -> None:  # type: ignore[type-arg]
    """§5 IV: ziggurats x multiplier for every seat, then every disc back to 0."""
    for seat, player in enumerate(state.players):
        count, mult = ziggurats(state, seat), OFFERING_MULT[player.offerings]
        player.score += count * mult
        events.append(ev.OfferingsScored(seat, count, mult, count * mult))
        player.offerings = 0

"""Assur (§4 Phase 3 intrigue; §5 II-III; rulings 9, 10; OP-5, OP-16, OP-20): huts sent to the
dignitaries, the reign's ranking by influence with its card cascade, and the dignitaries' rewards."""

from __future__ import annotations

from typing import Final

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.data import (
    DIGNITARIES,
    HIGHER_DIGNITARY_VP,
    LOWER_DIGNITARY_CAMELS,
    MIN_PLAYERS,
    Dignitary,
)
from services.assyria.revenue import gain_camels
from services.assyria.state import State

DIGNITARY_NUMBERS: Final = tuple(int(d) for d in Dignitary)
SPACES: Final = {int(d): row.spaces for d, row in DIGNITARIES.items()}
COST: Final = {int(d): row.cost for d, row in DIGNITARIES.items()}
INFLUENCE: Final = {int(d): row.influence for d, row in DIGNITARIES.items()}


def options(state: State, seat: int) -> list[act.Action]:
    """The dignitaries with a free space the seat can pay for, with a hut in stock (ruling 15)."""
    player = state.players[seat]
    if not player.huts:
        return []
    return [
        act.action(act.INTRIGUE, d)
        for d in DIGNITARY_NUMBERS
        if len(state.assur(d)) < SPACES[d] and player.camels >= COST[d]
    ]


def play(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """A hut from stock onto the dignitary's top-most free space."""
    seat, d = state.actor, action.a
    player = state.players[seat]
    spaces = state.assur(d)
    spaces.append(seat)
    player.huts -= 1
    player.camels -= COST[d]
    events.append(ev.HutSentToAssur(seat, d, len(spaces) - 1, COST[d]))


def ranking(state: State) -> list[int]:
    """The seats with a hut in Assur, best first: influence, then huts there, then the best-placed hut
    (dignitary, then space from the top; OP-20)."""
    keys: dict[int, list[int]] = {}
    for d in DIGNITARY_NUMBERS:
        for space, seat in enumerate(state.assur(d)):
            key = keys.setdefault(seat, [0, 0, d, space])
            key[0] += INFLUENCE[d]
            key[1] += 1
    return sorted(keys, key=lambda s: (-keys[s][0], -keys[s][1], keys[s][2], keys[s][3]))


def cascade(cards: list[int], places: int, reign: int, two_player_rule: bool) -> list[int]:
    """The VP of ranks 1..places: rank 1 the sum of the cards, each next rank without the highest card
    left; with the 2-player rule, 2nd place scores 0 in reign 1 and only the lowest card after."""
    ordered = sorted(cards, reverse=True)
    vp = [sum(ordered[rank:]) for rank in range(places)]
    if two_player_rule and places >= 2:
        vp[1] = 0 if reign == 1 or not ordered else ordered[-1]
    return vp


def score(state: State, events: list) -> None:  # type: ignore[type-arg]
    """§5 II: the reign's Assur scoring."""
    ranked = ranking(state)
    two_player = state.config.assur_2p_rule and state.n == MIN_PLAYERS
    for rank, (seat, vp) in enumerate(
        zip(ranked, cascade(state.assur_cards, len(ranked), state.reign, two_player), strict=True)
    ):
        state.players[seat].score += vp
        events.append(ev.AssurScored(seat, rank + 1, vp))


def reward(state: State, events: list) -> None:  # type: ignore[type-arg]
    """§5 III: the dignitaries' rewards, then every hut in Assur back to its stock."""
    for seat in sorted(set(state.assur_higher)):
        vp = HIGHER_DIGNITARY_VP[state.assur_higher.count(seat)]
        state.players[seat].score += vp
        events.append(ev.DignitaryRewarded(seat, Dignitary.HIGHER, vp, 0, False))
    for seat in state.turn_order:  # OP-16: in turn order while the stack lasts
        player = state.players[seat]
        if seat in state.assur_middle:
            plow = not player.plow and state.plow_stack > 0
            if plow:
                player.plow = True
                state.plow_stack -= 1
            events.append(ev.DignitaryRewarded(seat, Dignitary.MIDDLE, 0, 0, plow))
    for seat in sorted(set(state.assur_lower)):
        added, _ = gain_camels(state, seat, LOWER_DIGNITARY_CAMELS * state.assur_lower.count(seat))
        events.append(ev.DignitaryRewarded(seat, Dignitary.LOWER, 0, added, False))
    for d in DIGNITARY_NUMBERS:
        spaces = state.assur(d)
        for seat in spaces:
            state.players[seat].huts += 1
        spaces.clear()

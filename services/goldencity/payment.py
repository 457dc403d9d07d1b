"""What a house costs and how it is paid (§5, rulings 5 and OP-4, OP-5, OP-7): cards of the place's
landscape, Coast for the coast, a key for an inner city part; each required card may be replaced by
a joker pair (2 identical cards, or any 2 with OP-7 `any_pair`). A payment is a sequence of small
decisions, one card or pair at a time, and only payments that can still be completed are offered."""

from __future__ import annotations

from typing import Final

from services.goldencity import events as ev
from services.goldencity.actions import PAY_CARD, PAY_PAIR, Action
from services.goldencity.landscapes import counts
from services.goldencity.rules import (
    JOKER_ANY_PAIR,
    JOKER_CARDS,
)
from services.goldencity.state import State
from services.goldencity.tables import Cost
from services.goldencity.vocabulary import Landscape

LANDSCAPES: Final = tuple(int(kind) for kind in Landscape)


PAY_CARD_ACTIONS: Final = {kind: Action(PAY_CARD, kind) for kind in LANDSCAPES}
PAY_PAIR_ACTIONS: Final = {(a, b): Action(PAY_PAIR, a, b) for a in LANDSCAPES for b in LANDSCAPES if a <= b}


def cost(state: State, place: int) -> Cost:
    """What building on `place` costs under the game's options."""
    return state.tables.costs[state.config.inner_cost][place]


def can_pay(have: list[int], landscape: int, owed: int, any_pair: bool) -> bool:
    """Whether a hand with `have` cards per landscape can pay `owed` cards of `landscape`: the cards
    themselves first, joker pairs for the rest."""
    singles = min(have[landscape], owed)
    rest = owed - singles
    if rest == 0:
        return True
    if any_pair:
        return JOKER_CARDS * rest <= sum(have) - singles
    pairs = sum(have[k] // JOKER_CARDS for k in LANDSCAPES if k != landscape)
    return rest <= pairs + (have[landscape] - singles) // JOKER_CARDS


def affordable(state: State, seat: int, place: int) -> bool:
    """Whether `seat` can pay for a house on `place` (cards and key)."""
    price = cost(state, place)
    player = state.players[seat]
    if price.key and player.keys < 1:
        return False
    any_pair = state.config.joker == JOKER_ANY_PAIR
    return can_pay(counts(player.hand.cards), price.landscape, price.cards, any_pair)


def legal(state: State) -> list[Action]:
    """The next card or joker pair the actor may pay, keeping the rest of the payment possible."""
    have = counts(state.players[state.actor].hand.cards)
    landscape = state.tables.cost_landscape[state.building_place]
    owed = state.owed - 1
    any_pair = state.config.joker == JOKER_ANY_PAIR
    found = []
    if have[landscape]:
        found.append(PAY_CARD_ACTIONS[landscape])
    for (a, b), action in PAY_PAIR_ACTIONS.items():
        if (a != b and not any_pair) or have[a] < 1 + (a == b) or have[b] < 1:
            continue
        have[a] -= 1
        have[b] -= 1
        if can_pay(have, landscape, owed, any_pair):
            found.append(action)
        have[a] += 1
        have[b] += 1
    return found


def play(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Pay one card or pair into the discard pile; returns whether the house is paid for."""
    player = state.players[state.actor]
    paid = (action.a,) if action.kind == PAY_CARD else (action.a, action.b)
    for card in paid:
        player.hand.cards.remove(card)
    state.landscape_discard.extend(paid)
    state.owed -= 1
    events.append(ev.CardsPaid(state.actor, paid))
    return state.owed == 0

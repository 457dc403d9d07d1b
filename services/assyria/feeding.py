"""Phase 2b, resupply (§4, rulings 5, 6): the player plays food, wild and plow cards, one at a time,
and feeds unfed huts with each card's symbols one hut at a time; unused symbols are lost.

A food card with n symbols of type X feeds up to n huts on X hexes; a wild or plow card feeds any 1
hut. A played food card goes to the discard pile, a plow back to the plow stack. Feeding is compulsory
(OP-24): while a held card or the plow can feed an unfed hut the player plays one, and a card feeds
matching huts while it has symbols; with `feeding = optional` the player may leave a card or stop.
"""

from __future__ import annotations

from typing import Final

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria.board import BOARDS, HEX_FOOD
from services.assyria.cards import CARD_FOOD, CARD_SYMBOLS, WILD_CARD
from services.assyria.data import Food
from services.assyria.state import FEEDING_OPTIONAL, State

WILD: Final = int(Food.WILD)


def unfed_huts(state: State, seat: int) -> list[int]:
    """The seat's unfed huts, ascending."""
    huts, fed = state.hut_seats, state.fed
    return [h for h in BOARDS[state.n].hexes if huts[h] == seat and not fed[h]]


def _feedable(food: int, unfed: list[int]) -> list[int]:
    return unfed if food == WILD else [h for h in unfed if HEX_FOOD[h] == food]


def needs_feeding(state: State) -> bool:
    """Whether the acting seat has an unfed hut."""
    return bool(unfed_huts(state, state.actor))


def legal(state: State) -> list[act.Action]:
    """With a card in use: feed a matching hut (or, feeding optional, leave its other symbols).
    Otherwise: play a card (one action per kind held) or a plow that can feed a hut; stopping, which
    lets the unfed huts starve, only when none can (or feeding is optional)."""
    unfed = unfed_huts(state, state.actor)
    optional = state.config.feeding == FEEDING_OPTIONAL
    if state.feeding_symbols:
        actions = [act.action(act.FEED_HUT, h) for h in _feedable(state.feeding_food, unfed)]
        if optional:
            actions.append(act.CLOSE_CARD_ACTION)
        return actions
    player = state.players[state.actor]
    foods = {HEX_FOOD[h] for h in unfed}
    actions = [
        act.action(act.PLAY_CARD, card)
        for card in sorted(set(player.hand))
        if card == WILD_CARD or CARD_FOOD[card] in foods
    ]
    if player.plow:
        actions.append(act.PLAY_PLOW_ACTION)
    if optional or not actions:
        actions.append(act.END_FEEDING_ACTION)
    return actions


def _close(state: State) -> None:
    state.feeding_food = 0
    state.feeding_symbols = 0


def play(state: State, action: act.Action, events: list) -> bool:  # type: ignore[type-arg]
    """One feeding decision; True when feeding is over (no unfed hut left, or the player stopped)."""
    seat, kind = state.actor, action.kind
    player = state.players[seat]
    if kind == act.END_FEEDING:
        return True
    if kind == act.CLOSE_CARD:
        _close(state)
        return False
    if kind == act.PLAY_CARD:
        player.hand.remove(action.a)
        state.food_discard.append(action.a)
        state.feeding_food = CARD_FOOD[action.a]
        state.feeding_symbols = CARD_SYMBOLS[action.a]
        events.append(ev.CardPlayed(seat, action.a))
    elif kind == act.PLAY_PLOW:
        player.plow = False
        state.plow_stack += 1
        state.feeding_food = WILD
        state.feeding_symbols = 1
        events.append(ev.CardPlayed(seat, 0))
    else:  # FEED_HUT
        state.fed[action.a] = True
        state.feeding_symbols -= 1
        events.append(ev.HutFed(seat, action.a))
    unfed = unfed_huts(state, seat)
    if not unfed:
        _close(state)
        return True
    if not state.feeding_symbols or not _feedable(state.feeding_food, unfed):
        _close(state)  # the card is used up, or nothing is left that it could feed
    return False


def famine(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Phase 2c: every unfed hut of the acting seat returns to its stock."""
    seat = state.actor
    starved = unfed_huts(state, seat)
    for h in starved:
        state.hut_seats[h] = -1
    state.players[seat].huts += len(starved)
    if starved:
        events.append(ev.HutsStarved(seat, tuple(starved)))

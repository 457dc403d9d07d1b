"""Assyria bot knowledge: a greedy heuristic from what a seat may see, and the determinization.

Only the order of the food and expansion decks and the RNG are hidden (§8). Their contents follow
from public facts (every card not in a hand, row, draft or discard is in the food deck; the expansion
cards not yet revealed are in theirs), so a world consistent with a seat's view keeps the contents
and draws the orders afresh; sorting first makes the result independent of the true order.
"""

from __future__ import annotations

from typing import Final

from services.assyria import actions as act
from services.assyria import engine, feeding
from services.assyria.board import BOARDS, HEX_FOOD, HEX_REGION, INSIDE, IS_RIVER
from services.assyria.cards import CARD_FOOD, CARD_SYMBOLS, WILD_CARD
from services.assyria.data import CAMEL_CAP, REIGN_TURNS
from services.assyria.state import ACTIONS, DRAFT, FEED, HARVEST, PLACE_HUTS, State
from services.common.rng import Rng

# The actions phase, best first: (kind, argument or None for any).
ACTION_PRIORITY: Final = (
    (act.RAISE_ZIGGURAT, None),
    (act.BUILD_BASE, None),
    (act.INTRIGUE, 1),
    (act.MAKE_OFFERING, None),
    (act.INTRIGUE, 2),
    (act.BUY_PLOW, None),
    (act.INTRIGUE, 3),
    (act.BUY_FOOD_CARD, None),
)


def _card_value(card: int) -> float:
    return 1.5 if card == WILD_CARD else CARD_SYMBOLS[card]


def _symbols_in_hand(state: State, seat: int) -> dict[int, int]:
    found: dict[int, int] = {}
    for card in state.players[seat].hand:
        found[CARD_FOOD[card]] = found.get(CARD_FOOD[card], 0) + CARD_SYMBOLS[card]
    return found


def _hut_value(state: State, seat: int, h: int) -> float:
    symbols = _symbols_in_hand(state, seat)
    unfed = sum(1 for x in feeding.unfed_huts(state, seat) if HEX_FOOD[x] == HEX_FOOD[h])
    food = 3.0 if symbols.get(HEX_FOOD[h], 0) > unfed else 0.0
    own = sum(1 for m in BOARDS[state.n].neighbours[h] if state.hut_seats[m] == seat)
    if IS_RIVER[h]:
        last_turn = state.turn == REIGN_TURNS[state.reign - 1][-1]
        place = 1.5 if state.players[seat].camels < CAMEL_CAP - 3 and not last_turn else 0.0
    else:
        place = 2.0 if HEX_REGION[h] == INSIDE else 1.0
    return food + place + 0.5 * own


def _feed_choice(state: State, seat: int, legal: list[act.Action]) -> act.Action:
    if state.feeding_symbols:
        return legal[0]
    unfed = feeding.unfed_huts(state, seat)
    best, best_key = legal[-1], (0, 0.0)
    for action in legal:
        if action.kind == act.PLAY_CARD and action.a != WILD_CARD:
            fed = min(CARD_SYMBOLS[action.a], sum(1 for h in unfed if HEX_FOOD[h] == CARD_FOOD[action.a]))
            key = (fed, -CARD_SYMBOLS[action.a] + 0.5)
        elif action.kind == act.PLAY_CARD:
            key = (1, -1.0)
        elif action.kind == act.PLAY_PLOW:
            key = (1, -2.0)
        else:
            continue
        if key > best_key:
            best, best_key = action, key
    return best


def heuristic_action(state: State, seat: int, rng: Rng) -> act.Action:
    """A good legal action for `seat` from public facts only."""
    legal = engine.legal_actions(state, seat)
    step = state.step
    if step == DRAFT:
        return max(legal, key=lambda a: _card_value(a.a))
    if step == HARVEST:
        rows = (state.sowing_row_1, state.sowing_row_2)
        return max(legal, key=lambda a: sum(_card_value(row[a.a]) for row in rows if row[a.a]) - 0.3 * a.a)
    if step == PLACE_HUTS:
        return max(legal, key=lambda a: _hut_value(state, seat, a.a))
    if step == FEED:
        return _feed_choice(state, seat, legal)
    if step == ACTIONS:
        for kind, argument in ACTION_PRIORITY:
            for action in legal:
                if action.kind == kind and argument in (None, action.a):
                    return action
        return act.END_ACTIONS_ACTION
    return legal[0]  # start spaces, wells (build the first)


def reshuffled(state: State, rng: Rng, *, forget_order: bool) -> State:
    """A copy with both decks shuffled and a fresh RNG key, all drawn from `rng`; with `forget_order`
    each deck is sorted first, so the result does not depend on the true order."""
    world = state.copy()
    for deck in (world.food_deck, world.expansion_deck):
        if forget_order:
            deck.sort()
        rng.shuffle(deck)
    world.rng = Rng(rng.next64(), rng.next64())
    world.legal = None
    return world


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A copy with the deck orders and the RNG resampled."""
    return reshuffled(state, rng, forget_order=True)


def disturb_hidden(state: State, seat: int | None, rng: Rng) -> State:
    """A copy differing only in what nobody may see: the deck orders and the RNG."""
    return reshuffled(state, rng, forget_order=False)

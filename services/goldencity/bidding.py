"""The bidding (§4.3, rulings 3-4): a free pair costs nothing; an occupied pair costs D + 1 coins to
the bank (OP-27) and raises D for everyone this round. The displaced bidder bids again at once
(OP-1 `immediate`) or when their turn comes round (`next_turn`)."""

from __future__ import annotations

from typing import Final

from services.goldencity import events as ev
from services.goldencity.actions import BID, Action
from services.goldencity.rules import NOBODY, REBID_IMMEDIATE
from services.goldencity.state import BUILD, State

BID_ACTIONS: Final = tuple(Action(BID, i) for i in range(8))


def price(state: State) -> int:
    """What displacing a bid hand costs now."""
    return state.displacement + 1


def legal(state: State) -> list[Action]:
    """Every free pair, and every occupied one if the actor can pay the price."""
    can_displace = state.players[state.actor].coins >= price(state)
    return [BID_ACTIONS[i] for i, pair in enumerate(state.pairs) if pair.bid_seat == NOBODY or can_displace]


def _next_unplaced(state: State, after: int) -> int:
    seat = state.next_seat(after)
    while state.placed(seat):
        seat = state.next_seat(seat)
    return seat


def play(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Put the actor's hand on the pair, displacing and paying if it is occupied."""
    seat = state.actor
    pair = state.pairs[action.a]
    displaced = pair.bid_seat
    paid = 0
    if displaced != NOBODY:
        paid = price(state)
        state.players[seat].coins -= paid
        state.displacement += 1
    pair.bid_seat = seat
    events.append(ev.BidPlaced(seat, action.a, paid, displaced))
    immediate = state.config.rebid == REBID_IMMEDIATE
    if displaced != NOBODY and immediate:
        state.actor = displaced
        return
    if all(p.bid_seat != NOBODY for p in state.pairs):
        _end_bidding(state, events)
        return
    state.actor = _next_unplaced(state, state.bid_cursor if immediate else seat)
    state.bid_cursor = state.actor


def _end_bidding(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Every player takes the cards of their pair; building starts with the start player."""
    for pair in sorted(state.pairs, key=lambda p: (p.bid_seat - state.start_player) % state.n):
        state.players[pair.bid_seat].hand.cards.extend(pair.cards)
        events.append(ev.PairTaken(pair.bid_seat, tuple(pair.cards)))
    state.pairs = []
    state.step = BUILD
    state.actor = state.start_player
    state.builds = 0

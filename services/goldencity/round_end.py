"""The end of a round (§4.5-4.6, §8): score the card, discard down to the hand limit (OP-8, the owner
choosing one card at a time), check the end of the game, pass the start-player key, start the next
round. At the end the bonus cards are scored (§6.3)."""

from __future__ import annotations

from services.goldencity import events as ev
from services.goldencity import round_start, scoring
from services.goldencity.actions import DISCARD, Action, action
from services.goldencity.rules import HAND_LIMIT
from services.goldencity.state import DISCARD as STEP_DISCARD
from services.goldencity.state import GAME_OVER, State


def game_ends(state: State) -> bool:
    """Whether this round is the last: a player built their last coloured house, or no scoring
    card is left (§8.1)."""
    return state.last_round or not state.scoring_stack


def after_building(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Score the round's card, then the hand limit (skipped when the game ends: it changes nothing)."""
    scoring.score_card(state, events)
    if game_ends(state):
        _end_game(state, events)
        return
    _next_discarder(state, state.start_player, events)


def _over_limit(state: State, seat: int) -> bool:
    return len(state.players[seat].hand.cards) > HAND_LIMIT


def _next_discarder(state: State, seat: int, events: list) -> None:  # type: ignore[type-arg]
    """Hand the discard step to the first seat from `seat` on (in turn order, before the start
    player comes round again) that holds too many cards, or end the round."""
    start = state.start_player
    while True:
        if _over_limit(state, seat):
            state.actor = seat
            state.step = STEP_DISCARD
            return
        seat = state.next_seat(seat)
        if seat == start:
            break
    _next_round(state, events)


def legal_discard(state: State) -> list[Action]:
    """One card of each landscape the actor holds."""
    return [action(DISCARD, kind) for kind in sorted(set(state.players[state.actor].hand.cards))]


def play_discard(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Discard the card; the next seat over the limit discards once this one is down to it."""
    seat = state.actor
    state.players[seat].hand.cards.remove(action.a)
    state.landscape_discard.append(action.a)
    events.append(ev.CardDiscarded(seat, action.a))
    if _over_limit(state, seat):
        return
    following = state.next_seat(seat)
    if following == state.start_player:
        _next_round(state, events)
    else:
        _next_discarder(state, following, events)


def _next_round(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Pass the start-player key clockwise and start the next round."""
    state.start_player = state.next_seat(state.start_player)
    round_start.start_round(state, events)


def _end_game(state: State, events: list) -> None:  # type: ignore[type-arg]
    scoring.score_bonus_cards(state)
    state.step = GAME_OVER
    state.actor = 0
    events.append(scoring.game_ended(state))

"""Concrete Golden City states for the scenario tests: a real game set up on a data set, then edited
(hands, houses, the step) as a scenario says, every card still accounted for so that the codec's
consistency check accepts it (`checked`)."""

from __future__ import annotations

from services.goldencity import engine
from services.goldencity import events as ev
from services.goldencity.actions import BUILD, END_BUILDING_ACTION, PAY_CARD, PAY_PAIR, Action
from services.goldencity.codec import CODEC
from services.goldencity.rules import NO_PLACE
from services.goldencity.setup import new_game
from services.goldencity.state import BUILD as STEP_BUILD
from services.goldencity.state import Config, State
from services.goldencity.vocabulary import Landscape

COAST, MEADOW, FOREST, DESERT, MOUNTAINS = (int(kind) for kind in Landscape)
A, B, C, D = 0, 1, 2, 3


def game(players: int = 3, data_set: str = "v0", seed: bytes = b"scenario", **options: int | bool) -> State:
    """A new game with seat 0 as the start player."""
    options.setdefault("start_seat", 0)
    state, _ = new_game(players, Config(data_set=data_set, **options), seed)  # type: ignore[arg-type]
    return state


def checked(state: State) -> State:
    """The state after a trip through its State message: the codec accepts it as consistent."""
    return CODEC.state_from_proto(CODEC.state_to_proto(state))


def place(state: State, name: str) -> int:
    """A place's id by the data set's name for it."""
    return state.tables.data.board.place(name).id


def set_hand(state: State, seat: int, cards: list[int]) -> None:
    """Give `seat` exactly these landscape cards, the old hand back to the deck and the new one taken
    from the deck (or the discard pile)."""
    hand = state.players[seat].hand.cards
    state.landscape_deck.extend(hand)
    hand.clear()
    for card in cards:
        source = state.landscape_deck if card in state.landscape_deck else state.landscape_discard
        source.remove(card)
        hand.append(card)


def put_house(state: State, seat: int, name: str, black: bool = False) -> int:
    """Stand a house of `seat` on a place, as if built earlier (no cost, no bonus)."""
    where = place(state, name)
    player = state.players[seat]
    if black:
        player.black_houses.append(where)
        player.black_houses_left -= 1
    else:
        player.houses.append(where)
        player.houses_left -= 1
    return where


def to_building(state: State, seat: int = A) -> State:
    """Skip the bidding: the pairs go back into the deck and `seat` builds now."""
    for pair in state.pairs:
        state.landscape_deck.extend(pair.cards)
    state.pairs = []
    state.step = STEP_BUILD
    state.actor = seat
    state.builds = 0
    state.building_place = NO_PLACE
    state.legal = None
    return state


def build(state: State, name: str, black: bool = False) -> Action:
    """The BUILD action for a place by name."""
    return Action(BUILD, place(state, name), int(black))


def can_build(state: State, name: str, black: bool = False) -> bool:
    """Whether building there is among the actor's legal actions."""
    return build(state, name, black) in engine.legal_now(state)


def build_paying(state: State, name: str, black: bool = False) -> list[tuple]:  # type: ignore[type-arg]
    """Build on the place and pay with single cards first, then pairs; the events of it all."""
    events = engine.play(state, state.actor, build(state, name, black))
    while engine.legal_now(state) and engine.legal_now(state)[0].kind in (PAY_CARD, PAY_PAIR):
        events += engine.play(state, state.actor, engine.legal_now(state)[0])
    return events


def end_building(state: State) -> list[tuple]:  # type: ignore[type-arg]
    """The actor builds no more."""
    return engine.play(state, state.actor, END_BUILDING_ACTION)


def of_type(events: list[tuple], kind: type) -> list:  # type: ignore[type-arg]
    """The events of one kind."""
    return [e for e in events if isinstance(e, kind)]


__all__ = ["ev"]

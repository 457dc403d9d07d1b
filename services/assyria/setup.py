"""Setup (§3): turn order, plows, decks, turn 1's expansion card, start spaces and the initial draft."""

from __future__ import annotations

from typing import Final

from services.assyria import actions as act
from services.assyria import events as ev
from services.assyria import sowing, turns
from services.assyria.board import HEX_NUMBER
from services.assyria.cards import FOOD_DECK_CARDS
from services.assyria.data import (
    EXPANSION_CARDS,
    HUTS_PER_COLOUR,
    INITIAL_TURN_ORDER_RANDOM,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PLOW_CARDS,
    SETUP,
    START_SPACES,
    TURN_1_EXPANSION,
)
from services.assyria.state import DRAFT, START_SPACE, UNUSED_PLOWS_STACK, Config, State
from services.common.errors import InvalidConfig
from services.common.rng import Rng

START_HEXES: Final = {
    players: tuple(HEX_NUMBER[(s.q, s.r)] for s in spaces) for players, spaces in START_SPACES.items()
}


def check_config(player_count: int, config: Config) -> None:
    """Raise InvalidConfig unless the player count is supported."""
    if not MIN_PLAYERS <= player_count <= MAX_PLAYERS:
        raise InvalidConfig(
            f"Assyria is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {player_count}",
            player_count=str(player_count),
        )


def new_game(player_count: int, config: Config, seed: bytes) -> tuple[State, list]:  # type: ignore[type-arg]
    """The initial state: the first seat in turn order chooses a start space."""
    check_config(player_count, config)
    n = player_count
    state = State(config, n, Rng.from_seed(seed))
    if INITIAL_TURN_ORDER_RANDOM:  # OP-8
        state.rng.shuffle(state.turn_order)
    for player in state.players:
        player.huts = HUTS_PER_COLOUR
        player.plow = config.start_plow  # OP-18
    held = n if config.start_plow else 0
    state.plow_stack = PLOW_CARDS - held if config.unused_plows == UNUSED_PLOWS_STACK else 0
    state.food_deck = list(FOOD_DECK_CARDS)
    state.rng.shuffle(state.food_deck)
    deck = list(EXPANSION_CARDS)
    deck.remove(TURN_1_EXPANSION)
    state.rng.shuffle(deck)
    state.expansion_deck = deck
    state.expansion_card = TURN_1_EXPANSION
    state.assur_cards = [TURN_1_EXPANSION]
    state.wells_supply = SETUP[n].wells
    turns.start(state, START_SPACE)
    return state, [ev.GameStarted(tuple(state.turn_order))]


def legal_start_space(state: State) -> list[act.Action]:
    """The free start spaces of this player count."""
    return [
        act.action(act.CHOOSE_START_SPACE, h)
        for h in sorted(START_HEXES[state.n])
        if state.ziggurat_seats[h] < 0
    ]


def play_start_space(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """A ziggurat base on the start space; after the last seat, the initial draft."""
    state.ziggurat_seats[action.a] = state.actor
    state.ziggurat_heights[action.a] = 1
    events.append(ev.StartSpaceChosen(state.actor, action.a))
    if not turns.advance(state):
        state.draft_cards = [sowing.draw(state, events) for _ in range(SETUP[state.n].draft_cards)]
        turns.start(state, DRAFT, backwards=True)


def legal_draft(state: State) -> list[act.Action]:
    """Each kind of card still on display."""
    return [act.action(act.DRAFT_CARD, card) for card in sorted(set(state.draft_cards))]


def play_draft(state: State, action: act.Action, events: list) -> None:  # type: ignore[type-arg]
    """The card goes to the hand; the draft goes from the last seat in turn order to the first."""
    state.draft_cards.remove(action.a)
    state.players[state.actor].hand.append(action.a)
    events.append(ev.CardDrafted(state.actor, action.a))
    if not turns.advance(state, backwards=True):
        sowing.sow(state, events)

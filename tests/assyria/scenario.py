"""Concrete Assyria positions for scenario tests: an empty table at a given reign and turn, and pieces
put on hexes named by their (q, r) coordinates, as the rules name them."""

from __future__ import annotations

from services.assyria.board import HEX_NUMBER
from services.assyria.cards import FOOD_DECK_CARDS
from services.assyria.data import HUTS_PER_COLOUR, SETUP
from services.assyria.state import Config, State
from services.common.rng import Rng


def at(q: int, r: int) -> int:
    """The hex number of (q, r)."""
    return HEX_NUMBER[(q, r)]


def table(n: int = 2, *, reign: int = 1, turn: int = 1, config: Config | None = None) -> State:
    """An empty table: every hut in stock, no plows, the full food deck, turn order by seat."""
    state = State(config or Config(), n, Rng.from_seed(b"scenario"))
    for player in state.players:
        player.huts = HUTS_PER_COLOUR
    state.reign, state.turn = reign, turn
    state.expansion_card = 4
    state.food_deck = list(FOOD_DECK_CARDS)
    state.expansion_deck = [3, 3, 2, 2, 4, 4, 3, 3]
    state.wells_supply = SETUP[n].wells
    return state


def hut(state: State, seat: int, q: int, r: int, *, fed: bool = False) -> int:
    """A hut of `seat` from its stock on (q, r); its hex number."""
    h = at(q, r)
    state.hut_seats[h] = seat
    state.fed[h] = fed
    state.players[seat].huts -= 1
    return h


def ziggurat(state: State, seat: int, q: int, r: int, height: int = 1) -> int:
    """A ziggurat of `seat` with `height` pieces on (q, r); its hex number."""
    h = at(q, r)
    state.ziggurat_seats[h] = seat
    state.ziggurat_heights[h] = height
    return h


def expanding(state: State, seat: int) -> State:
    """`seat` is the one acting in the expansion phase (first in turn order)."""
    state.turn_order = [seat, *(s for s in range(state.n) if s != seat)]
    state.order_position = 0
    state.actor = seat
    return state

"""The consistency of a native state: what a state must satisfy to be one the rules can reach.

`validate` runs on every state a rules call decodes, so that a forged or damaged state is refused as
MalformedRequest before the engine sees it (every hut, card, well and plow accounted for, the turn's
progress fitting its step); what the decoding itself guarantees (declared enum values, the deck
sizes the table claims) is the codec's.
"""

from __future__ import annotations

from collections import Counter
from itertools import compress
from typing import Final

from services.assyria.board import BOARDS, HEX_COUNT
from services.assyria.cards import CARD_KINDS, FOOD_DECK_CARDS, NO_CARD
from services.assyria.data import (
    CAMEL_CAP,
    DIGNITARY_SPACES,
    EXPANSION_CARDS,
    HUTS_PER_COLOUR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFERINGS_MAX,
    PLOW_CARDS,
    REIGN_TURNS,
    SETUP,
    TURN_1_EXPANSION,
    TURNS,
    ZIGGURAT_PIECES_PER_COLOUR,
    Food,
    ZigguratPiece,
)
from services.assyria.engine import legal_now
from services.assyria.state import (
    ACTIONS,
    FEED,
    GAME_OVER,
    HARVEST,
    NOBODY,
    PLACE_HUTS,
    START_SPACE,
    State,
)
from services.common.helpers import check_state

SORTED_FOOD_DECK: Final = sorted(FOOD_DECK_CARDS)
OFF_BOARD: Final = {n: [not usable for usable in board.usable] for n, board in BOARDS.items()}  # per hex


def validate(state: State) -> State:
    """`state`, unless it is inconsistent: then MalformedRequest naming what is wrong."""
    check_state(MIN_PLAYERS <= state.n <= MAX_PLAYERS, "player count")
    check_state(len(state.players) == state.n, "one player record per seat")
    _check_turn(state)
    _check_board(state)
    _check_cards(state)
    _check_players(state)
    if state.step != GAME_OVER:
        # A forged position can be consistent yet offer nothing.
        check_state(bool(legal_now(state)), "the acting seat has no legal action")
    return state


def _seats(values: list[int], n: int, what: str, nobody: bool = False) -> None:
    low = NOBODY if nobody else 0
    check_state(not values or (min(values) >= low and max(values) < n), f"{what}: a seat out of range")


def _check_board(state: State) -> None:
    n, board = state.n, BOARDS[state.n]
    for name in ("hut_seats", "fed", "ziggurat_seats", "ziggurat_heights", "raised"):
        check_state(len(getattr(state, name)) == HEX_COUNT, f"{name}: one entry per hex")
    _seats(state.hut_seats, n, "hut_seats", nobody=True)
    _seats(state.ziggurat_seats, n, "ziggurat_seats", nobody=True)
    huts, zigs, heights = state.hut_seats, state.ziggurat_seats, state.ziggurat_heights
    has_zig = list(map(NOBODY.__ne__, zigs))  # per hex (C-level loops: this runs on every call)
    off_board = OFF_BOARD[n]
    check_state(
        set(compress(huts, off_board)) | set(compress(zigs, off_board)) <= {NOBODY},
        "a piece off this player count's board",
    )
    check_state(set(compress(zigs, map(NOBODY.__ne__, huts))) <= {NOBODY}, "a hut and a ziggurat on one hex")
    check_state(
        0 <= min(heights) <= max(heights) <= len(ZigguratPiece)
        and NOBODY not in compress(zigs, heights)
        and 0 not in compress(heights, has_zig),
        "a ziggurat's height",
    )
    check_state(NOBODY not in compress(huts, state.fed), "a fed hex without a hut")
    check_state(NOBODY not in compress(zigs, state.raised), "a raised hex without a ziggurat")
    for seat in range(n):
        check_state(
            state.ziggurat_seats.count(seat) <= ZIGGURAT_PIECES_PER_COLOUR[ZigguratPiece.BASE], "bases"
        )
    check_state(len(set(state.wells)) == len(state.wells), "a well built twice")
    check_state(all(w in board.sites for w in state.wells), "a well off the board's sites")
    check_state(state.wells_supply >= 0 and len(state.wells) + state.wells_supply == SETUP[n].wells, "wells")


def _check_cards(state: State) -> None:
    hands = [c for p in state.players for c in p.hand]
    rows = [c for c in (*state.sowing_row_1, *state.sowing_row_2) if c != NO_CARD]
    every = [*hands, *rows, *state.food_deck, *state.food_discard, *state.draft_cards]
    check_state(all(1 <= c <= CARD_KINDS for c in every), "a card of no kind")
    check_state(sorted(every) == SORTED_FOOD_DECK, "every food card exactly once")
    check_state(all(0 <= c <= CARD_KINDS for c in (*state.sowing_row_1, *state.sowing_row_2)), "sowing rows")
    in_turn = HARVEST <= state.step <= ACTIONS
    size = SETUP[state.n].sowing_row_cards if in_turn else 0
    check_state(
        len(state.sowing_row_1) == len(state.sowing_row_2) == len(state.column_seats) == size, "columns"
    )
    _seats(state.column_seats, state.n, "column_seats", nobody=True)
    taken = [s for s in state.column_seats if s != NOBODY]
    check_state(len(set(taken)) == len(taken), "a seat with two columns")
    if state.step > HARVEST and in_turn:
        check_state(sorted(taken) == list(range(state.n)), "every seat has a column after the harvest")
    for c, seat in enumerate(state.column_seats):
        check_state(
            seat == NOBODY or state.sowing_row_1[c] == state.sowing_row_2[c] == NO_CARD, "a taken column"
        )
    check_state(bool(state.draft_cards) == (state.step == 2), "draft cards outside the draft")


def _check_turn(state: State) -> None:
    n, step = state.n, state.step
    check_state(START_SPACE <= step <= GAME_OVER, "step")
    check_state(1 <= state.turn <= TURNS and 1 <= state.reign <= len(REIGN_TURNS), "turn and reign")
    check_state(state.turn in REIGN_TURNS[state.reign - 1], "the turn is not in the reign")
    check_state(sorted(state.turn_order) == list(range(n)), "turn order")
    check_state(0 <= state.order_position < n, "order position")
    if step != GAME_OVER:
        check_state(state.actor == state.turn_order[state.order_position], "the actor is not the one in turn")
    else:
        check_state(state.actor == 0 and state.turn == TURNS, "a finished game")
    revealed = 1 + state.turn - 1
    check_state(len(state.expansion_deck) == len(EXPANSION_CARDS) - revealed, "expansion cards left")
    rest = Counter(EXPANSION_CARDS) - Counter([TURN_1_EXPANSION])
    check_state(not Counter(state.expansion_deck) - rest, "expansion cards of no kind")
    first = REIGN_TURNS[state.reign - 1][0]
    bonus = 1 if SETUP[n].bonus_card and state.reign > 1 else 0
    check_state(len(state.assur_cards) == state.turn - first + 1 + bonus, "the reign's Assur row")
    check_state(state.expansion_card == state.assur_cards[-1], "the current expansion card")
    check_state(all(card in EXPANSION_CARDS for card in state.assur_cards), "an Assur card of no value")
    check_state((state.huts_to_place > 0) == (step == PLACE_HUTS), "huts to place")
    check_state(0 <= state.feeding_food <= Food.WILD and 0 <= state.feeding_symbols <= 3, "feeding")
    check_state((state.feeding_food > 0) == (state.feeding_symbols > 0), "feeding card")
    check_state(state.feeding_symbols == 0 or step == FEED, "feeding outside the feeding step")
    check_state(0 <= state.offered_this_turn <= 3, "offerings this turn")
    if step != ACTIONS:
        check_state(not (state.offered_this_turn or state.plow_bought or state.food_bought), "actions")


def _check_players(state: State) -> None:
    n = state.n
    for d, spaces in DIGNITARY_SPACES.items():
        at = state.assur(d)
        _seats(at, n, "Assur")
        check_state(len(at) <= spaces, "too many huts at a dignitary")
    for seat, player in enumerate(state.players):
        in_assur = sum(state.assur(d).count(seat) for d in (1, 2, 3))
        check_state(player.huts >= 0, "huts in stock")
        check_state(player.huts + state.hut_seats.count(seat) + in_assur == HUTS_PER_COLOUR, "huts")
        check_state(0 <= player.camels <= CAMEL_CAP, "camels")
        check_state(0 <= player.offerings <= OFFERINGS_MAX and player.score >= 0, "offerings or score")
    held = sum(p.plow for p in state.players)
    check_state(state.plow_stack >= 0 and held + state.plow_stack <= PLOW_CARDS, "plow cards")

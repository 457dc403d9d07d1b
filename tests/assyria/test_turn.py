"""The turn's sequence: setup (draft order, start plows, start spaces), the harvest and the new turn
order, the once-a-turn limits of the actions phase (OP-15, one plow, one leftover card), the leftover
column discarded (OP-10), the deck reshuffled (OP-12), and whole random games ending well."""

from __future__ import annotations

import os
import subprocess
import sys

from services.assyria import actions as act
from services.assyria import engine, farming, phase_actions, setup, sowing, ziggurats
from services.assyria import events as ev
from services.assyria.cards import FOOD_DECK_CARDS, NO_CARD, card_of
from services.assyria.data import HUTS_PER_COLOUR, PLOW_CARDS, Food
from services.assyria.state import ACTIONS, DRAFT, HARVEST, NOBODY, START_SPACE, Config
from services.common.compiled import PURE_ENV
from services.common.rng import Rng
from tests.assyria.scenario import at, hut, table, ziggurat


def test_setup_start_spaces_then_the_draft_from_the_last_seat_in_turn_order() -> None:
    state, events = setup.new_game(3, Config(), b"seed")
    assert state.step == START_SPACE and state.actor == state.turn_order[0]
    assert [p.plow for p in state.players] == [True] * 3 and state.plow_stack == PLOW_CARDS - 3
    assert state.expansion_card == 4 and state.assur_cards == [4] and len(state.expansion_deck) == 8
    assert sorted(a.a for a in engine.legal_now(state)) == sorted(at(*c) for c in ((1, 4), (4, -1), (6, 2)))
    while state.step == START_SPACE:
        engine.play(state, state.actor, engine.legal_now(state)[0])
    assert state.step in (DRAFT, HARVEST)
    drafted = [e.seat for e in [*events] if isinstance(e, ev.CardDrafted)]
    while state.step == DRAFT:
        seat = state.actor
        drafted.append(seat)
        events = engine.play(state, seat, engine.legal_now(state)[0])
        drafted += [e.seat for e in events if isinstance(e, ev.CardDrafted) and e.seat != seat]
    assert drafted == state.turn_order[::-1]
    assert [len(p.hand) for p in state.players] == [1, 1, 1]
    assert len(state.sowing_row_1) == len(state.sowing_row_2) == 4


def test_removed_plows_leave_the_stack_empty() -> None:
    state, _ = setup.new_game(2, Config(unused_plows=2), b"seed")
    assert state.plow_stack == 0
    state, _ = setup.new_game(2, Config(start_plow=False), b"seed")
    assert state.plow_stack == PLOW_CARDS and not state.players[0].plow


def test_harvest_in_turn_order_sets_the_new_turn_order_by_column() -> None:
    state = table(3)
    state.turn_order = [2, 0, 1]
    sowing.sow(state, [])
    assert state.actor == 2
    for column in (3, 0, 2):
        farming.play_harvest(state, act.Action(act.TAKE_COLUMN, column), [])
    assert state.turn_order == [0, 1, 2]  # seat 0 took column 0, seat 1 column 2, seat 2 column 3
    assert [len(p.hand) for p in state.players] == [2, 2, 2]


def actions_state():  # type: ignore[no-untyped-def]
    state = table(2)
    state.step = ACTIONS
    state.actor = 0
    state.players[0].camels = 10
    state.sowing_row_1 = [NO_CARD, card_of(Food.SALT, 1), NO_CARD]
    state.sowing_row_2 = [NO_CARD, card_of(Food.DATES, 3), NO_CARD]
    state.column_seats = [0, NOBODY, 1]
    state.plow_stack = 2
    return state


def test_a_ziggurat_gains_one_piece_a_turn_and_buys_are_once_a_turn() -> None:
    state = actions_state()
    h = hut(state, 0, 0, 0, fed=True)
    phase_actions.play(state, act.Action(act.BUILD_BASE, h), [])
    assert act.Action(act.RAISE_ZIGGURAT, h) not in phase_actions.legal(state)  # OP-15
    state.players[0].camels = 10
    phase_actions.play(state, act.BUY_PLOW_ACTION, [])
    assert act.BUY_PLOW_ACTION not in phase_actions.legal(state)
    phase_actions.play(state, act.Action(act.BUY_FOOD_CARD, 2), [])
    assert state.players[0].hand == [card_of(Food.DATES, 3)] and state.players[0].camels == 10 - 2 - 2
    assert not any(a.kind == act.BUY_FOOD_CARD for a in phase_actions.legal(state))
    for _ in range(3):
        phase_actions.play(state, act.MAKE_OFFERING_ACTION, [])
    assert act.MAKE_OFFERING_ACTION not in phase_actions.legal(state) and state.players[0].offerings == 3


def test_raising_goes_base_centre_roof() -> None:
    state = actions_state()
    h = ziggurat(state, 0, 1, 0)
    ziggurats.play(state, act.Action(act.RAISE_ZIGGURAT, h), [])
    assert state.ziggurat_heights[h] == 2 and state.players[0].camels == 7
    state.raised[h] = False
    ziggurats.play(state, act.Action(act.RAISE_ZIGGURAT, h), [])
    assert state.ziggurat_heights[h] == 3 and state.players[0].camels == 5
    state.raised[h] = False
    assert act.Action(act.RAISE_ZIGGURAT, h) not in phase_actions.legal(state)


def test_the_unclaimed_column_is_discarded_at_the_end_of_the_turn() -> None:
    state = actions_state()
    state.actor, state.order_position, state.turn_order = 1, 1, [0, 1]
    phase_actions.play(state, act.END_ACTIONS_ACTION, [])
    assert state.food_discard == [card_of(Food.SALT, 1), card_of(Food.DATES, 3)]
    assert state.turn == 2 and state.step == HARVEST


def test_an_empty_deck_is_the_discards_shuffled() -> None:
    state = table(2)
    state.food_deck = [card_of(Food.SALT, 1)] * 2
    state.food_discard = [card_of(Food.DATES, 1)] * 3
    events: list = []  # type: ignore[type-arg]
    sowing.sow(state, events)
    assert ev.FoodDeckReshuffled(3) in events
    assert (
        sorted(state.sowing_row_1 + state.sowing_row_2)
        == [NO_CARD] + [card_of(Food.SALT, 1)] * 2 + [card_of(Food.DATES, 1)] * 3
    )


def test_random_games_end_after_eight_turns_with_every_piece_accounted_for() -> None:
    for n in (2, 3, 4):
        for seed in range(5):
            state, events = setup.new_game(n, Config(), bytes([seed]))
            engine.settle(state, events)
            rng = Rng.from_seed(bytes([n, seed]))
            while not state.terminal:
                legal = engine.legal_now(state)
                events += engine.play(state, state.actor, legal[rng.below(len(legal))])
                for seat, player in enumerate(state.players):
                    on_board = state.hut_seats.count(seat)
                    in_assur = sum(state.assur(d).count(seat) for d in (1, 2, 3))
                    assert player.huts + on_board + in_assur == HUTS_PER_COLOUR
                    assert 0 <= player.camels <= 10
            assert state.turn == 8 and state.reign == 3
            assert sum(isinstance(e, ev.FloodCame) for e in events) == 3
            cards = [c for p in state.players for c in p.hand] + state.food_deck + state.food_discard
            assert sorted(cards) == sorted(FOOD_DECK_CARDS)


def test_the_deal_alternates_rows_when_not_row_by_row(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    state = table(2)
    drawn = [card_of(Food.SALT, 1), card_of(Food.DATES, 2), card_of(Food.SALT, 2)] * 2
    state.food_deck = drawn[::-1]
    monkeypatch.setattr(sowing, "SOWING_ROW_BY_ROW", False)
    sowing.sow(state, [])
    assert state.sowing_row_1 == [card_of(Food.SALT, 1), card_of(Food.SALT, 2), card_of(Food.DATES, 2)]
    assert state.sowing_row_2 == [card_of(Food.SALT, 1), card_of(Food.DATES, 2), card_of(Food.SALT, 2)]


def test_the_engine_refuses_an_open_point_it_implements_only_at_its_default() -> None:
    """The engine's check as its source runs (a changed data.py runs from source, not compiled: see
    services.common.compiled), in a process of its own that reloads it with another default."""
    script = (
        "import importlib\n"
        "from services.assyria import data, engine\n"
        "data.EXPANSION_MODE = 'per_step'\n"
        "importlib.reload(engine)\n"
    )
    pure = {**os.environ, PURE_ENV: "1"}
    run = subprocess.run([sys.executable, "-c", script], env=pure, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip().endswith(
        "ImportError: Assyria's engine implements only the DEFAULT of EXPANSION_MODE"
    ), run.stderr

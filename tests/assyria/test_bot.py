"""Assyria's bot knowledge: the heuristic beats random play, and a determinization keeps everything a
seat sees and the decks' contents, resampling only their order and the RNG."""

from __future__ import annotations

from collections import Counter

from services.assyria import GAME, bot
from services.common.playout import random_playout
from services.common.rng import Rng


def test_the_heuristic_beats_random_play_in_two_player_games() -> None:
    wins = 0
    for game_number in range(40):
        heuristic_seat = game_number % 2
        state, _ = GAME.new_game(2, GAME.config_from_proto(GAME.messages.config()), bytes([game_number]))
        rng = Rng.from_seed(bytes([game_number, 1]))
        while not GAME.is_terminal(state):
            seat = GAME.acting_seats(state)[0]
            if seat == heuristic_seat:
                action = bot.heuristic_action(state, seat, rng)
            else:
                legal = GAME.legal_actions(state, seat)
                action = legal[rng.below(len(legal))]
            GAME.play(state, seat, action)
        wins += heuristic_seat in GAME.scores(state).winners
    assert wins >= 38


def test_a_determinization_resamples_only_the_deck_orders_and_the_rng() -> None:
    state = random_playout(GAME, 4, b"determinize", rng=Rng.from_seed(b"d"), max_steps=60).state
    world = bot.determinize(state, 1, Rng.from_seed(b"w"))
    for seat in (0, 1, 2, 3, None):
        assert GAME.view_to_proto(world, seat) == GAME.view_to_proto(state, seat)
    assert Counter(world.food_deck) == Counter(state.food_deck)
    assert Counter(world.expansion_deck) == Counter(state.expansion_deck)
    assert (world.rng.key, world.rng.counter) != (state.rng.key, state.rng.counter)
    other = state.copy()
    other.food_deck.reverse()
    other.expansion_deck.reverse()
    assert bot.determinize(other, 1, Rng.from_seed(b"w")).food_deck == world.food_deck
    assert len(state.food_deck) > 10 and world.food_deck != state.food_deck

"""The bots' knowledge: the determinization resamples exactly what a seat's view hides, and the greedy
policy beats random play."""

from __future__ import annotations

from services.common.rng import Rng
from services.goldencity import GAME, bot, engine
from services.goldencity.codec import CODEC
from services.goldencity.state import Config, State
from tests.goldencity.scenario import game


def _midgame(seed: bytes, decisions: int = 60) -> State:
    state = game(3, seed=seed)
    rng = Rng.from_seed(seed)
    for _ in range(decisions):
        legal = engine.legal_now(state)
        engine.play(state, state.actor, legal[rng.below(len(legal))])
    return state


def test_determinize_keeps_the_view_and_resamples_the_hidden() -> None:
    state = _midgame(b"determinize")
    rng = Rng.from_seed(b"worlds")
    others = set()
    for _ in range(20):
        world = bot.determinize(state, 0, rng)
        assert CODEC.view_to_proto(world, 0) == CODEC.view_to_proto(state, 0)
        others.add((tuple(sorted(world.players[1].hand.cards)), tuple(world.landscape_deck)))
        CODEC.state_from_proto(CODEC.state_to_proto(world))  # a consistent state
    assert len(others) > 1
    assert CODEC.view_to_proto(state, 0) == CODEC.view_to_proto(_midgame(b"determinize"), 0)  # untouched


def test_the_heuristic_beats_random_play() -> None:
    wins = 0
    for number in range(6):
        state, _ = GAME.new_game(3, Config(data_set="v0"), b"duel%d" % number)
        rng = Rng.from_seed(b"duel%d" % number)
        smart = number % 3
        while not state.terminal:
            seat = state.actor
            legal = engine.legal_now(state)
            action = bot.heuristic_action(state, seat, rng) if seat == smart else legal[rng.below(len(legal))]
            engine.play(state, seat, action)
        wins += GAME.scores(state).winners == (smart,)
    assert wins >= 5

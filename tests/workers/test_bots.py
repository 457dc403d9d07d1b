"""Bots in-process: legal choices at every strength, decisions that ignore hidden information, and the
determinization of what a seat cannot see."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from services.common import registry
from services.common.game import Game
from services.common.playout import random_playout
from services.common.rng import Rng
from workers.bots import HEURISTIC, RANDOM, SEARCH, STRENGTHS, Budget, choose_action
from workers.bots.heuristic import one_ply_action
from workers.bots.knowledge import determinize
from workers.selfplay import play
from workers.simulate import win_share

TITLES = sorted(registry.games())
BUDGET = Budget(seconds=0, iterations=40, rollout_depth=30)  # iterations only: deterministic


def positions(game: Game, count: int) -> list[Any]:
    """Mid-game states of seeded random games, at several depths and player counts."""
    found = []
    for index in range(count):
        players = game.info.player_counts[index % len(game.info.player_counts)]
        depth = 5 + 37 * index
        playout = random_playout(game, players, b"bots-%d" % index, rng=Rng(index), max_steps=depth)
        if not playout.terminal:
            found.append(playout.state)
    return found


def invariant_strengths(game: Game) -> tuple[str, ...]:
    """Strengths whose choices must ignore hidden data: all of them when the game can determinize."""
    if game.determinize is not None or not game.info.has_hidden_information:
        return STRENGTHS
    return (RANDOM,)


@pytest.mark.parametrize("title", TITLES)
@pytest.mark.parametrize("strength", STRENGTHS)
def test_every_strength_chooses_a_legal_action(title: str, strength: str) -> None:
    game = registry.get(title)
    for state in positions(game, 6):
        seat = game.acting_seats(state)[0]
        action = choose_action(game, state, seat, strength, Rng(7), BUDGET)
        assert action in game.legal_actions(state, seat)


@pytest.mark.parametrize("title", TITLES)
def test_decisions_do_not_change_with_hidden_information(title: str) -> None:
    game = registry.get(title)
    strengths = invariant_strengths(game)
    checked = 0
    for index, state in enumerate(positions(game, 8)):
        seat = game.acting_seats(state)[0]
        for strength in strengths:
            mine = choose_action(game, state, seat, strength, Rng(100 + index), BUDGET)
            for disturbance in range(3):
                other = game.disturb_hidden(state, seat, Rng(1000 * index + disturbance))
                assert choose_action(game, other, seat, strength, Rng(100 + index), BUDGET) == mine, strength
                checked += 1
    assert checked > 0


@pytest.mark.parametrize("title", [t for t in TITLES if registry.get(t).determinize is not None])
def test_determinization_depends_only_on_the_seat_view(title: str) -> None:
    game = registry.get(title)
    for index, state in enumerate(positions(game, 8)):
        for seat in range(len(game.scores(state).seats)):
            world = determinize(game, state, seat, Rng(index))
            assert game.view_to_proto(world, seat) == game.view_to_proto(state, seat)
            other = game.disturb_hidden(state, seat, Rng(50 + index))
            again = determinize(game, other, seat, Rng(index))
            assert game.state_to_proto(again) == game.state_to_proto(world)


@pytest.mark.parametrize("title", TITLES)
def test_generic_one_ply_policy_plays_legal_moves(title: str) -> None:
    game = registry.get(title)
    for state in positions(game, 4):
        seat = game.acting_seats(state)[0]
        assert one_ply_action(game, state, seat, Rng(3)) in game.legal_actions(state, seat)


@pytest.mark.parametrize("title", TITLES)
def test_heuristic_beats_random(title: str) -> None:
    game = registry.get(title)
    players = max(2, game.info.min_players)
    wins = 0.0
    games = 6
    for index in range(games):
        strengths = [RANDOM] * players
        strengths[index % players] = HEURISTIC
        summary = play(title, strengths, f"versus-{index}")
        assert summary.terminal
        wins += sum(win_share(summary, seat) for seat, s in enumerate(strengths) if s == HEURISTIC)
    assert wins >= games * 0.6, f"heuristic won {wins} of {games}"


def test_search_budget_counts_iterations() -> None:
    played = registry.get(TITLES[0])
    state = positions(played, 2)[-1]
    seat = played.acting_seats(state)[0]
    assert len(played.legal_actions(state, seat)) > 1, "a single legal action is played without searching"
    iterations = 0

    def counted(sample: Any) -> Any:
        def sampled(*args: Any) -> Any:
            nonlocal iterations
            iterations += 1
            return sample(*args)

        return None if sample is None else sampled

    # Each iteration samples one world (knowledge.determinize): one call of one of these.
    samplers = ("copy_state", "determinize", "disturb_hidden")
    game = dataclasses.replace(played, **{name: counted(getattr(played, name)) for name in samplers})
    first = choose_action(game, state, seat, SEARCH, Rng(5), BUDGET)
    assert iterations == BUDGET.iterations
    assert choose_action(game, state, seat, SEARCH, Rng(5), BUDGET) == first
    assert iterations == 2 * BUDGET.iterations

"""The training loop example: its policy offers only legal actions, and its update makes a won game's
choices likelier and a lost game's less likely."""

from __future__ import annotations

import numpy as np

from research.pettingzoo_env import TitleEnv
from research.reinforce import LinearPolicy, play, train, update
from services.common import registry

TITLE = min(registry.games(), key=lambda name: registry.get(name).info.max_game_length)
"""The title of the shortest games: a training loop's test plays many."""


def log_likelihood(policy: LinearPolicy, decisions: list[tuple[np.ndarray, np.ndarray, int]]) -> float:
    return float(sum(np.log(policy.probabilities(x, mask)[action]) for x, mask, action in decisions))


def test_only_legal_actions_are_offered() -> None:
    env = TitleEnv(TITLE)
    policy = LinearPolicy(
        np.random.default_rng(1).normal(size=(env.rules.actions.size, env.rules.encoder.size + 1))
    )
    _, decisions = play(env, policy, seat=0, seed=4, greedy=False)
    assert decisions
    for x, mask, action in decisions:
        p = policy.probabilities(x, mask)
        assert mask[action] == 1
        assert np.isclose(p.sum(), 1.0) and np.all(p[mask == 0] == 0)


def test_the_update_follows_the_return() -> None:
    env = TitleEnv(TITLE)
    for advantage in (1.0, -1.0):
        policy = LinearPolicy.zeros(env, seed=2)
        _, decisions = play(env, policy, seat=1, seed=8, greedy=False)
        before = log_likelihood(policy, decisions)
        update(policy, decisions, advantage)
        after = log_likelihood(policy, decisions)
        assert (after > before) if advantage > 0 else (after < before), (advantage, before, after)


def test_training_runs_seats_in_turn() -> None:
    env = TitleEnv(TITLE)
    policy = LinearPolicy.zeros(env, seed=3)
    returns = train(env, policy, episodes=6, first_seed=0)
    assert len(returns) == 6 and set(returns) <= {-1.0, 1.0}
    assert np.any(policy.weights != 0)

"""The AEC environment of every title passes PettingZoo's API test, in-process and over gRPC, and a
seed reproduces a game."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test

from research.pettingzoo_env import TitleEnv
from services.common import registry

TITLES = list(registry.games())


def play(env: TitleEnv, seed: int, steps: int) -> list[tuple[str, int, bytes]]:
    """The first `steps` moves of a game, the lowest legal index each time: (agent, action, observation)."""
    env.reset(seed=seed)
    trace = []
    for agent in env.agent_iter(max_iter=steps):
        observation, _, terminated, truncated, _ = env.last()
        action = None if terminated or truncated else int(np.flatnonzero(observation["action_mask"])[-1])
        trace.append((agent, -1 if action is None else action, observation["observation"].tobytes()))
        env.step(action)
    return trace


@pytest.mark.parametrize("title", TITLES)
def test_api(title: str) -> None:
    api_test(TitleEnv(title, players=registry.get(title).info.max_players), num_cycles=200)


def test_api_over_grpc(rules_address: tuple[str, str]) -> None:
    title, address = rules_address
    api_test(TitleEnv(title, players=3, rules_address=address), num_cycles=60)


def test_grpc_backend_plays_as_the_engine(rules_address: tuple[str, str]) -> None:
    title, address = rules_address
    local = play(TitleEnv(title, players=3), seed=11, steps=40)
    remote = play(TitleEnv(title, players=3, rules_address=address), seed=11, steps=40)
    assert local == remote


@pytest.mark.parametrize("title", TITLES)
def test_seed_reproduces_a_game(title: str) -> None:
    env = TitleEnv(title, players=2)
    assert play(env, seed=3, steps=60) == play(TitleEnv(title, players=2), seed=3, steps=60)
    assert play(env, seed=3, steps=60) != play(env, seed=4, steps=60)


@pytest.mark.parametrize("title", TITLES)
def test_same_length_for_every_player_count(title: str) -> None:
    info = registry.get(title).info
    sizes = set()
    for players in (info.min_players, info.max_players):
        env = TitleEnv(title, players=players)
        env.reset(seed=1)
        sizes.add(env.observe(env.agent_selection)["observation"].shape)
    assert len(sizes) == 1


def test_truncation_after_max_steps() -> None:
    env = TitleEnv(TITLES[0], players=2, max_steps=5)
    trace = play(env, seed=1, steps=50)
    assert [action >= 0 for _, action, _ in trace] == [True] * 5 + [False] * 2  # then each agent's last step
    assert env.agents == []

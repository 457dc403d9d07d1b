"""Games under options other than the defaults: every title's example configs in both environments,
in-process and over gRPC, and a bad option refused. What a title's own options put into play is that
title's test (tests/<title>/test_research_options.py)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from live.games import option_values
from research.openspiel_game import register
from research.pettingzoo_env import TitleEnv
from research.survey import survey
from services.common import registry

EXAMPLES = [
    pytest.param(title, name, {v.name: v.value for v in option_values(config)}, id=f"{title}-{name}")
    for title in registry.games()
    for name, config in registry.get(title).example_configs
]


def finish(env: TitleEnv, seed: int) -> int:
    """Play a whole game with seeded random legal choices; the number of decisions."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            decisions += 1
        env.step(action)
    return decisions


@pytest.mark.parametrize(("title", "name", "options"), EXAMPLES)
def test_api_under_each_example_config(title: str, name: str, options: dict[str, str]) -> None:
    env = TitleEnv(title, players=registry.get(title).info.max_players, options=options)
    assert env.rules.config.value, f"{name} packs no option"
    api_test(env, num_cycles=200)
    assert finish(env, seed=11) > 0


def test_a_bad_option_names_itself() -> None:
    title, _, options = EXAMPLES[0].values
    option = next(iter(options))
    with pytest.raises(ValueError, match="no option 'colour'"):
        TitleEnv(title, options={"colour": "red"})
    with pytest.raises(ValueError, match="must be one of"):
        TitleEnv(title, options={option: "all of them"})
    with pytest.raises(ValueError, match="name=choice"):
        pyspiel.load_game(register(title), {"options": option})


@pytest.mark.parametrize(("title", "name", "options"), EXAMPLES)
def test_openspiel_takes_options(title: str, name: str, options: dict[str, str]) -> None:
    packed = ",".join(f"{key}={value}" for key, value in options.items())
    game = pyspiel.load_game(
        register(title),
        {"players": min(3, registry.get(title).info.max_players), "seed": 2, "options": packed},
    )
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)
    assert game.num_distinct_actions() == survey(title).action_count


def test_options_over_grpc(rules_address: tuple[str, str]) -> None:
    title, address = rules_address
    for name, config in registry.get(title).example_configs:
        options = {v.name: v.value for v in option_values(config)}
        remote = TitleEnv(title, rules_address=address, options=options)
        local = TitleEnv(title, options=options)
        for env in (remote, local):
            env.reset(seed=3)
        assert (
            remote.rules.observation(remote.state, 0).tobytes()
            == local.rules.observation(local.state, 0).tobytes()
        ), name

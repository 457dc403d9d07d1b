"""Every title as an OpenSpiel game: OpenSpiel's random simulation test, clone and serialization
checks, seeded chance, and the gRPC backend."""

from __future__ import annotations

import pyspiel
import pytest

from research.openspiel_game import register, register_all
from services.common import registry

TITLES = list(registry.games())
register_all()


def moves(game: pyspiel.Game, steps: int) -> list[tuple[int, list[float]]]:
    """The first `steps` moves with the highest legal index: (action, the mover's observation)."""
    state = game.new_initial_state()
    trace = []
    while not state.is_terminal() and len(trace) < steps:
        action = state.legal_actions()[-1]
        trace.append((action, state.observation_tensor()))
        state.apply_action(action)
    return trace


@pytest.mark.parametrize("title", TITLES)
def test_random_simulation(title: str) -> None:
    game = pyspiel.load_game(register(title), {"players": 3, "seed": 5, "max_steps": 40})
    pyspiel.random_sim_test(game, num_sims=2, serialize=False, verbose=False)


@pytest.mark.parametrize("title", TITLES)
def test_clone_and_serialize(title: str) -> None:
    game = pyspiel.load_game(register(title), {"players": 2, "seed": 9})
    state = game.new_initial_state()
    for _ in range(10):
        clone = state.clone()
        state.apply_action(state.legal_actions()[0])
        assert clone.history() == state.history()[:-1]
    restored = game.deserialize_state(state.serialize())
    assert str(restored) == str(state)
    assert restored.observation_tensor(0) == state.observation_tensor(0)


@pytest.mark.parametrize("title", TITLES)
def test_seed_reproduces_the_chance(title: str) -> None:
    name = register(title)
    first = moves(pyspiel.load_game(name, {"players": 2, "seed": 1}), 30)
    assert moves(pyspiel.load_game(name, {"players": 2, "seed": 1}), 30) == first
    assert moves(pyspiel.load_game(name, {"players": 2, "seed": 2}), 30) != first


def test_a_whole_game_ends_with_returns() -> None:
    game = pyspiel.load_game(register(TITLES[0]), {"players": 2, "seed": 3})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sorted(state.returns()) in ([-1.0, 1.0], [1.0, 1.0])


def test_over_grpc(rules_address: tuple[str, str]) -> None:
    title, address = rules_address
    name = register(title)
    remote = pyspiel.load_game(name, {"players": 3, "seed": 4, "max_steps": 25, "rules_address": address})
    pyspiel.random_sim_test(remote, num_sims=1, serialize=False, verbose=False)
    local = pyspiel.load_game(name, {"players": 3, "seed": 4, "max_steps": 25})
    assert moves(remote, 25) == moves(local, 25)

"""Fixtures of the conformance suite: every registered game, every player count, two drivers.

Tests that take `case` run once per (game, player count); tests that take `game_name` once per
game; tests that take `kind` once in-process and once over gRPC against a real server on a real
port. Servers, channels and traced playouts are shared by the whole session.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services.common import registry
from services.common.game import Game
from tests.conformance.drivers import Case, Driver, GrpcDriver, InProcessDriver, Pool

KINDS = ("inprocess", "grpc")


def all_cases() -> list[Case]:
    """Every registered game at every player count it supports, with its defaults and example configs."""
    return [
        Case(name, players, config)
        for name, game in registry.games().items()
        for config in ("", *(config_name for config_name, _ in game.example_configs))
        for players in game.info.player_counts
    ]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise over registered games, their player counts and the two drivers."""
    if "case" in metafunc.fixturenames:
        metafunc.parametrize("case", all_cases(), ids=str)
    elif "game_name" in metafunc.fixturenames:
        metafunc.parametrize("game_name", list(registry.games()))
    if "kind" in metafunc.fixturenames:
        metafunc.parametrize("kind", KINDS)


@pytest.fixture(scope="session")
def pool() -> Iterator[Pool]:
    """The session's servers, drivers and traces; servers stop when the session ends."""
    shared = Pool()
    yield shared
    shared.close()


@pytest.fixture
def game_of(request: pytest.FixtureRequest) -> str:
    """The name of the game the test runs on, from `case` or `game_name`."""
    if "case" in request.fixturenames:
        case: Case = request.getfixturevalue("case")
        return case.game
    name: str = request.getfixturevalue("game_name")
    return name


@pytest.fixture
def game(game_of: str) -> Game:
    """The registered game the test runs on."""
    return registry.get(game_of)


@pytest.fixture
def driver(pool: Pool, kind: str, game_of: str) -> Driver:
    """The driver of `kind` for the test's game."""
    return pool.driver(kind, game_of)


@pytest.fixture
def engine_driver(pool: Pool, game_of: str) -> InProcessDriver:
    """The in-process driver for the test's game, for engine-only checks."""
    found = pool.driver("inprocess", game_of)
    assert isinstance(found, InProcessDriver)
    return found


@pytest.fixture
def grpc_driver(pool: Pool, game_of: str) -> GrpcDriver:
    """The gRPC driver for the test's game, for wire-only checks."""
    found = pool.driver("grpc", game_of)
    assert isinstance(found, GrpcDriver)
    return found

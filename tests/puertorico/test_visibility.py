"""The hidden-information check on a Puerto Rico position random playouts never reach: a plantation
drawn with the hacienda and not yet placed (forest house), which only its drawer sees (ruling 30).

The conformance suite's check (tests/conformance/visibility.py) reads who may see the drawn tile
from the State's `visibility` declaration (owner: the acting seat); here it runs on that position,
and must fail once the tile is shown to every seat.
"""

from __future__ import annotations

from typing import Any

import pytest
from google.protobuf.message import Message

from services.common import registry
from services.common.game import Game
from services.common.rng import Rng
from services.puertorico.actions import HACIENDA_ACTION
from services.puertorico.data import FOREST_HOUSE, HACIENDA, INDIGO, SETTLER, TOBACCO
from services.puertorico.state import HACIENDA_PLACE, State
from tests.conformance.drivers import InProcessDriver
from tests.conformance.visibility import Coverage, check_views
from tests.conformance.visibility import leaking as leaking_game
from tests.puertorico.scenario import choose_role, expansion_game, play, set_player

GAME = registry.get("puertorico")
HACIENDA_TILE = "boardgame.puertorico.v1.State.hacienda_tile"


def drawn_tile_position() -> State:
    """Seat 0 has drawn a tobacco plantation with the hacienda and must place it (STEP_HACIENDA_PLACE)."""
    state = expansion_game()
    state.plantation_stack = [INDIGO, TOBACCO]
    set_player(state, 0, buildings={HACIENDA: 1, FOREST_HOUSE: 1})
    choose_role(state, 0, SETTLER)
    play(state, 0, HACIENDA_ACTION)
    assert state.step == HACIENDA_PLACE
    return state


def check(state: State, game: Game = GAME) -> Coverage:
    """The conformance check on one state, in-process; returns what it exercised."""
    coverage = Coverage()
    driver = InProcessDriver(game)
    check_views(driver, driver, game, [("the drawn tile", state)], Rng(1), 8, coverage)
    return coverage


def test_the_drawn_tile_is_checked_as_its_drawers_alone() -> None:
    """The check changes the drawn tile, and the real views keep it to the drawer."""
    assert HACIENDA_TILE in check(drawn_tile_position()).checked


def test_a_view_showing_the_drawn_tile_to_everyone_is_caught() -> None:
    """A view that shows the drawn tile to every seat and spectator fails the check."""
    original = GAME.view_to_proto

    def leaking(state: Any, seat: int | None) -> Message:
        view = original(state, seat)
        view.hacienda_tile = state.hacienda_tile + 1
        return view

    with pytest.raises(AssertionError, match="hacienda_tile"):
        check(drawn_tile_position(), leaking_game(GAME, leaking))

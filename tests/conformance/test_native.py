"""The tools of tests/conformance/native.py do what the conformance suite relies on, on every game's
real states: a frozen copy refuses every kind of change yet plays like the original, and `structure`
tells states apart by any attribute."""

from __future__ import annotations

from typing import Any

import pytest

from services.common.game import Game
from services.common.playout import random_playout
from services.common.rng import Rng
from tests.conformance.drivers import serialize
from tests.conformance.native import (
    COMPILED_ATTRIBUTES,
    MEMO_FIELDS,
    StateChanged,
    compiled,
    frozen_copy,
    structure,
)


def a_state(game: Game) -> Any:
    """A state some way into a random game at the most seats."""
    playout = random_playout(
        game, game.info.max_players, b"native-tools", rng=Rng.from_seed(b"native-tools"), max_steps=40
    )
    return playout.state


def attributes(state: Any) -> dict[str, Any]:
    """The state's attributes that hold a value (not the memo)."""
    names = [
        name
        for cls in type(state).__mro__
        for name in cls.__dict__.get("__slots__", ()) or cls.__dict__.get(COMPILED_ATTRIBUTES, ())
    ]
    names += list(getattr(state, "__dict__", {}))
    return {name: getattr(state, name) for name in names if hasattr(state, name) and name not in MEMO_FIELDS}


def freezable_state(game: Game) -> Any:
    """`a_state`, of classes run from source (test_conformance runs these tests again from source when
    this process runs compiled engines)."""
    state = a_state(game)
    if compiled(state):
        pytest.skip("compiled classes cannot be frozen: test_conformance runs this from source")
    return state


def test_a_frozen_copy_refuses_every_change(game_name: str, game: Game) -> None:
    state = freezable_state(game)
    frozen = frozen_copy(state)
    assert structure(frozen) == structure(state)
    values = attributes(frozen)
    lists = [name for name, value in values.items() if isinstance(value, list)]
    records = [frozen, *(item for value in values.values() if isinstance(value, list) for item in value)]
    dicts = [
        (record, name)
        for record in records
        if not isinstance(record, (int, str, tuple, list))
        for name, value in attributes(record).items()
        if isinstance(value, dict)
    ]
    assert lists, "a state with no list to try"
    changes = [
        lambda: setattr(frozen, next(iter(values)), 0),
        lambda: delattr(frozen, next(iter(values))),
        *(lambda name=name: getattr(frozen, name).append(0) for name in lists),
        *(lambda name=name: getattr(frozen, name).__setitem__(slice(None), []) for name in lists),
        *(lambda name=name: getattr(frozen, name).sort() for name in lists),
        *(lambda owner=owner, name=name: getattr(owner, name).__setitem__(-1, 0) for owner, name in dicts),
    ]
    for change in changes:
        with pytest.raises(StateChanged):
            change()
    assert structure(frozen) == structure(state)
    for name in MEMO_FIELDS:
        if hasattr(frozen, name):
            setattr(frozen, name, getattr(frozen, name))


def test_a_frozen_copy_plays_like_the_original(game_name: str, game: Game) -> None:
    state = freezable_state(game)
    frozen = frozen_copy(state)
    for seat in game.acting_seats(state):
        for action in game.legal_actions(state, seat):
            ours, _ = game.apply(frozen, seat, action)
            theirs, _ = game.apply(state, seat, action)
            assert serialize(game.state_to_proto(ours)) == serialize(game.state_to_proto(theirs))
    own = game.copy_state(frozen)
    seat = game.acting_seats(own)[0]
    game.play(own, seat, game.legal_actions(own, seat)[0])


def test_structure_sees_every_attribute(game_name: str, game: Game) -> None:
    state = a_state(game)
    before = structure(state)
    for name, value in attributes(state).items():
        other = game.copy_state(state)
        if isinstance(value, bool):
            setattr(other, name, not value)
        elif isinstance(value, int):
            setattr(other, name, value + 1)
        elif isinstance(value, list):
            setattr(other, name, [*value, value[0] if value else 0])
        else:
            continue
        assert structure(other) != before, f"changing {name} went unnoticed"

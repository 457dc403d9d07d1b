"""Reading the `visibility` declarations (services/common/visibility.py) on Puerto Rico's real messages:
which rule governs a path, who it belongs to, and how options and the end of the game open it up."""

from __future__ import annotations

import pytest
from boardgame.puertorico.v1 import puertorico_pb2 as pr

from services.common import registry
from services.common.visibility import (
    NOBODY,
    OWNER,
    FieldPath,
    bool_options,
    config_in,
    declarations,
    governing,
    owned_per_element,
    seers,
)

PR_INFO = registry.get("puertorico").info


def who(state: pr.State, path: FieldPath, options: dict[str, bool], over: bool = False) -> object:
    """`seers` at `path`."""
    return seers(state, governing(state.DESCRIPTOR, path), options, over)


def test_undeclared_fields_are_public_and_declarations_reach_inside() -> None:
    """A field no rule covers is public; a rule on a field covers what is inside it."""
    state = pr.State()
    assert who(state, (("table", None), ("round", None)), {}) is None
    assert who(state, (("rng", None), ("key", None)), {}) == frozenset()
    assert who(state, (("forests", 2), ("corn", None)), {}) == frozenset({2})


def test_owner_by_index_and_by_field() -> None:
    """An owner rule belongs to the index of its repeated field, or to the seat `owner_seat_field` holds."""
    state = pr.State(table=pr.Table(actor=3))
    assert who(state, (("vp_chips", 1),), {"public_vp": False}) == frozenset({1})
    assert who(state, (("hacienda_tile", None),), {}) == frozenset({3})


def test_a_whole_list_kept_per_seat_has_no_single_owner() -> None:
    """The whole of `vp_chips` is kept per seat: ask about each element; a nobody list is one part."""
    root = pr.State.DESCRIPTOR
    assert owned_per_element(governing(root, (("vp_chips", None),)))
    assert not owned_per_element(governing(root, (("vp_chips", 0),)))
    assert not owned_per_element(governing(root, (("plantation_stack", None),)))
    with pytest.raises(ValueError):
        seers(pr.State(), governing(root, (("vp_chips", None),)), {}, False)


def test_vp_chips_stay_hidden_at_the_end() -> None:
    """VP chips have no `public_when_over`: the final scores tell them instead."""
    assert who(pr.State(), (("vp_chips", 1),), {"public_vp": False}, over=True) == frozenset({1})


def test_options_come_from_the_state_with_the_game_defaults() -> None:
    """The Config inside a State gives the options; an unset one takes its GameInfo default."""
    assert bool_options(config_in(pr.State(), pr.Config), PR_INFO)["public_vp"] is False
    shown = pr.State(table=pr.Table(config=pr.Config(public_vp=True)))
    assert bool_options(config_in(shown, pr.Config), PR_INFO)["public_vp"] is True


def test_declarations_list_every_rule_once() -> None:
    """Puerto Rico declares its RNG, stack, VP chips, forests and drawn tile."""
    found = {rule.field.rsplit(".", 1)[1]: rule.audience for rule in declarations(pr.State.DESCRIPTOR)}
    assert found == {
        "rng": NOBODY,
        "plantation_stack": NOBODY,
        "vp_chips": OWNER,
        "forests": OWNER,
        "hacienda_tile": OWNER,
    }

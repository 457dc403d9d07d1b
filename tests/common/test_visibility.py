"""Reading the `visibility` declarations (services/common/visibility.py) on the games' real messages:
which rule governs a path, who it belongs to, and how options and the end of the game open it up."""

from __future__ import annotations

import pytest
from boardgame.glenmore.v1 import glenmore_pb2 as gm
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
    sees,
)

PR_INFO = registry.get("puertorico").info
GM_INFO = registry.get("glenmore").info


def who(state: pr.State | gm.State, path: FieldPath, options: dict[str, bool], over: bool = False) -> object:
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
    glen = gm.State()
    assert who(glen, (("table", None), ("players", 4), ("vp", None)), {"public_vp": False}) == frozenset({4})


def test_a_whole_list_kept_per_seat_has_no_single_owner() -> None:
    """The whole of `vp_chips` is kept per seat: ask about each element; a nobody list is one part."""
    root = pr.State.DESCRIPTOR
    assert owned_per_element(governing(root, (("vp_chips", None),)))
    assert not owned_per_element(governing(root, (("vp_chips", 0),)))
    assert not owned_per_element(governing(root, (("plantation_stack", None),)))
    with pytest.raises(ValueError):
        seers(pr.State(), governing(root, (("vp_chips", None),)), {}, False)


def test_an_option_or_the_end_of_the_game_makes_a_part_public() -> None:
    """`public_if_option` and `public_when_over` open a part to everyone; nobody sees a nobody part."""
    path: FieldPath = (("table", None), ("players", 1), ("vp", None))
    glen = gm.State()
    assert who(glen, path, {"public_vp": True}) is None
    assert who(glen, path, {"public_vp": False}, over=True) is None
    assert who(pr.State(), (("vp_chips", 1),), {"public_vp": False}, over=True) == frozenset({1})
    assert who(glen, (("stacks", 0), ("tiles", None)), {"public_vp": True}, over=True) == frozenset()
    assert sees(None, None) and sees(frozenset({1}), 1)
    assert not sees(frozenset({1}), None) and not sees(frozenset({1}), 0) and not sees(frozenset(), 0)


def test_options_come_from_the_state_with_the_game_defaults() -> None:
    """The Config inside a State gives the options; an unset one takes its GameInfo default."""
    assert bool_options(config_in(gm.State(), gm.Config), GM_INFO)["public_vp"] is True
    hidden = gm.State(table=gm.Table(config=gm.Config(public_vp=False)))
    assert bool_options(config_in(hidden, gm.Config), GM_INFO)["public_vp"] is False
    assert bool_options(config_in(pr.State(), pr.Config), PR_INFO)["public_vp"] is False
    shown = pr.State(table=pr.Table(config=pr.Config(public_vp=True)))
    assert bool_options(config_in(shown, pr.Config), PR_INFO)["public_vp"] is True


def test_declarations_list_every_rule_once() -> None:
    """Puerto Rico declares its RNG, stack, VP chips, forests and drawn tile; Glen More its RNG,
    stacks and VP."""
    found = {rule.field.rsplit(".", 1)[1]: rule.audience for rule in declarations(pr.State.DESCRIPTOR)}
    assert found == {
        "rng": NOBODY,
        "plantation_stack": NOBODY,
        "vp_chips": OWNER,
        "forests": OWNER,
        "hacienda_tile": OWNER,
    }
    glen = {rule.field.rsplit(".", 1)[1]: rule.audience for rule in declarations(gm.State.DESCRIPTOR)}
    assert glen == {"rng": NOBODY, "stacks": NOBODY, "vp": OWNER, "scoring_vp": OWNER}

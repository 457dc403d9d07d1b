"""Reading the `visibility` declarations (services/common/visibility.py) on Glen More's real messages:
which rule governs a path, who it belongs to, and how options and the end of the game open it up."""

from __future__ import annotations

from boardgame.glenmore.v1 import glenmore_pb2 as gm

from services.common import registry
from services.common.visibility import (
    NOBODY,
    OWNER,
    FieldPath,
    bool_options,
    config_in,
    declarations,
    governing,
    seers,
    sees,
)

GM_INFO = registry.get("glenmore").info


def who(state: gm.State, path: FieldPath, options: dict[str, bool], over: bool = False) -> object:
    """`seers` at `path`."""
    return seers(state, governing(state.DESCRIPTOR, path), options, over)


def test_a_players_vp_belongs_to_their_seat() -> None:
    """An owner rule on a per-seat list belongs to the element's index."""
    glen = gm.State()
    assert who(glen, (("table", None), ("players", 4), ("vp", None)), {"public_vp": False}) == frozenset({4})


def test_an_option_or_the_end_of_the_game_makes_a_part_public() -> None:
    """`public_if_option` and `public_when_over` open a part to everyone; nobody sees a nobody part."""
    path: FieldPath = (("table", None), ("players", 1), ("vp", None))
    glen = gm.State()
    assert who(glen, path, {"public_vp": True}) is None
    assert who(glen, path, {"public_vp": False}, over=True) is None
    assert who(glen, (("stacks", 0), ("tiles", None)), {"public_vp": True}, over=True) == frozenset()
    assert sees(None, None) and sees(frozenset({1}), 1)
    assert not sees(frozenset({1}), None) and not sees(frozenset({1}), 0) and not sees(frozenset(), 0)


def test_options_come_from_the_state_with_the_game_defaults() -> None:
    """The Config inside a State gives the options; an unset one takes its GameInfo default."""
    assert bool_options(config_in(gm.State(), gm.Config), GM_INFO)["public_vp"] is True
    hidden = gm.State(table=gm.Table(config=gm.Config(public_vp=False)))
    assert bool_options(config_in(hidden, gm.Config), GM_INFO)["public_vp"] is False


def test_declarations_list_every_rule_once() -> None:
    """Glen More declares its RNG, stacks and VP."""
    glen = {rule.field.rsplit(".", 1)[1]: rule.audience for rule in declarations(gm.State.DESCRIPTOR)}
    assert glen == {"rng": NOBODY, "stacks": NOBODY, "vp": OWNER, "scoring_vp": OWNER}

"""The visibility declarations of every game, and the hidden-information check caught on injected leaks.

A check must not share its source of truth with the code it checks, and must be seen to fail: here
each game's view is made to leak (another seat's private parts merged in, a hidden field's values
carried along, the codec's own visibility rule opened up) or to hide what is public, and the check of
`tests/conformance/visibility.py` must fail on it. Nothing here names a specific game.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from services.common import registry
from services.common.game import Game
from services.common.rng import Rng
from services.common.visibility import (
    NOBODY,
    OWNER,
    PUBLIC,
    Rule,
    bool_options,
    config_in,
    declarations,
    declared,
    governing,
    message_types,
    owned_per_element,
    seers,
    sees,
)
from tests.conformance.changes import changes
from tests.conformance.conftest import all_cases
from tests.conformance.drivers import RNG_STATE_TYPE, Case, InProcessDriver, Pool, serialize
from tests.conformance.visibility import Coverage, check_views, leaking, seen_differences

ViewFunction = Callable[[Any, int | None], Message]
# The field number under which a leaking view carries a hidden field's values (as an unknown field).
LEAK_FIELD_NUMBER = 536_870_000
SEEDS = (b"conformance-1", b"conformance-2")


def cases_of(game_name: str) -> list[Case]:
    """The conformance cases of one game, at its smallest and largest player counts."""
    game = registry.get(game_name)
    counts = {game.info.min_players, game.info.max_players}
    return [case for case in all_cases() if case.game == game_name and case.players in counts]


def states_of(pool: Pool, case: Case) -> list[tuple[str, Any]]:
    """A few states of two random playouts of `case`, the final ones included."""
    found = []
    for seed in SEEDS:
        trace = pool.trace("inprocess", case, seed)
        steps = trace.steps
        picks = [steps[len(steps) * k // 4].state for k in range(4)] + [trace.final.state]
        found.extend((f"{case} seed {seed!r} state {number}", state) for number, state in enumerate(picks))
    return found


def check_failure(pool: Pool, case: Case, game: Game | None = None) -> str | None:
    """The check's failure message on some states of `case`, in-process (with `game` in place of the
    registered one, if given), or None if it passes."""
    driver = pool.driver("inprocess", case.game) if game is None else InProcessDriver(game)
    assert isinstance(driver, InProcessDriver)
    try:
        check_views(driver, driver, driver.game, states_of(pool, case), Rng(1), 8, Coverage())
    except AssertionError as failure:
        return str(failure)
    return None


def failures(pool: Pool, game_name: str, game: Game | None = None) -> Iterator[str]:
    """The check's failure message on each case of the game (played by `game`, if given) where it fails."""
    for case in cases_of(game_name):
        message = check_failure(pool, case, game)
        if message is not None:
            yield message


def hidden_rules(game: Game) -> list[Rule]:
    """The declarations on the game's State that hide something from someone."""
    return [rule for rule in declarations(game.messages.state.DESCRIPTOR) if rule.audience != PUBLIC]


def values_of(message: Message, full_name: str) -> Iterator[Any]:
    """The values, everywhere inside `message`, of the field named `full_name`."""
    for field, value in message.ListFields():
        if field.full_name == full_name:
            yield value
        if field.message_type is None:
            continue
        items = value if field.is_repeated else [value]
        for item in items:
            yield from values_of(item, full_name)


def varint(number: int) -> bytes:
    """The protobuf base-128 encoding of a non-negative integer."""
    out = bytearray()
    while True:
        byte, number = number & 0x7F, number >> 7
        out.append(byte | (0x80 if number else 0))
        if not number:
            return bytes(out)


def carrying(game: Game, original: ViewFunction, full_name: str) -> ViewFunction:
    """`original` with the values of State field `full_name` appended as an unknown field."""

    def view(state: Any, seat: int | None) -> Message:
        shown = original(state, seat)
        values = repr(list(values_of(game.state_to_proto(state), full_name))).encode()
        leak = varint(LEAK_FIELD_NUMBER << 3 | 2) + varint(len(values)) + values
        return type(shown).FromString(serialize(shown) + leak)

    return view


def merged(game: Game, original: ViewFunction) -> ViewFunction:
    """`original` with the next seat's view (seat 0's for a spectator) merged into every view."""

    def view(state: Any, seat: int | None) -> Message:
        shown = original(state, seat)
        other = 0 if seat is None else (seat + 1) % game.seat_count(state)
        leaked = type(shown)()
        leaked.CopyFrom(shown)
        leaked.MergeFrom(original(state, other))
        return leaked

    return view


# The declarations themselves


def _path_field(root: Descriptor, names: tuple[str, ...]) -> FieldDescriptor | None:
    descriptor: Descriptor | None = root
    found = None
    for name in names:
        if descriptor is None or name not in descriptor.fields_by_name:
            return None
        found = descriptor.fields_by_name[name]
        descriptor = found.message_type
    return found


def test_visibility_declarations_are_well_formed(game_name: str, game: Game) -> None:
    """Each declaration names an audience, an owner field that holds a seat, a true/false option that
    the game lists; every RngState of the State is hidden from everyone; a game with hidden
    information declares something hidden besides its RNG."""
    state = game.messages.state.DESCRIPTOR
    config_fields = game.messages.config.DESCRIPTOR.fields_by_name
    options = {option.name for option in game.info.options}
    for rule in declarations(state):
        assert rule.audience in (PUBLIC, OWNER, NOBODY), f"{rule.field}: unknown audience {rule.audience}"
        if rule.owner_seat_field:
            assert rule.audience == OWNER, f"{rule.field}: an owner field on a rule without owners"
            owner = _path_field(state, rule.owner_seat_field)
            assert owner is not None and not owner.is_repeated, f"{rule.field}: no owner field {rule}"
            assert owner.cpp_type == FieldDescriptor.CPPTYPE_INT32, f"{rule.field}: the owner is not a seat"
        if rule.public_if_option:
            option = config_fields.get(rule.public_if_option)
            assert option is not None and option.type == FieldDescriptor.TYPE_BOOL, (
                f"{rule.field}: {rule.public_if_option} is not a true/false Config field"
            )
            assert rule.public_if_option in options, f"{rule.field}: {rule.public_if_option} is not an option"
    secrets = []
    for descriptor in message_types(state):
        for field in descriptor.fields:
            rule = declared(field)
            if field.message_type is not None and field.message_type.full_name == RNG_STATE_TYPE:
                assert rule is not None and rule.audience == NOBODY, f"{field.full_name} is not hidden"
            elif rule is not None and rule.audience != PUBLIC:
                secrets.append(field.full_name)
    assert bool(secrets) == game.info.has_hidden_information, f"declared secrets {secrets}"


# Leaks the check must catch


def test_the_check_passes_on_the_real_views(pool: Pool, game_name: str) -> None:
    """Without a leak, the check passes on the states the leak tests use."""
    assert list(failures(pool, game_name)) == []


def test_a_view_showing_another_seats_view_is_caught(pool: Pool, game_name: str, game: Game) -> None:
    """A view that also carries the next seat's private parts fails the check."""
    if not any(rule.audience == OWNER for rule in hidden_rules(game)):
        pytest.skip("nothing in the State belongs to one seat")
    caught = list(failures(pool, game_name, leaking(game, merged(game, game.view_to_proto))))
    assert caught, "a view showing another seat's private parts passed the check"
    assert all("which the State's visibility declaration hides from it" in message for message in caught)


def test_a_view_carrying_any_hidden_field_is_caught(pool: Pool, game_name: str, game: Game) -> None:
    """For every hidden field the playouts exercise, a view that carries its values fails the check,
    the failure naming that field. (A field no playout state holds, such as a tile drawn and not yet
    placed, is left to the game's rule scenarios.)"""
    exercised: set[str] = set()
    for case in cases_of(game_name):
        driver = pool.driver("inprocess", game_name)
        assert isinstance(driver, InProcessDriver)
        coverage = Coverage()
        check_views(driver, driver, game, states_of(pool, case), Rng(1), 0, coverage)
        exercised |= coverage.checked
    assert exercised <= {rule.field for rule in hidden_rules(game)}
    assert bool(exercised) == bool(hidden_rules(game)), "no hidden field is ever exercised"
    original = game.view_to_proto
    for full_name in sorted(exercised):
        short = full_name.rsplit(".", 1)[1]
        caught = list(failures(pool, game_name, leaking(game, carrying(game, original, full_name))))
        assert caught, f"a view carrying {full_name} passed the check"
        assert any(short in message for message in caught), f"{full_name}: {caught}"


def test_a_view_hiding_public_parts_is_caught(pool: Pool, game_name: str, game: Game) -> None:
    """A view that shows nothing of the table fails the check: public changes must reach the view."""

    def blank(state: Any, seat: int | None) -> Message:
        return game.messages.view()

    caught = list(failures(pool, game_name, leaking(game, blank)))
    assert len(caught) == len(cases_of(game_name))
    assert all("but its view did not change" in message for message in caught)


def test_a_codec_visibility_rule_opened_up_is_caught(
    pool: Pool, game_name: str, game: Game, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A codec whose own rule `vp_visible` lets every seat see every VP fails the check, as it must:
    its views then show the VP the declaration hides (a check asking that rule would pass)."""
    package = next(name for name in registry.GAME_MODULES if importlib.import_module(name).GAME is game)
    codec = importlib.import_module(package + ".codec")
    if not hasattr(codec, "vp_visible"):
        pytest.skip("the codec has no vp_visible rule")
    monkeypatch.setattr(codec, "vp_visible", lambda state, viewer, seat: True)
    caught = list(failures(pool, game_name))
    assert caught, "views showing every seat's VP passed the check"
    assert all("vp" in message for message in caught)


def test_a_disturbance_of_public_parts_is_caught(pool: Pool, game_name: str, game: Game) -> None:
    """`seen_differences`, which holds `disturb_hidden` to the declaration, reports a public change to
    every viewer and a change hidden from a viewer to nobody but those who see it."""
    case = cases_of(game_name)[0]
    _, state = states_of(pool, case)[1]
    message = game.state_to_proto(state)
    options = bool_options(config_in(message, game.messages.config), game.info)
    over = game.is_terminal(state)
    viewers: list[int | None] = [*range(case.players), None]
    kinds: Counter[str] = Counter()
    for change in changes(message):
        changed = change.on(message)
        path = change.parts[0]
        governed = governing(message.DESCRIPTOR, path)
        if len(change.parts) > 1 or owned_per_element(governed):
            continue
        who = seers(message, governed, options, over)
        for viewer in viewers:
            assert bool(seen_differences(message, changed, viewer, options, over)) == sees(who, viewer), (
                f"{change.what} for {viewer}"
            )
        kinds["public" if who is None else "hidden"] += 1
    assert kinds["public"] > 0
    assert kinds["hidden"] > 0 or not hidden_rules(game)

"""The hidden-information check: views against the State's visibility declaration, and nothing else.

For each state it makes every one-part change (`tests.conformance.changes`) to what some viewer may
not see, by the `visibility` options on the State's fields (`services.common.visibility`), and a
sample of changes to public parts. A change the game refuses to decode, or does not keep when it
encodes the decoded state again, is skipped. For every change it keeps, each viewer's view must stay
byte-identical if the declaration hides the changed part from that viewer, and must change if the
viewer may see it; a seat that acts and may not see the part must also keep its legal actions and
labels. The game's view code and `disturb_hidden` are never consulted for what is hidden.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.message import Message

from services.common.game import Game
from services.common.rng import Rng
from services.common.visibility import (
    FieldPath,
    Seers,
    bool_options,
    config_in,
    governing,
    owned_per_element,
    seers,
    sees,
)
from tests.conformance.changes import Change, changes, dotted
from tests.conformance.drivers import Driver, InProcessDriver, LegalRecord, Refused, serialize

# States checked per traced playout (each costs a decode and a view per viewer for every change), and
# changes to public parts checked per state, drawn at random (every change to a hidden part is checked).
STATES_PER_TRACE = {"inprocess": 8, "grpc": 5}
PUBLIC_CHANGES = {"inprocess": 8, "grpc": 3}


def viewer_name(viewer: int | None) -> str:
    """How failure messages name a viewer: seat 2, or a spectator."""
    return "a spectator" if viewer is None else f"seat {viewer}"


@dataclass
class Coverage:
    """What the check exercised: per declared field (full name), whether some change to a hidden part
    of it that held a value was made, and whether one was kept and checked."""

    held: set[str] = dataclasses.field(default_factory=set)
    checked: set[str] = dataclasses.field(default_factory=set)
    hidden_checks: int = 0
    public_checks: int = 0

    def never_checked(self) -> set[str]:
        """Declared fields that held hidden values but never had a change kept and checked."""
        return self.held - self.checked


def _audience(
    state: Message, change: Change, options: Mapping[str, bool], over: bool
) -> tuple[Seers, str] | None:
    """Who sees every part `change` alters, and the full name of the field declaring it ("" when no
    field does); None when its parts are seen by different viewers (the change would test nothing)."""
    found: set[tuple[Seers, str]] = set()
    for path in change.parts:
        governed = governing(state.DESCRIPTOR, path)
        if owned_per_element(governed):
            return None
        rule = governed.rule
        found.add((seers(state, governed, options, over), rule.field if rule is not None else ""))
    who = {seen for seen, _ in found}
    if len(who) != 1:
        return None
    return who.pop(), min(name for _, name in found)


def differences(first: Message, second: Message, prefix: FieldPath = ()) -> Iterator[FieldPath]:
    """The paths of the smallest parts in which two messages of one type differ: an element of a
    repeated field of equal lengths, a whole repeated field whose length differs, a scalar."""
    for field in first.DESCRIPTOR.fields:
        name = field.name
        one, other = getattr(first, name), getattr(second, name)
        if field.is_repeated:
            if len(one) != len(other):
                yield (*prefix, (name, None))
                continue
            for index, (a, b) in enumerate(zip(one, other, strict=True)):
                if field.message_type is not None:
                    yield from differences(a, b, (*prefix, (name, index)))
                elif a != b:
                    yield (*prefix, (name, index))
        elif field.message_type is not None:
            yield from differences(one, other, (*prefix, (name, None)))
        elif one != other:
            yield (*prefix, (name, None))


def seen_differences(
    first: Message, second: Message, viewer: int | None, options: Mapping[str, bool], over: bool
) -> list[str]:
    """The parts in which `second` differs from `first` that `viewer` may see, by the declaration of
    `first`'s type (a repeated field kept per seat whose length differs counts as seen)."""
    seen = []
    for path in differences(first, second):
        governed = governing(first.DESCRIPTOR, path)
        if owned_per_element(governed) or sees(seers(first, governed, options, over), viewer):
            seen.append(dotted(path))
    return seen


def _listed(legal: Sequence[LegalRecord]) -> list[tuple[bytes, str]]:
    return [(action.action_bytes, action.label) for action in legal]


def check_views(
    driver: Driver,
    engine: InProcessDriver,
    game: Game,
    states: Sequence[tuple[str, Any]],
    rng: Rng,
    public_samples: int,
    coverage: Coverage,
) -> None:
    """Check every (where, state handle) of `states` through `driver`; raises AssertionError, saying
    where, which viewer and which change, at the first view that shows a hidden part or hides a
    visible one."""
    state_type = game.messages.state
    for where, state in states:
        data = driver.state_bytes(state)
        message = state_type.FromString(data)
        native = engine.state_from_bytes(data)
        options = bool_options(config_in(message, game.messages.config), game.info)
        over = game.is_terminal(native)
        viewers: list[int | None] = [*range(game.seat_count(native)), None]
        views = {viewer: driver.view_bytes(state, viewer) for viewer in viewers}
        acting = driver.acting_seats(state)
        legal: dict[int, list[tuple[bytes, str]]] = {}
        hidden: list[tuple[Change, frozenset[int], str]] = []
        public: list[Change] = []
        for change in changes(message):
            audience = _audience(message, change, options, over)
            if audience is None:
                continue
            who, declaring = audience
            if who is None:
                public.append(change)
            else:
                hidden.append((change, who, declaring))
                if change.held:
                    coverage.held.add(declaring)
        order = list(range(len(public)))
        rng.shuffle(order)
        picked = [public[index] for index in order[:public_samples]]
        for change, who, declaring in [*hidden, *((change, None, "") for change in picked)]:
            changed_bytes = serialize(change.on(message))
            try:
                decoded = engine.state_from_bytes(changed_bytes)
            except Refused:
                continue
            if engine.state_bytes(decoded) != changed_bytes:
                continue
            if who is not None:
                coverage.checked.add(declaring)
                coverage.hidden_checks += 1
            else:
                coverage.public_checks += 1
            other = driver.state_from_bytes(changed_bytes)
            for viewer in viewers:
                seen = driver.view_bytes(other, viewer)
                if sees(who, viewer):
                    assert seen != views[viewer], (
                        f"{where}: {viewer_name(viewer)} may see {change.what}, but its view did not change"
                    )
                else:
                    assert seen == views[viewer], (
                        f"{where}: the view of {viewer_name(viewer)} changed with {change.what}, which the"
                        " State's visibility declaration hides from it"
                    )
            for seat in acting:
                if sees(who, seat):
                    continue
                if seat not in legal:
                    legal[seat] = _listed(driver.legal_actions(state, seat))
                assert _listed(driver.legal_actions(other, seat)) == legal[seat], (
                    f"{where}: seat {seat}'s legal actions changed with {change.what}, which it may not see"
                )


def leaking(game: Game, view: Callable[[Any, int | None], Message]) -> Game:
    """The game with `view` as its view of a state for a seat (every view built by it)."""

    def views(state: Any, state_message: Message | None = None) -> list[Message]:
        return [view(state, seat) for seat in [*range(game.seat_count(state)), None]]

    def encoded(state: Any, state_bytes: bytes) -> list[bytes]:
        return [message.SerializeToString(deterministic=True) for message in views(state)]

    return dataclasses.replace(game, view_to_proto=view, views_to_proto=views, encode_views=encoded)

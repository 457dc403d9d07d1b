"""Undo barriers: whether an applied decision may be taken back by the seat that made it.

A decision is an undo barrier when taking it back would undo something another seat or the seat
itself has already learned or done (docs/undo.md):

- HAND_OVER: the acting seats changed (the turn passed on, another seat joined or left the acting
  seats, or the game ended);
- CHANCE: the decision drew from the seeded generator (an RngState counter anywhere in the State
  moved), so undoing it would let the seat see the draw and choose again;
- REVEAL: a part of the State the acting seat may not see changed (a stack drawn from, another
  seat's secrets, by the State's `visibility` declarations), or the decision produced an event only
  some seats may see (something private was dealt or shown), or what the decision does depends on
  such a part (the decision applied to copies of the state that differ only in what the seat may not
  see, `disturb_hidden` with a generator keyed by the state, leaves the seat a different view).

The rules services report it with each applied decision; the live path keeps the states a seat may
return to only until the next barrier. The conformance suite checks every title against it
(tests/conformance/barriers.py): a decision that draws from the generator, changes the acting seats
or shows the seat anything hidden before must be reported as a barrier.
"""

from __future__ import annotations

import enum
import functools
import hashlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from boardgame.rules.v1 import rules_pb2
from google.protobuf.message import Message

from services.common.errors import RulesError
from services.common.game import AnyGame
from services.common.rng import Rng
from services.common.visibility import FieldPath, bool_options, config_in, declared, governing, seers, sees

RNG_STATE_TYPE = rules_pb2.RngState.DESCRIPTOR.full_name
# Disturbed copies of a state a decision is replayed on to find whether it depends on hidden parts.
PROBES = 2
PROBE_DOMAIN = b"boardgame.undo-probe.v1:"


class Barrier(enum.Enum):
    """Why a decision cannot be undone by its own seat."""

    HAND_OVER = "hand_over"
    CHANCE = "chance"
    REVEAL = "reveal"


def rng_counters(state: Message) -> tuple[int, ...]:
    """The counters of every RngState set anywhere inside a State message, in field order."""
    return tuple(_counters(state))


def _counters(message: Message) -> Iterator[int]:
    for field, value in message.ListFields():
        if field.message_type is None or field.message_type.GetOptions().map_entry:
            continue
        items = value if field.is_repeated else [value]
        for item in items:
            if field.message_type.full_name == RNG_STATE_TYPE:
                yield item.counter
            else:
                yield from _counters(item)


def barriers(
    before: Message,
    after: Message,
    seats_before: Sequence[int],
    seats_after: Sequence[int],
    visible_to: Iterable[Sequence[int]],
    seat_count: int,
    hidden_before: Mapping[FieldPath, bytes] | None = None,
    hidden_after: Mapping[FieldPath, bytes] | None = None,
    depends_on_hidden: bool = False,
) -> frozenset[Barrier]:
    """Why the decision from State `before` to State `after` is a barrier (empty: it is not).

    `seats_*` are the acting seats before and after, `visible_to` each event's seats allowed to see
    it (empty: everyone), `seat_count` the game's number of seats and `hidden_*` the parts of each
    State the acting seat may not see (`hidden_parts`); `depends_on_hidden` says what the decision did
    depends on such a part.
    """
    found = set()
    if tuple(seats_before) != tuple(seats_after):
        found.add(Barrier.HAND_OVER)
    if rng_counters(before) != rng_counters(after):
        found.add(Barrier.CHANCE)
    everyone = set(range(seat_count))
    if any(seen and not everyone <= set(seen) for seen in visible_to):
        found.add(Barrier.REVEAL)
    if hidden_before != hidden_after or depends_on_hidden:
        found.add(Barrier.REVEAL)
    return frozenset(found)


@functools.cache
def _declares(descriptor: Any) -> bool:
    """Whether some field of a message type, or of one inside it, declares a visibility (else all of
    it is public wherever its enclosing field is)."""
    return any(_declarations_in(descriptor, set()))


def _declarations_in(descriptor: Any, seen: set[str]) -> Iterator[bool]:
    if descriptor.full_name in seen:
        return
    seen.add(descriptor.full_name)
    for field in descriptor.fields:
        if declared(field) is not None:
            yield True
        if field.message_type is not None:
            yield from _declarations_in(field.message_type, seen)


def hidden_parts(
    state: Message, seat: int, options: Mapping[str, bool], game_over: bool
) -> dict[FieldPath, bytes]:
    """The serialized value of every part of a State message `seat` may not see, by field path.

    `options` are the game's true/false options (`visibility.bool_options`). A part whose owner cannot
    be told counts as hidden.
    """
    found: dict[FieldPath, bytes] = {}
    _hidden(state, state, (), seat, options, game_over, found)
    return found


def _hidden(
    root: Message,
    message: Message,
    prefix: FieldPath,
    seat: int,
    options: Mapping[str, bool],
    game_over: bool,
    found: dict[FieldPath, bytes],
) -> None:
    descriptor: Any = root.DESCRIPTOR
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            continue
        if field.message_type is not None and not _declares(field.message_type) and declared(field) is None:
            continue
        items = list(enumerate(value)) if field.is_repeated else [(None, value)]
        for index, item in items:
            path = (*prefix, (field.name, index))
            try:
                hidden = not sees(seers(root, governing(descriptor, path), options, game_over), seat)
            except ValueError:
                hidden = True
            if hidden:
                found[path] = (
                    item.SerializeToString(deterministic=True) if field.message_type else repr(item).encode()
                )
            elif field.message_type is not None:
                _hidden(root, item, path, seat, options, game_over, found)


def depends_on_hidden(game: AnyGame, before: Message, state: Any, seat: int, action: Any, after: Any) -> bool:
    """Whether `action` by `seat` applied to copies of `state` differing only in what the seat may not
    see leaves the seat another view than `after`'s (PROBES copies, from a generator keyed by the state's
    bytes, so the same decision always gets the same answer)."""
    real = game.view_to_proto(after, seat).SerializeToString(deterministic=True)
    rng = Rng.from_seed(PROBE_DOMAIN + hashlib.sha256(before.SerializeToString(deterministic=True)).digest())
    for _ in range(PROBES):
        try:
            probed, _ = game.apply(game.disturb_hidden(state, seat, rng), seat, action)
        except RulesError:
            return True
        if game.view_to_proto(probed, seat).SerializeToString(deterministic=True) != real:
            return True
    return False


def decision_barriers(
    game: AnyGame, before: Any, after: Any, seat: int, events: Sequence[Any], action: Any = None
) -> frozenset[Barrier]:
    """`barriers` of `action` by `seat` a game's engine applied, from its native states and events
    (without the action, what the decision did is not probed for a dependence on hidden parts).

    A hand-over is reported alone, without looking further: it is the common barrier and the cheapest.
    """
    if tuple(game.acting_seats(before)) != tuple(game.acting_seats(after)):
        return frozenset({Barrier.HAND_OVER})
    before_message = game.state_to_proto(before)
    after_message = game.state_to_proto(after)
    options = bool_options(config_in(before_message, game.messages.config), game.info)
    found = barriers(
        before_message,
        after_message,
        game.acting_seats(before),
        game.acting_seats(after),
        [game.event_to_proto(event)[2] for event in events],
        game.seat_count(before),
        hidden_parts(before_message, seat, options, game.is_terminal(before)),
        hidden_parts(after_message, seat, options, game.is_terminal(after)),
    )
    if found or action is None:
        return found
    if depends_on_hidden(game, before_message, before, seat, action, after):
        return frozenset({Barrier.REVEAL})
    return found

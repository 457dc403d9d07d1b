"""Undo barriers as a rules service reports them with each applied decision, cheaply enough for the live
path (docs/undo.md).

A decision is an undo barrier when its seat may no longer take it back by itself:

- HAND_OVER: another seat has acted: the acting seats changed, or the rules took a forced decision of
  another seat on the way (`Game.apply_traced`). Found without reading the states, and reported alone;
- CHANCE: an `RngState` counter of the State moved;
- REVEAL: an event only some seats may see came of it, or a part of the State the seat may not see
  changed (by the State's `visibility` declarations).

Everything is compiled once per State message type (`Layout`): the descriptor paths of its generators
and of its declared parts. A decision then costs two parses of the State bytes the call already has (the
request's and the reply's) and a look at those few paths, in place of the walk over every field and the
probes on disturbed copies that `services.common.barriers` makes. That module stays the independent
check: the conformance suite compares what a rules service serves with it for every title.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boardgame.rules.v1 import rules_pb2
from google.protobuf.message import Message

from services.common.game import AnyGame
from services.common.visibility import NOBODY, OWNER, PUBLIC, Rule, bool_options, declared

HAND_OVER = rules_pb2.UNDO_BARRIER_HAND_OVER
CHANCE = rules_pb2.UNDO_BARRIER_CHANCE
REVEAL = rules_pb2.UNDO_BARRIER_REVEAL
RNG_STATE_TYPE = rules_pb2.RngState.DESCRIPTOR.full_name
OPTIONS_KEPT = 256  # the option sets of Configs a classifier remembers
MAX_DEPTH = 8  # how deep a State's messages nest, at most, where generators and declarations are looked for

# One step of a path: a field's name and whether it is repeated.
Step = tuple[str, bool]


@dataclass(frozen=True)
class Part:
    """A declared part of a State that some seat may not see: the path to its field and the rule."""

    path: tuple[Step, ...]
    rule: Rule


@dataclass(frozen=True)
class Layout:
    """Where a State message type keeps its generators (singular paths to each RngState), its declared
    parts, and its Config (the path to it through singular fields, for the options that make parts
    public; None if it holds none)."""

    generators: tuple[tuple[str, ...], ...]
    parts: tuple[Part, ...]
    config: tuple[str, ...] | None


@functools.cache
def layout(state_type: Any, config_type: Any) -> Layout:
    """The layout of a State message type (its descriptor) holding a Config of `config_type`."""
    generators: list[tuple[str, ...]] = []
    parts: list[Part] = []
    config: list[tuple[str, ...]] = []

    def walk(descriptor: Any, path: tuple[Step, ...], singular: bool, depth: int) -> None:
        for field in descriptor.fields:
            step = (*path, (field.name, bool(field.is_repeated)))
            message = field.message_type
            one = singular and not field.is_repeated
            if message is not None and message.full_name == RNG_STATE_TYPE and one:
                generators.append(tuple(name for name, _ in step))  # a draw is CHANCE, hidden or not
                continue
            rule = declared(field)
            if rule is not None and rule.audience != PUBLIC:
                parts.append(Part(step, rule))
                continue  # a declaration covers what its field holds
            if message is None or message.GetOptions().map_entry or depth >= MAX_DEPTH:
                continue
            if message.full_name == config_type.full_name and one:
                config.append(tuple(name for name, _ in step))
            else:
                walk(message, step, one, depth + 1)

    walk(state_type, (), True, 0)
    return Layout(tuple(generators), tuple(parts), config[0] if config else None)


def _read(message: Message, names: Sequence[str]) -> Any:
    value: Any = message
    for name in names:
        value = getattr(value, name)
    return value


def _values(message: Message, path: tuple[Step, ...]) -> list[tuple[tuple[int, ...], Any]]:
    """The values at `path` under `message` (the declared field last), each with the indexes of the
    repeated fields on the way."""
    found: list[tuple[tuple[int, ...], Any]] = []
    pending: list[tuple[Any, tuple[int, ...], int]] = [(message, (), 0)]
    last = len(path) - 1
    while pending:
        current, indexes, depth = pending.pop()
        name, repeated = path[depth]
        if depth == last:
            found.append((indexes, getattr(current, name)))
        elif repeated:
            pending.extend((item, (*indexes, i), depth + 1) for i, item in enumerate(getattr(current, name)))
        elif current.HasField(name):
            pending.append((getattr(current, name), indexes, depth + 1))
    return found


def _hidden_whole(message: Message, part: Part, seat: int, indexes: tuple[int, ...]) -> bool:
    """Whether the value of `part` at `indexes` in a State `message` is hidden from `seat` as a whole (a
    repeated field whose elements are each their index's seat's is `_per_element`)."""
    rule = part.rule
    if rule.audience == NOBODY:
        return True
    if rule.owner_seat_field:
        return int(_read(message, rule.owner_seat_field)) != seat
    return not indexes or indexes[-1] != seat  # the innermost repeated element's seat's


def _per_element(part: Part) -> bool:
    """Whether each element of the part's repeated field is its index's seat's."""
    rule = part.rule
    return rule.audience == OWNER and not rule.owner_seat_field and part.path[-1][1]


def changed_hidden(
    first: Message, then: Message, parts: Sequence[Part], seat: int, options: Mapping[str, bool]
) -> bool:
    """Whether a part `seat` may not see differs from State `first` to State `then`, or became hidden or
    seen (`options`: the game's true/false options). The game is not over before, and a decision that
    ends it hands over anyway, so a part that turns public once the game is over counts as hidden."""
    for part in parts:
        rule = part.rule
        if rule.public_if_option and options.get(rule.public_if_option, False):
            continue
        if len(part.path) == 1 and rule.audience == NOBODY:  # a State field: compared whole
            name = part.path[0][0]
            if getattr(first, name) != getattr(then, name):
                return True
            continue
        before, after = _values(first, part.path), _values(then, part.path)
        if [indexes for indexes, _ in before] != [indexes for indexes, _ in after]:
            return True  # a repeated field on the way changed size: what it holds moved
        per_element = _per_element(part)
        for (indexes, old), (_, new) in zip(before, after, strict=True):
            if per_element:
                others = [i for i in range(max(len(old), len(new))) if i != seat]
                if len(old) != len(new) or any(old[i] != new[i] for i in others):
                    return True
                continue
            hidden_before = _hidden_whole(first, part, seat, indexes)
            if hidden_before != _hidden_whole(then, part, seat, indexes) or (hidden_before and old != new):
                return True
    return False


class Classifier:
    """The undo barriers of a game's decisions, from what an ApplyAction call has at hand."""

    def __init__(self, game: AnyGame) -> None:
        self.game = game
        self.state_type = game.messages.state
        self.layout = layout(self.state_type.DESCRIPTOR, game.messages.config.DESCRIPTOR)
        self.option_defaults = {option.name: option.default == "true" for option in game.info.options}
        self.optional = any(part.rule.public_if_option for part in self.layout.parts)
        self.options: dict[bytes, Mapping[str, bool]] = {}

    def barriers(
        self,
        before: bytes,
        after: bytes,
        seat: int,
        seats_before: Sequence[int],
        seats_after: Sequence[int],
        others_acted: bool,
        audiences: Sequence[Sequence[int]],
        seat_count: int,
    ) -> tuple[int, ...]:
        """The UndoBarrier values of `seat`'s decision from the State bytes `before` to `after`: the
        acting seats before and after, whether the rules took a forced decision of another seat on the
        way, and the seats each event is for (empty: everyone). A hand-over is reported alone."""
        if others_acted or tuple(seats_before) != tuple(seats_after):
            return (HAND_OVER,)
        found = []
        first, then = self.state_type.FromString(before), self.state_type.FromString(after)
        if any(_read(first, path).counter != _read(then, path).counter for path in self.layout.generators):
            found.append(CHANCE)
        shown = any(seen and len(set(seen)) < seat_count for seen in audiences)  # to some seats only
        if shown or changed_hidden(first, then, self.layout.parts, seat, self._options(first)):
            found.append(REVEAL)
        return tuple(found)

    def _options(self, state: Message) -> Mapping[str, bool]:
        """The game's true/false options that make parts public, from the Config the State holds (its
        defaults without one); remembered by the Config's bytes (a game's Config never changes)."""
        if self.layout.config is None or not self.optional:
            return self.option_defaults
        config = _read(state, self.layout.config)
        key = config.SerializeToString(deterministic=True)
        options = self.options.get(key)
        if options is None:
            if len(self.options) >= OPTIONS_KEPT:
                self.options.clear()
            options = self.options[key] = bool_options(config, self.game.info)
        return options

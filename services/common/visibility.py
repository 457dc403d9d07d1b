"""Who may see each part of a game's State, read from the `visibility` options declared on its fields.

The declaration (protos/boardgame/rules/v1/visibility.proto) is the one statement of what a seat may
see; this module only reads it. A part of a State is named by its field path from the State message,
one (field name, index or None) pair per step, as `(("table", None), ("players", 2), ("vp", None))`
for `table.players[2].vp`. Nothing here looks at a game's view code.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from boardgame.rules.v1 import visibility_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from services.common.game import GameInfo

FieldPath = tuple[tuple[str, int | None], ...]
# Who sees a part: None is everyone (every seat and spectator); a set is those seats only.
Seers = frozenset[int] | None

PUBLIC = visibility_pb2.AUDIENCE_PUBLIC
OWNER = visibility_pb2.AUDIENCE_OWNER
NOBODY = visibility_pb2.AUDIENCE_NOBODY
# The `visibility` extension (its generated stub types it as a plain field descriptor).
VISIBILITY: Any = visibility_pb2.visibility


@dataclass(frozen=True)
class Rule:
    """The declaration on one field (see visibility.proto); `field` is the field's full name."""

    field: str
    audience: int
    owner_seat_field: tuple[str, ...]
    public_if_option: str
    public_when_over: bool


@functools.cache
def declared(field: FieldDescriptor) -> Rule | None:
    """The field's own visibility declaration, or None if it declares none."""
    options = field.GetOptions()
    if not options.HasExtension(VISIBILITY):
        return None
    option: visibility_pb2.Visibility = options.Extensions[VISIBILITY]
    return Rule(
        field=field.full_name,
        audience=option.audience or PUBLIC,
        owner_seat_field=tuple(option.owner_seat_field.split(".")) if option.owner_seat_field else (),
        public_if_option=option.public_if_option,
        public_when_over=option.public_when_over,
    )


def message_types(root: Descriptor) -> Iterator[Descriptor]:
    """`root` and every message type its fields reach, each once."""
    seen: set[str] = set()
    pending = [root]
    while pending:
        current = pending.pop()
        if current.full_name in seen:
            continue
        seen.add(current.full_name)
        yield current
        pending.extend(field.message_type for field in current.fields if field.message_type is not None)


def declarations(root: Descriptor) -> Iterator[Rule]:
    """Every declaration on the fields of `root` and of the message types it reaches, each once."""
    for current in message_types(root):
        for field in current.fields:
            rule = declared(field)
            if rule is not None:
                yield rule


@dataclass(frozen=True)
class Governing:
    """The rule that applies at a path and the index of the seat its data belongs to, if any.

    `owner_index` is the index of the innermost repeated element at or around the declaring field
    (the declaring field's own element when it is repeated). `whole_list` says the path stops at the
    declaring repeated field itself, so for an owner rule each element has its own owner.
    """

    rule: Rule | None
    owner_index: int | None
    whole_list: bool


def governing(root: Descriptor, path: FieldPath) -> Governing:
    """The innermost declaration on `path` (None: no field on it declares one), with its owner index."""
    descriptor = root
    found = Governing(None, None, False)
    last_index: int | None = None
    for name, index in path:
        field = descriptor.fields_by_name[name]
        rule = declared(field)
        if rule is not None:
            if field.is_repeated:
                found = Governing(rule, index, index is None)
            else:
                found = Governing(rule, last_index, False)
        if index is not None:
            last_index = index
        if field.message_type is not None:
            descriptor = field.message_type
    return found


def config_in(state: Message, config_type: type[Message]) -> Message:
    """The game's Config message held in `state` (through singular fields), or an empty one."""
    pending: list[Message] = [state]
    while pending:
        current = pending.pop()
        for field in current.DESCRIPTOR.fields:
            if field.message_type is None or field.is_repeated:
                continue
            if field.message_type.full_name == config_type.DESCRIPTOR.full_name:
                found: Message = getattr(current, field.name)
                return found
            if current.HasField(field.name):
                pending.append(getattr(current, field.name))
    return config_type()


def bool_options(config: Message, info: GameInfo) -> dict[str, bool]:
    """Every true/false option's value in `config`; an unset one takes its GameInfo default."""
    defaults = {option.name: option.default == "true" for option in info.options}
    values: dict[str, bool] = {}
    for field in config.DESCRIPTOR.fields:
        if field.type != FieldDescriptor.TYPE_BOOL or field.is_repeated:
            continue
        value = bool(getattr(config, field.name))
        is_set = config.HasField(field.name) if field.has_presence else value
        values[field.name] = value if is_set else defaults.get(field.name, False)
    return values


def _read(message: Message, names: tuple[str, ...]) -> Any:
    value: Any = message
    for name in names:
        value = getattr(value, name)
    return value


def owned_per_element(found: Governing) -> bool:
    """Whether a path governed by `found` stops at a whole repeated field whose elements belong to
    different seats (an owner rule found by index): who sees it depends on the element."""
    rule = found.rule
    return rule is not None and rule.audience == OWNER and not rule.owner_seat_field and found.whole_list


def seers(state: Message, found: Governing, options: Mapping[str, bool], game_over: bool) -> Seers:
    """Who may see a part of `state` governed by `found` (`governing(state.DESCRIPTOR, path)`): None
    for everyone, else the set of seats. Raises ValueError for an owner rule with no owner (a path
    that is `owned_per_element`, or an owner rule outside any repeated field without owner_seat_field).
    """
    rule = found.rule
    if rule is None or rule.audience == PUBLIC:
        return None
    if rule.public_if_option and options.get(rule.public_if_option, False):
        return None
    if rule.public_when_over and game_over:
        return None
    if rule.audience == NOBODY:
        return frozenset()
    if rule.owner_seat_field:
        return frozenset({int(_read(state, rule.owner_seat_field))})
    if found.owner_index is None:
        raise ValueError(f"{rule.field}: no single seat owns this part; declare owner_seat_field")
    return frozenset({found.owner_index})


def sees(who: Seers, viewer: int | None) -> bool:
    """Whether `viewer` (None: a spectator) is among `who`."""
    return who is None or (viewer is not None and viewer in who)

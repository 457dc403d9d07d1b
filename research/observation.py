"""A title's View message as a fixed-length float vector, derived from the message's descriptor.

The encoding walks the View's fields in field-number order, the same for every title:

- a number (any integer or float type) is one float, its value;
- a bool is one float, 0 or 1;
- an enum is a one-hot over the values its `.proto` declares (a value it does not declare: zeros);
- a string or bytes field is left out (names, ids and text carry nothing a tensor can use);
- a sub-message is one float, 1 when it is set (0: its fields are zeros), then its fields;
- a field with presence (`optional`, a oneof member) has the same presence float first;
- a repeated field (a map's entries sorted by key) is one float, its length, then `bound` slots of
  its element's encoding, the first entries filling them and the rest zeros; entries past the bound
  are left out (the length still counts them).

The bounds come from a `Survey` of the title (its seeded random playouts: the longest each repeated
field was seen), so the vector's length depends only on the title, never on the player count or the
state. Sub-messages nest at most `MAX_DEPTH` deep; a recursive type stops there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

MAX_DEPTH = 8

F = FieldDescriptor
SKIPPED = (F.TYPE_STRING, F.TYPE_BYTES)

Bounds = Mapping[str, int]
"""The number of slots of each repeated field, by its path (`players.buildings`: field names from the
View, entries not counted)."""

Writer = Callable[[Any, np.ndarray, int], None]
"""Writes one value's encoding (a message, a number, an enum's number) into the vector from an offset."""


class RepeatedLengths:
    """Finds the longest each repeated field of one message type is in the messages it is shown."""

    def __init__(self, message: type[Message]) -> None:
        self.found: dict[str, int] = {}
        self._visit = _lengths_visitor(_described(message.DESCRIPTOR), "", 0, self.found)

    def see(self, message: Message) -> None:
        """Raise each repeated field's longest length to its length in `message`."""
        if self._visit is not None:
            self._visit(message)


def _described(descriptor: object) -> Descriptor:
    """A message type's descriptor, checked (protobuf's stubs type a field's message type as optional)."""
    if not isinstance(descriptor, Descriptor):
        raise TypeError(f"{descriptor!r} is not a message descriptor")
    return descriptor


def _lengths_visitor(
    descriptor: Descriptor, path: str, depth: int, found: dict[str, int]
) -> Callable[[Message], None] | None:
    """A function recording the repeated fields' lengths of a message, or None if it has none."""
    if depth >= MAX_DEPTH:
        return None
    steps: list[tuple[str, str, bool, Callable[[Message], None] | None]] = []
    for field in descriptor.fields:
        name = path + field.name
        inner = None
        if field.type == F.TYPE_MESSAGE and not _is_map_of_scalars(field):
            inner = _lengths_visitor(_described(field.message_type), name + ".", depth + 1, found)
        if field.is_repeated or inner is not None:
            steps.append((field.name, name, field.is_repeated, inner))

    def visit(message: Message) -> None:
        for attribute, name, repeated, inner in steps:
            value = getattr(message, attribute)
            if repeated:
                entries = list(value.values()) if hasattr(value, "values") else value
                if len(entries) > found.get(name, 0):
                    found[name] = len(entries)
                if inner is not None:
                    for entry in entries:
                        inner(entry)
            elif inner is not None and message.HasField(attribute):
                inner(value)

    return visit if steps else None


@dataclass(frozen=True)
class ViewEncoder:
    """The fixed-length encoding of one View message type under the given bounds."""

    size: int
    _write: Writer

    @classmethod
    def of(cls, view: type[Message], bounds: Bounds) -> ViewEncoder:
        """The encoder of `view` messages; a repeated field absent from `bounds` gets no slots."""
        size, write = _message(_described(view.DESCRIPTOR), bounds, "", 0)
        return cls(size, write)

    def encode(self, view: Message) -> np.ndarray:
        """The view's float32 vector of `size` entries."""
        vector = np.zeros(self.size, np.float32)
        self._write(view, vector, 0)
        return vector


def _is_map(field: FieldDescriptor) -> bool:
    return (
        field.is_repeated
        and field.type == F.TYPE_MESSAGE
        and bool(_described(field.message_type).GetOptions().map_entry)
    )


def _is_map_of_scalars(field: FieldDescriptor) -> bool:
    return _is_map(field) and _described(field.message_type).fields_by_name["value"].type != F.TYPE_MESSAGE


def _message(descriptor: Descriptor, bounds: Bounds, path: str, depth: int) -> tuple[int, Writer]:
    """The width of a message's encoding and its writer (its fields in number order)."""
    parts: list[tuple[FieldDescriptor, int, Writer]] = []
    offset = 0
    if depth < MAX_DEPTH:
        for field in sorted(descriptor.fields, key=lambda f: f.number):
            width, write = _field(field, bounds, path + field.name, depth)
            if width:
                parts.append((field, offset, write))
                offset += width

    def write_fields(message: Message, vector: np.ndarray, start: int) -> None:
        for _field_descriptor, at, write_field in parts:
            write_field(message, vector, start + at)

    return offset, write_fields


def _field(field: FieldDescriptor, bounds: Bounds, path: str, depth: int) -> tuple[int, Writer]:
    """The width and writer of one field of a message (the field read from the message)."""
    if field.is_repeated:
        return _repeated(field, bounds, path, depth)
    width, write_value = _value(field, bounds, path, depth)
    if width == 0:
        return 0, _nothing
    name = field.name
    if field.type == F.TYPE_MESSAGE or field.has_presence:

        def write_present(message: Message, vector: np.ndarray, start: int) -> None:
            if message.HasField(name):
                vector[start] = 1.0
                write_value(getattr(message, name), vector, start + 1)

        return 1 + width, write_present

    def write_plain(message: Message, vector: np.ndarray, start: int) -> None:
        write_value(getattr(message, name), vector, start)

    return width, write_plain


def _repeated(field: FieldDescriptor, bounds: Bounds, path: str, depth: int) -> tuple[int, Writer]:
    """A repeated field: its length, then `bounds[path]` slots of its entries."""
    slots = bounds.get(path, 0)
    if _is_map(field):
        entry = _described(field.message_type)
        width, write_entry = _message(entry, bounds, path + ".", depth + 1)
        key_name = entry.fields_by_name["key"].name
    else:
        width, write_entry = _value(field, bounds, path, depth)
        key_name = ""
    name = field.name

    def write(message: Message, vector: np.ndarray, start: int) -> None:
        value = getattr(message, name)
        if key_name:
            entries: list[object] = [_entry(entry, key, value[key], key_name) for key in sorted(value)]
        else:
            entries = list(value)
        vector[start] = float(len(entries))
        for index, entry in enumerate(entries[:slots]):
            write_entry(entry, vector, start + 1 + index * width)

    return 1 + slots * width, write


def _entry(entry: Descriptor, key: object, value: object, key_name: str) -> Message:
    """A map entry as its entry message, so that it encodes like any message."""
    from google.protobuf import message_factory

    message = message_factory.GetMessageClass(entry)()
    setattr(message, key_name, key)
    if isinstance(value, Message):
        message.value.CopyFrom(value)  # type: ignore[attr-defined]
    else:
        message.value = value  # type: ignore[attr-defined]
    return message


def _value(field: FieldDescriptor, bounds: Bounds, path: str, depth: int) -> tuple[int, Writer]:
    """The width and writer of one value of a field's type (the value given, not read)."""
    if field.type == F.TYPE_MESSAGE:
        return _message(_described(field.message_type), bounds, path + ".", depth + 1)
    if field.type in SKIPPED:
        return 0, _nothing
    if field.type == F.TYPE_ENUM:
        enum = field.enum_type
        if enum is None:
            raise TypeError(f"the enum field {field.full_name} has no enum type")
        positions = {value.number: index for index, value in enumerate(enum.values)}

        def write_enum(value: int, vector: np.ndarray, start: int) -> None:
            position = positions.get(value)
            if position is not None:
                vector[start + position] = 1.0

        return len(positions), write_enum

    def write_number(value: float, vector: np.ndarray, start: int) -> None:
        vector[start] = float(value)

    return 1, write_number


def _nothing(message: object, vector: np.ndarray, start: int) -> None:
    return None

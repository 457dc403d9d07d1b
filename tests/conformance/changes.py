"""One-part changes to a State message, found from its descriptor alone, for the visibility check.

Every change alters one part of the state: one scalar (a number one up or down, a bool flipped, an
enum moved to a neighbouring value), one element of a repeated scalar, the order of a repeated scalar
(reversed, rotated, two neighbours swapped: its length stays, as a stack's height does), or one unit
moved between two integer fields of one message (a count moved from corn to indigo: the total
stays). Parts are named by the field paths of `services.common.visibility`. Many changes give a state
the game refuses to decode; the check skips those. Nothing here names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from services.common.visibility import FieldPath

# A repeated scalar this long or shorter gets changes to each element; a longer one, to its ends.
ELEMENTS_PER_LIST = 6
# Singular messages deeper than this are not entered.
MAX_DEPTH = 12

INTEGER_TYPES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}


@dataclass(frozen=True)
class Change:
    """One change: the parts it alters (one, or the two fields a unit moves between), a readable
    description, whether the part held a value other than its default before, and how to make it."""

    parts: tuple[FieldPath, ...]
    what: str
    held: bool
    make: Callable[[Message], None]

    def on(self, state: Message) -> Message:
        """A changed copy of `state`."""
        changed = type(state)()
        changed.CopyFrom(state)
        self.make(changed)
        return changed


def dotted(path: FieldPath) -> str:
    """`table.players[2].vp` for a field path."""
    return ".".join(name if index is None else f"{name}[{index}]" for name, index in path)


def at(message: Message, path: FieldPath) -> Any:
    """The message at `path` inside `message`."""
    target: Any = message
    for name, index in path:
        target = getattr(target, name) if index is None else getattr(target, name)[index]
    return target


def changes(state: Message) -> Iterator[Change]:
    """Every one-part change of `state` this module knows, in field order."""
    yield from _message_changes(state, (), 0)


def scalar_values(field: FieldDescriptor, value: Any) -> list[Any]:
    """Other values for a scalar field holding `value`: neighbours for numbers and enums."""
    if field.type == FieldDescriptor.TYPE_BOOL:
        return [not value]
    if field.enum_type is not None:
        numbers = sorted(v.number for v in field.enum_type.values)
        if value not in numbers:
            return [numbers[0]]
        at_ = numbers.index(value)
        return sorted({numbers[(at_ + 1) % len(numbers)], numbers[at_ - 1]} - {value})
    if field.type in INTEGER_TYPES:
        low, high = INTEGER_TYPES[field.type]
        return [v for v in (value + 1, value - 1) if low <= v <= high]
    if field.type in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        return [value + 1.0]
    if field.type == FieldDescriptor.TYPE_STRING:
        return [value + "?"]
    return [value + b"?"]


def permutations(values: Sequence[Any]) -> list[list[Any]]:
    """Distinct reorderings of `values` (reversed, rotated by one, a differing pair swapped)."""
    original = list(values)
    found: list[list[Any]] = []
    candidates = [original[::-1], original[1:] + original[:1]]
    for i in range(len(original) - 1):
        if original[i] != original[i + 1]:
            swapped = list(original)
            swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
            candidates.append(swapped)
            break
    for candidate in candidates:
        if candidate != original and candidate not in found:
            found.append(candidate)
    return found


def _spread(count: int) -> list[int]:
    """The indices of a list of `count` elements that get their own changes: all of a short list (as
    long as a game has seats, so every element of a list kept per seat), the ends of a longer one."""
    if count <= ELEMENTS_PER_LIST:
        return list(range(count))
    return [0, count - 1]


def _set_field(path: FieldPath, name: str, value: Any) -> Callable[[Message], None]:
    def make(message: Message) -> None:
        setattr(at(message, path), name, value)

    return make


def _set_element(path: FieldPath, name: str, index: int, value: Any) -> Callable[[Message], None]:
    def make(message: Message) -> None:
        getattr(at(message, path), name)[index] = value

    return make


def _set_list(path: FieldPath, name: str, values: list[Any]) -> Callable[[Message], None]:
    def make(message: Message) -> None:
        target = getattr(at(message, path), name)
        del target[:]
        target.extend(values)

    return make


def _move_unit(path: FieldPath, source: str, target: str) -> Callable[[Message], None]:
    def make(message: Message) -> None:
        holder = at(message, path)
        setattr(holder, source, getattr(holder, source) - 1)
        setattr(holder, target, getattr(holder, target) + 1)

    return make


def _selected(message: Message, field: FieldDescriptor) -> bool:
    """Whether a field may be changed: not a map, and not an unselected member of a oneof."""
    if field.message_type is not None and field.message_type.GetOptions().map_entry:
        return False
    oneof = field.containing_oneof
    return oneof is None or message.WhichOneof(oneof.name) == field.name


def _message_changes(message: Message, prefix: FieldPath, depth: int) -> Iterator[Change]:
    if prefix:
        yield from _transfers(message, prefix)
    for field in message.DESCRIPTOR.fields:
        if not _selected(message, field):
            continue
        name = field.name
        value = getattr(message, name)
        if field.is_repeated and field.message_type is not None:
            for index, item in enumerate(value):
                yield from _message_changes(item, (*prefix, (name, index)), depth + 1)
        elif field.is_repeated:
            yield from _list_changes(prefix, field, list(value))
        elif field.message_type is not None:
            if depth < MAX_DEPTH and message.HasField(name):
                yield from _message_changes(value, (*prefix, (name, None)), depth + 1)
        else:
            path = (*prefix, (name, None))
            for new in scalar_values(field, value):
                what = f"{dotted(path)}: {value!r} -> {new!r}"
                yield Change((path,), what, bool(value), _set_field(prefix, name, new))


def _list_changes(prefix: FieldPath, field: FieldDescriptor, values: list[Any]) -> Iterator[Change]:
    name = field.name
    whole = (*prefix, (name, None))
    for reordered in permutations(values):
        yield Change((whole,), f"{dotted(whole)} reordered", True, _set_list(prefix, name, reordered))
    for index in _spread(len(values)):
        path = (*prefix, (name, index))
        for new in scalar_values(field, values[index]):
            what = f"{dotted(path)}: {values[index]!r} -> {new!r}"
            yield Change((path,), what, bool(values[index]), _set_element(prefix, name, index, new))


def _transfers(message: Message, path: FieldPath) -> Iterator[Change]:
    """A unit moved from each positive integer field to the next integer field of `message`."""
    counts = [
        field.name
        for field in message.DESCRIPTOR.fields
        if field.type in INTEGER_TYPES and not field.is_repeated and field.containing_oneof is None
    ]
    if len(counts) < 2:
        return
    for position, source in enumerate(counts):
        if getattr(message, source) > 0:
            target = counts[(position + 1) % len(counts)]
            what = f"{dotted(path)}: one {source} moved to {target}"
            parts = ((*path, (source, None)), (*path, (target, None)))
            yield Change(parts, what, True, _move_unit(path, source, target))

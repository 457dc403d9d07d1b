"""Views as the golden playthroughs print them: a message as one `path: value` line per value, in
field order, and the lines that changed between two such renderings.

Paths name fields (`table.players[2].doubloons`, `[key]` for map entries); enums print their value
names, booleans true/false, strings quoted, bytes in hex, repeated scalars as one `[a, b]` line. A
field without presence prints even at its default, so a change to zero shows; one with presence
prints only when set. Unlike `cli.render`, which words a view for people and leaves empty fields
out, this keeps every value at a stable path, so a diff names the field that changed.
"""

from __future__ import annotations

from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

Lines = dict[str, str]
ABSENT = "(absent)"


def _scalar(field: Any, value: Any) -> str:
    """One value of `field` (a FieldDescriptor) as text."""
    if field.type == FieldDescriptor.TYPE_ENUM:
        known = field.enum_type.values_by_number.get(value)
        return known.name if known else str(value)
    if field.type == FieldDescriptor.TYPE_BOOL:
        return "true" if value else "false"
    if field.type == FieldDescriptor.TYPE_STRING:
        return repr(value)
    if field.type == FieldDescriptor.TYPE_BYTES:
        return bytes(value).hex() or "''"
    return str(value)


def _message(message: Message, path: str) -> Lines:
    return flatten(message, path + ".") or {path: "{}"}


def flatten(message: Message, prefix: str = "", only: frozenset[str] | None = None) -> Lines:
    """Every value of `message` by its path, in field order (of its fields named in `only`, if given)."""
    lines: Lines = {}
    for field in message.DESCRIPTOR.fields:
        if only is not None and field.name not in only:
            continue
        path = prefix + field.name
        value = getattr(message, field.name)
        if field.is_repeated and field.message_type is not None and field.message_type.GetOptions().map_entry:
            entry = field.message_type.fields_by_name["value"]
            for key in sorted(value):
                if entry.message_type is not None:
                    lines.update(_message(value[key], f"{path}[{key}]"))
                else:
                    lines[f"{path}[{key}]"] = _scalar(entry, value[key])
        elif field.is_repeated and field.message_type is not None:
            for index, item in enumerate(value):
                lines.update(_message(item, f"{path}[{index}]"))
        elif field.is_repeated:
            lines[path] = "[" + ", ".join(_scalar(field, item) for item in value) + "]"
        elif field.message_type is not None:
            if message.HasField(field.name):
                lines.update(_message(value, path))
        elif not field.has_presence or message.HasField(field.name):
            lines[path] = _scalar(field, value)
    return lines


def beyond(message: Message, base: Message) -> Lines:
    """What `message` shows differently from `base`, a message of the same type: its own values, and
    ABSENT where it lacks one of `base`'s. Only the top-level fields that differ are rendered."""
    differing = frozenset(
        field.name
        for field in message.DESCRIPTOR.fields
        if getattr(message, field.name) != getattr(base, field.name)
        or (field.has_presence and message.HasField(field.name) != base.HasField(field.name))
    )
    lines, base_lines = flatten(message, only=differing), flatten(base, only=differing)
    own = {path: value for path, value in lines.items() if base_lines.get(path) != value}
    return own | {path: ABSENT for path in base_lines if path not in lines}


def changes(before: Lines, after: Lines) -> list[str]:
    """`path: old -> new` for every path whose value differs, in the order of `after`, then those gone."""
    paths = [*after, *(path for path in before if path not in after)]
    return [
        f"{path}: {before.get(path, ABSENT)} -> {after.get(path, ABSENT)}"
        for path in paths
        if before.get(path, ABSENT) != after.get(path, ABSENT)
    ]

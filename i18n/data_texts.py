"""The translatable texts of a title's static data (a tile's cost, a card's words): each is a Text of
the title's catalog in a field `<name>_message` (`<name>_messages` for a list), beside the English it
renders to in the field `<name>`, `<name>s` or `<name>_text` of the same message. A client shows the
data in its reader's language by rendering those Texts (`translated` does it to a copy)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import cast

from boardgame.rules.v1 import rules_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

TEXT = rules_pb2.Text.DESCRIPTOR.full_name
SUFFIXES = ("_messages", "_message")
ENGLISH_NAMES = ("{}", "{}s", "{}_text")  # where a Text field's English is, by the name before its suffix


class NoEnglish(ValueError):
    """A Text field of a title's data named or placed otherwise than the convention says."""


def english_field(field: FieldDescriptor, holder: Descriptor) -> FieldDescriptor:
    """The string field beside a Text field (of the message `holder` describes) that holds its English."""
    suffix = next((s for s in SUFFIXES if field.name.endswith(s)), None)
    if suffix is None:
        raise NoEnglish(f"{field.full_name}: a Text of a title's data is named <name>_message(s)")
    base = field.name.removesuffix(suffix)
    fields = holder.fields_by_name
    found = [fields[name.format(base)] for name in ENGLISH_NAMES if name.format(base) in fields]
    if (
        len(found) != 1
        or found[0].type != FieldDescriptor.TYPE_STRING
        or found[0].is_repeated != field.is_repeated
    ):
        raise NoEnglish(f"{field.full_name}: no one string field of its English ({ENGLISH_NAMES} of {base})")
    return found[0]


def texts(message: Message) -> Iterator[tuple[Message, FieldDescriptor, FieldDescriptor]]:
    """Every Text field set in `message` and the messages below it: the message holding it, the
    field, and the field of its English."""
    for field, value in message.ListFields():
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        if field.message_type is not None and field.message_type.full_name == TEXT:
            yield message, field, english_field(field, cast(Descriptor, message.DESCRIPTOR))
            continue
        for inner in value if field.is_repeated else [value]:
            yield from texts(inner)


def pairs(data: Message) -> Iterator[tuple[rules_pb2.Text, str]]:
    """Every Text of a title's data with the English beside it."""
    for holder, field, english in texts(data):
        if field.is_repeated:
            yield from zip(getattr(holder, field.name), getattr(holder, english.name), strict=True)
        else:
            yield getattr(holder, field.name), getattr(holder, english.name)


def translated(data: Message, render: Callable[[rules_pb2.Text], str | None]) -> Message:
    """A copy of `data` whose English words are `render`'s of their Texts, where it gives some."""
    copy = type(data)()
    copy.CopyFrom(data)
    for holder, field, english in texts(copy):
        if field.is_repeated:
            words = getattr(holder, english.name)
            for index, text in enumerate(getattr(holder, field.name)):
                words[index] = render(text) or words[index]
        else:
            setattr(
                holder, english.name, render(getattr(holder, field.name)) or getattr(holder, english.name)
            )
    return copy

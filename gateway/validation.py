"""Field limits of every request, read from the request's message descriptor: checked before a call
does any work, so an oversize string or an out-of-range number never reaches Redis, a rules service
or an error trailer.

Every string field has a length (DEFAULT_TEXT unless TEXT names the field), every integer field the
range INTEGERS, every enum field one of its values; nested messages and repeated fields are checked
element by element. A field is named by its name alone, so one entry
covers it in every request that has it (`game_id` is the same id everywhere). Handlers still check
what depends on stored data (a seat within a lobby's seat count) or on a pattern (a user name).

Every string but the WRITTEN ones is an id or a name of the API's (a game id, a title, an option's
value, a page token): it holds printable characters only, never a control, format or separator
character but the space, so a NUL never reaches PostgreSQL nor an escape a log. What people write for
others (display names, chat) has the rule of `gateway.written`, checked by its handlers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from google.protobuf import descriptor, message

from gateway.written import described


@dataclass(frozen=True)
class Length:
    """How many characters a string field may have."""

    least: int
    most: int


@dataclass(frozen=True)
class Range:
    """The values an integer field may take."""

    least: int
    most: int


DEFAULT_TEXT = Length(0, 128)
TEXT = {
    "game_id": Length(1, 64),
    "lobby_id": Length(0, 64),  # an empty one is refused by the lobby service with its own reason
    "request_id": Length(1, 64),
    "title": Length(0, 64),
    "invite_code": Length(0, 64),
    "page_token": Length(0, 512),
    "text": Length(1, 280),  # a chat message (`gateway.chat`)
    "from_event_id": Length(0, 64),
    "takeback_id": Length(0, 64),  # an empty one is refused by AnswerTakeback with its own reason
}
WRITTEN = frozenset({"display_name", "text", "password"})  # `gateway.written`'s; a password may hold anything
INTEGERS = Range(0, 2**31 - 1)  # every number a request carries is a count, a seat or a version

_INTEGER_TYPES = {
    descriptor.FieldDescriptor.TYPE_INT32,
    descriptor.FieldDescriptor.TYPE_INT64,
    descriptor.FieldDescriptor.TYPE_UINT32,
    descriptor.FieldDescriptor.TYPE_UINT64,
    descriptor.FieldDescriptor.TYPE_SINT32,
    descriptor.FieldDescriptor.TYPE_SINT64,
    descriptor.FieldDescriptor.TYPE_FIXED32,
    descriptor.FieldDescriptor.TYPE_FIXED64,
    descriptor.FieldDescriptor.TYPE_SFIXED32,
    descriptor.FieldDescriptor.TYPE_SFIXED64,
}


@dataclass(frozen=True)
class Violation:
    """One field outside its limits: its path (`clock.per_move_seconds`, `options[1].name`), what is
    wrong with it, for a person, and the ErrorInfo reason: `INVALID_<the request's field>`
    (`INVALID_CLOCK` for `clock.per_move_seconds`), or `INVALID_ENUM_VALUE`."""

    path: str
    description: str
    reason: str


def _length(length: Length) -> str:
    if length.least:
        return f"must have {length.least} to {length.most} characters"
    return f"must have at most {length.most} characters"


def _values(request: message.Message, field: Any) -> Iterator[tuple[str, Any]]:
    """(suffix of the path, value) of each value of the field, a repeated field element by element."""
    value = getattr(request, field.name)
    if field.is_repeated:
        for index, item in enumerate(value):
            yield f"[{index}]", item
    elif field.containing_oneof is not None and not request.HasField(field.name):
        return  # an unset member of a oneof (another member is the one set)
    elif field.type != descriptor.FieldDescriptor.TYPE_MESSAGE or request.HasField(field.name):
        yield "", value


def unprintable(value: str) -> tuple[int, str] | None:
    """The position and the character of an id's first character that is not printable, or None."""
    if value.isprintable():
        return None
    return next((n, c) for n, c in enumerate(value) if not c.isprintable())


def violations(request: message.Message, prefix: str = "", top: str = "") -> Iterator[Violation]:
    """Every field of `request` (and of the messages inside it) that is outside its limits."""
    for field in request.DESCRIPTOR.fields:
        for suffix, value in _values(request, field):
            path = f"{prefix}{field.name}{suffix}"
            reason = f"INVALID_{(top or field.name).upper()}"
            if isinstance(value, message.Message):
                yield from violations(value, f"{path}.", top or field.name)
            elif field.type == descriptor.FieldDescriptor.TYPE_STRING:
                length = TEXT.get(field.name, DEFAULT_TEXT)
                if not length.least <= len(value) <= length.most:
                    yield Violation(path, f"{_length(length)}, not {len(value)}", reason)
                elif field.name not in WRITTEN and (found := unprintable(value)) is not None:
                    yield Violation(path, described(*found), reason)
            elif field.enum_type is not None:
                if value not in field.enum_type.values_by_number:
                    yield Violation(path, f"has no value {value}", "INVALID_ENUM_VALUE")
            elif field.type in _INTEGER_TYPES and not INTEGERS.least <= value <= INTEGERS.most:
                yield Violation(path, f"must be {INTEGERS.least} to {INTEGERS.most}, not {value}", reason)


def first_violation(request: message.Message) -> Violation | None:
    """The request's first field outside its limits, or None."""
    return next(violations(request), None)

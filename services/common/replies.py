"""The wire bytes of an ApplyActionResponse written directly from the parts a rules call already has
encoded (the state, events, views and actions), so that the reply is parsed once instead of being
built message by message (boardgame.rules.v1: the field numbers below are that package's)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from services.common.convert import packed, varint


def field(number: int, body: bytes) -> bytes:
    """A length-delimited field: its tag, its length and `body`."""
    return varint(number << 3 | 2) + varint(len(body)) + body


def type_url_field(type_url: str) -> bytes:
    """An Any's type_url field (field 1), the head of every Any of that type."""
    return field(1, type_url.encode())


def any_body(url_field: bytes, value: bytes) -> bytes:
    """An Any's bytes: its type_url field (`type_url_field`) and its value (field 2)."""
    return url_field + b"\x12" + varint(len(value)) + value if value else url_field


def seats_and_flag(seats: Sequence[int], over: bool, first: int) -> bytes:
    """Fields `first` (the seats, packed) and `first + 1` (true when the game is over)."""
    data = field(first, packed(seats)) if seats else b""
    return data + bytes(((first + 1) << 3, 1)) if over else data


def event(url_field: bytes, detail: bytes, text: str, visible_to: Sequence[int]) -> bytes:
    """An Event field (2) of the reply: its detail, text and audience."""
    body = field(1, any_body(url_field, detail)) + (field(2, text.encode()) if text else b"")
    if visible_to:
        body += field(3, packed(visible_to))
    wire = getattr(text, "wire", None)  # an i18n Message: its Text
    return field(2, body + field(4, wire) if wire is not None else body)


def action_field(action_any: bytes) -> bytes:
    """A LegalAction's action field (1) from its packed action's Any bytes."""
    return field(1, action_any)


def legal_action(action: bytes, label: str) -> bytes:
    """A GetViewResponse's legal_actions field (4) from the `action_field` and its label."""
    wire = getattr(label, "wire", None)  # an i18n Message: its Text
    body = action + field(2, label.encode()) if label else action
    return field(4, body + field(3, wire) if wire is not None else body)


def view_response(number: int, view_any: bytes, shared: bytes, legal: Iterable[bytes] = ()) -> bytes:
    """A GetViewResponse field `number` of the reply: the view, the `seats_and_flag(..., 2)` of
    every view, and the seat's `legal_action` fields."""
    return field(number, b"".join((b"\x0a", varint(len(view_any)), view_any, shared, *legal)))


UNDOABLE = bytes((9 << 3, 1))  # ApplyActionResponse.undoable, true


def undo_barriers(reasons: Sequence[int]) -> bytes:
    """An ApplyActionResponse's undo_barriers (field 8, packed), or its `undoable` flag without any."""
    return field(8, packed(reasons)) if reasons else UNDOABLE


def apply_response(state_any: bytes, events: Iterable[bytes], shared: bytes, views: Iterable[bytes]) -> bytes:
    """An ApplyActionResponse's bytes: the state, the `event` fields, `seats_and_flag(..., 3)`, and
    the `view_response` fields."""
    return b"".join((b"\x0a", varint(len(state_any)), state_any, *events, shared, *views))

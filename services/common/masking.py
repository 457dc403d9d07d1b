"""Hiding parts of an encoded message from a viewer: fields of chosen entries of a repeated field set
to given values (a seat's VP shown to the other seats as hidden), the message parsed and written again."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from google.protobuf.message import Message


def masked(
    message_class: type[Message], data: bytes, path: str, indices: Iterable[int], values: Mapping[str, Any]
) -> bytes:
    """`data`, the deterministic bytes of a `message_class` message, with `values` (field name ->
    value) set on the entries `indices` of the repeated field at `path` (dotted, as "table.players"):
    `data` itself when there are none."""
    chosen = list(indices)
    if not chosen:
        return data
    message = message_class.FromString(data)
    *outer, last = path.split(".")
    holder: Any = message
    for name in outer:
        holder = getattr(holder, name)
    entries = getattr(holder, last)
    for index in chosen:
        for name, value in values.items():
            setattr(entries[index], name, value)
    return bytes(message.SerializeToString(deterministic=True))

"""Finding fields in a message's encoded bytes, to splice what several messages share (a view that
differs from the State's table in one repeated field) without parsing them."""

from __future__ import annotations

# The bytes after a field's key, by wire type: fixed64 and fixed32 (varint and length-delimited are
# read).
FIXED_SIZE = {1: 8, 5: 4}


def read_varint(data: bytes, at: int) -> tuple[int, int]:
    """The varint starting at offset `at` of `data`, and the offset after it."""
    value, shift = 0, 0
    while True:
        byte = data[at]
        value |= (byte & 127) << shift
        at += 1
        if byte < 128:
            return value, at
        shift += 7


def body(field: bytes) -> bytes:
    """The message bytes of one length-delimited field (its key and length stripped)."""
    _, at = read_varint(field, 0)
    length, at = read_varint(field, at)
    return field[at : at + length]


def field_spans(data: bytes, number: int) -> list[tuple[int, int]]:
    """The (start, end) offsets in a message's bytes of each field numbered `number`, key included,
    read up to the first field numbered higher (a deterministic writer writes fields in number order)."""
    spans, at = [], 0
    while at < len(data):
        key, after = read_varint(data, at)
        if key >> 3 > number:
            break
        kind = key & 7
        if kind == 0:
            _, end = read_varint(data, after)
        elif kind == 2:
            length, after = read_varint(data, after)
            end = after + length
        elif kind in FIXED_SIZE:
            end = after + FIXED_SIZE[kind]
        else:
            raise ValueError(f"wire type {kind} at offset {at} is not one a writer writes")
        if key >> 3 == number:
            spans.append((at, end))
        at = end
    return spans

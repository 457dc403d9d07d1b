"""Hypothesis strategies for bad requests: numbers at and past every limit, text with unicode and
control characters, random Any values, messages of any type built from their descriptors (every enum
value and unknown ones), and forged copies of real messages (a field changed, an element dropped or
repeated, the bytes truncated or flipped)."""

from __future__ import annotations

from typing import Any

from google.protobuf import any_pb2, descriptor, message
from hypothesis import strategies as st

FD = descriptor.FieldDescriptor
INT32 = (-(2**31), 2**31 - 1)
INT64 = (-(2**63), 2**63 - 1)
UINT32 = (0, 2**32 - 1)
UINT64 = (0, 2**64 - 1)
RANGES = {
    FD.TYPE_INT32: INT32,
    FD.TYPE_SINT32: INT32,
    FD.TYPE_SFIXED32: INT32,
    FD.TYPE_INT64: INT64,
    FD.TYPE_SINT64: INT64,
    FD.TYPE_SFIXED64: INT64,
    FD.TYPE_UINT32: UINT32,
    FD.TYPE_FIXED32: UINT32,
    FD.TYPE_UINT64: UINT64,
    FD.TYPE_FIXED64: UINT64,
}
MAX_DEPTH = 4


def wild_ints(least: int, most: int) -> st.SearchStrategy[int]:
    """Integers of a range, weighted to its ends, zero, small numbers and the 32-bit limits."""
    edges = [v for v in (least, most, 0, -1, 1, 2, 2**31 - 1, 2**31, -(2**31), 2**32) if least <= v <= most]
    return st.one_of(
        st.sampled_from(edges),
        st.integers(-3, 12).filter(lambda v: least <= v <= most),
        st.integers(least, most),
    )


def numbers() -> st.SearchStrategy[int]:
    """Any int64 a request field could carry, weighted to the edges."""
    return wild_ints(*INT64)


def text(max_size: int = 80) -> st.SearchStrategy[str]:
    """Strings with unicode, control characters, surrogate-free astral planes, and long runs."""
    return st.one_of(
        st.text(max_size=max_size),
        st.text(st.characters(codec="utf-8", categories=["Cc", "Cf", "Zs", "Zl", "Zp", "Mn"]), max_size=12),
        st.sampled_from(["", " ", "\x00", "\n", "\u202e", "é", "🂡", "a" * 65, "a" * 129, "x" * 600]),
        st.from_regex(r"[a-z0-9_-]{1,70}", fullmatch=True),
    )


def type_urls(known: list[str]) -> st.SearchStrategy[str]:
    """Type URLs: the known message types (under other prefixes too), near misses and junk."""
    return st.one_of(
        st.sampled_from([f"type.googleapis.com/{name}" for name in known]),
        st.sampled_from(known).map(lambda name: f"example.com/x/{name}"),
        st.sampled_from(known).map(lambda name: f"type.googleapis.com/{name}x"),
        st.sampled_from(["", "/", "type.googleapis.com/", "google.protobuf.Empty", "a/b/c"]),
        text(60),
    )


def any_values(known: list[str]) -> st.SearchStrategy[any_pb2.Any]:
    """Any messages with a type URL of `type_urls` and random bytes."""
    return st.builds(any_pb2.Any, type_url=type_urls(known), value=st.binary(max_size=200))


def _scalar(field: descriptor.FieldDescriptor) -> st.SearchStrategy[Any]:
    if field.type == FD.TYPE_ENUM:
        numbers_ = [value.number for value in field.enum_type.values]
        return st.one_of(st.sampled_from(numbers_), wild_ints(*INT32))
    if field.type in RANGES:
        return wild_ints(*RANGES[field.type])
    if field.type == FD.TYPE_BOOL:
        return st.booleans()
    if field.type == FD.TYPE_STRING:
        return text()
    if field.type == FD.TYPE_BYTES:
        return st.binary(max_size=80)
    return st.floats(allow_nan=True)


def _assign(target: message.Message, field: descriptor.FieldDescriptor, value: Any) -> None:
    if field.is_repeated:
        container = getattr(target, field.name)
        if field.type == FD.TYPE_MESSAGE:
            for item in value:
                container.add().CopyFrom(item)
        else:
            container.extend(value)
    elif field.type == FD.TYPE_MESSAGE:
        getattr(target, field.name).CopyFrom(value)
    else:
        setattr(target, field.name, value)


@st.composite
def messages(draw: st.DrawFn, message_class: type[message.Message], depth: int = 0) -> message.Message:
    """A message of `message_class` with a random subset of its fields set to wild values (one member
    of each oneof at most), nested messages built the same way to MAX_DEPTH."""
    built = message_class()
    fields = list(message_class.DESCRIPTOR.fields)
    chosen = (
        draw(st.lists(st.sampled_from(fields), unique=True, max_size=min(len(fields), 6))) if fields else []
    )
    for field in chosen:
        if field.containing_oneof is not None and built.WhichOneof(field.containing_oneof.name):
            continue
        if field.type == FD.TYPE_MESSAGE:
            if depth >= MAX_DEPTH or field.message_type.GetOptions().map_entry:
                continue
            item = messages(field.message_type._concrete_class, depth + 1)
            value = draw(st.lists(item, max_size=3)) if field.is_repeated else draw(item)
        else:
            value = draw(st.lists(_scalar(field), max_size=4)) if field.is_repeated else draw(_scalar(field))
        _assign(built, field, value)
    return built


def paths(msg: message.Message, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every (…, field) path of a set or settable field in `msg`, into set submessages and elements."""
    found: list[tuple[Any, ...]] = []
    for field in msg.DESCRIPTOR.fields:
        found.append((*prefix, field))
        if field.type != FD.TYPE_MESSAGE:
            continue
        if field.is_repeated:
            for index, item in enumerate(getattr(msg, field.name)):
                if isinstance(item, message.Message):
                    found.extend(paths(item, (*prefix, field, index)))
        elif msg.HasField(field.name):
            found.extend(paths(getattr(msg, field.name), (*prefix, field)))
    return found


def holder_of(root: message.Message, path: tuple[Any, ...]) -> message.Message:
    """The message that holds the last field of `path`."""
    holder = root
    steps = list(path[:-1])
    while steps:
        field = steps.pop(0)
        value = getattr(holder, field.name)
        if steps and isinstance(steps[0], int):
            value = value[steps.pop(0)]
        holder = value
    return holder


@st.composite
def forged(draw: st.DrawFn, original: message.Message) -> message.Message:
    """A copy of `original` with one to three of its fields changed: a scalar set to a wild value, a
    repeated field shortened, lengthened with a copy or a wild element, or cleared, a submessage
    cleared or replaced by a random one."""
    copy = type(original)()
    copy.CopyFrom(original)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(copy)))
        field = path[-1]
        holder = holder_of(copy, path)
        if field.is_repeated:
            container = getattr(holder, field.name)
            choice = draw(st.sampled_from(["drop", "repeat", "wild", "clear"]))
            if choice == "drop" and len(container):
                del container[draw(st.integers(0, len(container) - 1))]
            elif choice == "repeat" and len(container):
                item = container[draw(st.integers(0, len(container) - 1))]
                if field.type == FD.TYPE_MESSAGE:
                    container.add().CopyFrom(item)
                else:
                    container.append(item)
            elif choice == "wild":
                if field.type == FD.TYPE_MESSAGE:
                    if not field.message_type.GetOptions().map_entry:
                        container.add().CopyFrom(
                            draw(messages(field.message_type._concrete_class, MAX_DEPTH))
                        )
                else:
                    container.append(draw(_scalar(field)))
            else:
                holder.ClearField(field.name)
        elif field.type == FD.TYPE_MESSAGE:
            if draw(st.booleans()):
                holder.ClearField(field.name)
            else:
                getattr(holder, field.name).CopyFrom(draw(messages(field.message_type._concrete_class, 2)))
        else:
            setattr(holder, field.name, draw(_scalar(field)))
    return copy


def damaged(data: bytes) -> st.SearchStrategy[bytes]:
    """The bytes cut short, with some bytes flipped, with junk appended, or wholly random."""
    cut = st.integers(0, max(len(data) - 1, 0)).map(lambda n: data[:n])

    @st.composite
    def flipped(draw: st.DrawFn) -> bytes:
        out = bytearray(data)
        for _ in range(draw(st.integers(1, 4))):
            if out:
                out[draw(st.integers(0, len(out) - 1))] = draw(st.integers(0, 255))
        return bytes(out)

    return st.one_of(
        cut,
        flipped(),
        st.binary(min_size=1, max_size=40).map(lambda junk: data + junk),
        st.binary(max_size=300),
    )

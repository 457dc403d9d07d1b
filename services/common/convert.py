"""Conversion between native values and a game's protobuf messages, generated from their descriptors.

One `Converter` serves every message type its root messages reach. For each it compiles, once at
import, a straight-line writer (native value -> the message's deterministic wire bytes, no message
built) and a reader (parsed message -> native value). A game declares only where its native values
differ from the default reading of its messages:

- A message's native value is an object whose attributes are named as the message's fields, or,
  with `Shape(sequence=True)`, a tuple (or list) of its field values in field-number order. An absent
  sub-message or unset `optional`/oneof field is None; a repeated field is any iterable.
- An enum field holds the enum's number minus the enum's offset (`enum_offsets`, so that native ids
  may count from 0 while the enum's 0 is UNSPECIFIED); an int field naming an id may declare its own
  offset (`Shape.offsets`).
- `Shape.names` renames a field's native attribute; `Shape.get` computes a field's native value from
  the message's native value (one call, for what the game keeps in another layout).
- A singular message field may hold bytes: that sub-message already encoded (to splice what several
  messages share, such as the table of every View).

Readers return `Shape.make(*values)` (the field values in field order); by default a NamedTuple
named as the message, a plain tuple for a sequence. A field named like a Python keyword has the
native attribute `name_`. They refuse, as
MalformedRequest, an enum value the enum does not declare. What else a decoded value must satisfy
is the engine's `validate(state)`.
"""

from __future__ import annotations

import collections
import keyword
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from google.protobuf.descriptor import FieldDescriptor as F
from google.protobuf.message import Message

from services.common.errors import MalformedRequest

# Descriptors, as the upb and pure-Python implementations both type them.
Descriptor = Any
EnumDescriptor = Any
FieldDescriptor = Any
SMALL = tuple(bytes((i,)) for i in range(128))
VARINT_KINDS = frozenset((F.TYPE_INT32, F.TYPE_INT64, F.TYPE_UINT32, F.TYPE_UINT64, F.TYPE_ENUM, F.TYPE_BOOL))
ZIGZAG_KINDS = frozenset((F.TYPE_SINT32, F.TYPE_SINT64))
TEXT_KINDS = frozenset((F.TYPE_STRING, F.TYPE_BYTES))


def varint(value: int) -> bytes:
    """The varint encoding of `value`; a negative value as its 64-bit two's complement, as protobuf
    encodes a negative int32 or int64."""
    if 0 <= value < 128:
        return SMALL[value]
    if value < 0:
        value += 1 << 64
    out = bytearray()
    while value > 127:
        out.append(value & 127 | 128)
        value >>= 7
    out.append(value)
    return bytes(out)


def zigzag(value: int) -> bytes:
    """The varint of a sint32 or sint64 value."""
    return varint(value << 1 if value >= 0 else (-value << 1) - 1)


def packed(values: Iterable[int]) -> bytes:
    """The body of a packed repeated varint field."""
    try:
        data = bytes(values)
    except (ValueError, TypeError):
        return b"".join([varint(v) for v in values])
    if data.isascii():  # every value below 128 is its own one-byte varint
        return data
    return b"".join([varint(v) for v in data])


def leading_field(data: bytes) -> bytes:
    """The first field of encoded message bytes, tag and length included, when it is field 1 and
    length-delimited (a writer writes fields in number order); b"" when it is absent."""
    if not data or data[0] != 0x0A:
        return b""
    length, shift, at = 0, 0, 1
    while True:
        byte = data[at]
        length |= (byte & 127) << shift
        at += 1
        if byte < 128:
            return data[: at + length]
        shift += 7


@dataclass(frozen=True)
class Shape:
    """How the native value of one message type differs from the default reading (see the module)."""

    sequence: bool = False
    names: Mapping[str, str] = field(default_factory=dict)
    get: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    make: Callable[..., Any] | None = None
    offsets: Mapping[str, int] = field(default_factory=dict)


DEFAULT_SHAPE = Shape()


def _ident(descriptor: Descriptor | EnumDescriptor) -> str:
    return descriptor.full_name.replace(".", "_")


def _tag(number: int, wire_type: int) -> bytes:
    return varint(number << 3 | wire_type)


def _attr(target: str, name: str) -> str:
    return f"getattr({target}, {name!r})" if keyword.iskeyword(name) else f"{target}.{name}"


def native_name(name: str) -> str:
    """The native attribute of a field by default: its name, with "_" after a Python keyword."""
    return name + "_" if keyword.iskeyword(name) else name


def _has_presence(f: FieldDescriptor) -> bool:
    return not _repeated(f) and f.type != F.TYPE_MESSAGE and f.has_presence


def _repeated(f: FieldDescriptor) -> bool:
    return bool(f.is_repeated)


def _kind_supported(f: FieldDescriptor) -> bool:
    return (
        f.type in VARINT_KINDS or f.type in ZIGZAG_KINDS or f.type in TEXT_KINDS or f.type == F.TYPE_MESSAGE
    )


class Converter:
    """The writers and readers of every message type that `roots` reach."""

    def __init__(
        self,
        roots: Iterable[type[Message]],
        shapes: Mapping[Any, Shape] | None = None,
        enum_offsets: Mapping[Any, int] | None = None,
    ) -> None:
        self._shapes = {cls.DESCRIPTOR.full_name: shape for cls, shape in (shapes or {}).items()}
        self._offsets = {
            getattr(enum, "DESCRIPTOR", enum).full_name: offset
            for enum, offset in (enum_offsets or {}).items()
        }
        self._env: dict[str, Any] = {"V": varint, "Z": zigzag, "P": packed, "bad": _bad}
        self._types: dict[str, Descriptor] = {}
        lines: list[str] = []
        pending: list[Descriptor] = [cls.DESCRIPTOR for cls in roots]
        while pending:
            descriptor = pending.pop()
            if descriptor.full_name in self._types:
                continue
            self._types[descriptor.full_name] = descriptor
            pending += [f.message_type for f in descriptor.fields if f.type == F.TYPE_MESSAGE]
            lines += self._writer(descriptor) + self._reader(descriptor)
        unknown = set(self._shapes) - set(self._types)
        if unknown:
            raise ValueError(f"shapes for message types no root reaches: {sorted(unknown)}")
        self.source = "\n".join(lines)
        exec(compile(self.source, "<services.common.convert>", "exec"), self._env)

    def writer(self, message_class: type[Message]) -> Callable[[Any], bytes]:
        """The function from a native value to the deterministic wire bytes of `message_class`."""
        return self._env["w_" + _ident(message_class.DESCRIPTOR)]

    def reader(self, message_class: type[Message]) -> Callable[[Message], Any]:
        """The function from a parsed `message_class` message to its native value."""
        return self._env["r_" + _ident(message_class.DESCRIPTOR)]

    def record(self, descriptor: Descriptor) -> type:
        """The default native class of a message type: a NamedTuple of its fields (native names)."""
        names = [native_name(f.name) for f in sorted(descriptor.fields, key=lambda f: f.number)]
        return collections.namedtuple(descriptor.name, names)

    def _shape(self, descriptor: Descriptor) -> Shape:
        return self._shapes.get(descriptor.full_name, DEFAULT_SHAPE)

    def _offset(self, f: FieldDescriptor, shape: Shape) -> int:
        if f.name in shape.offsets:
            return shape.offsets[f.name]
        if f.type == F.TYPE_ENUM:
            return self._offsets.get(f.enum_type.full_name, 0)
        return 0

    def _fields(self, descriptor: Descriptor) -> list[FieldDescriptor]:
        fields = sorted(descriptor.fields, key=lambda f: f.number)
        for f in fields:
            if not _kind_supported(f):
                raise ValueError(f"{descriptor.full_name}.{f.name}: field type {f.type} is not supported")
        return fields

    def _writer(self, descriptor: Descriptor) -> list[str]:
        shape = self._shape(descriptor)
        ident = _ident(descriptor)
        body = [f"def w_{ident}(o):", "    out = []", "    a = out.append"]
        for position, f in enumerate(self._fields(descriptor)):
            if f.name in shape.get:
                getter = f"G_{ident}_{f.name}"
                self._env[getter] = shape.get[f.name]
                value = f"{getter}(o)"
            elif shape.sequence:
                value = f"o[{position}]"
            else:
                value = f"o.{shape.names.get(f.name, native_name(f.name))}"
            body += [f"    v = {value}", *self._write_field(f, self._offset(f, shape))]
        body.append("    return b''.join(out)")
        return ["\n".join(body) + "\n"]

    def _write_field(self, f: FieldDescriptor, offset: int) -> list[str]:
        plus = f" + {offset}" if offset else ""
        if f.type == F.TYPE_MESSAGE:
            sub = "w_" + _ident(f.message_type)
            tag = _tag(f.number, 2)
            if _repeated(f):
                return [
                    "    for x in v:",
                    f"        b = {sub}(x); a({tag!r}); a(V(len(b))); a(b)",
                ]
            return [
                "    if v is not None:",
                f"        b = v if v.__class__ is bytes else {sub}(v); a({tag!r}); a(V(len(b))); a(b)",
            ]
        if f.type in TEXT_KINDS:
            tag = _tag(f.number, 2)
            encode = ".encode()" if f.type == F.TYPE_STRING else ""
            if _repeated(f):
                return ["    for x in v:", f"        b = x{encode}; a({tag!r}); a(V(len(b))); a(b)"]
            condition = "v is not None" if _has_presence(f) else "v"
            return [f"    if {condition}:", f"        b = v{encode}; a({tag!r}); a(V(len(b))); a(b)"]
        encoder = "Z" if f.type in ZIGZAG_KINDS else "V"
        if _repeated(f):
            tag = _tag(f.number, 2)
            if f.type == F.TYPE_BOOL:
                items = "bytes([1 if x else 0 for x in v])"
            elif encoder == "Z":
                items = "b''.join([Z(x) for x in v])"
            else:
                items = f"P([x{plus} for x in v])" if offset else "P(v)"
            return ["    if v:", f"        b = {items}; a({tag!r}); a(V(len(b))); a(b)"]
        tag = _tag(f.number, 0)
        if f.type == F.TYPE_BOOL:
            condition = "v is not None" if _has_presence(f) else "v"
            true, false = tag + SMALL[1], tag + SMALL[0]
            return [f"    if {condition}:", f"        a({true!r} if v else {false!r})"]
        if _has_presence(f):
            return ["    if v is not None:", f"        a({tag!r}); a({encoder}(v{plus}))"]
        if offset:
            return [f"    v = v{plus}", "    if v:", f"        a({tag!r}); a({encoder}(v))"]
        return ["    if v:", f"        a({tag!r}); a({encoder}(v))"]

    def _reader(self, descriptor: Descriptor) -> list[str]:
        shape = self._shape(descriptor)
        ident = _ident(descriptor)
        body = [f"def r_{ident}(m):"]
        names = []
        for number, f in enumerate(self._fields(descriptor)):
            name = f"f{number}"
            names.append(name)
            body += self._read_field(descriptor, f, name, self._offset(f, shape))
        values = ", ".join(names)
        if shape.sequence and shape.make is None:
            body.append(f"    return ({values},)" if len(names) == 1 else f"    return ({values})")
        else:
            self._env["M_" + ident] = shape.make or self.record(descriptor)
            body.append(f"    return M_{ident}({values})")
        return ["\n".join(body) + "\n"]

    def _read_field(self, descriptor: Descriptor, f: FieldDescriptor, name: str, offset: int) -> list[str]:
        value = _attr("m", f.name)
        minus = f" - {offset}" if offset else ""
        lines: list[str] = []
        if f.type == F.TYPE_MESSAGE:
            sub = "r_" + _ident(f.message_type)
            if _repeated(f):
                return [f"    {name} = [{sub}(x) for x in {value}]"]
            return [f"    {name} = {sub}({value}) if m.HasField({f.name!r}) else None"]
        if _repeated(f):
            lines.append(
                f"    {name} = [x{minus} for x in {value}]" if offset else f"    {name} = list({value})"
            )
        elif _has_presence(f):
            lines.append(f"    {name} = {value}{minus} if m.HasField({f.name!r}) else None")
        else:
            lines.append(f"    {name} = {value}{minus}")
        if f.type == F.TYPE_ENUM:
            numbers = f"E_{_ident(f.enum_type)}"
            self._env[numbers] = frozenset(v.number - offset for v in f.enum_type.values)
            where = f"{descriptor.name}.{f.name}"
            if _repeated(f):
                check = f"    if not {numbers}.issuperset({name}): bad({where!r}, {name}, {offset})"
            elif _has_presence(f):
                check = (
                    f"    if {name} is not None and {name} not in {numbers}: bad({where!r}, {name}, {offset})"
                )
            else:
                check = f"    if {name} not in {numbers}: bad({where!r}, {name}, {offset})"
            lines.append(check)
        return lines


def _bad(where: str, value: Any, offset: int) -> None:
    shown = [v + offset for v in value] if isinstance(value, list) else value + offset
    raise MalformedRequest(f"{where} holds {shown}, which its enum does not declare", field=where)


def oneof_writer(
    converter: Converter, message_class: type[Message], oneof: str, members: Mapping[type, str] | None = None
) -> Callable[[Any], bytes]:
    """A writer of `message_class` from the native value of one member of its oneof `oneof`, chosen by
    the native value's class: the member whose message type has the class's name (an event NamedTuple
    TileTaken is the member of message type TileTaken), unless `members` names it."""
    descriptor: Descriptor = message_class.DESCRIPTOR
    by_type = {f.message_type.name: f for f in descriptor.oneofs_by_name[oneof].fields if f.message_type}
    chosen = dict(members or {})
    heads: dict[type, tuple[bytes, Callable[[Any], bytes]]] = {}

    def write(native: Any) -> bytes:
        cls = native.__class__
        head = heads.get(cls)
        if head is None:
            member = descriptor.fields_by_name[chosen[cls]] if cls in chosen else by_type[cls.__name__]
            head = heads[cls] = (
                _tag(member.number, 2),
                converter.writer(_message_class(message_class, member)),
            )
        tag, sub = head
        body = sub(native)
        return tag + varint(len(body)) + body

    return write


def _message_class(parent: type[Message], member: FieldDescriptor) -> type[Message]:
    return type(getattr(parent(), member.name))

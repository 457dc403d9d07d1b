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
  the message's native value (one call, for what the game keeps in another layout), and `Shape.put`
  stores it back on decoding; `Shape.layouts` gives both for the common other layouts (`Columns`,
  `Tally`, `Keyed`, `Gather`, `Indexed`, `Inline`). `options` is the shape of a game's options,
  `Union` that of a message of one oneof of enums read as one id.
- A singular message field may hold bytes: that sub-message already encoded (to splice what several
  messages share, such as the table of every View).

Readers return a new `Shape.into` object with the fields' values in its attributes (its
`__init__` not called), or `Shape.make(*values)` (the field values in field order); by default a NamedTuple
named as the message, a plain tuple for a sequence. A field named like a Python keyword has the
native attribute `name_`. They refuse, as
MalformedRequest, an enum value the enum does not declare. What else a decoded value must satisfy
is the engine's `validate(state)`.
"""

from __future__ import annotations

import collections
import keyword
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, partial
from operator import attrgetter
from typing import Any

from google.protobuf import message_factory
from google.protobuf.descriptor import FieldDescriptor as F
from google.protobuf.message import Message

from services.common.errors import MalformedRequest

# Descriptors, as the upb and pure-Python implementations both type them.
Descriptor = Any
EnumDescriptor = Any
FieldDescriptor = Any
SMALL = tuple(bytes((i,)) for i in range(128))
TWO_BYTES = 1 << 14
TWO = tuple(bytes((i & 127 | 128, i >> 7)) for i in range(128, TWO_BYTES))  # the two-byte varints
VARINT_KINDS = frozenset((F.TYPE_INT32, F.TYPE_INT64, F.TYPE_UINT32, F.TYPE_UINT64, F.TYPE_ENUM, F.TYPE_BOOL))
ZIGZAG_KINDS = frozenset((F.TYPE_SINT32, F.TYPE_SINT64))
TEXT_KINDS = frozenset((F.TYPE_STRING, F.TYPE_BYTES))


def varint(value: int) -> bytes:
    """The varint encoding of `value`; a negative value as its 64-bit two's complement, as protobuf
    encodes a negative int32 or int64."""
    if 0 <= value < 128:
        return SMALL[value]
    if 0 < value < TWO_BYTES:
        return TWO[value - 128]
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
    """The native value from the field values in field order (`list`: a list of them)."""
    offsets: Mapping[str, int] = field(default_factory=dict)
    into: type | None = None
    """Decode into a new object of this class (made without calling its __init__): each field's
    value goes to its native attribute, or to `put`'s function for a field the game keeps otherwise."""
    put: Mapping[str, Callable[[Any, Any], None]] = field(default_factory=dict)
    """With `into`: field -> function(native object, decoded value) storing what `get` computes
    (a field without one is stored in its native attribute, computed or not)."""
    finish: Callable[[Any], Any] | None = None
    """With `into`: the decoded value is finish(object) (to set what no field holds)."""
    frozen: bool = False
    """Its native values never change (a frozen config): a wire reader remembers each by its bytes."""
    key: Callable[[Any], Any] | None = None
    """A hashable value equal for native values of equal encodings (a board's counts): a writer
    remembers each encoding by it."""
    copy: Callable[[Any], Any] | None = None
    """A copy of a native value (a player's board): a wire reader remembers each value by its bytes
    and gives a copy of it (what recurs from call to call, as the boards of the seats not acting)."""
    layouts: Mapping[str, Layout] = field(default_factory=dict)
    """Fields kept in a generic other layout (`Columns`, `Tally`, `Keyed`, `Gather`): their `get` and
    `put` (a field's own `get` or `put` wins)."""
    absent: Callable[[], Any] | None = None
    """Makes the native value of an absent field of this message type (by default None)."""
    base: str | None = None
    """The field whose native value is the message's own object (the other fields are stored on it,
    with `put` or in their native attributes); decoding refuses the message without it."""
    constants: Mapping[str, Any] = field(default_factory=dict)
    """With `into` or `base`: attributes no field holds, set to these immutable values on decoding."""

    def merged(self) -> Shape:
        """The shape with its layouts' get and put functions in `get` and `put`."""
        if not self.layouts and self.base is None:
            return self
        get: dict[str, Callable[[Any], Any]] = {name: layout.get for name, layout in self.layouts.items()}
        put: dict[str, Callable[[Any, Any], None]] = {
            name: layout.put for name, layout in self.layouts.items()
        }
        if self.base is not None:
            get[self.base] = _itself
        return replace(self, get={**get, **self.get}, put={**put, **self.put})


DEFAULT_SHAPE = Shape()


def _itself(value: Any) -> Any:
    return value


class Layout:
    """A repeated field the game keeps otherwise than as a list of its entries (see Shape.layouts):
    `get` gives the field's native value from the message's native object, `put` stores a decoded
    one on it, refusing (MalformedRequest) what that layout cannot hold."""

    def get(self, native: Any) -> Any:
        raise NotImplementedError

    def put(self, native: Any, value: Any) -> None:
        raise NotImplementedError

    def key_parts(self, native: str) -> list[str]:
        """Expressions of hashable values equal for native values whose field encodings are equal."""
        return [f"tuple({native}.{attribute})" for attribute in getattr(self, "attributes", ())]


def ATTRIBUTES(native: Any) -> Any:
    """`Shape.key` marker: the key is the values of the native attributes that the message's fields
    hold (a list or dict as a tuple of its items), generated from the shape."""
    raise NotImplementedError


def _refuse(what: str) -> None:
    raise MalformedRequest(f"invalid state: {what}")


class Columns(Layout):
    """Entries kept as parallel lists, one attribute per field of the entry (a role card's role,
    doubloons and taken flag in three lists)."""

    def __init__(self, *attributes: str) -> None:
        self.attributes = attributes
        self._columns = attrgetter(*attributes)

    def get(self, native: Any) -> Any:
        return zip(*self._columns(native), strict=True)

    def put(self, native: Any, value: Any) -> None:
        columns = list(zip(*value, strict=True)) or [()] * len(self.attributes)
        for attribute, column in zip(self.attributes, columns, strict=True):
            setattr(native, attribute, list(column))


class Tally(Layout):
    """Entries (id, count, *more) kept as lists indexed by the id, one attribute per field after the
    id with its length (an id beyond a shorter list holds 0 there): an entry is written for each id
    whose count is not 0; decoding refuses an id listed twice or negative (unset), or a count of 0."""

    def __init__(self, **sizes: int) -> None:
        self.sizes = sizes
        self.attributes = tuple(sizes)
        self._columns = attrgetter(*sizes)

    def get(self, native: Any) -> Any:
        if len(self.attributes) == 1:
            return [(i, count) for i, count in enumerate(self._columns(native)) if count]
        counts, *others = self._columns(native)
        if len(others) == 1:
            (other,) = others
            size = len(other)
            return [(i, count, other[i] if i < size else 0) for i, count in enumerate(counts) if count]
        return [
            (i, count, *[column[i] if i < len(column) else 0 for column in others])
            for i, count in enumerate(counts)
            if count
        ]

    def put(self, native: Any, value: Any) -> None:
        columns = [[0] * size for size in self.sizes.values()]
        counts = columns[0]
        if len(columns) == 1:
            for i, count in value:
                if i < 0 or counts[i] or count <= 0:
                    self._refuse()
                counts[i] = count
        elif len(columns) == 2:
            other = columns[1]
            size = len(other)
            for i, count, more in value:
                if i < 0 or counts[i] or count <= 0:
                    self._refuse()
                counts[i] = count
                if i < size:
                    other[i] = more
                elif more:
                    self._refuse()
        else:
            for i, count, *more in value:
                if i < 0 or counts[i] or count <= 0:
                    self._refuse()
                counts[i] = count
                for column, extra in zip(columns[1:], more, strict=True):
                    if i < len(column):
                        column[i] = extra
                    elif extra:
                        self._refuse()
        for attribute, column in zip(self.attributes, columns, strict=True):
            setattr(native, attribute, column)

    def _refuse(self) -> None:
        what = "an id listed twice or unset, a count not above 0, or a count where none can be"
        _refuse(f"{self.attributes[0]}: {what}")


class Keyed(Layout):
    """Entries (id, value) kept as a dict in their order; decoding refuses an id listed twice or
    negative (unset)."""

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute

    def get(self, native: Any) -> Any:
        return getattr(native, self.attribute).items()

    def key_parts(self, native: str) -> list[str]:
        return [f"tuple({native}.{self.attribute}.items())"]

    def put(self, native: Any, value: Any) -> None:
        kept = dict(value)
        if len(kept) != len(value) or min(kept, default=0) < 0:
            _refuse(f"{self.attribute}: an id listed twice or unset")
        setattr(native, self.attribute, kept)


class Gather(Layout):
    """One entry per item of a list attribute (a seat's hidden counts, per player): each item's
    `attribute`. With `written`, the field is written only when written(native) holds, and decoding
    gives each item absent() when it is empty; decoding refuses another number of entries."""

    def __init__(
        self,
        items: str,
        attribute: str,
        written: Callable[[Any], bool] | None = None,
        absent: Callable[[], Any] | None = None,
    ) -> None:
        self.items, self.attribute, self.written, self.absent = items, attribute, written, absent

    def get(self, native: Any) -> Any:
        if self.written is not None and not self.written(native):
            return ()
        attribute = self.attribute
        return [getattr(item, attribute) for item in getattr(native, self.items)]

    def put(self, native: Any, value: Any) -> None:
        items = getattr(native, self.items)
        if not value and self.absent is not None:
            value = [self.absent() for _ in items]
        if len(value) != len(items):
            _refuse(f"one {self.attribute} entry per item of {self.items}")
        for item, entry in zip(items, value, strict=True):
            setattr(item, self.attribute, entry)


class Indexed(Layout):
    """Entries (index, value) kept as the list of their values, one entry per item in its order (a
    market row per resource); decoding refuses an entry out of its place."""

    def __init__(self, attribute: str) -> None:
        self.attribute = attribute
        self.attributes = (attribute,)

    def get(self, native: Any) -> Any:
        return enumerate(getattr(native, self.attribute))

    def put(self, native: Any, value: Any) -> None:
        if [index for index, _ in value] != list(range(len(value))):
            _refuse(f"{self.attribute}: an entry out of its place")
        setattr(native, self.attribute, [item for _, item in value])


class Inline(Layout):
    """A singular sub-message whose fields are attributes of the message's own object (a turn kept
    flat on the state, for the engine's speed): the field's native value is that object itself (the
    sub-message's shape computes or names its fields from it, and its reader gives their values as a
    tuple: `make=field_values`). Decoding calls reset(object), then, for a set sub-message, stores
    each value in the attribute its field names, through `put`'s function for the fields named there,
    and those of the sub-messages `inline` names in the same way (None: left as reset made them)."""

    def __init__(
        self,
        message_class: type[Message],
        reset: Callable[[Any], None],
        put: Mapping[str, Callable[[Any, Any], None]] | None = None,
        inline: Iterable[str] = (),
    ) -> None:
        self.reset, self._put, self._inline = reset, dict(put or {}), frozenset(inline)
        self._fields = self._plan(message_class.DESCRIPTOR)

    def _plan(self, descriptor: Descriptor) -> list[tuple[str, Any]]:
        """(native attribute, the plan of an inlined sub-message or None) per field in field order."""
        return [
            (native_name(f.name), self._plan(f.message_type) if f.name in self._inline else None)
            for f in sorted(descriptor.fields, key=lambda f: f.number)
        ]

    def get(self, native: Any) -> Any:
        return native

    def put(self, native: Any, value: Any) -> None:
        self.reset(native)
        if value is not None:
            self._store(native, self._fields, value)

    def _store(self, native: Any, fields: list[tuple[str, Any]], values: Any) -> None:
        for (name, inner), value in zip(fields, values, strict=True):
            if name in self._put:
                self._put[name](native, value)
            elif inner is None:
                setattr(native, name, value)
            elif value is not None:
                self._store(native, inner, value)


def field_values(*values: Any) -> tuple[Any, ...]:
    """`Shape.make` giving a message's field values as a tuple in field order (see `Inline`)."""
    return values


def options(message_class: type[Message], native_class: type, always_written: Iterable[str] = ()) -> Shape:
    """The shape of a game's options (a frozen dataclass with the message's field names and their
    defaults): an unset option (None, or 0 in a plain number or enum field) takes its default; an
    enum option's native value is its value's name in lower case without the enum's prefix
    (BUILDING_SET_DRAFT: "draft"); an option is written only when it differs from its default,
    those of `always_written` always."""
    default = native_class()
    descriptor: Descriptor = message_class.DESCRIPTOR
    fields = sorted(descriptor.fields, key=lambda f: f.number)
    names = [f.name for f in fields]
    named: dict[str, dict[int, Any]] = {}
    for f in fields:
        if f.type == F.TYPE_ENUM:
            prefix = len(f.enum_type.values_by_number[0].name) - len("UNSPECIFIED")
            named[f.name] = {v.number: v.name[prefix:].lower() for v in f.enum_type.values if v.number}
            named[f.name][0] = getattr(default, f.name)
    numbers = {
        name: {value: number for number, value in table.items() if number} for name, table in named.items()
    }
    always = frozenset(always_written)

    @cache  # a game's options are a few values among few choices
    def make(*values: Any) -> Any:
        chosen = {}
        for name, value in zip(names, values, strict=True):
            if name in named:
                value = named[name][value]
            elif value is None or (type(value) is int and value == 0):
                value = getattr(default, name)
            chosen[name] = value
        return native_class(**chosen)

    def getter(name: str) -> Callable[[Any], Any]:
        def get(config: Any) -> Any:
            value = getattr(config, name)
            if name not in always and value == getattr(default, name):
                return None
            return numbers[name][value] if name in numbers else value

        return get

    return Shape(
        get={name: getter(name) for name in names},
        make=make,
        offsets=dict.fromkeys(named, 0),  # their native values are names
        frozen=True,
        key=_itself,
        absent=native_class,
    )


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


MEMO_SIZE = 4096  # the field encodings a leaf message type remembers


def _field_writer(tag: bytes, writer: str, env: dict[str, Any], memo: str) -> Callable[[Any], bytes]:
    """The function writing a leaf sub-message's whole field and remembering it by value."""

    def write(value: Any) -> bytes:
        body = env[writer](value)
        data = tag + varint(len(body)) + body
        remembered = env[memo]
        if len(remembered) < MEMO_SIZE:
            remembered[value if value.__class__ is tuple else tuple(value)] = data
        return data

    return write


def reachable(roots: Iterable[type[Message]]) -> list[Descriptor]:
    """The descriptors of `roots` and of every message type their fields reach, each once."""
    seen: dict[str, Descriptor] = {}
    pending: list[Descriptor] = [cls.DESCRIPTOR for cls in roots]
    while pending:
        descriptor = pending.pop()
        if descriptor.full_name not in seen:
            seen[descriptor.full_name] = descriptor
            pending += [f.message_type for f in descriptor.fields if f.type == F.TYPE_MESSAGE]
    return list(seen.values())


class Converter:
    """The writers and readers of every message type that `roots` reach."""

    def __init__(
        self,
        roots: Iterable[type[Message]],
        shapes: Mapping[Any, Shape] | None = None,
        enum_offsets: Mapping[Any, int] | None = None,
        field_offsets: Mapping[str, int] | None = None,
    ) -> None:
        """`enum_offsets` gives per enum, `field_offsets` per field name in every message type (a
        tile number counting from 1 where the native index counts from 0), what a native id is
        short of its number; a shape's own `offsets` win."""
        self._shapes = {cls.DESCRIPTOR.full_name: shape.merged() for cls, shape in (shapes or {}).items()}
        self._field_offsets = dict(field_offsets or {})
        self._offsets = {
            getattr(enum, "DESCRIPTOR", enum).full_name: offset
            for enum, offset in (enum_offsets or {}).items()
        }
        self._env: dict[str, Any] = {
            "V": varint,
            "Z": zigzag,
            "P": packed,
            "S": SMALL,
            "bad": _bad,
            "EL": _enum_list,
            "VR": _varint_rest,
            "SKIP": _skip,
            "UNPACK": _unpacked,
            "I32": _int32,
            "I64": _int64,
            "NO": Unsupported,
            "MEMO": MEMO_SIZE,
            "MalformedRequest": MalformedRequest,
            **{f"PV_{kind}": convert for kind, convert in PACKED_VALUES.items()},
        }
        self._tagged: list[str] = []
        self._names = 0
        self._types = {descriptor.full_name: descriptor for descriptor in reachable(roots)}
        lines: list[str] = []
        self._wire = False
        for descriptor in self._types.values():
            lines += self._writer(descriptor) + self._reader(descriptor)
        self._wire = True
        for descriptor in self._types.values():
            lines += self._wire_reader(descriptor)
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

    def decoder(self, message_class: type[Message]) -> Callable[[bytes], Any]:
        """The function from the wire bytes of a `message_class` message to its native value, what
        `reader` gives for the parsed message, read straight from the bytes. When that fails (a
        sub-message written twice or a field with an unexpected wire type, left to the parser; bytes
        that are not a message; a value the reader refuses), the bytes are parsed and read as
        `reader` does, so that a failure is the one the parser and reader give (DecodeError for
        bytes that are not a message)."""
        read_bytes, read = self.wire_reader(message_class), self.reader(message_class)
        parse = message_class.FromString

        def decode(data: bytes) -> Any:
            try:
                return read_bytes(data)
            except Exception:  # the parser's and reader's own failure, if any, is the answer
                return read(parse(data))

        return decode

    def wire_reader(self, message_class: type[Message]) -> Callable[[bytes], Any]:
        """`decoder`'s reading straight from the bytes alone: Unsupported (or the error of a value it
        cannot read) where `decoder` parses the bytes instead."""
        return self._env["b_" + _ident(message_class.DESCRIPTOR)]

    def record(self, descriptor: Descriptor) -> type:
        """The default native class of a message type: a NamedTuple of its fields (native names)."""
        names = [native_name(f.name) for f in sorted(descriptor.fields, key=lambda f: f.number)]
        return collections.namedtuple(descriptor.name, names)

    def _shape(self, descriptor: Descriptor) -> Shape:
        return self._shapes.get(descriptor.full_name, DEFAULT_SHAPE)

    def _offset(self, f: FieldDescriptor, shape: Shape) -> int:
        if f.name in shape.offsets:
            return shape.offsets[f.name]
        if f.name in self._field_offsets:
            return self._field_offsets[f.name]
        if f.type == F.TYPE_ENUM:
            return self._offsets.get(f.enum_type.full_name, 0)
        return 0

    def _fields(self, descriptor: Descriptor) -> list[FieldDescriptor]:
        fields = sorted(descriptor.fields, key=lambda f: f.number)
        for f in fields:
            if not _kind_supported(f):
                raise ValueError(f"{descriptor.full_name}.{f.name}: field type {f.type} is not supported")
        return fields

    def _name(self, prefix: str) -> str:
        """A name no other generated expression uses."""
        self._names += 1
        return f"{prefix}{self._names}"

    def _is_leaf(self, descriptor: Descriptor) -> bool:
        """Whether a message type holds no sub-message and computes no field: inlined where used."""
        shape = self._shape(descriptor)
        return not shape.get and all(f.type != F.TYPE_MESSAGE for f in descriptor.fields)

    def _writer(self, descriptor: Descriptor) -> list[str]:
        ident = _ident(descriptor)
        key = self._shape(descriptor).key
        body = [f"def {'W' if key else 'w'}_{ident}(o):", "    out = []", "    a = out.append"]
        body += self._write_fields(descriptor, "o", "out", "a", 1)
        body.append("    return b''.join(out)")
        if key is ATTRIBUTES:
            body.append(f"def KY_{ident}(o):\n    return ({', '.join(self._key_parts(descriptor))},)")
        elif key is not None:
            self._env["KY_" + ident] = key
        if key is not None:  # remembered by the key
            self._env["WM_" + ident] = {}
            body.append(
                f"def w_{ident}(o):\n    k = KY_{ident}(o)\n    b = WM_{ident}.get(k)\n    if b is None:\n"
                f"        b = W_{ident}(o)\n        if len(WM_{ident}) >= MEMO: WM_{ident}.clear()\n"
                f"        WM_{ident}[k] = b\n    return b"
            )
        return ["\n".join(body) + "\n"]

    def _key_parts(self, descriptor: Descriptor) -> list[str]:
        """The expressions of an ATTRIBUTES key of a message type's native value `o`."""
        shape, parts = self._shape(descriptor), []
        for f in self._fields(descriptor):
            if f.name in shape.layouts:
                parts += shape.layouts[f.name].key_parts("o")
            elif f.name in shape.get or shape.sequence or not self._plain_values(f):
                raise ValueError(f"{descriptor.full_name}.{f.name}: an ATTRIBUTES key needs plain values")
            else:
                value = _attr("o", shape.names.get(f.name, native_name(f.name)))
                many = _repeated(f) or f.type == F.TYPE_MESSAGE  # a list (a sub-message's too)
                parts.append(f"tuple({value})" if many else value)
        return parts

    def _plain_values(self, f: FieldDescriptor) -> bool:
        """Whether a field's native value is a scalar, or a list or tuple of scalars or tuples."""
        if f.type != F.TYPE_MESSAGE:
            return True
        sub = self._shape(f.message_type)
        return self._is_leaf(f.message_type) and (sub.make is list or (sub.sequence and sub.make is None))

    def _write_fields(self, descriptor: Descriptor, native: str, out: str, add: str, depth: int) -> list[str]:
        """Lines appending the encoding of every field of the message whose native value is `native`."""
        shape = self._shape(descriptor)
        ident = _ident(descriptor)
        pad = "    " * depth
        lines = []
        for position, f in enumerate(self._fields(descriptor)):
            if f.name in shape.get:
                getter = f"G_{ident}_{f.name}"
                self._env[getter] = shape.get[f.name]
                value = f"{getter}({native})"
            elif shape.sequence:
                value = f"{native}[{position}]"
            else:
                value = f"{native}.{shape.names.get(f.name, native_name(f.name))}"
            v = f"v{depth}"
            lines.append(f"{pad}{v} = {value}")
            lines += [pad + line for line in self._write_field(f, self._offset(f, shape), v, out, add, depth)]
        return lines

    def _write_field(
        self, f: FieldDescriptor, offset: int, v: str, out: str, a: str, depth: int
    ) -> list[str]:
        plus = f" + {offset}" if offset else ""
        length = "(S[n] if n < 128 else V(n))"
        if f.type == F.TYPE_MESSAGE:
            sub = f.message_type
            tag = _tag(f.number, 2)
            if self._shape(sub).sequence and self._is_leaf(sub) and not any(_repeated(g) for g in sub.fields):
                # A leaf of plain values: its whole field's bytes, remembered by value (bounded).
                memo, field_writer = f"MEMO_{len(self._tagged)}", f"WF_{len(self._tagged)}"
                self._tagged.append(memo)
                self._env[memo] = {}
                self._env[field_writer] = _field_writer(tag, "w_" + _ident(sub), self._env, memo)
                key = "k if k.__class__ is tuple else tuple(k)"
                lookup = [f"b = {memo}.get({key})", f"{a}(b if b is not None else {field_writer}(k))"]
                if _repeated(f):
                    return ["for k in " + v + ":", *["    " + line for line in lookup]]
                return [f"if {v} is not None:", f"    k = {v}", *["    " + line for line in lookup]]
            if _repeated(f) and self._is_leaf(sub):
                x, part = f"x{depth}", f"p{depth}"
                return [
                    f"for {x} in {v}:",
                    f"    {part} = []",
                    # The leaf's lines, indented one level below this field's.
                    *[
                        ln[4 * depth :]
                        for ln in self._write_fields(sub, x, part, part + ".append", depth + 1)
                    ],
                    f"    b = b''.join({part}); n = len(b); {out} += ({tag!r}, {length}, b)",
                ]
            writer = "w_" + _ident(sub)
            if _repeated(f):
                return [f"for x in {v}:", f"    b = {writer}(x); n = len(b); {out} += ({tag!r}, {length}, b)"]
            return [
                f"if {v} is not None:",
                f"    b = {v} if {v}.__class__ is bytes else {writer}({v}); n = len(b)",
                f"    {out} += ({tag!r}, {length}, b)",
            ]
        if f.type in TEXT_KINDS:
            tag = _tag(f.number, 2)
            encode = ".encode()" if f.type == F.TYPE_STRING else ""
            if _repeated(f):
                return [f"for x in {v}:", f"    b = x{encode}; n = len(b); {out} += ({tag!r}, {length}, b)"]
            condition = f"{v} is not None" if _has_presence(f) else v
            return [f"if {condition}:", f"    b = {v}{encode}; n = len(b); {out} += ({tag!r}, {length}, b)"]
        if _repeated(f):
            tag = _tag(f.number, 2)
            if f.type == F.TYPE_BOOL:
                items = f"bytes([1 if x else 0 for x in {v}])"
            elif f.type in ZIGZAG_KINDS:
                items = f"b''.join([Z(x) for x in {v}])"
            else:
                items = f"P([x{plus} for x in {v}])" if offset else f"P({v})"
            return [f"if {v}:", f"    b = {items}; n = len(b); {out} += ({tag!r}, {length}, b)"]
        tag = _tag(f.number, 0)
        if f.type == F.TYPE_BOOL:
            condition = f"{v} is not None" if _has_presence(f) else v
            true, false = tag + SMALL[1], tag + SMALL[0]
            return [f"if {condition}:", f"    {a}({true!r} if {v} else {false!r})"]
        if f.type in ZIGZAG_KINDS:
            condition = f"{v} is not None" if _has_presence(f) else v
            return [f"if {condition}:", f"    {a}({tag!r} + Z({v}))"]
        tagged = f"T_{len(self._tagged)}"
        self._tagged.append(tagged)
        self._env[tagged] = tuple(tag + SMALL[i] for i in range(128))
        write = f"{a}({tagged}[{v}] if -1 < {v} < 128 else {tag!r} + V({v}))"
        if _has_presence(f):
            return [f"if {v} is not None:", f"    {v} = {v}{plus}", f"    {write}"]
        if offset:
            return [f"{v} = {v}{plus}", f"if {v}:", f"    {write}"]
        return [f"if {v}:", f"    {write}"]

    def _reader(self, descriptor: Descriptor) -> list[str]:
        ident = _ident(descriptor)
        shape = self._shape(descriptor)
        if shape.into is None and shape.base is None:
            return [f"def r_{ident}(m):\n    return {self._read_message(descriptor, 'm', 0)}\n"]
        body = [f"def r_{ident}(m):"]
        if shape.base is not None:  # the message's own object, read first
            base = descriptor.fields_by_name[shape.base]
            self._env["NB_" + ident] = f"{descriptor.name} lacks its {shape.base}"
            body += [
                f"    o = {self._read_field(descriptor, base, 'm', 0, 0)}",
                f"    if o is None: raise MalformedRequest(NB_{ident})",
            ]
        else:
            self._env["C_" + ident] = shape.into
            body.append(f"    o = C_{ident}.__new__(C_{ident})")
        for name, constant in shape.constants.items():
            self._env[f"CT_{ident}_{name}"] = constant
            body.append(f"    o.{name} = CT_{ident}_{name}")
        for f in self._fields(descriptor):
            if f.name == shape.base:
                continue
            value = self._read_field(descriptor, f, "m", self._offset(f, shape), 0)
            if f.name in shape.put:
                putter = f"U_{ident}_{f.name}"
                self._env[putter] = shape.put[f.name]
                body.append(f"    {putter}(o, {value})")
            else:
                body.append(f"    o.{shape.names.get(f.name, native_name(f.name))} = {value}")
        if shape.finish is not None:
            self._env["F_" + ident] = shape.finish
            body.append(f"    return F_{ident}(o)")
        else:
            body.append("    return o")
        return ["\n".join(body) + "\n"]

    def _wire_reader(self, descriptor: Descriptor) -> list[str]:
        """`b_<type>(data)`: the native value of the message in `data`, its fields first read from
        the wire into locals `L<number>` (raising Unsupported for what it leaves to the parser)."""
        ident = _ident(descriptor)
        fields = self._fields(descriptor)
        body = [f"def b_{ident}(d):"]
        for f in fields:
            body.append(f"    L{f.number} = {_wire_default(f)}")
        known = f"K_{ident}"
        self._env[known] = frozenset(f.number for f in fields)
        branches = [(tag, lines) for f in fields for tag, lines in _wire_branches(f)]
        body += [
            "    i = 0",
            "    n = len(d)",
            "    while i < n:",
            "        t = d[i]; i += 1",
            "        if t > 127:",  # a field number above 15: a two-byte tag, read inline
            "            u = d[i]; i += 1",
            "            if u < 128: t = t & 127 | u << 7",
            "            else: t, i = VR(d, i - 1, t)",
            *["        " + line for line in _dispatch(sorted(branches), known)],
        ]
        reader = self._reader(descriptor)[0].split("\n")
        into = self._shape(descriptor).into or self._shape(descriptor).base
        body += [line for line in reader[1:] if line.strip()] if into else []
        if not into:
            body.append(f"    return {self._read_message(descriptor, 'm', 0)}")
        shape = self._shape(descriptor)
        if self._remembered(descriptor):
            memo = f"BM_{ident}"
            self._env[memo] = {}
            body[0] = f"def B_{ident}(d):"
            # Remembered as a tuple and given as a new list, or given as a copy, or shared.
            kept, given = "v", "v"
            if shape.make is list:
                kept, given = "tuple(v)", "list(v)"
            elif shape.copy is not None:
                self._env["CP_" + ident] = shape.copy
                given = f"CP_{ident}(v)"
            body.append(
                f"def b_{ident}(d):\n    v = {memo}.get(d)\n    if v is not None:\n        return {given}\n"
                f"    v = B_{ident}(d)\n    if len({memo}) >= MEMO: {memo}.clear()\n    {memo}[d] = {kept}\n"
                f"    return {given}"
            )
        return ["\n".join(body) + "\n"]

    def _remembered(self, descriptor: Descriptor) -> bool:
        """Whether a wire reader remembers the message type's native values by their bytes (`BM_`):
        a frozen one, or a leaf without repeated fields whose native value is a tuple, immutable, or a
        list (a new one each time)."""
        shape = self._shape(descriptor)
        plain = not any(_repeated(f) for f in descriptor.fields)
        if shape.frozen or shape.copy is not None:
            return True
        return self._is_leaf(descriptor) and plain and shape.make in (None, list) and shape.into is None

    def _value(self, m: str, f: FieldDescriptor) -> str:
        return f"L{f.number}" if self._wire else _attr(m, f.name)

    def _has(self, m: str, f: FieldDescriptor) -> str:
        return f"L{f.number} is not None" if self._wire else f"{m}.HasField({f.name!r})"

    def _read_message(self, descriptor: Descriptor, message: str, depth: int) -> str:
        """The expression of the native value of the message in variable `message`."""
        shape = self._shape(descriptor)
        values = [
            self._read_field(descriptor, f, message, self._offset(f, shape), depth)
            for f in self._fields(descriptor)
        ]
        if shape.sequence and shape.make is None:
            return f"({values[0]},)" if len(values) == 1 else f"({', '.join(values)})"
        if shape.make is list:
            return f"[{', '.join(values)}]"
        make = "M_" + _ident(descriptor)
        self._env[make] = shape.make or self.record(descriptor)
        return f"{make}({', '.join(values)})"

    def _read_field(self, descriptor: Descriptor, f: FieldDescriptor, m: str, offset: int, depth: int) -> str:
        value = self._value(m, f)
        has = self._has(m, f)
        prefix = "b_" if self._wire else "r_"
        minus = f" - {offset}" if offset else ""
        if f.type == F.TYPE_MESSAGE:
            sub = f.message_type
            if _repeated(f):
                if self._is_leaf(sub) and self._shape(sub).into is None and not self._wire:
                    x = f"x{depth}"
                    return f"[{self._read_message(sub, x, depth + 1)} for {x} in {value}]"
                shared = self._shape(sub).make is not list and self._shape(sub).copy is None
                if self._wire and self._remembered(sub) and shared:  # looked up without a call
                    return f"[BM_{_ident(sub)}.get(x) or b_{_ident(sub)}(x) for x in {value}]"
                return f"[{prefix}{_ident(sub)}(x) for x in {value}]"
            absent = "None"
            if self._shape(sub).absent is not None:
                absent = f"A_{_ident(sub)}()"
                self._env[absent[:-2]] = self._shape(sub).absent
            # Inlined, the sub-message is bound where its first field is read: so only when every
            # field is read unconditionally, in order (no repeated or presence field).
            plain = not any(_repeated(g) or _has_presence(g) for g in sub.fields)
            if self._is_leaf(sub) and plain and self._shape(sub).into is None and not self._wire:
                bound = self._name("g")  # the sub-message, read once
                inner = self._read_message(sub, bound, depth + 1).replace(
                    f"{bound}.", f"({bound} := {value}).", 1
                )
                return f"({inner} if {m}.HasField({f.name!r}) else {absent})"
            return f"({prefix}{_ident(sub)}({value}) if {has} else {absent})"
        where = f"{descriptor.name}.{f.name}"
        if f.type == F.TYPE_ENUM:
            numbers = f"E_{_ident(f.enum_type)}"
            self._env[numbers] = frozenset(v.number for v in f.enum_type.values)
            if _repeated(f):
                shifted = f"[x{minus} for x in {value}]" if offset else f"list({value})"
                return f"({shifted} if {numbers}.issuperset({value}) else EL({value}, {where!r}))"
            read = self._name("e")  # the value, read once
            checked = f"({read}{minus} if ({read} := {value}) in {numbers} else bad({where!r}, {read}, 0))"
            return f"({checked} if {has} else None)" if _has_presence(f) else checked
        if _repeated(f):
            return f"[x{minus} for x in {value}]" if offset else f"list({value})"
        if _has_presence(f):
            return f"({value}{minus} if {has} else None)"
        return f"{value}{minus}"


def _enum_list(values: Iterable[int], where: str) -> Any:
    """Raise MalformedRequest for the first value of a repeated enum field that its enum lacks."""
    raise MalformedRequest(
        f"{where} holds {sorted(values)}, values its enum does not all declare", field=where
    )


def _bad(where: str, value: int, offset: int) -> Any:
    raise MalformedRequest(f"{where} holds {value + offset}, which its enum does not declare", field=where)


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


@dataclass(frozen=True)
class Special:
    """A oneof member whose native tuples are laid out otherwise: `write` gives the member's native
    value (its fields as a tuple, sub-messages nested) from a native tuple, `read` the reverse."""

    write: Callable[[tuple[Any, ...]], Any]
    read: Callable[[Any], tuple[Any, ...]]


class KindTuples:
    """The messages of one oneof (an Action's move) as native tuples (kind, *arguments): by default
    kind is the index of the set member in the oneof's order (`kinds` may name each kind's member),
    the arguments its fields' values in field order, sub-messages flattened (an unset one as zeros)
    and padded with zeros to the native tuple's length; `special` members convert otherwise. `shapes`
    may give the members' offsets (`field_offsets` as a Converter's); every other part of a Shape is
    the tuple's.

    A sub-message that is one oneof (a place: a tile or a building) flattens to the index of its set
    member, then that member's value; one that sets none is refused. A member that `kinds` names n
    times in a row takes n kinds, the index of its own oneof's set member choosing among them (a
    colonist placed on a tile or on a building). With `refuse_unset`, an enum argument whose enum
    has an offset (an id) is refused when unset (its 0, a negative native id). `ranges` gives, per
    message type, the native values its fields may hold (a tile index, a coordinate): another is
    refused (an unset sub-message's fields hold 0)."""

    def __init__(
        self,
        message_class: type[Message],
        oneof: str,
        native: Callable[..., tuple[Any, ...]],
        shapes: Mapping[Any, Shape] | None = None,
        enum_offsets: Mapping[Any, int] | None = None,
        *,
        kinds: Sequence[str] | None = None,
        special: Mapping[str, Special] | None = None,
        refuse_unset: bool = False,
        ranges: Mapping[type[Message], Mapping[str, range]] | None = None,
        field_offsets: Mapping[str, int] | None = None,
    ) -> None:
        descriptor: Descriptor = message_class.DESCRIPTOR
        self._ranges = {cls.DESCRIPTOR.full_name: dict(r) for cls, r in (ranges or {}).items()}
        self._message_class, self._oneof, self._native = message_class, oneof, native
        members = descriptor.oneofs_by_name[oneof].fields
        self._names = [f.name for f in members]
        self._fields = {f.name: f for f in members}
        self._kinds = list(kinds) if kinds is not None else self._names
        self._kind_of = {name: kind for kind, name in reversed(list(enumerate(self._kinds)))}  # the first
        self._spread = {name: self._kinds.count(name) > 1 for name in self._names}
        self._special = dict(special or {})
        offsets = {cls.DESCRIPTOR.full_name: shape.offsets for cls, shape in (shapes or {}).items()}
        sequences = {
            message_factory.GetMessageClass(d): Shape(sequence=True, offsets=offsets.get(d.full_name, {}))
            for d in reachable([message_class])
        }
        self._converter = converter = Converter([message_class], sequences, enum_offsets, field_offsets)
        self._write = converter.writer(message_class)
        numbers = sorted(f.number for f in descriptor.fields)
        self._position = {f.name: numbers.index(f.number) for f in members}
        self._width = len(numbers)
        # How each member's value is read: a sub-message's reader, or a scalar's offset and the
        # numbers its enum declares (None: any).
        self._readers = {
            f.name: converter.reader(message_factory.GetMessageClass(f.message_type))
            for f in members
            if f.type == F.TYPE_MESSAGE
        }
        self._ids = frozenset(
            name for name, offset in converter._offsets.items() if refuse_unset and offset > 0
        )  # the enums whose unset value is refused
        self._scalars = {
            f.name: (
                converter._offset(f, DEFAULT_SHAPE),
                frozenset(v.number for v in f.enum_type.values) if f.enum_type else None,
            )
            for f in members
            if f.type != F.TYPE_MESSAGE
        }

    def write(self, action: tuple[Any, ...]) -> bytes:
        """The message's bytes for a native action."""
        name = self._kinds[action[0]]
        member = self._fields[name]
        values: list[Any] = [None] * self._width
        if name in self._special:
            value = self._special[name].write(action)
        elif member.type == F.TYPE_MESSAGE:
            arguments = list(action[1:])
            if self._spread[name]:
                arguments.insert(0, action[0] - self._kind_of[name])
            value = _nest(member, arguments)
        else:
            value = action[1]
        values[self._position[name]] = value
        return self._write(values)

    def read(self, message: Message) -> tuple[Any, ...]:
        """The native action of a message; MalformedRequest if no member is set or an enum value is
        undeclared."""
        name = message.WhichOneof(self._oneof)
        if name is None:
            raise MalformedRequest(f"the {self._message_class.DESCRIPTOR.name} sets no {self._oneof}")
        member = self._fields[name]
        if name in self._readers:
            value = self._readers[name](getattr(message, name))
        else:
            offset, declared = self._scalars[name]
            value = getattr(message, name)
            if declared is not None and value not in declared:
                _bad(f"{self._message_class.DESCRIPTOR.name}.{name}", value, 0)
            value -= offset
            if value < 0 and member.enum_type and member.enum_type.full_name in self._ids:
                _unset(f"{self._message_class.DESCRIPTOR.name}.{name}")
        if name in self._special:
            return self._special[name].read(value)
        if member.type != F.TYPE_MESSAGE:
            return self._native(self._kind_of[name], value)
        if self._ranges:
            self._within(member, value)
        flat = _flatten(member, value, self._ids)
        if self._spread[name]:
            return self._native(self._kind_of[name] + flat[0], *flat[1:])
        return self._native(self._kind_of[name], *flat)

    def _within(self, f: FieldDescriptor, value: Any) -> None:
        """Refuse a field value of a member's nested tuple outside its range (see `ranges`)."""
        ranges = self._ranges.get(f.message_type.full_name, {})
        one_oneof = _choice(f.message_type) is not None
        for position, sub in enumerate(sorted(f.message_type.fields, key=lambda s: s.number)):
            part = None if value is None else value[position]
            if one_oneof and part is None:
                continue
            if sub.type == F.TYPE_MESSAGE:
                self._within(sub, part)
            elif sub.name in ranges and (part or 0) not in ranges[sub.name]:
                where = f"{f.message_type.name}.{sub.name}"
                raise MalformedRequest(f"invalid action: {where} holds {part}, out of range", field=where)


def _choice(descriptor: Descriptor) -> Any:
    """The oneof of a message that is one oneof (every field a member of it), or None."""
    oneofs = descriptor.oneofs
    if len(oneofs) != 1 or len(oneofs[0].fields) != len(descriptor.fields) or not descriptor.fields:
        return None
    synthetic = len(descriptor.fields) == 1 and oneofs[0].name == "_" + descriptor.fields[0].name
    return None if synthetic else oneofs[0]


def _nest(f: FieldDescriptor, arguments: list[Any]) -> tuple[Any, ...]:
    """The nested tuple of a message field from flat arguments (consumed from the front)."""
    fields = sorted(f.message_type.fields, key=lambda s: s.number)
    if _choice(f.message_type) is not None:  # the index of the member set, then its value
        values: list[Any] = [None] * len(fields)
        chosen = fields[arguments.pop(0)]
        value = _nest(chosen, arguments) if chosen.type == F.TYPE_MESSAGE else arguments.pop(0)
        values[fields.index(chosen)] = value
        return tuple(values)
    return tuple(_nest(sub, arguments) if sub.type == F.TYPE_MESSAGE else arguments.pop(0) for sub in fields)


def _unset(where: str) -> None:
    raise MalformedRequest(f"{where} is unset", field=where)


def _flatten(f: FieldDescriptor, value: Any, ids: frozenset[str] = frozenset()) -> list[Any]:
    """The flat arguments of a message field's nested tuple (an unset sub-message as zeros, an
    unset one-oneof message refused); an unset enum value of `ids` (a negative one) is refused."""
    flat: list[Any] = []
    fields = sorted(f.message_type.fields, key=lambda s: s.number)
    choice = _choice(f.message_type)
    if choice is not None:
        chosen = [i for i, part in enumerate(value or ()) if part is not None]
        if not chosen:
            _unset(f"{f.message_type.name}.{choice.name}")
        flat.append(chosen[0])
    for position, sub in enumerate(fields):
        part = None if value is None else value[position]
        if choice is not None and part is None:
            continue
        if sub.type == F.TYPE_MESSAGE:
            flat += _flatten(sub, part, ids)
        else:
            if part is not None and part < 0 and sub.enum_type and sub.enum_type.full_name in ids:
                _unset(f"{f.message_type.name}.{sub.name}")
            flat.append(0 if part is None else part)
    return flat


class Union:
    """A message that is one oneof of enum fields (a colonist's space: a tile or a building) as one
    id: each member's ids after those of the members before it (as many as its enum declares besides
    its 0). `shape` is the message's Shape (an unset oneof or an unset or undeclared id: None)."""

    def __init__(self, message_class: type[Message], enum_offsets: Mapping[Any, int]) -> None:
        offsets = {
            getattr(enum, "DESCRIPTOR", enum).full_name: offset for enum, offset in enum_offsets.items()
        }
        descriptor: Descriptor = message_class.DESCRIPTOR
        fields = sorted(descriptor.fields, key=lambda f: f.number)
        self.sizes = [len(f.enum_type.values) - 1 for f in fields]
        self.starts = [sum(self.sizes[:i]) for i in range(len(fields))]
        # Where each member's native ids start (its enum's 1, less its offset).
        self._bias = [1 - offsets.get(f.enum_type.full_name, 0) for f in fields]
        get = {f.name: partial(self._member, i) for i, f in enumerate(fields)}
        self.shape = Shape(sequence=True, get=get, make=self.id)

    def _member(self, index: int, native: int) -> int | None:
        start = self.starts[index]
        inside = start <= native < start + self.sizes[index]
        return native - start + self._bias[index] if inside else None

    def id(self, *values: int | None) -> int | None:
        """The id of the members' values (None for all but the set one)."""
        for start, size, bias, value in zip(self.starts, self.sizes, self._bias, values, strict=True):
            if value is not None:
                value -= bias
                return start + value if 0 <= value < size else None
        return None

    def values(self, native: int) -> tuple[int | None, ...]:
        """The members' values of an id."""
        return tuple(self._member(i, native) for i in range(len(self.sizes)))


class Unsupported(Exception):
    """What a wire reader leaves to the protobuf parser (see `Converter.decoder`)."""


M32, M64 = (1 << 32) - 1, (1 << 64) - 1


def _int32(value: int) -> int:
    return ((value & M32) ^ 0x80000000) - 0x80000000


def _int64(value: int) -> int:
    return ((value & M64) ^ (1 << 63)) - (1 << 63)


def _varint_rest(data: bytes, at: int, value: int) -> tuple[int, int]:
    """A varint whose first byte `value` (at least 128) was read: its value and the offset after it."""
    value &= 127
    shift = 7
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 127) << shift
        if byte < 128:
            if shift == 63 and byte > 1:
                raise Unsupported
            return value, at
        shift += 7
        if shift > 63:
            raise Unsupported


def _skip(data: bytes, at: int, tag: int, known: frozenset[int]) -> int:
    """The offset after an unknown field's value (Unsupported for a known field's unexpected wire type)."""
    number, wire = tag >> 3, tag & 7
    if number == 0 or number in known:
        raise Unsupported
    if wire == 0:
        while data[at] > 127:
            at += 1
        at += 1
    elif wire in (1, 5):
        at += 8 if wire == 1 else 4
    elif wire == 2:
        length = data[at]
        at += 1
        if length > 127:
            length, at = _varint_rest(data, at, length)
        at += length
    else:
        raise Unsupported
    if at > len(data):
        raise Unsupported
    return at


def _unpacked(body: bytes, convert: Callable[[int], Any]) -> list[Any]:
    """The values of a packed repeated varint field's body."""
    values, at, end = [], 0, len(body)
    while at < end:
        value = body[at]
        at += 1
        if value > 127:
            value, at = _varint_rest(body, at, value)
        values.append(convert(value))
    return values


# A varint field's value from its varint, by field type (beyond the first byte's 0-127).
WIRE_VALUES = {
    F.TYPE_INT32: "I32(x)",
    F.TYPE_ENUM: "I32(x)",
    F.TYPE_INT64: "I64(x)",
    F.TYPE_UINT32: "x & 4294967295",
    F.TYPE_UINT64: "x",
    F.TYPE_BOOL: "x",
    F.TYPE_SINT32: "x & 4294967295",
    F.TYPE_SINT64: "x",
}
PACKED_VALUES = {
    F.TYPE_INT32: _int32,
    F.TYPE_ENUM: _int32,
    F.TYPE_INT64: _int64,
    F.TYPE_UINT32: lambda x: x & M32,
    F.TYPE_UINT64: lambda x: x,
    F.TYPE_BOOL: lambda x: x != 0,
    F.TYPE_SINT32: lambda x: ((x & M32) >> 1) ^ -(x & 1),
    F.TYPE_SINT64: lambda x: (x >> 1) ^ -(x & 1),
}


def _wire_default(f: FieldDescriptor) -> str:
    """A wire reader's local for a field before the field is read: its value when absent."""
    if _repeated(f):
        return "[]"
    if f.type == F.TYPE_MESSAGE or _has_presence(f):
        return "None"
    return {F.TYPE_STRING: "''", F.TYPE_BYTES: "b''", F.TYPE_BOOL: "False"}.get(f.type, "0")


def _wire_branches(f: FieldDescriptor) -> list[tuple[int, list[str]]]:
    """(tag, lines reading the field's value after its tag) for each wire type the field may have."""
    local = f"L{f.number}"
    length = [
        "ln = d[i]; i += 1",
        "if ln > 127: ln, i = VR(d, i, ln)",
        "j = i + ln",
        "if j > n: raise NO",
    ]
    siblings = []
    oneof = f.containing_oneof
    if oneof is not None and len(oneof.fields) > 1:  # setting one member clears the others
        siblings = [f"L{g.number} = None" for g in oneof.fields if g is not f]
    if f.type in TEXT_KINDS or f.type == F.TYPE_MESSAGE:
        value = "d[i:j].decode()" if f.type == F.TYPE_STRING else "d[i:j]"
        if _repeated(f):
            tag = f.number << 3 | 2
            if tag < 128:  # the entries that follow it, read here too
                return [
                    (
                        tag,
                        [
                            "while True:",
                            *["    " + line for line in length],
                            f"    {local}.append({value})",
                            "    i = j",
                            f"    if i == n or d[i] != {tag}: break",
                            "    i += 1",
                        ],
                    )
                ]
            store = [f"{local}.append({value})"]
        elif f.type == F.TYPE_MESSAGE:  # a sub-message written twice is merged: left to the parser
            store = [f"if {local} is not None: raise NO", f"{local} = {value}"]
        else:
            store = [f"{local} = {value}"]
        return [(f.number << 3 | 2, [*length, *store, "i = j", *siblings])]
    read = ["x = d[i]; i += 1", f"if x > 127: x, i = VR(d, i, x); x = {WIRE_VALUES[f.type]}"]
    if f.type == F.TYPE_BOOL:
        read.append("x = x != 0")
    elif f.type in ZIGZAG_KINDS:
        read.append("x = (x >> 1) ^ -(x & 1)")
    if not _repeated(f):
        return [(f.number << 3, [*read, f"{local} = x", *siblings])]
    convert = f"PV_{f.type}"
    plain = f.type in (F.TYPE_INT32, F.TYPE_ENUM, F.TYPE_INT64, F.TYPE_UINT32, F.TYPE_UINT64)
    packed_read = [
        *length,
        "b = d[i:j]; i = j",
        f"{local} += b if b.isascii() else UNPACK(b, {convert})"
        if plain
        else f"{local} += UNPACK(b, {convert})",
    ]
    return [(f.number << 3, [*read, f"{local}.append(x)"]), (f.number << 3 | 2, packed_read)]


def _dispatch(branches: list[tuple[int, list[str]]], known: str) -> list[str]:
    """Lines running the branch of tag `t`: a balanced tree of comparisons, unknown tags skipped."""
    if len(branches) > 3:
        middle = len(branches) // 2
        return [
            f"if t < {branches[middle][0]}:",
            *["    " + line for line in _dispatch(branches[:middle], known)],
            "else:",
            *["    " + line for line in _dispatch(branches[middle:], known)],
        ]
    lines = []
    for index, (tag, body) in enumerate(branches):
        lines.append(f"{'elif' if index else 'if'} t == {tag}:")
        lines += ["    " + line for line in body]
    lines += [f"{'else:' if branches else 'if True:'}", f"    i = SKIP(d, i, t, {known})"]
    return lines

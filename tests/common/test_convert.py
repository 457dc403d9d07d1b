"""The generated writers and readers of services.common.convert: bytes equal to upb's, round trips,
unknown enum values refused, and every field kind the games' protos use."""

from __future__ import annotations

from typing import Any

import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf.descriptor import FieldDescriptor as F
from google.protobuf.message import DecodeError, Message

from services.common import registry
from services.common.convert import (
    Converter,
    Shape,
    Unsupported,
    leading_field,
    oneof_writer,
    packed,
    varint,
    zigzag,
)
from services.common.errors import MalformedRequest
from services.common.playout import choose_random, default_config
from services.common.rng import Rng

GAMES = list(registry.games().values())


def _roots(game: Any) -> list[type[Message]]:
    messages = game.messages
    return [messages.config, messages.state, messages.action, messages.view, messages.event]


def _random_scalar(f: Any, rng: Rng) -> Any:
    if f.type == F.TYPE_BOOL:
        return rng.below(2) == 1
    if f.type == F.TYPE_ENUM:
        values = f.enum_type.values
        return values[rng.below(len(values))].number
    if f.type == F.TYPE_STRING:
        return "".join(rng.choice(("a", "é", "€", "z")) for _ in range(rng.below(4)))
    if f.type == F.TYPE_BYTES:
        return bytes(rng.below(256) for _ in range(rng.below(4)))
    if f.type in (F.TYPE_UINT64, F.TYPE_UINT32):
        return rng.below(1 << 32) * (1 << 32 if f.type == F.TYPE_UINT64 else 1) + rng.below(1 << 31)
    magnitude = (3, 200, 1 << 30)[rng.below(3)]
    return rng.below(2 * magnitude) - magnitude


def _fill(message: Message, rng: Rng, depth: int = 0) -> Message:
    """Random values in every field kind, zeros and negatives included; one member per oneof."""
    descriptor: Any = message.DESCRIPTOR
    for f in descriptor.fields:
        if f.containing_oneof is not None and rng.below(len(f.containing_oneof.fields) + 1):
            continue
        if rng.below(4) == 0:
            continue
        repeated = f.is_repeated
        if f.type == F.TYPE_MESSAGE:
            if depth > 4:
                continue
            if repeated:
                for _ in range(rng.below(3)):
                    _fill(getattr(message, f.name).add(), rng, depth + 1)
            else:
                getattr(message, f.name).SetInParent()
                _fill(getattr(message, f.name), rng, depth + 1)
        elif repeated:
            getattr(message, f.name).extend(_random_scalar(f, rng) for _ in range(rng.below(4)))
        else:
            setattr(message, f.name, _random_scalar(f, rng))
    return message


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.name)
def test_default_shapes_read_and_write_random_messages_as_upb_does(game: Any) -> None:
    converter = Converter(_roots(game))
    rng = Rng.from_seed(b"convert-random-" + game.info.name.encode())
    checked = 0
    for cls in _roots(game):
        for _ in range(150):
            message = _fill(cls(), rng)
            native = converter.reader(cls)(message)
            data = converter.writer(cls)(native)
            assert data == message.SerializeToString(deterministic=True)
            assert cls.FromString(data) == message
            checked += 1
    assert checked == 750


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.name)
def test_default_shapes_write_playout_states_views_and_events_as_upb_does(game: Any) -> None:
    messages = game.messages
    converter = Converter(_roots(game))
    rng = Rng.from_seed(b"convert-playout-" + game.info.name.encode())
    state, events = game.new_game(4, default_config(game), b"convert")
    encoded = []
    while not game.is_terminal(state):
        seat, action = choose_random(game, state, rng)
        encoded += [game.state_to_proto(state), game.action_to_proto(action)]
        encoded += [game.event_to_proto(event)[0] for event in events]
        encoded += list(game.views_to_proto(state, None))
        state, events = game.apply(state, seat, action)
    assert {type(m) for m in encoded} >= {messages.state, messages.action, messages.view, messages.event}
    for message in encoded:
        cls = type(message)
        assert converter.writer(cls)(converter.reader(cls)(message)) == message.SerializeToString(
            deterministic=True
        )


def test_shapes_rename_compute_offset_and_build_native_values() -> None:
    class Generator:
        def __init__(self, seed: int, drawn: int) -> None:
            self.seed, self.drawn = seed, drawn

    shapes = {
        rules_pb2.RngState: Shape(
            names={"key": "seed"}, get={"counter": lambda g: g.drawn * 2}, make=Generator, offsets={"key": 5}
        )
    }
    converter = Converter([rules_pb2.RngState], shapes)
    data = converter.writer(rules_pb2.RngState)(Generator(-5, 21))
    assert data == rules_pb2.RngState(counter=42).SerializeToString()
    native = converter.reader(rules_pb2.RngState)(rules_pb2.RngState(key=9, counter=3))
    assert (type(native), native.seed, native.drawn) == (Generator, 4, 3)


def test_sequences_enum_offsets_and_spliced_sub_messages() -> None:
    game = GAMES[0]
    view = game.messages.view
    converter = Converter([view], {view: Shape(sequence=True)})
    table_field = view.DESCRIPTOR.fields_by_name["table"]
    table_class = type(view().table)  # type: ignore[attr-defined]
    assert table_field.number == 1
    table = _fill(table_class(), Rng.from_seed(b"splice"))
    table_bytes = table.SerializeToString(deterministic=True)
    values: list[Any] = [[] if f.is_repeated else None for f in view.DESCRIPTOR.fields]
    values[0] = table_bytes
    data = converter.writer(view)(values)
    assert view.FromString(data).table == table  # type: ignore[attr-defined]
    enum_field = next(f for f in table.DESCRIPTOR.fields if f.type == F.TYPE_ENUM and not f.is_repeated)
    shifted = Converter([table_class], enum_offsets={enum_field.enum_type: 1})
    setattr(table, enum_field.name, 1)
    native = shifted.reader(table_class)(table)
    assert getattr(native, enum_field.name) == 0
    assert shifted.writer(table_class)(native) == table.SerializeToString(deterministic=True)
    assert leading_field(data + b"\x10\x01") == data
    assert leading_field(b"") == b"" and leading_field(b"\x10\x01") == b""


def test_unknown_enum_values_are_refused_as_malformed() -> None:
    for game in GAMES:
        converter = Converter(_roots(game))
        enum_fields = [
            (cls, f)
            for cls in _roots(game)
            for f in cls.DESCRIPTOR.fields
            if f.type == F.TYPE_ENUM and not f.is_repeated and f.containing_oneof is None
        ]
        table = type(game.messages.state().table)  # type: ignore[attr-defined]
        enum_fields += [(table, f) for f in table.DESCRIPTOR.fields if f.type == F.TYPE_ENUM]
        assert enum_fields, game.info.name
        for cls, f in enum_fields:
            message = cls()
            if f.is_repeated:
                getattr(message, f.name).append(999)
            else:
                setattr(message, f.name, 999)
            with pytest.raises(MalformedRequest, match="999"):
                converter.reader(cls)(message)


def test_unsupported_field_kinds_and_stray_shapes_are_refused_when_generating() -> None:
    from google.protobuf import struct_pb2

    with pytest.raises(ValueError, match="not supported"):
        Converter([struct_pb2.Value])
    with pytest.raises(ValueError, match="no root reaches"):
        Converter([rules_pb2.RngState], {rules_pb2.ScoreItem: Shape()})


def test_oneof_writer_picks_the_member_named_after_the_native_class() -> None:
    game = GAMES[0]
    event = game.messages.event
    converter = Converter([event])
    member: Any = event.DESCRIPTOR.oneofs[0].fields[0]
    native_class = type(member.message_type.name, (), {})
    for f in member.message_type.fields:
        setattr(native_class, f.name, None if not f.is_repeated else ())
    write = oneof_writer(converter, event, event.DESCRIPTOR.oneofs[0].name)
    assert event.FromString(write(native_class())).WhichOneof(event.DESCRIPTOR.oneofs[0].name) == member.name


def test_varints_as_protobuf_writes_them() -> None:
    message = rules_pb2.ScoreItem()
    for value in (1, 127, 128, 300, 2**31 - 1, -1, -(2**31)):
        message.points = value
        assert message.SerializeToString() == b"\x10" + varint(value)
    assert zigzag(0) + zigzag(-1) + zigzag(1) + zigzag(-64) == b"\x00\x01\x02\x7f"
    assert packed([1, 2, 300]) == b"\x01\x02\xac\x02" and packed([]) == b""


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.info.name)
def test_wire_readers_read_random_messages_as_the_parsed_readers_do(game: Any) -> None:
    converter = Converter(_roots(game))
    rng = Rng.from_seed(b"convert-wire-" + game.info.name.encode())
    for cls in _roots(game):
        read, wire, decode = converter.reader(cls), converter.wire_reader(cls), converter.decoder(cls)
        for _ in range(150):
            message = _fill(cls(), rng)
            data = message.SerializeToString()
            assert wire(data) == read(message)
            # Written twice: repeated fields twice over, scalars the last, sub-messages merged.
            twice = data + data
            assert decode(twice) == read(cls.FromString(twice))


def test_wire_readers_take_any_encoding_the_parser_takes_and_leave_it_the_rest() -> None:
    converter = Converter([rules_pb2.GetViewResponse])
    cls = rules_pb2.GetViewResponse
    wire, decode = converter.wire_reader(cls), converter.decoder(cls)
    minus_one = b"\xff" * 9 + b"\x01"
    unknown = b"\x48\x07" + b"\x51" + bytes(8) + b"\x5d" + bytes(4) + b"\x62\x02ab"  # fields 9-12
    # Unpacked and packed entries of one repeated field, a negative int32, a two-byte bool,
    # unknown fields of each wire type, and fields out of number order.
    data = b"\x18\x81\x01" + b"\x10\x03" + unknown + b"\x12\x01\x05" + b"\x10" + minus_one
    parsed = cls.FromString(data)
    parsed.DiscardUnknownFields()
    expected = cls(acting_seats=[3, 5, -1], game_over=True)
    assert parsed == expected
    assert wire(data) == converter.reader(cls)(expected)
    merged = b"\x0a\x02\x0a\x00" * 2  # the view written twice: merged by the parser
    with pytest.raises(Unsupported):
        wire(merged)
    assert decode(merged) == converter.reader(cls)(cls.FromString(merged))
    for garbage in (b"\x0a\x05\x01", b"\x10", b"\x12\x05\x01", b"\x00\x01"):
        with pytest.raises(DecodeError):
            decode(garbage)


def test_wire_readers_remember_values_by_their_bytes_and_writers_encodings_by_their_keys() -> None:
    class Generator:
        def __init__(self) -> None:
            self.key, self.counter = 0, 0

        def copy(self) -> Generator:
            other = Generator()
            other.key, other.counter = self.key, self.counter
            return other

    keys: list[Any] = []

    def key(generator: Generator) -> tuple[int, int]:
        keys.append(generator)
        return generator.key, generator.counter

    cls = rules_pb2.RngState
    data = cls(key=7, counter=3).SerializeToString()
    copied = Converter([cls], {cls: Shape(into=Generator, copy=Generator.copy, key=key)})
    first, second = copied.decoder(cls)(data), copied.decoder(cls)(data)
    assert first is not second and (first.key, first.counter) == (second.key, second.counter) == (7, 3)
    second.counter = 4  # a copy: changing it changes no later decoding
    assert copied.decoder(cls)(data).counter == 3
    write = copied.writer(cls)
    assert write(first) == write(first.copy()) == data and len(keys) == 2
    second.key = 8
    assert write(second) == cls(key=8, counter=4).SerializeToString()
    frozen = Converter([cls], {cls: Shape(make=lambda k, c: (k, c, []), frozen=True)})
    assert frozen.decoder(cls)(data) is frozen.decoder(cls)(data)
    # Leaves are remembered too; a list each time for a list.
    listed = Converter([cls], {cls: Shape(sequence=True, make=list)})
    assert listed.decoder(cls)(data) == [7, 3] and listed.decoder(cls)(data) is not listed.decoder(cls)(data)

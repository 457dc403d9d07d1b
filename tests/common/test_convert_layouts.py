"""The converter's generic layouts (Columns, Tally, Keyed, Gather), options shape, base field,
constants and absent values, on messages made for the test."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from services.common.convert import (
    ATTRIBUTES,
    Columns,
    Converter,
    Gather,
    Keyed,
    KindTuples,
    Shape,
    Special,
    Tally,
    Union,
    options,
)
from services.common.errors import MalformedRequest

FD = descriptor_pb2.FieldDescriptorProto
PROTO = {
    "Entry": [("kind", 1, FD.TYPE_ENUM, "Kind"), ("count", 2, FD.TYPE_INT32), ("extra", 3, FD.TYPE_INT32)],
    "Pair": [("kind", 1, FD.TYPE_ENUM, "Kind"), ("value", 2, FD.TYPE_INT32)],
    "Card": [("number", 1, FD.TYPE_INT32), ("open", 2, FD.TYPE_BOOL)],
    "Seat": [("doubloons", 1, FD.TYPE_INT32)],
    "Options": [
        ("flag", 1, FD.TYPE_BOOL),
        ("size", 2, FD.TYPE_INT32),
        ("kind", 3, FD.TYPE_ENUM, "Kind"),
        ("legacy", 4, FD.TYPE_INT32),
    ],
    "Board": [
        ("entries", 1, FD.TYPE_MESSAGE, "Entry", True),
        ("pairs", 2, FD.TYPE_MESSAGE, "Pair", True),
        ("cards", 3, FD.TYPE_MESSAGE, "Card", True),
        ("seats", 4, FD.TYPE_MESSAGE, "Seat", True),
        ("options", 5, FD.TYPE_MESSAGE, "Options"),
    ],
    "Whole": [("board", 1, FD.TYPE_MESSAGE, "Board"), ("marks", 2, FD.TYPE_INT32, None, True)],
    "Nothing": [],
    # One oneof each (their fields are its members).
    "Target": [("first", 1, FD.TYPE_ENUM, "Kind"), ("second", 2, FD.TYPE_ENUM, "Kind")],
    "Place": [("nowhere", 1, FD.TYPE_MESSAGE, "Nothing"), ("at", 2, FD.TYPE_ENUM, "Kind")],
    "Order": [
        ("put", 1, FD.TYPE_MESSAGE, "Target"),
        ("go", 2, FD.TYPE_MESSAGE, "Place"),
        ("pick", 3, FD.TYPE_ENUM, "Kind"),
    ],
}
ONE_ONEOF = ("Target", "Place", "Order")


def _messages() -> dict[str, Any]:
    file = descriptor_pb2.FileDescriptorProto(name="layouts_test.proto", package="layouts", syntax="proto3")
    kind = file.enum_type.add(name="Kind")
    for number, name in enumerate(("KIND_UNSPECIFIED", "KIND_RED", "KIND_DEEP_BLUE", "KIND_GREEN")):
        kind.value.add(name=name, number=number)
    for message, fields in PROTO.items():
        added = file.message_type.add(name=message)
        if message in ONE_ONEOF:
            added.oneof_decl.add(name="choice")
        for name, number, kind_of, type_name, repeated in [(*f, None, None)[:5] for f in fields]:
            label = FD.LABEL_REPEATED if repeated else FD.LABEL_OPTIONAL
            entry = added.field.add(name=name, number=number, type=kind_of, label=label)
            if type_name:
                entry.type_name = f".layouts.{type_name}"
            if message in ONE_ONEOF:
                entry.oneof_index = 0
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"layouts.{name}")) for name in PROTO
    }


M = _messages()


@dataclass(frozen=True)
class Opts:
    flag: bool = False
    size: int = 4
    kind: str = "red"
    legacy: int = 2


class Seat:
    doubloons: int
    mark: int


class Board:
    counts: list[int]
    extras: list[int]
    held: dict[int, int]
    numbers: list[int]
    opened: list[bool]
    seats: list[Seat]
    options: Opts
    shown: bool


CONVERTER_SHAPES = {
    M["Whole"]: Shape(base="board", layouts={"marks": Gather("seats", "mark", lambda b: b.shown, lambda: 7)}),
    M["Board"]: Shape(
        layouts={
            "entries": Tally(counts=3, extras=2),
            "pairs": Keyed("held"),
            "cards": Columns("numbers", "opened"),
        },
        into=Board,
        constants={"shown": True},
    ),
    M["Seat"]: Shape(into=Seat, constants={"mark": 0}),
    M["Options"]: options(M["Options"], Opts, always_written=("legacy",)),
    **dict.fromkeys([M["Entry"], M["Pair"], M["Card"]], Shape(sequence=True)),
}
CONVERTER = Converter(
    [M["Whole"]], CONVERTER_SHAPES, {M["Whole"].DESCRIPTOR.file.enum_types_by_name["Kind"]: 1}
)
write, read, decode = (
    CONVERTER.writer(M["Whole"]),
    CONVERTER.reader(M["Whole"]),
    CONVERTER.decoder(M["Whole"]),
)


def _board(**values: Any) -> Board:
    board = Board()
    board.counts, board.extras, board.held = [0, 2, 1], [0, 1], {1: 0, 0: 3}
    board.numbers, board.opened, board.seats, board.options, board.shown = (
        [5, 6],
        [True, False],
        [],
        Opts(),
        True,
    )
    for name, value in values.items():
        setattr(board, name, value)
    return board


def test_layouts_write_the_messages_entries_and_read_them_back() -> None:
    seats = [Seat(), Seat()]
    for seat, (doubloons, mark) in zip(seats, [(3, 1), (4, 2)], strict=True):
        seat.doubloons, seat.mark = doubloons, mark
    message = M["Whole"].FromString(write(_board(seats=seats)))
    board = message.board
    assert [(e.kind, e.count, e.extra) for e in board.entries] == [
        (2, 2, 1),
        (3, 1, 0),
    ]  # zero counts left out
    assert [(p.kind, p.value) for p in board.pairs] == [(2, 0), (1, 3)]  # in the dict's order
    assert [(c.number, c.open) for c in board.cards] == [(5, True), (6, False)]
    assert list(message.marks) == [1, 2]
    assert board.options == M["Options"](legacy=2)  # the default options: only the always written one
    for native in (read(message), decode(message.SerializeToString())):
        assert (native.counts, native.extras, native.held) == ([0, 2, 1], [0, 1], {1: 0, 0: 3})
        assert (native.numbers, native.opened, native.shown, native.options) == (
            [5, 6],
            [True, False],
            True,
            Opts(),
        )
        assert [(s.doubloons, s.mark) for s in native.seats] == [(3, 1), (4, 2)]


def test_an_unwritten_gather_reads_as_its_absent_values_and_empty_columns_as_empty_lists() -> None:
    seat = Seat()
    seat.doubloons, seat.mark = 1, 5
    message = M["Whole"].FromString(write(_board(seats=[seat], shown=False, numbers=[], opened=[])))
    assert list(message.marks) == []
    native = read(message)
    assert ([s.mark for s in native.seats], native.numbers, native.opened) == ([7], [], [])


@pytest.mark.parametrize(
    "board",
    [
        {"entries": [{"kind": 1, "count": 1}, {"kind": 1, "count": 2}]},  # an id listed twice
        {"entries": [{"kind": 0, "count": 1}]},  # an unset id
        {"entries": [{"kind": 1, "count": 0}]},  # a count of 0
        {"entries": [{"kind": 3, "count": 1, "extra": 1}]},  # beyond the shorter list
        {"pairs": [{"kind": 1}, {"kind": 1}]},
        {"pairs": [{"kind": 0}]},
        {"cards": [{"number": 1}], "seats": [{}]},  # marks for no seat: one entry too many
    ],
)
def test_what_a_layout_cannot_hold_is_refused_as_malformed(board: dict[str, Any]) -> None:
    message = M["Whole"](board=board, marks=[1] if "seats" in board else [])
    if "seats" in board:
        message.board.ClearField("seats")
    with pytest.raises(MalformedRequest):
        read(message)
    with pytest.raises(MalformedRequest):
        decode(message.SerializeToString())


def test_a_message_without_its_base_field_is_refused() -> None:
    with pytest.raises(MalformedRequest, match="lacks its board"):
        read(M["Whole"]())


def test_options_take_defaults_when_unset_name_enum_values_and_write_only_what_differs() -> None:
    read_options, write_options = CONVERTER.reader(M["Options"]), CONVERTER.writer(M["Options"])
    assert read_options(M["Options"]()) == Opts()
    assert read_options(M["Options"](kind=2, size=9)) == Opts(kind="deep_blue", size=9)
    assert M["Options"].FromString(write_options(Opts())) == M["Options"](legacy=2)  # always written
    assert M["Options"].FromString(write_options(Opts(kind="deep_blue", flag=True))) == M["Options"](
        kind=2, flag=True, legacy=2
    )
    board = read(M["Whole"](board={}))
    assert board.options == Opts()  # an absent options message: the defaults
    with pytest.raises(MalformedRequest):
        read_options(M["Options"](kind=5))


KIND = M["Whole"].DESCRIPTOR.file.enum_types_by_name["Kind"]


class Move(NamedTuple):
    kind: int
    arg: int = 0
    arg2: int = 0


def test_kind_tuples_spread_a_member_over_kinds_flatten_places_and_refuse_unset_ids() -> None:
    # put: two kinds (by its target's member), go: (the place's member, its value), pick: an id.
    orders = KindTuples(M["Order"], "choice", Move, {}, {KIND: 1}, kinds=["put", "put", "go", "pick"])
    strict = KindTuples(M["Order"], "choice", Move, {}, {KIND: 1}, refuse_unset=True)
    cases = {
        (0, 2, 0): M["Order"](put={"first": 3}),
        (1, 0, 0): M["Order"](put={"second": 1}),
        (2, 0, 0): M["Order"](go={"nowhere": {}}),
        (2, 1, 1): M["Order"](go={"at": 2}),
        (3, 0, 0): M["Order"](pick=1),
    }
    for native, message in cases.items():
        assert orders.read(message) == native
        assert M["Order"].FromString(orders.write(native)) == message
    assert orders.read(M["Order"](pick=0)) == Move(3, -1)  # unset, taken as it is without refuse_unset
    for unset in (M["Order"](pick=0), M["Order"](go={"at": 0}), M["Order"](go={}), M["Order"](put={})):
        with pytest.raises(MalformedRequest, match="unset"):
            strict.read(unset)


def test_a_union_reads_a_one_oneof_message_as_one_id_across_its_members() -> None:
    space = Union(M["Target"], {KIND: 1})
    assert [space.id(0, None), space.id(2, None), space.id(None, 0), space.id(None, 2)] == [0, 2, 3, 5]
    assert [space.id(None, None), space.id(-1, None), space.id(None, 3)] == [None, None, None]
    assert [space.values(i) for i in (1, 4)] == [(1, None), (None, 1)]
    converter = Converter([M["Order"]], {M["Target"]: space.shape}, {KIND: 1})
    assert converter.reader(M["Target"])(M["Target"](second=2)) == 4
    assert M["Target"].FromString(converter.writer(M["Target"])(4)) == M["Target"](second=2)
    special = Special(lambda a: space.values(a[1]), lambda target: (0, space.id(*target)))
    orders = KindTuples(M["Order"], "choice", Move, {}, {KIND: 1}, special={"put": special})
    assert orders.read(M["Order"](put={"second": 1})) == (0, 3)


def test_an_attributes_key_remembers_encodings_by_the_attributes_the_fields_hold() -> None:
    shapes = {**CONVERTER_SHAPES, M["Board"]: replace(CONVERTER_SHAPES[M["Board"]], key=ATTRIBUTES)}
    with pytest.raises(ValueError, match="plain values"):  # its options and seats are objects
        Converter([M["Whole"]], shapes)
    shapes.update(dict.fromkeys([M["Options"], M["Seat"]], Shape(sequence=True)))  # tuples: plain
    written = Converter([M["Whole"]], shapes, {KIND: 1}).writer(M["Board"])
    board = _board(options=(False, 4, 1, 2), seats=[(3,)])
    first = written(board)
    assert written(board) is first  # remembered
    board.held[2] = 5  # a dict and a list changed in place: another key
    board.counts[2] = 0
    second = M["Board"].FromString(written(board))
    assert [(e.kind, e.count) for e in second.entries] == [(2, 2)]
    assert [(p.kind, p.value) for p in second.pairs][-1] == (3, 5)

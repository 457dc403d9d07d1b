"""The converter's Inline layout (a sub-message, and a sub-message of it, kept flat on the object of
the message that holds it) and Indexed layout (entries (index, value) kept as a list of the values),
on messages made for the test."""

from __future__ import annotations

from typing import Any

import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from services.common.convert import Converter, Indexed, Inline, Shape, field_values
from services.common.errors import MalformedRequest

FD = descriptor_pb2.FieldDescriptorProto
# message -> (field, number, type, message type, repeated)
PROTO: dict[str, list[tuple[str, int, int, str | None, bool]]] = {
    "Payment": [("owed", 1, FD.TYPE_INT32, None, False), ("kinds", 2, FD.TYPE_INT32, None, True)],
    "Turn": [
        ("tile", 1, FD.TYPE_INT32, None, False),
        ("payment", 2, FD.TYPE_MESSAGE, "Payment", False),
        ("marks", 3, FD.TYPE_INT32, None, True),
    ],
    "Row": [("index", 1, FD.TYPE_INT32, None, False), ("count", 2, FD.TYPE_INT32, None, False)],
    "Table": [
        ("round", 1, FD.TYPE_INT32, None, False),
        ("turn", 2, FD.TYPE_MESSAGE, "Turn", False),
        ("rows", 3, FD.TYPE_MESSAGE, "Row", True),
    ],
}


def _messages() -> dict[str, Any]:
    file = descriptor_pb2.FileDescriptorProto(name="inline_test.proto", package="inline", syntax="proto3")
    for message, fields in PROTO.items():
        added = file.message_type.add(name=message)
        for name, number, kind, type_name, repeated in fields:
            label = FD.LABEL_REPEATED if repeated else FD.LABEL_OPTIONAL
            entry = added.field.add(name=name, number=number, type=kind, label=label)
            if type_name:
                entry.type_name = f".inline.{type_name}"
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    return {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"inline.{name}")) for name in PROTO
    }


M = _messages()


class Table:
    """A table with its turn's and payment's values flat on it; `marked` is what `marks` puts."""

    round: int
    tile: int
    owed: int
    kinds: list[int]
    marked: int
    counts: list[int]

    def clear_turn(self) -> None:
        self.tile, self.owed, self.kinds, self.marked = -1, 0, [], 0


def _mark(table: Table, marks: list[int]) -> None:
    table.marked = sum(1 << mark for mark in marks)


CONVERTER = Converter(
    [M["Table"]],
    {
        M["Table"]: Shape(
            layouts={
                "turn": Inline(M["Turn"], Table.clear_turn, {"marks": _mark}, ["payment"]),
                "rows": Indexed("counts"),
            },
            into=Table,
        ),
        M["Row"]: Shape(sequence=True),
        M["Turn"]: Shape(
            get={
                "payment": lambda t: t if t.owed else None,
                "marks": lambda t: [m for m in range(8) if t.marked >> m & 1],
            },
            make=field_values,
        ),
        M["Payment"]: Shape(make=field_values),
    },
)
write, decode = CONVERTER.writer(M["Table"]), CONVERTER.decoder(M["Table"])
read = CONVERTER.reader(M["Table"])


def _table(**values: Any) -> Table:
    table = Table.__new__(Table)
    table.round, table.counts = 3, []
    table.clear_turn()
    for name, value in values.items():
        setattr(table, name, value)
    return table


def _attributes(table: Table) -> dict[str, Any]:
    return {name: getattr(table, name) for name in ("round", "tile", "owed", "kinds", "marked", "counts")}


def test_an_inline_sub_message_is_written_from_the_holders_object_and_read_back_onto_it() -> None:
    table = _table(tile=4, owed=2, kinds=[1, 3], marked=0b101)
    data = write(table)
    message = M["Table"].FromString(data)
    assert (message.round, message.turn.tile, list(message.turn.marks)) == (3, 4, [0, 2])
    assert (message.turn.payment.owed, list(message.turn.payment.kinds)) == (2, [1, 3])
    assert _attributes(read(message)) == _attributes(table)
    assert _attributes(decode(data)) == _attributes(table)


def test_an_unset_inline_sub_message_reads_as_what_reset_makes() -> None:
    no_payment = _table(tile=0, owed=0, marked=0b10)
    message = M["Table"].FromString(write(no_payment))
    assert not message.turn.HasField("payment")
    assert _attributes(decode(write(no_payment))) == _attributes(no_payment)
    assert _attributes(decode(M["Table"](round=3).SerializeToString())) == _attributes(_table())


def test_indexed_entries_are_written_one_per_item_and_refused_out_of_their_place() -> None:
    table = _table(counts=[2, 0, 5])
    message = M["Table"].FromString(write(table))
    assert [(row.index, row.count) for row in message.rows] == [(0, 2), (1, 0), (2, 5)]
    assert decode(write(table)).counts == [2, 0, 5]
    message.rows[1].index = 2
    with pytest.raises(MalformedRequest, match="counts: an entry out of its place"):
        decode(message.SerializeToString())

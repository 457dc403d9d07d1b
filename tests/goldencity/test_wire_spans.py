"""services.common.wire, which The Golden City's views use: a field's body, and the spans of a
repeated field found in a message's bytes by walking every wire type a writer writes, on a real Table
and on hand-made bytes."""

from __future__ import annotations

import pytest
from boardgame.goldencity.v1 import goldencity_pb2 as pb

from services.common.wire import body, field_spans, read_varint


def test_read_varint_reads_multi_byte_values() -> None:
    assert read_varint(b"\x00\xac\x02\x01", 1) == (300, 3)


def test_the_players_of_a_table_are_found_between_the_fields_around_them() -> None:
    players = [pb.Player(coins=300, hand=pb.Cards(cards=[1, 2])), pb.Player(), pb.Player(keys=1)]
    table = pb.Table(config=pb.Config(data_set="v0"), round=3, actor=1, players=players, displacement=2)
    data = table.SerializeToString(deterministic=True)
    spans = field_spans(data, 7)
    assert [pb.Player.FromString(body(data[start:end])) for start, end in spans] == players
    before, after = data[: spans[0][0]], data[spans[-1][1] :]
    assert pb.Table.FromString(before + after) == pb.Table(
        config=pb.Config(data_set="v0"), round=3, actor=1, displacement=2
    )


def test_fixed_width_fields_are_stepped_over() -> None:
    # 1: varint 150, 2: fixed64, 3: "ab", 4: fixed32, 5: "x" twice, 6: varint 1.
    data = (
        b"\x08\x96\x01"
        + b"\x11"
        + bytes(8)
        + b"\x1a\x02ab"
        + b"\x25"
        + bytes(4)
        + b"\x2a\x01x" * 2
        + b"\x30\x01"
    )
    assert [data[s:e] for s, e in field_spans(data, 5)] == [b"\x2a\x01x", b"\x2a\x01x"]
    assert field_spans(data, 7) == []
    with pytest.raises(ValueError, match="wire type 3"):
        field_spans(b"\x0b", 2)  # a group start: no writer writes one

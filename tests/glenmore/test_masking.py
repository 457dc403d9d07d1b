"""masking.masked sets fields of chosen entries of an encoded message's repeated field (on Glen More's
View, whose players' VP it hides)."""

from __future__ import annotations

from boardgame.glenmore.v1 import glenmore_pb2 as pb

from services.common.masking import masked


def _view() -> pb.View:
    return pb.View(table=pb.Table(players=[pb.Player(vp=3, coins=1), pb.Player(vp=5, coins=2)]))


def test_the_chosen_entries_take_the_values_and_the_others_are_untouched() -> None:
    data = _view().SerializeToString(deterministic=True)
    view = pb.View.FromString(masked(pb.View, data, "table.players", [1], {"vp": 0, "vp_hidden": True}))
    assert [(p.vp, p.vp_hidden, p.coins) for p in view.table.players] == [(3, False, 1), (0, True, 2)]


def test_no_chosen_entry_gives_the_bytes_back_unparsed() -> None:
    data = _view().SerializeToString(deterministic=True)
    assert masked(pb.View, data, "table.players", [], {"vp": 0}) is data

"""Every view written at once (one state's table bytes shared by all, as a rules call writes them)
equals that viewer's view written alone: no viewer gets the entries another viewer may see, and
the table outside the players is the State's own."""

from __future__ import annotations

import pytest
from boardgame.goldencity.v1 import goldencity_pb2 as pb

from services.goldencity.codec import CODEC
from tests.goldencity.scenario import B, checked, game


@pytest.mark.parametrize("public", [False, True])
def test_all_views_at_once_are_each_viewers_own(public: bool) -> None:
    state = game(4, public_hands=public)
    state.players[B].bonus_cards.cards = [state.bonus_supply.pop()]
    state = checked(state)
    state_bytes = CODEC.encode_state(state)
    views = [pb.View.FromString(data) for data in CODEC.encode_views(state, state_bytes)]
    assert views == [CODEC.view_to_proto(state, seat) for seat in [*range(state.n), None]]
    table = pb.State.FromString(state_bytes).table
    coins = [p.coins for p in table.players]
    del table.players[:]
    for seat, view in enumerate(views):
        assert [bool(p.hand.cards) for p in view.table.players] == [public or s == seat for s in range(4)]
        assert [bool(p.bonus_cards.cards) for p in view.table.players] == [s == B == seat for s in range(4)]
        assert [p.coins for p in view.table.players] == coins
        del view.table.players[:]
        assert view.table == table

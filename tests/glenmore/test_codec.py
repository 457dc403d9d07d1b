"""The codec refuses inconsistent states (MalformedRequest) and views hide the stacks and the RNG."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from boardgame.glenmore.v1 import glenmore_pb2 as pb

from services.common.errors import MalformedRequest
from services.common.playout import random_playout
from services.common.rng import Rng
from services.glenmore import GAME
from services.glenmore.codec import CODEC
from services.glenmore.state import CHOOSE_TILE


def _mid_game() -> pb.State:
    """A 3-player state after 40 random decisions, at the start of a turn."""
    playout = random_playout(GAME, 3, b"codec scenarios", rng=Rng.from_seed(b"codec"), max_steps=40)
    state = playout.state
    while state.step != CHOOSE_TILE:
        GAME.play(state, state.actor, GAME.legal_actions(state, state.actor)[0])
    return CODEC.state_to_proto(state)


def _territory_tile(message: pb.State) -> pb.PlacedTile:
    player = max(message.table.players, key=lambda p: len(p.territory))
    return player.territory[1]


def _duplicate_in_stack_3(m: pb.State) -> None:
    m.stacks[3].tiles.append(m.stacks[3].tiles[0])
    m.table.stack_sizes[3] += 1


def _die_turned_into_a_figure(m: pb.State) -> None:
    die = next(entry for entry in m.table.track if entry.WhichOneof("entry") == "die")
    die.figure = 0


# name -> (corruption, what the refusal says)
CORRUPTIONS: dict[str, tuple[Callable[[pb.State], None], str]] = {
    "a tile in two stacks": (_duplicate_in_stack_3, "every stack tile exactly once"),
    "a tile in the wrong stack": (lambda m: m.stacks[3].tiles.append(1), "wrong stack"),
    "stack sizes that lie": (lambda m: m.table.stack_sizes.__setitem__(3, 99), "stack sizes"),
    "four cubes on a tile": (lambda m: setattr(_territory_tile(m).cubes, "wood", 4), "cubes on a tile"),
    "negative coins": (lambda m: setattr(m.table.players[0], "coins", -1), "negative coins"),
    "a card without its tile": (
        lambda m: m.table.players[0].cards.append(pb.SPECIAL_LOCATION_CAWDOR_CASTLE),
        "cards against the tiles",
    ),
    "a detached tile": (lambda m: setattr(_territory_tile(m).cell, "x", 40), "not touching"),
    "an overfull warehouse row": (lambda m: setattr(m.table.market[0], "filled", 4), "market row"),
    "a scoring before its stack ran out": (lambda m: setattr(m.table, "scorings_done", 2), "scorings done"),
    "a figure missing": (lambda m: m.table.track.pop(0), "figures on the track"),
    "a seat with two figures": (_die_turned_into_a_figure, "figures on the track"),
    "an actor who is not rearmost": (
        lambda m: setattr(m.table, "actor", (m.table.actor + 1) % m.table.player_count),
        "not the rearmost",
    ),
    "turn progress at the start of a turn": (
        lambda m: setattr(m.table.turn, "movement_points", 2),
        "turn progress outside a turn",
    ),
    "fewer player records than seats": (lambda m: setattr(m.table, "player_count", 5), "player record"),
}


def test_a_mid_game_state_round_trips():
    message = _mid_game()
    data = message.SerializeToString(deterministic=True)
    again = CODEC.state_to_proto(CODEC.state_from_proto(message)).SerializeToString(deterministic=True)
    assert again == data


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_inconsistent_states_are_refused(name):
    message = _mid_game()
    corrupt, reason = CORRUPTIONS[name]
    corrupt(message)
    with pytest.raises(MalformedRequest, match=reason):
        CODEC.state_from_proto(message)


def test_views_show_stack_sizes_but_not_stacks_or_rng():
    message = _mid_game()
    state = CODEC.state_from_proto(message)
    view = CODEC.view_to_proto(state, 1)
    assert view.seat == 1
    assert list(view.table.stack_sizes) == [len(stack.tiles) for stack in message.stacks]
    assert view.table == message.table
    assert {field.name for field in pb.View.DESCRIPTOR.fields} == {"table", "seat"}


def test_a_placed_tile_without_its_cubes_message_holds_none():
    """An unset ResourceCounts reads as no cubes, as protobuf reads it (the fuzz once met a TypeError)."""
    message = _mid_game()
    player = max(message.table.players, key=lambda p: len(p.territory))
    seat = list(message.table.players).index(player)
    player.territory[1].ClearField("cubes")
    state = CODEC.state_from_proto(message)
    assert state.players[seat].cubes[5:10] == [0, 0, 0, 0, 0]


# name -> (an Action the codec must refuse, what the refusal names)
MALFORMED_ACTIONS = {
    "a tile number of no stack tile": (pb.Action(take_tile=pb.TakeTile(tile=99)), "TakeTile.tile"),
    "an unset tile number": (pb.Action(take_tile=pb.TakeTile()), "TakeTile.tile"),
    "a cell beyond any territory": (pb.Action(place_tile=pb.PlaceTile(cell=pb.Cell(x=101))), "Cell.x"),
    "a clan member moved off the map": (
        pb.Action(move_clan_member=pb.MoveClanMember(to=pb.Cell(y=-101))),
        "Cell.y",
    ),
    "an activation repeated six times": (pb.Action(activate=pb.Activate(count=6)), "Activate.count"),
    "a cube bought of no resource": (pb.Action(buy_cube=pb.BuyCube()), "BuyCube.resource"),
    "a cube paid of no resource": (pb.Action(pay_cube=pb.PayCube()), "PayCube.resource"),
}


@pytest.mark.parametrize("name", sorted(MALFORMED_ACTIONS))
def test_actions_out_of_range_are_refused(name):
    message, where = MALFORMED_ACTIONS[name]
    with pytest.raises(MalformedRequest, match=where):
        CODEC.action_from_proto(message)


def test_actions_in_range_are_read():
    assert CODEC.action_from_proto(pb.Action(take_tile=pb.TakeTile(tile=1))).a == 0
    assert CODEC.action_from_proto(pb.Action(activate=pb.Activate(count=5))).c == 5
    move = CODEC.action_from_proto(pb.Action(move_clan_member=pb.MoveClanMember(to=pb.Cell(x=100, y=-100))))
    assert (move.c, move.d) == (100, -100)

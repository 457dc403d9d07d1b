"""Every integer field of a real State set in turn to the ends of its type, sent to the rules
methods that compute from the whole state (scores, a move with every view): each is refused as
MALFORMED_REQUEST or answered, never INTERNAL (an overflowing sum once was: a game's score of a
state holding 2^31 - 1 points did not fit its int32 total)."""

from __future__ import annotations

import grpc
import pytest
from google.protobuf import message

from services.common import registry
from tests.fuzz.positions import PLAYOUT_STEPS, positions
from tests.fuzz.rules_requests import action_any, request, send, state_any
from tests.fuzz.strategies import RANGES, holder_of, paths
from tests.fuzz.volume import PROFILE

TITLES = list(registry.games())
METHODS = ("GetScores", "ApplyAction")


def edge_states(state: message.Message) -> list[bytes]:
    """The state with one integer field at a time set to the least and the most its type holds."""
    found = []
    for path in paths(state):
        field = path[-1]
        if field.is_repeated or field.type not in RANGES:
            continue
        for value in RANGES[field.type]:
            copy = type(state)()
            copy.CopyFrom(state)
            setattr(holder_of(copy, path), field.name, value)
            found.append(copy.SerializeToString())
    return found


@pytest.mark.parametrize("title", TITLES)
def test_every_integer_at_its_ends(fuzz_rules_channels: dict[str, grpc.Channel], title: str) -> None:
    game = registry.get(title)
    chosen = positions(title)
    if PROFILE != "volume":  # one early position per player count, default config
        chosen = chosen[1 :: len(PLAYOUT_STEPS)][: len(registry.get(title).info.player_counts)]
    for position in chosen:
        for forged in edge_states(game.messages.state.FromString(position.state)):
            for method in METHODS:
                message_ = request(
                    method, state_any(title, forged), position.seat, action_any(title, position.action)
                )
                send(fuzz_rules_channels, "edge numbers", title, method, message_)

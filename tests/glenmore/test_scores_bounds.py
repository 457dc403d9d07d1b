"""GetScores of a forged Glen More state whose VP no game can reach (an int32 at its end, as the fuzz's
edge numbers send) is refused as a malformed state: a total past the game's declared bounds, or one
that overflows its field, was INTERNAL (protobuf's "Value out of range") or an impossible score."""

from __future__ import annotations

import grpc
import pytest
from boardgame.glenmore.v1 import glenmore_pb2 as pb
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from services.common import registry
from tests.common.support import refused, serving, stub

GAME = registry.get("glenmore")
INT32_MAX = 2**31 - 1


def forged(vp: int, coins: int) -> any_pb2.Any:
    state, _ = GAME.new_game(2, GAME.config_from_proto(pb.Config()), b"bounds")
    message = GAME.state_to_proto(state)
    message.table.players[0].vp, message.table.players[0].coins = vp, coins
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


@pytest.mark.parametrize(("vp", "coins"), [(INT32_MAX, 0), (INT32_MAX, 2), (GAME.info.max_score + 1, 0)])
def test_a_score_no_game_reaches_is_a_malformed_state(vp: int, coins: int) -> None:
    with serving(GAME) as channel:
        code, info = refused(stub(channel).GetScores, rules_pb2.GetScoresRequest(state=forged(vp, coins)))
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")


def test_the_highest_declared_score_is_answered() -> None:
    with serving(GAME) as channel:
        response = stub(channel).GetScores(rules_pb2.GetScoresRequest(state=forged(GAME.info.max_score, 0)))
    assert response.scores[0].total == GAME.info.max_score

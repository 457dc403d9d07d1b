"""The game record says which data set a game plays with: a lobby that leaves `data_set` unset gets
the service's listed default written into the game's Config, so the record (and a replay) names it."""

from __future__ import annotations

from boardgame.gateway.v1 import gateway_pb2
from boardgame.goldencity.v1 import goldencity_pb2 as pb

from live.games import build_config
from services.common.servicer import info_to_proto
from services.goldencity import GAME


def test_an_unset_data_set_is_written_into_the_config_the_record_keeps() -> None:
    info = info_to_proto(GAME.info, GAME)
    config = pb.Config()
    build_config(info, []).Unpack(config)
    assert config.data_set == "v0"
    chosen = pb.Config()
    build_config(info, [gateway_pb2.GameOptionValue(name="joker", value="any_pair")]).Unpack(chosen)
    assert (chosen.data_set, chosen.joker) == ("v0", pb.JOKER_ANY_PAIR)

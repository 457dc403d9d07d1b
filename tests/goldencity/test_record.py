"""The game record says which data set a game plays with: a lobby that leaves `data_set` unset gets
the service's listed default written into the game's Config, so the record (and a replay) names it,
and the record of a game played through a real gateway carries the set's edition: its name, version
and that it is a reconstruction."""

from __future__ import annotations

import json

from boardgame.gateway.v1 import gateway_pb2
from boardgame.goldencity.v1 import goldencity_pb2 as pb

from live.games import build_config
from services.common.servicer import info_to_proto
from services.goldencity import GAME
from tests.gateway.records import finished_record, gateway_of_every_title
from tests.goldencity.datasets import BOARD, V0


def test_an_unset_data_set_is_written_into_the_config_the_record_keeps() -> None:
    info = info_to_proto(GAME.info, GAME)
    config = pb.Config()
    build_config(info, []).Unpack(config)
    assert config.data_set == "v0"
    chosen = pb.Config()
    build_config(info, [gateway_pb2.GameOptionValue(name="joker", value="any_pair")]).Unpack(chosen)
    assert (chosen.data_set, chosen.joker) == ("v0", pb.JOKER_ANY_PAIR)


def test_a_finished_games_record_says_its_data_set_version_and_that_it_is_a_reconstruction() -> None:
    shipped = json.loads((V0 / BOARD).read_text())
    with gateway_of_every_title() as gateway:
        record = finished_record(gateway, "goldencity", 2, seed=5)
    assert record.HasField("edition")
    edition = record.edition
    assert (edition.data_set, edition.data_version, edition.reconstruction) == (
        "v0",
        shipped["data_version"],
        shipped["reconstruction"],
    )
    assert shipped["reconstruction"] is True
    assert (
        edition.notice == f"Data set v0 ({shipped['data_version']}): a RECONSTRUCTION, not the printed game"
    )

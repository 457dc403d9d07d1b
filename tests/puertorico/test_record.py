"""A Puerto Rico game's record, from a real gateway: the title's material is not replaceable data, so
the record carries no edition."""

from __future__ import annotations

from tests.gateway.records import finished_record, gateway_of_every_title


def test_a_finished_games_record_has_no_edition() -> None:
    with gateway_of_every_title() as gateway:
        record = finished_record(gateway, "puertorico", 3, seed=5)
    assert record.scores.final
    assert not record.HasField("edition")

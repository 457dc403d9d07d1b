"""gateway.api names every proto file of the gateway's package, so what walks the API (the servers, the
browser transport, the authorization matrix, the validation and fuzz tests) misses no service."""

from __future__ import annotations

from pathlib import Path

from gateway import api

PROTOS = Path(__file__).resolve().parents[2] / "protos" / "boardgame" / "gateway" / "v1"


def test_every_proto_file_of_the_package_is_in_the_api() -> None:
    declared = {path.relative_to(PROTOS.parents[2]).as_posix() for path in PROTOS.glob("*.proto")}
    assert len(declared) >= 2
    assert {file.name for file, _ in api.FILES} == declared
    assert all(file.package == api.PACKAGE for file, _ in api.FILES)


def test_services_are_found_by_short_and_full_name() -> None:
    names = [service.name for service in api.services()]
    assert len(names) == len(set(names)) and "TournamentService" in names and "GameService" in names
    for service in api.services():
        assert api.service(service.name) is api.service(service.full_name) is service

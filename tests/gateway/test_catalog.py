"""CatalogService.GetTitleData: each title's static data, as its rules service declares it, with a
digest a client can keep it under; a current `known_digest` is answered without the data, an unknown
title is NOT_FOUND."""

from __future__ import annotations

import hashlib

import grpc
from boardgame.gateway.v1 import gateway_pb2

from services.common import registry, titledata
from tests.gateway._support_accounts import refused
from tests.gateway.support import Client
from tests.titles import TITLE


def test_every_title_serves_its_data_under_the_digest_the_catalogue_lists(
    client: Client, rules: dict[str, str]
) -> None:
    client.sign_in_as_guest("data reader")
    titles = client.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=client.auth).titles
    assert sorted(title.name for title in titles) == sorted(rules)
    for title in titles:
        response = client.catalog.GetTitleData(
            gateway_pb2.GetTitleDataRequest(title=title.name), metadata=client.auth
        )
        data = response.data
        assert not response.unchanged
        assert data.data.TypeName() == title.data_type
        assert data.digest == title.data_digest == hashlib.sha256(data.data.value).hexdigest()
        declared = registry.get(title.name).title_data
        assert declared is not None and title.data_type == declared.message.DESCRIPTOR.full_name
        assert data.data.value == titledata.encode(declared)
        assert data.data_version == declared.version()
        message = declared.message()
        assert data.data.Unpack(message) and message.ListFields(), title.name


def test_a_current_digest_is_answered_without_the_data_and_a_stale_one_with_it(client: Client) -> None:
    client.sign_in_as_guest("data cacher")
    catalog, auth = client.catalog, client.auth
    first = catalog.GetTitleData(gateway_pb2.GetTitleDataRequest(title=TITLE), metadata=auth).data
    again = catalog.GetTitleData(
        gateway_pb2.GetTitleDataRequest(title=TITLE, known_digest=first.digest), metadata=auth
    )
    assert again.unchanged and again.data.digest == first.digest and not again.data.data.value
    stale = catalog.GetTitleData(
        gateway_pb2.GetTitleDataRequest(title=TITLE, known_digest="0" * 64), metadata=auth
    )
    assert not stale.unchanged and stale.data == first


def test_an_unknown_title_is_not_found_and_a_missing_one_invalid(client: Client) -> None:
    client.sign_in_as_guest("data asker")
    ask = client.catalog.GetTitleData
    code, info = refused(ask, gateway_pb2.GetTitleDataRequest(title="chess"), client.auth)
    assert (code, info.reason) == (grpc.StatusCode.NOT_FOUND, "TITLE_NOT_FOUND")
    code, info = refused(ask, gateway_pb2.GetTitleDataRequest(), client.auth)
    assert (code, info.reason, info.metadata["field"]) == (
        grpc.StatusCode.INVALID_ARGUMENT,
        "MISSING_TITLE",
        "title",
    )

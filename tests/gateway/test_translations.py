"""CatalogService.GetCatalog through a real gateway and real rules services: a title's catalog in the
locale nearest the one asked for, kept under its digest, with bad requests refused; and the account's
preferred locale (AccountService.SetLocale, GetMe). The Texts of a game view's legal actions and
events, rendered in Chinese by `bg`, are checked in tests/clients/test_cli_lang.py."""

from __future__ import annotations

from collections.abc import Callable

import grpc
from boardgame.gateway.v1 import gateway_pb2

from i18n.messages import Catalog
from tests.gateway._support_accounts import refused
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import new_game, signed_in
from tests.titles import GAME, TITLE


def catalog(client: Client, locale: str, known_digest: str = "") -> gateway_pb2.GetCatalogResponse:
    request = gateway_pb2.GetCatalogRequest(title=TITLE, locale=locale, known_digest=known_digest)
    response: gateway_pb2.GetCatalogResponse = client.catalog.GetCatalog(request, metadata=client.auth)
    return response


def test_the_locale_falls_back_and_a_current_digest_is_answered_without_the_messages(client: Client) -> None:
    client.sign_in_as_guest("catalog reader")
    given = {tag: catalog(client, tag).catalog for tag in ("zh-TW", "zh-CN", "fr-FR", "", "zh_Hant")}
    assert {tag: reply.locale for tag, reply in given.items()} == {
        "zh-TW": "zh_Hant",
        "zh-CN": "zh_Hans",
        "fr-FR": "en",
        "": "en",
        "zh_Hant": "zh_Hant",
    }
    assert list(given["zh-TW"].locales) == ["en", "zh_Hans", "zh_Hant"]
    english, traditional, simplified = (dict(given[tag].messages) for tag in ("", "zh-TW", "zh-CN"))
    assert set(traditional) == set(english) == set(simplified)
    translated = [key for key in english if traditional[key] != english[key]]
    assert (
        len([k for k in translated if any("\u4e00" <= c <= "\u9fff" for c in traditional[k])])
        > len(english) // 2
    )
    assert any(traditional[key] != simplified[key] for key in translated)
    assert given["zh-TW"] == given["zh_Hant"] and given["fr-FR"] == given[""]
    again = catalog(client, "zh-TW", given["zh-TW"].digest)
    assert again.unchanged and not again.catalog.messages and again.catalog.digest == given["zh-TW"].digest
    stale = catalog(client, "zh-TW", "0" * 64)
    assert not stale.unchanged and stale.catalog == given["zh-TW"]


def test_bad_requests_are_refused_with_their_reasons(client: Client) -> None:
    client.sign_in_as_guest("catalog asker")
    ask = client.catalog.GetCatalog
    code, info = refused(ask, gateway_pb2.GetCatalogRequest(title="chess"), client.auth)
    assert (code, info.reason) == (grpc.StatusCode.NOT_FOUND, "TITLE_NOT_FOUND")
    code, info = refused(ask, gateway_pb2.GetCatalogRequest(locale="en"), client.auth)
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MISSING_TITLE")
    for bad in ("x", "zh TW", "../../etc"):
        code, info = refused(ask, gateway_pb2.GetCatalogRequest(title=TITLE, locale=bad), client.auth)
        assert (code, info.reason, info.metadata["field"]) == (
            grpc.StatusCode.INVALID_ARGUMENT,
            "INVALID_LOCALE",
            "locale",
        )


def test_the_account_keeps_its_locale_and_get_me_returns_it(client: Client) -> None:
    client.sign_in_as_guest("locale keeper")
    accounts, auth = client.accounts, client.auth
    assert accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=auth).locale == ""
    kept = accounts.SetLocale(gateway_pb2.SetLocaleRequest(locale="zh-TW"), metadata=auth)
    assert kept.locale == "zh-TW"
    assert accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=auth).locale == "zh-TW"
    for bad in ("x", "zh TW", "a" * 40):
        code, info = refused(accounts.SetLocale, gateway_pb2.SetLocaleRequest(locale=bad), auth)
        assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_LOCALE")
    assert accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=auth).locale == "zh-TW"
    accounts.SetLocale(gateway_pb2.SetLocaleRequest(), metadata=auth)
    assert accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=auth).locale == ""


def test_the_gateways_own_event_texts_come_from_the_catalog_it_serves(
    gateway: GatewayProcess, new_client: Callable[[], Client]
) -> None:
    """A resignation's event (worded by the live table, not the rules) carries a Text whose template
    every locale of the served catalog has, rendering to the English sent and to Chinese."""
    players = signed_in(new_client, GAME.info.min_players)
    game_id = new_game(gateway, TITLE, players)
    resigner = players[-1]
    resigned = resigner.games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=resigner.auth)
    watch = gateway_pb2.WatchGameRequest(game_id=game_id, from_version=resigned.game.version - 1)
    stream = players[0].games.WatchGame(watch, metadata=players[0].auth, timeout=10)
    try:
        change = next(change for change in stream if change.events)
    finally:
        stream.cancel()
    event = change.events[0]
    assert event.HasField("message") and event.message.template.startswith("game.")
    served = {tag: catalog(players[0], tag).catalog for tag in ("en", "zh-TW", "zh-CN")}
    assert Catalog("en", dict(served["en"].messages)).render(event.message) == event.text
    for tag in ("zh-TW", "zh-CN"):
        reply = served[tag]
        chinese = Catalog(reply.locale, dict(reply.messages)).render(event.message)
        assert any("\u4e00" <= c <= "\u9fff" for c in chinese) and chinese != event.text, chinese

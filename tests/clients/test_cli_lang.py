"""`bg --lang` and the account's locale: labels, event texts and score lines rendered from their Texts
with the title's catalog fetched through a real gateway (real rules services, Redis and a worker
playing the bots), in Traditional or Simplified Chinese; English when neither is set.

Which script was drawn is told from the catalogs the gateway serves: every Chinese character `bg`
printed is one of the asked catalog's, and some are not in the other script's."""

from __future__ import annotations

import io

import grpc
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.message import Message

from cli.client import Client as BgClient
from cli.render import unpack
from i18n.data_texts import pairs
from i18n.messages import Catalog
from tests.clients.conftest import Bg
from tests.gateway.support import Client
from tests.titles import TITLE

MOVES = "1\n" * 6 + "q\n"  # a few moves, then leave the game


def chinese(text: str) -> set[str]:
    """The CJK ideographs of a text."""
    return {char for char in text if "\u4e00" <= char <= "\u9fff"}


def catalog_characters(channel: grpc.Channel, bg: Bg, locale: str) -> set[str]:
    """Every ideograph of the title's catalog of `locale`, as the gateway serves it."""
    api = bg.api(channel)
    reply = api.catalog.GetCatalog(
        gateway_pb2.GetCatalogRequest(title=TITLE, locale=locale), metadata=api.auth
    )
    return chinese("".join(reply.catalog.messages.values()))


def played(out: str) -> list[str]:
    """The labels of the moves `bg` played."""
    return [line.split("played: ", 1)[1] for line in out.splitlines() if "played: " in line]


def test_bg_lang_shows_labels_and_events_in_traditional_chinese(
    bg: Bg, worker: None, channel: grpc.Channel
) -> None:
    code, out, err = bg("guest", "Lang Reader")
    assert code == 0, err
    code, out, err = bg("--lang", "zh-TW", "new", TITLE, "--seats", "2", "--bots", "1", "--play", stdin=MOVES)
    assert code == 0, err
    labels = played(out)
    assert labels and all(chinese(label) for label in labels), out
    traditional, simplified = (catalog_characters(channel, bg, tag) for tag in ("zh-TW", "zh-CN"))
    shown = chinese(out)
    assert shown <= traditional, sorted(shown - traditional)
    assert shown - simplified, out  # some of it written as only Traditional Chinese writes it


def test_the_accounts_locale_is_the_default_and_english_without_one(
    bg: Bg, worker: None, channel: grpc.Channel
) -> None:
    code, out, err = bg("guest", "Locale Keeper")
    assert code == 0, err
    code, out, err = bg("new", TITLE, "--seats", "2", "--bots", "1", "--play", stdin=MOVES)
    assert code == 0, err
    assert played(out) and not chinese(out), out
    api = bg.api(channel)
    api.accounts.SetLocale(gateway_pb2.SetLocaleRequest(locale="zh-CN"), metadata=api.auth)
    code, out, err = bg("new", TITLE, "--seats", "2", "--bots", "1", "--play", stdin=MOVES)
    assert code == 0, err
    labels = played(out)
    assert labels and all(chinese(label) for label in labels), out
    traditional, simplified = (catalog_characters(channel, bg, tag) for tag in ("zh-TW", "zh-CN"))
    shown = chinese(out)
    assert shown <= simplified, sorted(shown - simplified)
    assert shown - traditional, out  # some of it written as only Simplified Chinese writes it


def data_words(api: Client, locale: str) -> tuple[str, dict[str, str]]:
    """The first title whose static data has words to translate, and those words (English -> as its
    catalog of `locale` renders their Text: `i18n.data_texts`), as the gateway serves both."""
    for info in api.catalog.ListTitles(gateway_pb2.ListTitlesRequest(), metadata=api.auth).titles:
        request = gateway_pb2.GetTitleDataRequest(title=info.name)
        data = unpack(api.catalog.GetTitleData(request, metadata=api.auth).data.data)
        found = list(pairs(data)) if data is not None else []
        if found:
            request = gateway_pb2.GetCatalogRequest(title=info.name, locale=locale)
            served = api.catalog.GetCatalog(request, metadata=api.auth).catalog
            catalog = Catalog(served.locale, dict(served.messages))
            return info.name, {word: catalog.render(text) for text, word in found}
    raise AssertionError("no title's data has words to translate")


def english_words(data: Message) -> set[str]:
    """The words of a title's data that stand beside a Text (`i18n.data_texts`)."""
    return {word for _, word in pairs(data)}


def test_bg_lang_draws_from_the_words_of_a_titles_data_in_its_language(bg: Bg, channel: grpc.Channel) -> None:
    """The title data `bg --lang zh-TW` draws its tables from (`cli.client.Client.title_data`, through
    a real gateway) holds each word of a title's data (a tile's cost, a card's words) as the title's
    Traditional Chinese catalog renders its Text, in place of the English; in English, the English."""
    code, _, err = bg("guest", "Data Reader")
    assert code == 0, err
    api = bg.api(channel)
    title, words = data_words(api, "zh-TW")
    for lang, expected in (("zh-TW", set(words.values())), ("en", set(words))):
        client = BgClient(bg.address, api.token, io.StringIO(), io.StringIO(), lang=lang)
        try:
            data = client.title_data(title)
        finally:
            client.channel.close()
        assert data is not None
        assert english_words(data) == expected, lang
    assert any(chinese(word) for word in words.values())

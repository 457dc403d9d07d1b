"""`bg --lang` and the account's locale: labels, event texts and score lines rendered from their Texts
with the title's catalog fetched through a real gateway (real rules services, Redis and a worker
playing the bots), in Traditional or Simplified Chinese; English when neither is set.

Which script was drawn is told from the catalogs the gateway serves: every Chinese character `bg`
printed is one of the asked catalog's, and some are not in the other script's."""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2

from tests.clients.conftest import Bg
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

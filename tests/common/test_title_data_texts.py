"""Every translatable text of a title's static data (a tile's cost, a card's words) is a Text of the
title's catalogs beside its English, as `i18n.data_texts` says where: every Text renders its English
and reads in every catalog, and `translated` puts a catalog's words in the English's place."""

from __future__ import annotations

import pytest
from google.protobuf.message import Message

from i18n.data_texts import texts, translated
from services.common import registry
from services.common.titledata import game_data

TRANSLATED = ("zh_Hant", "zh_Hans")


def title_data(name: str) -> Message | None:
    game = registry.get(name)
    if game.title_data is None:
        return None
    message = game.title_data.message()
    assert game_data(game.title_data).data.Unpack(message)
    return message


def fields(data: Message) -> list[tuple[list[object], list[str]]]:
    """Each Text field's Texts and English, as lists."""
    found = []
    for holder, field, english in texts(data):
        values, words = getattr(holder, field.name), getattr(holder, english.name)
        found.append((list(values), list(words)) if field.is_repeated else ([values], [words]))
    return found


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_each_text_of_the_titles_data_renders_its_english_and_reads_in_every_catalog(name: str) -> None:
    data = title_data(name)
    catalogs = registry.get(name).catalogs
    for messages, english in fields(data) if data is not None else ():
        assert catalogs is not None, "a title with Texts in its data and no catalogs to render them"
        assert [catalogs.catalogs["en"].render(message) for message in messages] == english  # type: ignore[arg-type]
        for locale in TRANSLATED:
            read = [catalogs.catalogs[locale].render(message) for message in messages]  # type: ignore[arg-type]
            assert all(read) and read != english, locale


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_a_translated_copy_holds_the_catalogs_words_where_the_english_was(name: str) -> None:
    data = title_data(name)
    catalogs = registry.get(name).catalogs
    if data is None or catalogs is None:
        return
    copy = translated(data, catalogs.catalogs["zh_Hant"].render)
    assert [read for _, read in fields(copy)] == [
        [catalogs.catalogs["zh_Hant"].render(message) for message in messages]  # type: ignore[arg-type]
        for messages, _ in fields(data)
    ]
    assert translated(data, lambda text: None) == data  # nothing rendered: the English stays


def test_the_titles_data_has_texts_to_translate() -> None:
    """The tests above read some (a tile's cost, a card's words), not none."""
    found = [field for name in registry.games() if (data := title_data(name)) for field in fields(data)]
    assert len(found) >= 2

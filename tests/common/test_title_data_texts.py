"""Every translatable text of a title's static data (a Glen More tile's cost, a Golden City card's
words): each is a Text of the title's catalogs, beside the English words it renders to, so a client
draws it in its reader's language. Every catalog has every message such a Text names, and no Text
field of a title's data goes without its English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from services.common import registry
from services.common.titledata import game_data

# Each Text field of a title's data -> the field holding its English, in the same message.
ENGLISH_OF = {
    "boardgame.glenmore.v1.TileInfo.cost_message": "cost",
    "boardgame.goldencity.v1.Place.bonus_message": "bonus_text",
    "boardgame.goldencity.v1.InstalledSet.scoring_card_messages": "scoring_cards",
    "boardgame.goldencity.v1.InstalledSet.goods_card_messages": "goods_cards",
    "boardgame.goldencity.v1.InstalledSet.bonus_card_messages": "bonus_cards",
}
TEXT = rules_pb2.Text.DESCRIPTOR.full_name


def texts(message: Message) -> Iterator[tuple[str, list[rules_pb2.Text], list[str]]]:
    """Every Text field set in `message` and the messages below it: its full name, its Texts, and
    the English beside them (by ENGLISH_OF; empty for a field it does not name)."""
    for field, value in message.ListFields():
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        values = list(value) if field.is_repeated else [value]
        if field.message_type.full_name == TEXT:
            english = ENGLISH_OF.get(field.full_name)
            words = getattr(message, english) if english else []
            yield (
                field.full_name,
                values,
                list(words) if field.is_repeated else [words],
            )
            continue
        for inner in values:
            yield from texts(inner)


def title_data(name: str) -> Message:
    game = registry.get(name)
    assert game.title_data is not None
    data = game_data(game.title_data).data
    message = game.title_data.message()
    assert data.Unpack(message)
    return message


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_each_text_of_the_titles_data_renders_its_english_and_reads_in_every_catalog(name: str) -> None:
    game = registry.get(name)
    found = list(texts(title_data(name))) if game.title_data is not None else []
    expected = {field for field in ENGLISH_OF if field.split(".")[1] == name}
    assert {field for field, _, _ in found} == expected, "a Text field without its English in ENGLISH_OF"
    for field, messages, english in found:
        assert game.catalogs is not None
        assert len(messages) == len(english), field
        assert [game.catalogs.catalogs["en"].render(message) for message in messages] == english, field
        for locale in ("zh_Hant", "zh_Hans"):
            read = [
                game.catalogs.catalogs[locale].render(message) for message in messages
            ]  # KeyError: missing
            assert all(read) and read != english, (field, locale)

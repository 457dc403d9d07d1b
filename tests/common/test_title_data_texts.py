"""Every translatable text of a title's static data (a tile's cost, a card's words): each is a Text of
the title's catalogs in a field `<name>_message` (`<name>_messages` for a list) beside the English it
renders to, in the field `<name>`, `<name>s` or `<name>_text` of the same message, so a client draws
it in its reader's language. Every Text renders its English, and reads in every catalog."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from services.common import registry
from services.common.titledata import game_data

TEXT = rules_pb2.Text.DESCRIPTOR.full_name
SUFFIXES = ("_messages", "_message")
ENGLISH_NAMES = ("{}", "{}s", "{}_text")  # where a Text field's English is, by the name before its suffix
TRANSLATED = ("zh_Hant", "zh_Hans")


def english_field(field: FieldDescriptor) -> FieldDescriptor:
    """The string field beside a Text field that holds its English."""
    suffix = next((s for s in SUFFIXES if field.name.endswith(s)), None)
    assert suffix is not None, f"{field.full_name}: a Text of a title's data is named <name>_message(s)"
    base = field.name.removesuffix(suffix)
    fields = field.containing_type.fields_by_name
    found = [fields[name.format(base)] for name in ENGLISH_NAMES if name.format(base) in fields]
    assert len(found) == 1, f"{field.full_name}: no one field of its English ({ENGLISH_NAMES} of {base})"
    english = found[0]
    assert english.type == FieldDescriptor.TYPE_STRING and english.is_repeated == field.is_repeated
    return english


def texts(message: Message) -> Iterator[tuple[str, list[rules_pb2.Text], list[str]]]:
    """Every Text field set in `message` and the messages below it: its full name, its Texts, and the
    English beside them."""
    for field, value in message.ListFields():
        if field.type != FieldDescriptor.TYPE_MESSAGE:
            continue
        values = list(value) if field.is_repeated else [value]
        if field.message_type.full_name == TEXT:
            english = getattr(message, english_field(field).name)
            yield field.full_name, values, list(english) if field.is_repeated else [english]
            continue
        for inner in values:
            yield from texts(inner)


def title_data(name: str) -> Message | None:
    game = registry.get(name)
    if game.title_data is None:
        return None
    message = game.title_data.message()
    assert game_data(game.title_data).data.Unpack(message)
    return message


@pytest.mark.parametrize("name", sorted(registry.games()))
def test_each_text_of_the_titles_data_renders_its_english_and_reads_in_every_catalog(name: str) -> None:
    data = title_data(name)
    game = registry.get(name)
    for field, messages, english in texts(data) if data is not None else ():
        assert game.catalogs is not None, f"{field}: the title has no catalogs to render it"
        assert [game.catalogs.catalogs["en"].render(message) for message in messages] == english, field
        for locale in TRANSLATED:
            read = [
                game.catalogs.catalogs[locale].render(message) for message in messages
            ]  # KeyError: missing
            assert all(read) and read != english, (field, locale)


def test_the_titles_data_has_texts_to_translate() -> None:
    """The test above reads some (a tile's cost, a card's words), not none."""
    found = [field for name in registry.games() if (data := title_data(name)) for field, _, _ in texts(data)]
    assert len(found) >= 2

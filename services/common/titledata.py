"""A game's static data as the `boardgame.rules.v1.GameData` message: the game's own message of it,
written by `services.common.convert` from the native value its `TitleData` builds from the engine's
tables (one mechanism for every game, no data copied by hand), with its version and digest."""

from __future__ import annotations

import hashlib
from typing import NamedTuple

from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from services.common.convert import Converter
from services.common.game import TitleData


class ArgumentFacts(NamedTuple):
    """An Argument message's native value: its one value set, the other members None."""

    name: str
    number: int | None
    literal: str | None
    term: str | None
    text: TextFacts | None


class TextFacts(NamedTuple):
    """A Text message's native value (a label in a title's data, translatable as its events are)."""

    template: str
    arguments: tuple[ArgumentFacts, ...]


def text_facts(message: rules_pb2.Text) -> TextFacts:
    """The native value of a Text built by a title's labels."""
    arguments = []
    for argument in message.arguments:
        chosen = argument.WhichOneof("value")
        values: dict[str, object] = {"number": None, "literal": None, "term": None, "text": None}
        if chosen == "text":
            values["text"] = text_facts(argument.text)
        elif chosen is not None:
            values[chosen] = getattr(argument, chosen)
        arguments.append(ArgumentFacts(argument.name, **values))  # type: ignore[arg-type]
    return TextFacts(message.template, tuple(arguments))


def encode(data: TitleData) -> bytes:
    """The deterministic bytes of the game's data message, written from `data.native()`."""
    return Converter([data.message]).writer(data.message)(data.native())


def digest(data: bytes) -> str:
    """The hex SHA-256 of a data message's bytes, as GameData.digest and GameInfo.data_digest carry it."""
    return hashlib.sha256(data).hexdigest()


def game_data(data: TitleData) -> rules_pb2.GameData:
    """The GameData message of a game's static data."""
    encoded = encode(data)
    url = "type.googleapis.com/" + data.message.DESCRIPTOR.full_name
    return rules_pb2.GameData(
        data=any_pb2.Any(type_url=url, value=encoded), data_version=data.version(), digest=digest(encoded)
    )

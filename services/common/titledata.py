"""A game's static data as the `boardgame.rules.v1.GameData` message: the game's own message of it,
written by `services.common.convert` from the native value its `TitleData` builds from the engine's
tables (one mechanism for every game, no data copied by hand), with its version and digest."""

from __future__ import annotations

import hashlib

from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from services.common.convert import Converter
from services.common.game import TitleData


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

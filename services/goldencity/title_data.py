"""The Golden City's static data for clients (boardgame.goldencity.v1.TitleData): the board and the
cards in words of every data set installed where the rules service runs (the shipped v0 and any in
GOLDENCITY_DATA_DIR), read from the sets' own files, and the houses' colours. Its version names each
set with its data_version."""

from __future__ import annotations

from typing import NamedTuple

from boardgame.goldencity.v1 import goldencity_pb2 as pb

from i18n.messages import Message
from services.common.game import TitleData
from services.common.titledata import TextFacts, text_facts
from services.goldencity import dataset, labels, tables
from services.goldencity.records import Place
from services.goldencity.rules import BLACK_HOUSE_COLOUR, HOUSE_COLOURS


class PlaceFacts(NamedTuple):
    """A Place message's native value."""

    id: int
    name: str
    kind: str
    region: str
    compass: str
    on_river: bool
    bonus_type: str
    bonus_amount: int
    bonus_text: str
    bonus_message: TextFacts


class RoadFacts(NamedTuple):
    """A Road message's native value."""

    ends: tuple[int, ...]


class SetFacts(NamedTuple):
    """An InstalledSet message's native value."""

    name: str
    data_version: str
    reconstruction: bool
    places: tuple[PlaceFacts, ...]
    roads: tuple[RoadFacts, ...]
    scoring_cards: tuple[str, ...]
    goods_cards: tuple[str, ...]
    bonus_cards: tuple[str, ...]
    scoring_card_messages: tuple[TextFacts, ...]
    goods_card_messages: tuple[TextFacts, ...]
    bonus_card_messages: tuple[TextFacts, ...]


class Facts(NamedTuple):
    """The TitleData message's native value."""

    data_sets: tuple[SetFacts, ...]
    house_colours: tuple[str, ...]
    black_house_colour: str


def place_facts(place: Place) -> PlaceFacts:
    """What a client shows of a place."""
    bonus = place.bonus
    words = labels.english(labels.bonus(bonus.type, bonus.amount))
    return PlaceFacts(
        place.id,
        place.name,
        place.kind.name.lower(),
        place.region.name.lower(),
        place.compass.name,
        place.on_river,
        bonus.type.name.lower(),
        bonus.amount,
        str(words),
        text_facts(words.text),
    )


def set_facts(name: str) -> SetFacts:
    """The installed data set `name`: its board, and its cards by id in words and as messages."""
    found = tables.named(name)
    data = found.data
    # Each card once, as its English carrying its Text.
    scoring = [labels.scoring_card(found, card) for card in range(1, len(data.scoring_cards) + 1)]
    goods = [labels.english(labels.goods_card(found, card)) for card in range(1, len(data.goods_cards) + 1)]
    bonus = [labels.english(labels.bonus_card(found, card)) for card in range(1, len(data.bonus_cards) + 1)]
    return SetFacts(
        name,
        data.data_version,
        data.reconstruction,
        tuple(place_facts(place) for place in data.board.places),
        tuple(RoadFacts(tuple(road.ends)) for road in data.board.roads),
        _words(scoring),
        _words(goods),
        _words(bonus),
        _texts(scoring),
        _texts(goods),
        _texts(bonus),
    )


def _words(deck: list[Message]) -> tuple[str, ...]:
    return tuple(str(card) for card in deck)


def _texts(deck: list[Message]) -> tuple[TextFacts, ...]:
    return tuple(text_facts(card.text) for card in deck)


def facts() -> Facts:
    """Every installed set, by name, and the houses' colours."""
    return Facts(tuple(set_facts(name) for name in dataset.available()), HOUSE_COLOURS, BLACK_HOUSE_COLOUR)


def version() -> str:
    """Each installed set as name@data_version, for example "v0@0.1.0"."""
    return ", ".join(f"{name}@{tables.named(name).data.data_version}" for name in dataset.available())


TITLE_DATA = TitleData(pb.TitleData, facts, version)

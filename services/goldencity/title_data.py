"""The Golden City's static data for clients (boardgame.goldencity.v1.TitleData): the board and the
cards in words of every data set installed where the rules service runs (the shipped v0 and any in
GOLDENCITY_DATA_DIR), read from the sets' own files, and the houses' colours. Its version names each
set with its data_version."""

from __future__ import annotations

from typing import NamedTuple

from boardgame.goldencity.v1 import goldencity_pb2 as pb

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
    return PlaceFacts(
        place.id,
        place.name,
        place.kind.name.lower(),
        place.region.name.lower(),
        place.compass.name,
        place.on_river,
        bonus.type.name.lower(),
        bonus.amount,
        labels.bonus_text(bonus.type, bonus.amount),
        text_facts(labels.english(labels.bonus(bonus.type, bonus.amount)).text),
    )


def set_facts(name: str) -> SetFacts:
    """The installed data set `name`: its board, and its cards by id in words and as messages."""
    found = tables.named(name)
    data = found.data
    scoring, goods, bonus = (
        range(1, len(cards) + 1) for cards in (data.scoring_cards, data.goods_cards, data.bonus_cards)
    )
    return SetFacts(
        name,
        data.data_version,
        data.reconstruction,
        tuple(place_facts(place) for place in data.board.places),
        tuple(RoadFacts(tuple(road.ends)) for road in data.board.roads),
        tuple(labels.scoring_card_text(found, card) for card in scoring),
        tuple(labels.goods_card_text(found, card) for card in goods),
        tuple(labels.bonus_card_text(found, card) for card in bonus),
        tuple(text_facts(labels.scoring_card(found, card).text) for card in scoring),
        tuple(text_facts(labels.goods_card(found, card)) for card in goods),
        tuple(text_facts(labels.bonus_card(found, card)) for card in bonus),
    )


def facts() -> Facts:
    """Every installed set, by name, and the houses' colours."""
    return Facts(tuple(set_facts(name) for name in dataset.available()), HOUSE_COLOURS, BLACK_HOUSE_COLOUR)


def version() -> str:
    """Each installed set as name@data_version, for example "v0@0.1.0"."""
    return ", ".join(f"{name}@{tables.named(name).data.data_version}" for name in dataset.available())


TITLE_DATA = TitleData(pb.TitleData, facts, version)

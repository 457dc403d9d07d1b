"""The shipped data set v0 is the RECONSTRUCTION of rules §12.4-12.7, transcribed exactly: each count
and table below is restated from the rules text, not read from the loader's code (T9, first part)."""

from __future__ import annotations

import warnings
from collections import Counter

import pytest

from services.goldencity import dataset
from services.goldencity.records import DataSet
from services.goldencity.vocabulary import BonusCardKind, BonusType, Compass, Item, Landscape, PlaceKind

REGIONS = {"meadow": ("N", 8), "forest": ("E", 8), "desert": ("S", 7), "mountains": ("W", 7)}
AREA_OF_REGION = {"meadow": "north", "forest": "east", "desert": "south", "mountains": "west"}
BONUSES = {
    "c1": ("coins", 1),
    "c2": ("coins", 2),
    "c3": ("landscape_card", 1),
    "c4": ("letters", 2),
    "i1": ("key", 1),
    "i2": ("bonus_card", 1),
    "i3": ("bonus_card", 1),
    "i4": ("goods_card", 1),
    "i5": ("goods_card", 1),
    "i6": ("landscape_card", 1),
    "i7": ("letters", 3),
    "i8": ("key", 1),
}
SCORING_CARDS = {
    1: [("north", 1), ("east", 2), ("south", 3), ("west", 4)],
    2: [
        ("north", 2),
        ("north", 4),
        ("east", 1),
        ("east", 3),
        ("south", 2),
        ("south", 4),
        ("west", 1),
        ("west", 3),
    ],
    3: [("north", 3), ("east", 4), ("south", 1), ("west", 2)],
}
GOODS_CARDS = [{1, 2}, {1, 2}, {3, 4}, {3, 4}, {1, 3}, {1, 4}, {2, 3}, {2, 4}]


@pytest.fixture(scope="module")
def v0() -> DataSet:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # v0 is within every component limit: no warning
        return dataset.load("v0", environ={})


def test_v0_is_installed_and_the_default() -> None:
    assert "v0" in dataset.available(environ={})
    assert dataset.configured_name({}) == "v0"


def test_every_file_says_it_is_a_reconstruction_of_version_v0(v0: DataSet) -> None:
    assert v0.reconstruction is True
    assert v0.data_version == "v0-reconstruction"
    assert [source.file for source in v0.sources] == list(dataset.DATA_FILES)
    for source in v0.sources:
        assert source.reconstruction is True and source.data_version == "v0-reconstruction"
        assert (
            "RECONSTRUCTION" in source.provenance and "transcription of a printed copy" in source.provenance
        )
    assert v0.warnings == ()


def test_board_counts(v0: DataSet) -> None:
    kinds = Counter(place.kind for place in v0.board.places)
    assert kinds == {
        PlaceKind.COAST: 16,
        PlaceKind.INLAND: 30,
        PlaceKind.CITY_OUTER: 4,
        PlaceKind.CITY_INNER: 4,
    }
    assert len(v0.board.roads) == 70
    assert v0.board.regions == (Landscape.MEADOW, Landscape.FOREST, Landscape.DESERT, Landscape.MOUNTAINS)
    assert [kind.name for kind in v0.board.goods_kinds] == ["goods_1", "goods_2", "goods_3", "goods_4"]
    assert [kind.id for kind in v0.board.goods_kinds] == [1, 2, 3, 4]
    per_region = Counter((p.region, p.kind) for p in v0.board.places if p.kind is PlaceKind.INLAND)
    assert {region.name.lower(): count for (region, _), count in per_region.items()} == {
        "meadow": 8,
        "forest": 8,
        "desert": 7,
        "mountains": 7,
    }


def test_places_their_regions_compasses_and_bonuses(v0: DataSet) -> None:
    expected = {}
    for region, (compass, inland) in REGIONS.items():
        for spot in [f"c{k}" for k in range(1, 5)] + [f"i{k}" for k in range(1, inland + 1)]:
            kind = PlaceKind.COAST if spot[0] == "c" else PlaceKind.INLAND
            expected[f"{region}_{spot}"] = (kind, region, compass, BONUSES[spot])
        for kind in (PlaceKind.CITY_OUTER, PlaceKind.CITY_INNER):
            expected[f"{kind.name.lower()}_{region}"] = (kind, region, compass, ("none", 0))
    found = {
        place.name: (
            place.kind,
            place.region.name.lower(),
            place.compass.name,
            (place.bonus.type.name.lower(), place.bonus.amount),
        )
        for place in v0.board.places
    }
    assert found == expected
    assert [place.id for place in v0.board.places] == list(range(1, 55))
    assert not any(place.on_river for place in v0.board.places)
    assert Compass.C not in {place.compass for place in v0.board.places}


def test_bonus_totals_over_the_46_places(v0: DataSet) -> None:
    places = [place for place in v0.board.places if place.kind in (PlaceKind.COAST, PlaceKind.INLAND)]
    assert len(places) == 46
    totals = Counter(place.bonus.type for place in places)
    assert totals == {
        BonusType.KEY: 6,
        BonusType.BONUS_CARD: 8,
        BonusType.GOODS_CARD: 8,
        BonusType.LANDSCAPE_CARD: 8,
        BonusType.LETTERS: 8,
        BonusType.COINS: 8,
    }
    coins = Counter(place.bonus.amount for place in places if place.bonus.type is BonusType.COINS)
    assert coins == {1: 4, 2: 4}


def test_roads_are_the_listed_70(v0: DataSet) -> None:
    expected = set()
    for region, (_, inland) in REGIONS.items():

        def i(k: int, region: str = region) -> str:
            return f"{region}_i{k}"

        outer = f"city_outer_{region}"
        pairs = [(f"{region}_c{k}", i(k)) for k in range(1, 5)]
        pairs += [(i(1), i(2)), (i(2), i(3)), (i(3), i(4))]
        pairs += [(i(1), i(5)), (i(2), i(5)), (i(3), i(6)), (i(4), i(6))]
        pairs += [(i(5), i(7)), (i(6), i(7)), (i(7), outer)]
        if inland == 8:
            pairs += [(i(8), i(5)), (i(8), i(6)), (i(8), outer)]
        pairs.append((outer, f"city_inner_{region}"))
        expected.update(frozenset(pair) for pair in pairs)
    ring = [f"city_outer_{region}" for region in REGIONS]
    expected.update(frozenset((ring[k], ring[(k + 1) % 4])) for k in range(4))
    names = {place.id: place.name for place in v0.board.places}
    found = {frozenset(names[end] for end in road.ends) for road in v0.board.roads}
    assert len(expected) == 70
    assert found == expected


def test_areas(v0: DataSet) -> None:
    board = v0.board
    names = {place.id: place.name for place in board.places}
    areas = {area.name: {names[place] for place in area.places} for area in board.areas}
    for region, area in AREA_OF_REGION.items():
        assert areas[area] == {
            p.name
            for p in board.places
            if p.region.name.lower() == region and p.kind in (PlaceKind.COAST, PlaceKind.INLAND)
        }
        assert len(areas[area]) == 4 + REGIONS[region][1]
    assert areas["river"] == set()
    # Not in §12.4's list: the places bonus cards bc5 (coastal) and bc6 (city) count.
    assert areas["coast"] == {p.name for p in board.places if p.kind is PlaceKind.COAST}
    assert areas["city"] == {
        p.name for p in board.places if p.kind in (PlaceKind.CITY_OUTER, PlaceKind.CITY_INNER)
    }
    assert set(areas) == {"north", "east", "south", "west", "river", "coast", "city"}


def test_scoring_cards(v0: DataSet) -> None:
    areas = {area.id: area.name for area in v0.board.areas}
    goods = {kind.id: kind.name for kind in v0.board.goods_kinds}
    found = [
        (
            card.back,
            areas[card.area],
            goods[card.goods],
            card.house_points,
            card.goods_points,
            card.majority_bonus,
        )
        for card in v0.scoring_cards
    ]
    expected = [
        (back, area, f"goods_{kind}", back, back, 2)
        for back, pairs in SCORING_CARDS.items()
        for area, kind in pairs
    ]
    assert found == expected
    assert [card.name for card in v0.scoring_cards] == [f"sc{k:02d}" for k in range(1, 17)]
    assert Counter(card.back for card in v0.scoring_cards) == {1: 4, 2: 8, 3: 4}
    for back in (1, 2, 3):
        group = [card for card in v0.scoring_cards if card.back == back]
        # Each back group covers every area and every goods kind equally often.
        assert len(set(Counter(areas[card.area] for card in group).values())) == 1
        assert len(Counter(card.area for card in group)) == 4
        assert len(set(Counter(card.goods for card in group).values())) == 1
        assert len(Counter(card.goods for card in group)) == 4


def test_bonus_cards(v0: DataSet) -> None:
    areas = {area.id: area.name for area in v0.board.areas}
    found = [
        (card.name, card.kind, areas.get(card.area or 0), card.item, card.goods, card.points)
        for card in v0.bonus_cards
    ]
    per_house = BonusCardKind.PER_HOUSE_IN_AREA
    assert found == [
        ("bc1", per_house, "north", None, None, 1),
        ("bc2", per_house, "east", None, None, 1),
        ("bc3", per_house, "south", None, None, 1),
        ("bc4", per_house, "west", None, None, 1),
        ("bc5", per_house, "coast", None, None, 1),
        ("bc6", per_house, "city", None, None, 2),
        ("bc7", BonusCardKind.PER_ITEM, None, Item.KEY, None, 2),
        ("bc8", BonusCardKind.PER_ITEM, None, Item.GOODS_SYMBOL, None, 1),
    ]


def test_goods_cards(v0: DataSet) -> None:
    assert [card.name for card in v0.goods_cards] == [f"g{k}" for k in range(1, 9)]
    assert [set(card.goods) for card in v0.goods_cards] == GOODS_CARDS
    appearances = Counter(kind for card in v0.goods_cards for kind in card.goods)
    assert appearances == {1: 4, 2: 4, 3: 4, 4: 4}

"""Glen More's catalogs name the game's parts with the original rule text's own terms (the Chinese rules:
家族成员 for a clan member, 首领 for a chieftain, 蒸馏室 for the distillery), Traditional Chinese
writes them in its own script and words, and every term a client's board looks up by its English
name (`glenmore.<kind>.<key>`) is a message of every catalog."""

from __future__ import annotations

from boardgame.glenmore.v1 import glenmore_pb2 as pb

from services.glenmore.data import CARD_NAMES, RESOURCE_NAMES, TILES
from services.glenmore.labels import CATALOGS, key

SIMPLIFIED = {
    "glenmore.tile.distillery": "蒸馏室",
    "glenmore.tile.tavern": "酒馆",
    "glenmore.tile.grocer": "杂货商",
    "glenmore.tile.quarry": "石场",
    "glenmore.tile.field": "麦田",
    "glenmore.tile.village": "村庄",
    "glenmore.tile.start_village": "起始村庄",
    "glenmore.tile.bridge": "桥",
    "glenmore.resource.wood": "木头",
    "glenmore.resource.stone": "石块",
    "glenmore.resource.grain": "粮食",
    "glenmore.resource.cattle": "牛",
    "glenmore.resource.sheep": "羊",
    "glenmore.cost.clan_member": "1名家族成员或首领",
}
TRADITIONAL = {
    "glenmore.tile.distillery": "蒸餾室",
    "glenmore.tile.tavern": "酒館",
    "glenmore.tile.grocer": "雜貨商",
    "glenmore.tile.quarry": "石場",
    "glenmore.tile.field": "麥田",
    "glenmore.tile.village": "村莊",
    "glenmore.tile.start_village": "起始村莊",
    "glenmore.tile.bridge": "橋",
    "glenmore.resource.wood": "木頭",
    "glenmore.resource.stone": "石塊",
    "glenmore.resource.grain": "糧食",
    "glenmore.resource.cattle": "牛",
    "glenmore.resource.sheep": "羊",
    "glenmore.cost.clan_member": "1名家族成員或首領",
}


def test_the_catalogs_use_the_rule_texts_terms() -> None:
    simplified = CATALOGS.catalogs["zh_Hans"].messages
    traditional = CATALOGS.catalogs["zh_Hant"].messages
    assert {term: simplified[term] for term in SIMPLIFIED} == SIMPLIFIED
    assert {term: traditional[term] for term in TRADITIONAL} == TRADITIONAL


def board_terms() -> dict[str, str]:
    """Every term a board looks up, by id, with its English: each tile's name, resource, special
    location and step, keyed as their English names or enum values in lower case."""
    terms = {f"glenmore.tile.{key(tile.name)}": tile.name for tile in TILES}
    terms |= {f"glenmore.resource.{name}": name for name in RESOURCE_NAMES}
    terms |= {f"glenmore.card.{key(name)}": name for name in CARD_NAMES}
    for value in pb.Step.DESCRIPTOR.values[1:]:
        name = value.name.removeprefix("STEP_").lower()
        terms[f"glenmore.step.{name}"] = name.replace("_", " ")
    return terms


def enum_keys(enum: object, prefix: str) -> list[str]:
    """The keys a board makes of an enum's values ("SPECIAL_LOCATION_CASTLE_OF_MEY" -> "castle_of_mey")."""
    return [value.name.removeprefix(prefix).lower() for value in enum.DESCRIPTOR.values[1:]]  # type: ignore[attr-defined]


def test_every_board_term_is_a_message_of_every_catalog() -> None:
    assert enum_keys(pb.Resource, "RESOURCE_") == list(RESOURCE_NAMES)
    assert enum_keys(pb.SpecialLocation, "SPECIAL_LOCATION_") == [key(name) for name in CARD_NAMES]
    terms = board_terms()
    assert len(terms) == 30 + 5 + 13 + 7  # tile names, resources, special locations, steps
    english = CATALOGS.catalogs["en"].messages
    assert {term: english.get(term) for term in terms} == terms
    tiles = [term for term in terms if term.startswith("glenmore.tile.")]
    for locale in ("zh_Hans", "zh_Hant"):
        messages = CATALOGS.catalogs[locale].messages
        assert [term for term in terms if term not in messages] == [], locale
        assert [term for term in tiles if messages[term] == english[term]] == [], locale


def test_the_option_speaks_of_vp_as_the_catalogs_do() -> None:
    """VP are 分數 in Glen More's catalogs (計分, 分數隱藏), in the option public_vp too."""
    for locale, words in (("zh_Hant", "分數"), ("zh_Hans", "分数")):
        messages = CATALOGS.catalogs[locale].messages
        assert words in messages["glenmore.event.scoring_hidden"]
        for suffix in ("public_vp", "public_vp.help", "public_vp.false", "public_vp.true"):
            assert words in messages[f"glenmore.option.{suffix}"], (locale, suffix)

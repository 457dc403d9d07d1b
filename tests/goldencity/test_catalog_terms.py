"""The Golden City's catalogs name the game's parts with the original rule text's own terms (地權狀 for
the landscape cards, 城市之鑰 for the keys, 商站 for the houses, 貿易證 for the letters), in Traditional
and in Simplified Chinese; every landscape, place kind, bonus and item has its term
`goldencity.<kind>.<name>` in every catalog, which is where a client looks them up."""

from __future__ import annotations

import re
from enum import IntEnum

import pytest

from services.goldencity import tables
from services.goldencity.labels import CATALOGS, place
from services.goldencity.vocabulary import BonusType, Item, Landscape, PlaceKind

SEED_TERMS = {
    "goldencity.card.landscape": ("地權狀", "地权状"),
    "goldencity.card.key": ("城市之鑰卡", "城市之钥卡"),
    "goldencity.card.goods": ("物產卡", "物产卡"),
    "goldencity.card.bonus": ("加分卡", "加分卡"),
    "goldencity.card.scoring": ("計分目標卡", "计分目标卡"),
    "goldencity.bonus.key": ("城市之鑰", "城市之钥"),
    "goldencity.bonus.letters": ("貿易證", "贸易证"),
    "goldencity.bonus.coins": ("錢幣", "钱币"),
    "goldencity.place_kind.coast": ("港口", "港口"),
    "goldencity.place_kind.inland": ("內陸", "内陆"),
    "goldencity.place_kind.city_outer": ("外城", "外城"),
    "goldencity.place_kind.city_inner": ("內城", "内城"),
    "goldencity.house.coloured": ("商站", "商站"),
    "goldencity.house.black": ("黑色商站", "黑色商站"),
}
KINDS: dict[str, type[IntEnum]] = {
    "landscape": Landscape,
    "place_kind": PlaceKind,
    "bonus": BonusType,
    "item": Item,
}


@pytest.mark.parametrize("term", sorted(SEED_TERMS))
def test_the_catalogs_use_the_rule_texts_terms(term: str) -> None:
    traditional, simplified = SEED_TERMS[term]
    assert CATALOGS.catalogs["zh_Hant"].messages[term] == traditional
    assert CATALOGS.catalogs["zh_Hans"].messages[term] == simplified


def test_every_member_of_the_vocabulary_has_its_term_in_every_catalog() -> None:
    ids = {f"goldencity.{kind}.{member.name.lower()}" for kind, enum in KINDS.items() for member in enum}
    assert len(ids) == 5 + 4 + 7 + 4
    for locale in ("en", "zh_Hant", "zh_Hans"):
        messages = CATALOGS.catalogs[locale].messages
        assert ids <= set(messages), (locale, sorted(ids - set(messages)))
    assert CATALOGS.catalogs["en"].messages["goldencity.landscape.mountains"] == "Mountains"
    assert CATALOGS.catalogs["zh_Hant"].messages["goldencity.landscape.mountains"] == "山脈"
    assert CATALOGS.catalogs["zh_Hans"].messages["goldencity.landscape.mountains"] == "山脉"


def test_a_place_reads_in_each_script_its_name_kept_as_the_data_set_writes_it() -> None:
    board = tables.named("v0")
    where = board.place_names.index("meadow_c4")
    described = place(board, where)
    rendered = {locale: catalog.render(described) for locale, catalog in CATALOGS.catalogs.items()}
    assert rendered == {
        "en": "meadow_c4 (coast, 2 letters)",
        "zh_Hant": "meadow_c4（港口，貿易證2分）",  # noqa: RUF001 (Chinese punctuation)
        "zh_Hans": "meadow_c4（港口，贸易证2分）",  # noqa: RUF001
    }


OPTION_TERMS = {  # an English phrase of the options' messages -> the id of its term in every catalog
    r"\bbonus cards?\b": "goldencity.card.bonus",
    r"\blandscape cards?\b": "goldencity.card.landscape",
    r"\bkey\b": "goldencity.card.key",
    r"\binner city part\b": "goldencity.place_kind.city_inner",
    r"\bouter part\b": "goldencity.place_kind.city_outer",
}


def test_the_options_are_worded_in_the_rule_texts_terms() -> None:
    english = CATALOGS.catalogs["en"].messages
    checked = 0
    for key, words in english.items():
        if not key.startswith("goldencity.option."):
            continue
        for pattern, term in OPTION_TERMS.items():
            if re.search(pattern, words, re.IGNORECASE):
                for locale in ("zh_Hant", "zh_Hans"):
                    messages = CATALOGS.catalogs[locale].messages
                    assert messages[term] in messages[key], (locale, key, messages[term])
                checked += 1
    assert checked == 15

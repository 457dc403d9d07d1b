"""Assyria's catalogs name the game's parts with the original rule text's own terms (the Traditional
Chinese rules: 高階貴族 for the higher dignitary, 頂部 for a ziggurat's roof, 犁耕卡 for a plow card),
Simplified Chinese writes them in its own script and words (a sowing row is 行 there, 列 in Taiwan,
whose 列 is a column on the mainland), and every term a client's board names by a protobuf enum
value is a message."""

from __future__ import annotations

import re

from boardgame.assyria.v1 import assyria_pb2 as pb

from i18n.messages import Message
from services.assyria import GAME, labels
from services.assyria import actions as act
from services.assyria.labels import CATALOGS
from services.assyria.state import PLACE_HUTS
from tests.assyria.scenario import at, expanding, table, ziggurat

LOCALES = ("en", "zh_Hant", "zh_Hans")


def test_the_catalogs_use_the_rule_texts_terms() -> None:
    traditional = CATALOGS.catalogs["zh_Hant"].messages
    simplified = CATALOGS.catalogs["zh_Hans"].messages
    assert traditional["assyria.dignitary.higher"] == "高階貴族"
    assert traditional["assyria.piece.roof"] == "頂部"
    assert traditional["assyria.region.inside"] == "兩河之間"
    assert traditional["assyria.score.plows"] == "犁耕卡"
    assert traditional["assyria.step.harvest"] == "收穫"
    assert simplified["assyria.dignitary.higher"] == "高阶贵族"
    assert simplified["assyria.piece.roof"] == "顶部"
    assert simplified["assyria.region.inside"] == "两河之间"
    assert simplified["assyria.score.camels"] == "骆驼"
    assert simplified["assyria.step.harvest"] == "收获"


def test_rows_and_columns_are_worded_as_each_script_s_readers_say_them() -> None:
    traditional = CATALOGS.catalogs["zh_Hant"].messages
    simplified = CATALOGS.catalogs["zh_Hans"].messages
    for words in ("第1列 {row_1}", "第2列 {row_2}"):
        assert words in traditional["assyria.event.rows_sown"]
    for words in ("第1行 {row_1}", "第2行 {row_2}"):
        assert words in simplified["assyria.event.rows_sown"]
    assert "第{column}欄" in traditional["assyria.action.take_column"]
    assert "第{column}栏" in simplified["assyria.action.take_column"]
    assert "第{row}列" in traditional["assyria.action.buy_food_card"]
    assert "第{row}行" in simplified["assyria.action.buy_food_card"]


def test_a_label_renders_in_each_locale() -> None:
    state = expanding(table(2), 0)
    ziggurat(state, 0, 1, 0)
    state.step, state.huts_to_place = PLACE_HUTS, 2
    label = labels.label(state, act.Action(act.PLACE_HUT, at(1, 1)))
    assert isinstance(label, Message)
    rendered = {locale: CATALOGS.catalogs[locale].render(label.text) for locale in LOCALES}
    assert rendered == {
        "en": "Place a hut on the salt hex at (1,1), on river 1 (2 huts left to place)",
        "zh_Hant": "在第1條河流上的鹽六角格(1,1)放置1個小屋(還有2個小屋待放置)",
        "zh_Hans": "在第1条河流上的盐六角格(1,1)放置1个小屋(还有2个小屋待放置)",
    }


def test_every_card_food_dignitary_and_step_a_board_names_is_a_message() -> None:
    """A board names a term `assyria.<kind>.<key>`, the key being the enum value's name without its
    prefix, in lower case; a card's English is its name in the title data."""
    keys = {
        kind: [name.removeprefix(prefix).lower() for name in enum.keys()[1:]]
        for kind, prefix, enum in (
            ("card", "CARD_", pb.Card),
            ("food", "FOOD_", pb.Food),
            ("dignitary", "DIGNITARY_", pb.Dignitary),
            ("step", "STEP_", pb.Step),
        )
    }
    assert sum(len(k) for k in keys.values()) == 16 + 6 + 3 + 8
    for locale in LOCALES:
        messages = CATALOGS.catalogs[locale].messages
        for kind, names in keys.items():
            for key in names:
                assert messages.get(f"assyria.{kind}.{key}"), (locale, kind, key)
    english = CATALOGS.catalogs["en"].messages
    assert GAME.title_data is not None
    card_names = GAME.title_data.native().card_names
    assert [english[f"assyria.card.{key}"] for key in keys["card"]] == list(card_names[1:])
    assert english["assyria.step.place_huts"] == "place huts"


OPTION_TERMS = {  # an English word of the options' messages -> its term in Traditional, in Simplified
    r"\bplow\b": ("犁耕卡", "犁耕卡"),
    r"\bhuts?\b": ("小屋", "小屋"),
    r"\bFlood\b": ("洪水", "洪水"),
    r"\bAssur\b": ("亞述", "亚述"),
    r"\breign \d": ("時期", "时期"),
}


def test_the_options_are_worded_in_the_rule_texts_terms() -> None:
    english = CATALOGS.catalogs["en"].messages
    checked = 0
    for key, words in english.items():
        if not key.startswith("assyria.option."):
            continue
        for pattern, terms in OPTION_TERMS.items():
            if re.search(pattern, words):
                for locale, term in zip(("zh_Hant", "zh_Hans"), terms, strict=True):
                    assert term in CATALOGS.catalogs[locale].messages[key], (locale, key, term)
                checked += 1
    assert checked == 17

"""Puerto Rico's catalogs name the game's parts with the original rule text's own terms (the Traditional
Chinese rules: 市集 for the small market, 市長 for the mayor), and Simplified Chinese writes them in its
own script."""

from __future__ import annotations

import re

from services.puertorico.labels import CATALOGS


def test_the_catalogs_use_the_rule_texts_terms() -> None:
    traditional = CATALOGS.catalogs["zh_Hant"].messages
    simplified = CATALOGS.catalogs["zh_Hans"].messages
    assert traditional["puertorico.building.small_market"] == "市集"
    assert traditional["puertorico.role.mayor"] == "市長"
    assert simplified["puertorico.role.mayor"] == "市长"


def test_the_options_name_buildings_roles_and_goods_with_the_catalogs_terms() -> None:
    """An option's label, description or choice that names a building, role or good in English names
    it in each script with that term's own message (the lighthouse is 燈塔, the captain 船長)."""
    english = CATALOGS.catalogs["en"].messages
    named = [key for key in english if key.split(".")[1] in ("building", "role", "good")]
    checked = 0
    for locale in ("zh_Hant", "zh_Hans"):
        messages = CATALOGS.catalogs[locale].messages
        for key, words in english.items():
            if not key.startswith("puertorico.option."):
                continue
            left = words.lower()
            for term in sorted(named, key=lambda term: -len(english[term])):  # "small wharf" before "wharf"
                pattern = rf"\b{re.escape(english[term])}\b"
                if re.search(pattern, left):
                    assert messages[term] in messages[key], (locale, key, english[term])
                    left = re.sub(pattern, "", left)
                    checked += 1
    assert checked == 2 * 33

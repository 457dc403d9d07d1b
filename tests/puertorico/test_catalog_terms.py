"""Puerto Rico's catalogs name the game's parts with the original rule text's own terms (the Traditional
Chinese rules: 市集 for the small market, 市長 for the mayor), and Simplified Chinese writes them in its
own script."""

from __future__ import annotations

from services.puertorico.labels import CATALOGS


def test_the_catalogs_use_the_rule_texts_terms() -> None:
    traditional = CATALOGS.catalogs["zh_Hant"].messages
    simplified = CATALOGS.catalogs["zh_Hans"].messages
    assert traditional["puertorico.building.small_market"] == "市集"
    assert traditional["puertorico.role.mayor"] == "市長"
    assert simplified["puertorico.role.mayor"] == "市长"

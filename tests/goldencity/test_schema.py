"""The data files' schema and the component facts beside §12.3: a missing or unknown field, a wrong
type, a value outside its choices, a repeated id or key, a reference that does not resolve, a wrong
component count, and files of two versions mixed are each refused naming file, field and rule."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from services.goldencity import checks, dataset, reader
from services.goldencity.vocabulary import Item
from tests.goldencity.datasets import (
    BOARD,
    BONUS,
    GOODS,
    SCORING,
    assert_refused,
    copy_v0,
    edit,
    node,
    refusal,
)


def _bonus(node_id: str, bonus_type: str, amount: Any) -> Callable[[dict[str, Any]], None]:
    return lambda d: node(d, node_id).__setitem__("bonus", {"type": bonus_type, "amount": amount})


def _relabel_region(data: dict[str, Any], old: str, new: str) -> None:
    data["regions"] = [new if region == old else region for region in data["regions"]]
    for entry in data["nodes"]:
        if entry["region"] == old:
            entry["region"] = new


# (file, the edit, the field the refusal names, the rule)
BROKEN = [
    # unknown fields
    (BOARD, lambda d: d.__setitem__("comment", "hello"), "comment", reader.UNKNOWN_FIELD),
    (BOARD, lambda d: d["nodes"][0].__setitem__("colour", "red"), "nodes[0].colour", reader.UNKNOWN_FIELD),
    (
        BOARD,
        lambda d: d["nodes"][5]["bonus"].__setitem__("extra", 1),
        "nodes[5].bonus.extra",
        reader.UNKNOWN_FIELD,
    ),
    (BONUS, lambda d: d["cards"][6].__setitem__("area", "north"), "cards[6].area", reader.UNKNOWN_FIELD),
    (SCORING, lambda d: d["cards"][2].__setitem__("value", 3), "cards[2].value", reader.UNKNOWN_FIELD),
    # missing fields
    (BOARD, lambda d: d["nodes"][3].pop("compass"), "nodes[3]", reader.REQUIRED),
    (GOODS, lambda d: d.pop("provenance"), "(top level)", reader.REQUIRED),
    (BONUS, lambda d: d["cards"][0].pop("kind"), "cards[0]", reader.REQUIRED),
    # wrong types
    (BOARD, lambda d: d.__setitem__("reconstruction", "yes"), "reconstruction", reader.TYPE),
    (SCORING, lambda d: d.__setitem__("data_version", 0), "data_version", reader.TYPE),
    (BONUS, lambda d: d.__setitem__("provenance", " "), "provenance", reader.TYPE),
    (BOARD, lambda d: d.__setitem__("nodes", {}), "nodes", reader.TYPE),
    (
        BOARD,
        lambda d: d["nodes"][0]["bonus"].__setitem__("amount", "1"),
        "nodes[0].bonus.amount",
        reader.TYPE,
    ),
    (
        BOARD,
        lambda d: d["nodes"][0]["bonus"].__setitem__("amount", True),
        "nodes[0].bonus.amount",
        reader.TYPE,
    ),
    (BOARD, lambda d: d["nodes"][1].__setitem__("on_river", 0), "nodes[1].on_river", reader.TYPE),
    (BOARD, lambda d: d["roads"].__setitem__(4, ["meadow_c1"]), "roads[4]", reader.TYPE),
    (SCORING, lambda d: d["cards"][3].__setitem__("back", 2.0), "cards[3].back", reader.TYPE),
    (GOODS, lambda d: d["cards"][1].__setitem__("goods", "goods_1"), "cards[1].goods", reader.TYPE),
    (BOARD, lambda d: d["areas"].__setitem__("north", "meadow_c1"), "areas.north", reader.TYPE),
    # values outside their choices
    (BOARD, lambda d: d["nodes"][0].__setitem__("kind", "harbour"), "nodes[0].kind", reader.CHOICE),
    (BOARD, lambda d: d["nodes"][0].__setitem__("compass", "NNE"), "nodes[0].compass", reader.CHOICE),
    (BOARD, _bonus("meadow_c1", "gold", 1), "nodes[0].bonus.type", reader.CHOICE),
    (BONUS, lambda d: d["cards"][6].__setitem__("item", "coins"), "cards[6].item", reader.CHOICE),
    (BONUS, lambda d: d["cards"][6].__setitem__("item", "key:goods_1"), "cards[6].item", reader.TYPE),
    (BONUS, lambda d: d["cards"][0].__setitem__("kind", "per_house"), "cards[0].kind", reader.CHOICE),
    (SCORING, lambda d: d["cards"][0].__setitem__("back", 4), "cards[0].back", reader.CHOICE),
    (BOARD, lambda d: d["regions"].__setitem__(0, "swamp"), "regions[0]", reader.CHOICE),
    # ids and names appear once
    (BOARD, lambda d: d["nodes"][1].__setitem__("id", "meadow_c1"), "nodes[1].id", reader.UNIQUE),
    (SCORING, lambda d: d["cards"][15].__setitem__("id", "sc01"), "cards[15].id", reader.UNIQUE),
    (BOARD, lambda d: d["goods_kinds"].__setitem__(3, "goods_1"), "goods_kinds[3]", reader.UNIQUE),
    (BOARD, lambda d: d["areas"]["north"].append("meadow_c1"), "areas.north[12]", reader.UNIQUE),
    # references resolve
    (BOARD, lambda d: d["roads"].__setitem__(0, ["meadow_c1", "nowhere"]), "roads[0][1]", reader.REFERENCE),
    (BOARD, lambda d: d["roads"].__setitem__(0, ["meadow_c1", "meadow_c1"]), "roads[0]", reader.REFERENCE),
    (BOARD, lambda d: d["roads"].append(["meadow_i1", "meadow_c1"]), "roads[70]", reader.REFERENCE),
    (BOARD, lambda d: d["nodes"][0].__setitem__("region", "forests"), "nodes[0].region", reader.REFERENCE),
    (SCORING, lambda d: d["cards"][0].__setitem__("goods", "goods_9"), "cards[0].goods", reader.REFERENCE),
    (
        GOODS,
        lambda d: d["cards"][7].__setitem__("goods", ["goods_2", "salt"]),
        "cards[7].goods[1]",
        reader.REFERENCE,
    ),
    (
        BONUS,
        lambda d: d["cards"][7].__setitem__("item", "goods_symbol:salt"),
        "cards[7].item",
        reader.REFERENCE,
    ),
    # component facts (§1, §2) and the §12.2 bonus amounts
    (BOARD, lambda d: _relabel_region(d, "mountains", "coast"), "regions", checks.RULE_REGIONS),
    (BOARD, _bonus("meadow_c1", "none", 0), "nodes[0].bonus.type", checks.RULE_PLACE_BONUS),
    (BOARD, _bonus("meadow_c1", "coins", 3), "nodes[0].bonus.amount", checks.RULE_BONUS_AMOUNT),
    (BOARD, _bonus("meadow_c4", "letters", 0), "nodes[3].bonus.amount", checks.RULE_BONUS_AMOUNT),
    (BOARD, _bonus("meadow_i1", "key", 2), "nodes[4].bonus.amount", checks.RULE_BONUS_AMOUNT),
    (BOARD, _bonus("city_outer_meadow", "none", 5), "nodes[12].bonus.amount", checks.RULE_BONUS_AMOUNT),
    (BOARD, lambda d: node(d, "meadow_c1").__setitem__("on_river", True), "areas.river", checks.RULE_RIVER),
    (BOARD, lambda d: d["goods_kinds"].append("goods_5"), "goods_kinds", checks.RULE_GOODS_KINDS),
    (SCORING, lambda d: d["cards"][0].__setitem__("back", 2), "cards", checks.RULE_SCORING_CARD_BACKS),
    (SCORING, lambda d: d["cards"].pop(), "cards", checks.RULE_SCORING_CARD_BACKS),
    (
        SCORING,
        lambda d: d["cards"][5].__setitem__("house_points", -1),
        "cards[5].house_points",
        checks.RULE_POINTS,
    ),
    (BONUS, lambda d: d["cards"].pop(), "cards", checks.RULE_BONUS_CARDS),
    (BONUS, lambda d: d["cards"][2].__setitem__("points", -2), "cards[2].points", checks.RULE_POINTS),
    (
        GOODS,
        lambda d: d["cards"].append({"id": "g9", "goods": ["goods_1", "goods_3"]}),
        "cards",
        checks.RULE_GOODS_CARDS,
    ),
    (
        GOODS,
        lambda d: d["cards"][4].__setitem__("goods", ["goods_1", "goods_1"]),
        "cards[4].goods",
        checks.RULE_GOODS_CARD_KINDS,
    ),
    (
        GOODS,
        lambda d: d["cards"][4]["goods"].append("goods_4"),
        "cards[4].goods",
        checks.RULE_GOODS_CARD_KINDS,
    ),
    (GOODS, lambda d: d.__setitem__("data_version", "v1"), "data_version", checks.RULE_SAME_DATA_VERSION),
]


@pytest.mark.parametrize(
    ("file", "change", "field", "rule"), BROKEN, ids=[f"{r[3]}-{n}" for n, r in enumerate(BROKEN)]
)
def test_a_bad_file_is_refused_naming_file_field_and_rule(
    tmp_path: Path, file: str, change: Callable[[dict[str, Any]], None], field: str, rule: str
) -> None:
    directory = copy_v0(tmp_path)
    edit(directory, file, change)
    assert_refused(directory, file, field, rule)


def test_a_repeated_json_key_is_refused(tmp_path: Path) -> None:
    directory = copy_v0(tmp_path)
    path = directory / BOARD
    text = path.read_text()
    path.write_text(text.replace('"on_river": false,', '"on_river": false, "on_river": true,', 1))
    problem = assert_refused(directory, BOARD, "nodes[0]", reader.UNIQUE)
    assert "on_river" in problem.detail


def test_a_file_that_is_not_json_or_is_missing_is_refused(tmp_path: Path) -> None:
    directory = copy_v0(tmp_path)
    (directory / SCORING).write_text('{"cards": [')
    [problem] = refusal(directory).problems
    assert (problem.file, problem.rule) == (SCORING, reader.FILE)
    (directory / GOODS).unlink()
    (directory / SCORING).write_text((dataset.PACKAGE_DATA / "v0" / SCORING).read_text())
    [problem] = refusal(directory).problems
    assert (problem.file, problem.rule) == (GOODS, reader.FILE) and "missing" in problem.detail


def test_nan_is_not_a_number_of_a_data_file(tmp_path: Path) -> None:
    directory = copy_v0(tmp_path)
    path = directory / SCORING
    path.write_text(path.read_text().replace('"house_points": 1', '"house_points": NaN', 1))
    [problem] = refusal(directory).problems
    assert (problem.file, problem.rule) == (SCORING, reader.FILE)


def test_a_goods_symbol_card_may_name_one_goods_kind(tmp_path: Path) -> None:
    directory = copy_v0(tmp_path)
    edit(directory, BONUS, lambda d: d["cards"][7].__setitem__("item", "goods_symbol:goods_3"))
    card = dataset.load(directory).bonus_cards[7]
    assert (card.item, card.goods) == (Item.GOODS_SYMBOL, 3)

"""Every validation rule of rules §12.3: a copy of v0 that breaks exactly that rule (and no other) is
refused, and the refusal names the file, the field and the rule. The bonus totals, which §12.3 reports
as a warning only, load with a DataWarning that names them."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from services.goldencity import checks, dataset
from services.goldencity.vocabulary import BonusType
from tests.goldencity.datasets import (
    BOARD,
    BONUS,
    SCORING,
    assert_refused,
    copy_v0,
    edit,
    node,
    node_index,
    remove_node,
    remove_road,
)

V0_BOARD = dataset.load("v0", environ={}).board


def _index(node_id: str) -> int:
    return V0_BOARD.place(node_id).id - 1


def _second_outer(data: dict[str, Any]) -> None:
    data["nodes"].append({**node(data, "city_outer_meadow"), "id": "city_outer_meadow_2"})
    data["roads"].append(["city_outer_meadow_2", "city_inner_meadow"])


def _isolate(data: dict[str, Any], node_id: str) -> None:
    data["roads"] = [road for road in data["roads"] if node_id not in road]


def _inner_to_other_quarter(data: dict[str, Any]) -> None:
    remove_road(data, "city_outer_mountains", "city_inner_mountains")
    data["roads"].append(["city_inner_mountains", "city_outer_meadow"])


def _set(file_field: Callable[[dict[str, Any]], dict[str, Any]], key: str, value: Any) -> Callable[..., None]:
    return lambda data: file_field(data).__setitem__(key, value)


# (rule, file, the edit, the field the refusal names)
BROKEN = [
    (checks.RULE_COASTAL_PLACES, BOARD, lambda d: remove_node(d, "meadow_c4"), "nodes"),
    (checks.RULE_INLAND_PLACES, BOARD, lambda d: remove_node(d, "meadow_i8"), "nodes"),
    (checks.RULE_CITY_PARTS, BOARD, _second_outer, "regions[0]"),
    (checks.RULE_CITY_PARTS, BOARD, lambda d: remove_node(d, "city_inner_desert"), "regions[2]"),
    (
        checks.RULE_REACHABLE_FROM_COAST,
        BOARD,
        lambda d: _isolate(d, "desert_i7"),
        f"nodes[{_index('desert_i7')}]",
    ),
    (
        checks.RULE_COAST_HAS_ROAD,
        BOARD,
        lambda d: remove_road(d, "forest_c2", "forest_i2"),
        f"nodes[{_index('forest_c2')}]",
    ),
    (
        checks.RULE_INNER_NEXT_TO_OUTER,
        BOARD,
        _inner_to_other_quarter,
        f"nodes[{_index('city_inner_mountains')}]",
    ),
    (
        checks.RULE_CITY_BONUS_NONE,
        BOARD,
        _set(lambda d: node(d, "city_outer_forest"), "bonus", {"type": "coins", "amount": 1}),
        f"nodes[{_index('city_outer_forest')}].bonus.type",
    ),
    (
        checks.RULE_CITY_BONUS_NONE,
        BOARD,
        _set(lambda d: node(d, "city_inner_meadow"), "bonus", {"type": "letters", "amount": 10}),
        f"nodes[{_index('city_inner_meadow')}].bonus.type",
    ),
    (
        checks.RULE_CARD_AREA_EXISTS,
        SCORING,
        _set(lambda d: d["cards"][0], "area", "northeast"),
        "cards[0].area",
    ),
    (
        checks.RULE_CARD_AREA_EXISTS,
        BONUS,
        _set(lambda d: d["cards"][3], "area", "river_banks"),
        "cards[3].area",
    ),
    (
        checks.RULE_AREA_NODE_EXISTS,
        BOARD,
        lambda d: d["areas"]["north"].append("meadow_c9"),
        "areas.north[12]",
    ),
    (
        checks.RULE_AREA_NODE_EXISTS,
        BOARD,
        lambda d: d["areas"]["river"].append("the_river"),
        "areas.river[0]",
    ),
]


@pytest.mark.parametrize(
    ("rule", "file", "change", "field"), BROKEN, ids=[f"{row[0]}-{n}" for n, row in enumerate(BROKEN)]
)
def test_a_broken_rule_is_refused_naming_file_field_and_rule(
    tmp_path: Path, rule: str, file: str, change: Callable[[dict[str, Any]], None], field: str
) -> None:
    directory = copy_v0(tmp_path)
    edit(directory, file, change)
    assert_refused(directory, file, field, rule)


def test_every_rule_of_12_3_is_broken_by_some_test() -> None:
    section_12_3 = {
        checks.RULE_COASTAL_PLACES,
        checks.RULE_INLAND_PLACES,
        checks.RULE_CITY_PARTS,
        checks.RULE_REACHABLE_FROM_COAST,
        checks.RULE_COAST_HAS_ROAD,
        checks.RULE_INNER_NEXT_TO_OUTER,
        checks.RULE_CITY_BONUS_NONE,
        checks.RULE_CARD_AREA_EXISTS,
        checks.RULE_AREA_NODE_EXISTS,
    }
    assert section_12_3 <= {row[0] for row in BROKEN}


def test_the_constants_are_those_of_12_3() -> None:
    assert (checks.COASTAL_PLACES, checks.INLAND_PLACES, checks.CITY_OUTER_PER_QUARTER) == (16, 30, 1)
    assert (checks.KEY_CARDS, checks.BONUS_CARDS, checks.GOODS_CARDS) == (6, 8, 8)


def test_several_broken_rules_are_all_reported(tmp_path: Path) -> None:
    directory = copy_v0(tmp_path)
    edit(directory, BOARD, lambda d: (remove_node(d, "meadow_c4"), remove_road(d, "forest_c2", "forest_i2")))
    with pytest.raises(dataset.DataError) as caught:
        dataset.load(directory)
    assert {problem.rule for problem in caught.value.problems} == {
        checks.RULE_COASTAL_PLACES,
        checks.RULE_COAST_HAS_ROAD,
    }
    assert len(str(caught.value).splitlines()) == 2


def test_bonus_totals_over_a_component_limit_load_with_a_warning(tmp_path: Path) -> None:
    directory = copy_v0(tmp_path)
    edit(directory, BOARD, lambda d: node(d, "meadow_c1").__setitem__("bonus", {"type": "key", "amount": 1}))
    with pytest.warns(dataset.DataWarning) as caught:
        loaded = dataset.load(directory)
    [message] = [str(warning.message) for warning in caught]
    assert message.startswith(f"{BOARD}: nodes: 7 places give a key but the game has 6")
    assert "[rule BONUS_TOTALS]" in message and "coins 7" in message
    assert loaded.warnings == (message,)
    assert loaded.board.bonus_totals()[BonusType.KEY] == 7


def test_node_index_helper_matches_the_loaders_ids(tmp_path: Path) -> None:
    data = json.loads((copy_v0(tmp_path) / BOARD).read_text())
    assert node_index(data, "desert_i7") == _index("desert_i7") == 38

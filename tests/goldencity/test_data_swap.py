"""T9, the data-swap part: a second, different valid data set installed beside v0 in an operator's
directory (GOLDENCITY_DATA_DIR) loads by name with no code change, and differs from v0 exactly where
its files do. The game part of T9 (that such a set changes play) comes with the engine. Also: how sets
are found, named and refused."""

# Covered here, by the tests named after them: scenarios T9.

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from services.goldencity import dataset
from services.goldencity.vocabulary import Item
from tests.goldencity.datasets import BOARD, BONUS, GOODS, SCORING, copy_v0, edit, node, refusal

GOODS_NAMES = {"goods_1": "cloth", "goods_2": "spice", "goods_3": "wine", "goods_4": "glass"}
RIVER = ["meadow_i5", "meadow_i7", "forest_i5", "forest_i7"]
HEADER = {"reconstruction": False, "data_version": "t9-transcription", "provenance": "made by a test"}


def _rename_goods(value: Any) -> Any:
    if isinstance(value, str):
        return GOODS_NAMES.get(value, value)
    if isinstance(value, list):
        return [_rename_goods(item) for item in value]
    if isinstance(value, dict):
        return {key: _rename_goods(item) for key, item in value.items()}
    return value


def _board(data: dict[str, Any]) -> None:
    data.update(_rename_goods(data) | HEADER)
    data["areas"]["river"] = list(RIVER)
    for node_id in RIVER:
        node(data, node_id)["on_river"] = True
    node(data, "meadow_c1")["bonus"], node(data, "meadow_c2")["bonus"] = (
        node(data, "meadow_c2")["bonus"],
        node(data, "meadow_c1")["bonus"],
    )
    data["roads"].append(["city_outer_meadow", "city_outer_desert"])


def _scoring_cards(data: dict[str, Any]) -> None:
    data.update(_rename_goods(data) | HEADER)
    data["cards"][15] |= {"area": "river", "house_points": 4, "majority_bonus": 3}


def _bonus_cards(data: dict[str, Any]) -> None:
    data.update(HEADER)
    data["cards"][7]["item"] = "goods_symbol:wine"


def _goods_cards(data: dict[str, Any]) -> None:
    data.update(_rename_goods(data) | HEADER)
    data["cards"][0]["goods"] = ["cloth", "glass"]


@pytest.fixture
def operator_dir(tmp_path: Path) -> Path:
    """An operator's directory holding one more valid set, `printed`, unlike v0 in each file."""
    directory = copy_v0(tmp_path, "printed")
    for file, change in (
        (BOARD, _board),
        (SCORING, _scoring_cards),
        (BONUS, _bonus_cards),
        (GOODS, _goods_cards),
    ):
        edit(directory, file, change)
    return tmp_path


def test_t9_another_valid_set_loads_by_name_and_changes_the_data(
    operator_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(dataset.DATA_DIR_ENV, str(operator_dir))
    assert dataset.available() == ("printed", "v0")
    printed, v0 = dataset.load("printed"), dataset.load("v0")

    assert (printed.name, printed.data_version, printed.reconstruction) == (
        "printed",
        "t9-transcription",
        False,
    )
    assert [kind.name for kind in printed.board.goods_kinds] == ["cloth", "spice", "wine", "glass"]
    board = printed.board
    assert {board.places[p - 1].name for p in board.area("river").places} == set(RIVER)
    assert {place.name for place in board.places if place.on_river} == set(RIVER)
    assert board.place("meadow_c1").bonus.amount == 2 and v0.board.place("meadow_c1").bonus.amount == 1
    assert len(board.roads) == len(v0.board.roads) + 1
    assert board.place("city_outer_desert").id in board.neighbours(board.place("city_outer_meadow").id)

    river_card = printed.scoring_cards[15]
    assert (river_card.area, river_card.house_points, river_card.majority_bonus) == (
        board.area("river").id,
        4,
        3,
    )
    assert printed.scoring_cards[:15] == v0.scoring_cards[:15]
    assert (printed.bonus_cards[7].item, printed.bonus_cards[7].goods) == (Item.GOODS_SYMBOL, 3)
    assert v0.bonus_cards[7].goods is None
    assert printed.goods_cards[0].goods == (1, 4) and v0.goods_cards[0].goods == (1, 2)
    assert printed.goods_cards[1:] == v0.goods_cards[1:]
    assert board.bonus_totals() == v0.board.bonus_totals()


def test_the_service_plays_the_set_its_environment_names(operator_dir: Path) -> None:
    environ = {dataset.DATA_DIR_ENV: str(operator_dir), dataset.DATA_SET_ENV: "printed"}
    assert dataset.configured_name(environ) == "printed"
    assert dataset.load(dataset.configured_name(environ), environ).data_version == "t9-transcription"
    assert dataset.configured_name({dataset.DATA_SET_ENV: ""}) == dataset.DEFAULT_DATA_SET == "v0"


def test_a_set_also_loads_from_its_directory(operator_dir: Path) -> None:
    assert dataset.load(operator_dir / "printed", environ={}).name == "printed"
    assert dataset.load(str(operator_dir / "printed"), environ={}).name == "printed"


def test_without_the_operator_directory_only_v0_is_installed(operator_dir: Path) -> None:
    assert dataset.available(environ={}) == ("v0",)
    with pytest.raises(dataset.DataError, match=r"printed: no data set of that name \(installed: v0\)"):
        dataset.load("printed", environ={})


def test_an_operator_set_named_like_a_shipped_one_is_refused(tmp_path: Path) -> None:
    copy_v0(tmp_path, "v0")
    environ = {dataset.DATA_DIR_ENV: str(tmp_path)}
    for call in (dataset.available, lambda environ: dataset.load("v0", environ)):
        with pytest.raises(dataset.DataError, match="v0: installed twice") as caught:
            call(environ)
        assert caught.value.problems[0].rule == dataset.RULE_DATA_SET


def test_an_operator_directory_that_does_not_exist_is_refused(tmp_path: Path) -> None:
    environ = {dataset.DATA_DIR_ENV: str(tmp_path / "missing")}
    with pytest.raises(dataset.DataError, match=f"{dataset.DATA_DIR_ENV}: .*missing is not a directory"):
        dataset.available(environ)


def test_a_name_is_not_a_path(tmp_path: Path) -> None:
    with pytest.raises(dataset.DataError, match="no data set directory here"):
        dataset.load("../v0", environ={})
    assert refusal(tmp_path / "nothing").problems[0].rule == dataset.RULE_DATA_SET


def test_the_check_command_prints_a_summary_or_every_problem(
    operator_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert dataset.main(["v0"]) == 0
    out = capsys.readouterr().out
    assert "v0: data_version v0-reconstruction, reconstruction True" in out
    assert "54 nodes, 70 roads" in out and "16 scoring, 8 bonus, 8 goods" in out
    edit(operator_dir / "printed", GOODS, lambda d: d["cards"].pop())
    assert dataset.main([str(operator_dir / "printed")]) == 1
    assert f"{GOODS}: cards: expected 8 goods cards, found 7 [rule GOODS_CARDS]" in capsys.readouterr().err

"""The boards the web client draws are the data sets' own, one per set installed where the client is
built, each named with its data_version (services/goldencity/web_board.py): a set installed beside v0
is drawn from its own board, never from v0's."""

from __future__ import annotations

from pathlib import Path

import pytest

from services.goldencity import dataset, web_board
from tests.goldencity.datasets import BOARD, BONUS, GOODS, SCORING, copy_v0, edit

EXTRA_ROAD = ["city_outer_meadow", "city_outer_desert"]


def test_the_shipped_set_is_drawn_from_its_own_board(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(dataset.DATA_DIR_ENV, raising=False)
    shipped = dataset.load(dataset.DEFAULT_DATA_SET)
    boards = web_board.board()["sets"]
    assert list(boards) == [dataset.DEFAULT_DATA_SET]
    board = boards[dataset.DEFAULT_DATA_SET]
    assert (board["name"], board["dataVersion"], board["reconstruction"]) == (
        "v0",
        shipped.data_version,
        True,
    )
    assert [p["id"] for p in board["places"]] == [p.id for p in shipped.board.places]
    assert board["roads"] == [list(r.ends) for r in shipped.board.roads]


def test_a_set_installed_beside_v0_gets_its_own_board(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    printed = copy_v0(tmp_path, "printed")
    for file in (BOARD, SCORING, BONUS, GOODS):
        edit(printed, file, lambda data: data.update(data_version="printed-1", reconstruction=False))
    edit(printed, BOARD, lambda data: data["roads"].append(EXTRA_ROAD))
    monkeypatch.setenv(dataset.DATA_DIR_ENV, str(tmp_path))
    boards = web_board.board()["sets"]
    assert sorted(boards) == ["printed", "v0"]
    mine, v0 = boards["printed"], boards["v0"]
    assert (mine["name"], mine["dataVersion"], mine["reconstruction"]) == ("printed", "printed-1", False)
    ids = {place["name"]: place["id"] for place in mine["places"]}
    road = sorted(ids[end] for end in EXTRA_ROAD)
    assert road in [sorted(r) for r in mine["roads"]] and road not in [sorted(r) for r in v0["roads"]]
    assert len(mine["roads"]) == len(v0["roads"]) + 1

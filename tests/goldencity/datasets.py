"""Data sets made in a test: copies of the shipped v0 written to a temporary directory and edited,
and the check that a refusal names the file, the field and the rule broken."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from services.goldencity import dataset
from services.goldencity.reader import DataError, Problem

V0 = dataset.PACKAGE_DATA / "v0"
BOARD = dataset.BOARD_FILE
SCORING = dataset.SCORING_CARDS_FILE
BONUS = dataset.BONUS_CARDS_FILE
GOODS = dataset.GOODS_CARDS_FILE

Edit = Callable[[dict[str, Any]], object]


def copy_v0(root: Path, name: str = "edited") -> Path:
    """A copy of the v0 data set in `root/name`."""
    directory = root / name
    shutil.copytree(V0, directory)
    return directory


def edit(directory: Path, file: str, change: Edit) -> None:
    """Rewrite one file of a data set after `change` has edited its JSON in place."""
    path = directory / file
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))


def node_index(data: dict[str, Any], node_id: str) -> int:
    """Where the board's node `node_id` is in its `nodes` list."""
    return [node["id"] for node in data["nodes"]].index(node_id)


def node(data: dict[str, Any], node_id: str) -> dict[str, Any]:
    """The board's node `node_id`."""
    return data["nodes"][node_index(data, node_id)]


def remove_node(data: dict[str, Any], node_id: str) -> None:
    """Take a node off the board with its roads and its area memberships."""
    del data["nodes"][node_index(data, node_id)]
    data["roads"] = [road for road in data["roads"] if node_id not in road]
    for members in data["areas"].values():
        if node_id in members:
            members.remove(node_id)


def remove_road(data: dict[str, Any], first: str, second: str) -> None:
    """Take the road between two nodes off the board; it must be there."""
    roads = [road for road in data["roads"] if sorted(road) != sorted([first, second])]
    assert len(roads) == len(data["roads"]) - 1, (first, second)
    data["roads"] = roads


def refusal(directory: Path) -> DataError:
    """The DataError loading `directory` raises."""
    with pytest.raises(DataError) as caught:
        dataset.load(directory)
    return caught.value


def assert_refused(directory: Path, file: str, field: str, rule: str) -> Problem:
    """Loading `directory` is refused for exactly one problem, at that file, field and rule, and the
    message names all three."""
    error = refusal(directory)
    assert [(p.file, p.field, p.rule) for p in error.problems] == [(file, field, rule)], str(error)
    message = str(error)
    assert file in message and f"{field}:" in message and rule in message, message
    return error.problems[0]

"""The boards the web client draws, one per data set installed where the web client is built (the
shipped v0 and any in GOLDENCITY_DATA_DIR): each set's name, data_version and reconstruction flag, its
places by id (ids count from 1) with kind, region, compass and bonus, and its roads between place ids.
The client draws the board of the set a game's view names, and refuses to draw one its build lacks (a
set installed later, or the same name with another data_version) rather than draw another set's."""

from __future__ import annotations

from typing import Any

from services.goldencity import dataset


def set_board(name: str) -> dict[str, Any]:
    """The installed data set `name`'s board: its name and version, places by id and roads."""
    data_set = dataset.load(name)
    board = data_set.board
    return {
        "name": name,
        "dataVersion": data_set.data_version,
        "reconstruction": data_set.reconstruction,
        "places": [
            {
                "id": place.id,
                "name": place.name,
                "kind": place.kind.name.lower(),
                "region": place.region.name.lower(),
                "compass": place.compass.name,
                "onRiver": place.on_river,
                "bonus": {"type": place.bonus.type.name.lower(), "amount": place.bonus.amount},
            }
            for place in board.places
        ],
        "roads": [list(road.ends) for road in board.roads],
    }


def board() -> dict[str, Any]:
    """Every installed data set's board, by the set's name."""
    return {"sets": {name: set_board(name) for name in dataset.available()}}

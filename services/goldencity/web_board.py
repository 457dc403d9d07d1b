"""The shipped data set's board as the web client draws it: places by id (ids count from 1) with
kind, region, compass and bonus, and roads between place ids. A set an operator installs later is not
in the client's bundle; its board is drawn from the view alone (the client says so)."""

from __future__ import annotations

from typing import Any

from services.goldencity import dataset


def board(name: str = dataset.DEFAULT_DATA_SET) -> dict[str, Any]:
    """The shipped data set's board: places by id (ids count from 1) and roads between place ids."""
    data_set = dataset.load(name)
    board = data_set.board
    return {
        "name": name,
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

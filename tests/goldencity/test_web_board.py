"""The board the web client draws is the shipped data set's (services/goldencity/web_board.py)."""

from __future__ import annotations

from services.goldencity import dataset, web_board


def test_the_web_board_is_the_shipped_data_sets():
    shipped = dataset.load(dataset.DEFAULT_DATA_SET).board
    board = web_board.board()
    assert [p["id"] for p in board["places"]] == [p.id for p in shipped.places]
    assert board["roads"] == [list(r.ends) for r in shipped.roads]

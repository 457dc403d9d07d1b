"""The Assyria table `bg` draws (cli/renderers/assyria.py), from real views of real games. A whole game
played through `bg` against bots is tests/clients/test_cli.py, run for every registered title."""

from __future__ import annotations

from boardgame.assyria.v1 import assyria_pb2 as pb

from cli.renderers import assyria as assyria_renderer
from cli.renderers import renderer
from services.assyria.board import BOARDS, HEX_COUNT, HEX_FOOD, HEX_REGION, SITE_HEXES, coords
from services.assyria.cards import FOOD_NAMES
from services.assyria.data import Region
from tests.clients.tables import Table, block

CELL = assyria_renderer.CELL


def test_bg_draws_assyria_with_its_own_renderer() -> None:
    assert renderer("assyria") is assyria_renderer.blocks


def cells(lines: list[str], table: pb.Table) -> dict[int, tuple[str, str]]:
    """Each drawn hex's two lines, read from the drawing at its column and row."""
    board = BOARDS[table.player_count]
    top = min(2 * coords(h)[1] + coords(h)[0] for h in board.hexes)
    found = {}
    for h in board.hexes:
        q, r = coords(h)
        row = 1 + 2 * r + q - top
        start = q * CELL
        found[h] = (lines[row][start : start + CELL], lines[row + 1][start : start + CELL].ljust(CELL))
    return found


def test_the_map_draws_every_usable_hex_under_its_column_with_region_and_piece() -> None:
    for players in (2, 4):
        table = Table("assyria", players, 7)
        table.until(lambda view: sum(s >= 0 for s in view.table.hut_seats) >= 5)
        view = table.view()
        lines = list(block(table.blocks(), "Map").lines)
        assert lines[0].split() == [
            f"|q={q}" for q in range(max(coords(h)[0] for h in BOARDS[players].hexes) + 1)
        ]
        drawn = cells(lines, view.table)
        for h, (first, second) in drawn.items():
            q, r = coords(h)
            assert first.startswith(f"|{q},{r} {FOOD_NAMES[HEX_FOOD[h]][:3]}"), (h, first)
            mark = {Region.OUTSIDE: " ", Region.INSIDE: ":"}.get(Region(HEX_REGION[h]), "~")
            assert second[1] == mark == second[CELL - 1], (h, second)
            seat, zig = view.table.hut_seats[h], view.table.ziggurat_seats[h]
            if seat >= 0:
                assert second[2:4] == "ABCD"[seat] + ("+" if view.table.fed[h] else "-")
            elif zig >= 0:
                assert second[2:5] == f"Z{view.table.ziggurat_heights[h]}{'ABCD'[zig]}"
            else:
                assert second[2:6].strip() == ""
        text = "\n".join(lines)
        for h in range(HEX_COUNT):
            if h not in drawn:  # off this player count's board
                q, r = coords(h)
                assert f"|{q},{r} " not in text


def test_wells_are_marked_on_the_hexes_around_them() -> None:
    table = Table("assyria", 2, 3)
    view = table.view()
    view.table.wells.extend([1, 2])
    lines = assyria_renderer.map_lines(view.table, table.data())
    drawn = cells(lines, view.table)
    for h in {*SITE_HEXES[1], *SITE_HEXES[2]}:
        count = (h in SITE_HEXES[1]) + (h in SITE_HEXES[2])
        assert f"w{count}" in drawn[h][1], (h, drawn[h])


def test_the_table_shows_sowing_columns_assur_and_hands() -> None:
    table = Table("assyria", 3, 5)
    table.until(lambda view: view.table.step == pb.STEP_HARVEST)
    blocks = table.blocks()
    view = table.view()
    sowing = block(blocks, "Sowing").lines
    assert len(sowing) == 4 and all("(free)" in line for line in sowing)
    assert [line.split(":")[0].strip() for line in block(blocks, "Assur").lines] == [
        "higher",
        "middle",
        "lower",
    ]
    me = block(blocks, "seat 0 Ann (you)").lines
    assert me[0] == "map letter: A"
    assert me[-1].startswith("hand: ") and len(view.table.players[0].hand) >= 1

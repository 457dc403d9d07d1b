"""The Glen More table `bg` draws (cli/renderers/glenmore.py), from real views of real games."""

from __future__ import annotations

import re

from cli.render import Block
from cli.renderers import glenmore as glenmore_renderer
from cli.renderers import renderer
from cli.screen import changes
from services.glenmore.data import RIVER, ROAD, TILES
from services.glenmore.labels import tile_name
from tests.clients.tables import Table, block


def test_bg_draws_glen_more_with_its_own_renderer() -> None:
    assert renderer("glenmore") is glenmore_renderer.blocks


def territory(text_blocks: list[Block], heading: str) -> list[str]:
    """The lines of a territory drawing."""
    found = block(text_blocks, heading)
    assert found.whole, "a drawing is reprinted whole"
    return list(found.lines)


def test_glen_more_draws_each_territory_as_a_grid_of_named_tiles_with_roads_and_rivers() -> None:
    table = Table("glenmore", 2, 3)
    table.until(lambda view: len(view.table.players[0].territory) >= 4)
    view = table.view()
    lines = territory(table.blocks(), "Territory of seat 0 Ann (you)")
    rows = {int(match.group(1)): line for line in lines if (match := re.match(r"\s*y=(-?\d+)", line))}

    # The start village of seat 0 is tile 68 at (0, 0), with a road east-west and a river north-south.
    village = rows[0]
    assert re.search(r"=\s+Start village \[68\]\s+=", village)
    middle = village.index("Start village [68]") + len("Start village [68]") // 2
    above, below = lines[lines.index(village) - 1], lines[lines.index(village) + 2]
    assert "~" in above[middle - 1 : middle + 2] and "~" in below[middle - 1 : middle + 2]

    header = lines[0]
    placed_at = {(placed.cell.x, placed.cell.y): placed.tile for placed in view.table.players[0].territory}

    def has(where: tuple[int, int], feature: int) -> bool:
        return where in placed_at and bool(TILES[placed_at[where] - 1].edge & feature)

    for (x, y), number in placed_at.items():
        name = tile_name(number - 1)
        row = rows[y]
        assert name in row, (name, row)
        label = f"x={x}"
        column = header.index(label) + len(label) / 2
        assert abs(row.index(name) + len(name) / 2 - column) <= 1, f"{name} is not under {label}"
        west = max(row.rfind("|", 0, row.index(name)), row.rfind("=", 0, row.index(name)))
        east = min(i for i in (row.find("|", row.index(name)), row.find("=", row.index(name))) if i >= 0)
        for side, neighbour in ((west, (x - 1, y)), (east, (x + 1, y))):
            road = has((x, y), ROAD) or has(neighbour, ROAD)
            assert (row[side] == "=") == road, f"road mark beside {name}"
        middle = (west + east) // 2
        above, below = lines[lines.index(row) - 1], lines[lines.index(row) + 2]
        for border, neighbour in ((above, (x, y + 1)), (below, (x, y - 1))):
            river = has((x, y), RIVER) or has(neighbour, RIVER)
            assert ("~" in border[middle - 1 : middle + 2]) == river, f"river mark by {name}"
    assert lines[-1] == glenmore_renderer.LEGEND


def rondel(blocks: list[Block]) -> dict[int, int]:
    """Tile number -> rondel space, read from the drawing."""
    lines = block(blocks, "Rondel (spaces 0-13)").lines
    assert [int(re.match(r"space\s+(\d+):", line).group(1)) for line in lines] == list(range(14))  # type: ignore[union-attr]
    return {
        int(m.group(2)): int(m.group(1))
        for line in lines
        if (m := re.match(r"space\s+(\d+): .* \[(\d+)\]", line))
    }


def test_glen_more_draws_the_rondel_in_the_fixed_order_of_its_spaces() -> None:
    table = Table("glenmore", 3, 4)
    firsts = set()
    for _ in range(30):
        before = rondel(table.blocks())
        table.move()
        after = rondel(table.blocks())
        kept = set(before) & set(after)
        assert kept, "most tiles stay on the rondel from one move to the next"
        for tile in kept:
            assert before[tile] == after[tile], "a tile lying on the rondel keeps its space"
        firsts.add(table.view().table.track_space)
    assert len(firsts) > 1, "the figures moved round the rondel meanwhile"


def test_a_territory_that_changed_is_drawn_again_whole() -> None:
    table = Table("glenmore", 2, 8)
    heading = "Territory of seat 0 Ann (you)"
    before = table.blocks()
    table.until(lambda view: len(view.table.players[0].territory) == 2)
    after = table.blocks()
    printed = changes(before, after)
    drawing = block(after, heading).text()
    start = printed.index(heading)
    assert printed[start : start + len(drawing)] == drawing

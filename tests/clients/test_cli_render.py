"""The tables `bg` draws, from real views of real games (each engine's new_game, random legal moves,
and its codec's View): each title's renderer, the generic fallback, and printing only what changed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2

from cli.render import Block, generic_blocks
from cli.renderers import glenmore as glenmore_renderer
from cli.renderers import puertorico as puertorico_renderer
from cli.renderers import renderer, table_blocks
from cli.screen import changes
from services.common import registry
from services.glenmore.data import RIVER, ROAD, TILES

NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve")


class Table:
    """A game played by random legal moves, shown as `bg` shows it to one seat."""

    def __init__(self, title: str, players: int, seed: int) -> None:
        self.title = title
        self.game = registry.get(title)
        config = self.game.config_from_proto(self.game.messages.config())
        self.state, _ = self.game.new_game(players, config, seed.to_bytes(8, "big"))
        self.players = players
        self.rng = random.Random(seed)
        self.version = 0

    def move(self, choose: Callable[[list[Any]], Any] | None = None) -> None:
        """Play one legal move of the acting seat (random unless `choose` picks it)."""
        seat = self.game.acting_seats(self.state)[0]
        actions = list(self.game.legal_actions(self.state, seat))
        action = choose(actions) if choose else self.rng.choice(actions)
        self.state, _ = self.game.apply(self.state, seat, action)
        self.version += 1

    def view(self, seat: int | None = 0) -> Any:
        """The title's View message for `seat`."""
        return self.game.view_to_proto(self.state, seat)

    def game_view(self, seat: int | None = 0, title: str | None = None) -> gateway_pb2.GameView:
        """The GameView the gateway would send `seat`."""
        game = gateway_pb2.GameView(
            game_id="g",
            title=title or self.title,
            version=self.version,
            seats=[
                gateway_pb2.GameSeat(seat=index, player=gateway_pb2.Player(display_name=NAMES[index]))
                for index in range(self.players)
            ],
            acting_seats=self.game.acting_seats(self.state),
        )
        if seat is not None:
            game.seat = seat
        game.view.Pack(self.view(seat))
        return game

    def text(self, seat: int | None = 0) -> str:
        """The table as printed in full."""
        return "\n".join(line for block in table_blocks(self.game_view(seat)) for line in block.text())

    def until(self, wanted: Callable[[Any], bool], limit: int = 400) -> None:
        """Play random moves until the view of seat 0 is `wanted`."""
        for _ in range(limit):
            if wanted(self.view()):
                return
            self.move()
        pytest.fail("no such position in the moves tried")


def block(blocks: list[Block], heading: str) -> Block:
    """The block with this heading."""
    return next(found for found in blocks if found.heading == heading)


def player_lines(table: Table, seat: int) -> tuple[str, ...]:
    """The lines of a player's block."""
    return next(
        found.lines for found in table_blocks(table.game_view()) if found.heading.startswith(f"seat {seat} ")
    )


def test_puerto_rico_shows_the_governor_at_seat_0_and_zero_values() -> None:
    for seed in range(40):
        table = Table("puertorico", 3, seed)
        if table.view().table.governor == 0:
            break
    else:
        pytest.fail("no seed gives seat 0 the governor")
    assert "round 1, governor: seat 0 Ann (you)" in table.text()
    roles = block(table_blocks(table.game_view()), "Roles").lines
    assert "settler: 0 doubloons" in roles, "a role card with no doubloons says so"
    assert "goods: 0 corn, 0 indigo, 0 sugar, 0 tobacco, 0 coffee" in player_lines(table, 1)
    assert "colonists in San Juan: 0" in player_lines(table, 1)

    table.until(lambda view: any(player.doubloons == 0 for player in view.table.players))
    broke = next(seat for seat, player in enumerate(table.view().table.players) if player.doubloons == 0)
    assert "doubloons: 0" in player_lines(table, broke)


def test_puerto_rico_leaves_the_phase_bookkeeping_out() -> None:
    table = Table("puertorico", 4, 7)
    table.until(lambda view: view.table.picks > 0 and view.table.role_turn > 0)
    text = table.text()
    for internal in (
        "picks",
        "passes in row",
        "role turn",
        "captain loaded",
        "config",
        "player count",
        "actor",
    ):
        assert not re.search(rf"\b{internal}\b", text), internal
    assert "decision: " in text and "role: " in text


def test_puerto_rico_shows_each_building_for_sale_with_its_cost_and_vp() -> None:
    text = Table("puertorico", 3, 1).text()
    # Costs and VP as printed on the buildings (rulebook §1.2), not read from the game's table.
    for name, cost, vp in (
        ("small indigo plant", 1, 1),
        ("hacienda", 2, 1),
        ("coffee roaster", 6, 3),
        ("city hall", 10, 4),
    ):
        assert re.search(rf"^\s+{name}\s+cost\s+{cost}\s+{vp} VP\s", text, re.M), name


def test_puerto_rico_shows_vp_chips_only_to_whom_may_see_them() -> None:
    table = Table("puertorico", 3, 2)
    blocks = table_blocks(table.game_view())
    assert "VP chips: 0" in block(blocks, "seat 0 Ann (you)").lines
    assert "VP chips: hidden" in block(blocks, "seat 1 Ben").lines


def territory(text_blocks: list[Block], heading: str) -> list[str]:
    """The lines of a territory drawing."""
    found = block(text_blocks, heading)
    assert found.whole, "a drawing is reprinted whole"
    return list(found.lines)


def test_glen_more_draws_each_territory_as_a_grid_of_named_tiles_with_roads_and_rivers() -> None:
    table = Table("glenmore", 2, 3)
    table.until(lambda view: len(view.table.players[0].territory) >= 4)
    view = table.view()
    lines = territory(table_blocks(table.game_view()), "Territory of seat 0 Ann (you)")
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
        name = glenmore_renderer.tile_name(number - 1)
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
        before = rondel(table_blocks(table.game_view()))
        table.move()
        after = rondel(table_blocks(table.game_view()))
        kept = set(before) & set(after)
        assert kept, "most tiles stay on the rondel from one move to the next"
        for tile in kept:
            assert before[tile] == after[tile], "a tile lying on the rondel keeps its space"
        firsts.add(table.view().table.track_space)
    assert len(firsts) > 1, "the figures moved round the rondel meanwhile"


def test_a_renderer_is_found_by_the_title_name_with_a_generic_fallback() -> None:
    assert renderer("puertorico") is puertorico_renderer.blocks
    assert renderer("glenmore") is glenmore_renderer.blocks
    assert renderer("chess") is generic_blocks
    assert renderer("os.path") is generic_blocks
    table = Table("puertorico", 3, 5)
    generic = table_blocks(table.game_view(title="chess"))
    assert [found.heading for found in generic] == ["table", "seat", "plantation stack size", "vp chips"]


def test_after_a_move_only_what_changed_is_printed() -> None:
    table = Table("puertorico", 3, 6)
    before = table_blocks(table.game_view())
    table.move(lambda actions: actions[0])  # the first role on offer
    after = table_blocks(table.game_view())
    printed = changes(before, after)
    assert (
        "Roles" in printed and "Buildings for sale" not in " ".join(printed) and "Cargo ships" not in printed
    )
    old_lines = {line for found in before for line in found.lines}
    assert [line for line in printed if line.startswith("  ") and line.strip() in old_lines] == []
    assert any(line.endswith(", taken") for line in printed)
    assert changes(after, after) == []


def test_a_territory_that_changed_is_drawn_again_whole() -> None:
    table = Table("glenmore", 2, 8)
    heading = "Territory of seat 0 Ann (you)"
    before = table_blocks(table.game_view())
    table.until(lambda view: len(view.table.players[0].territory) == 2)
    after = table_blocks(table.game_view())
    printed = changes(before, after)
    drawing = block(after, heading).text()
    start = printed.index(heading)
    assert printed[start : start + len(drawing)] == drawing

"""The Puerto Rico table `bg` draws (cli/renderers/puertorico.py), from real views of real games."""

from __future__ import annotations

import re

import pytest

from cli.renderers import puertorico as puertorico_renderer
from cli.renderers import renderer
from cli.screen import changes
from tests.clients.tables import Table, block, player_lines


def test_bg_draws_puerto_rico_with_its_own_renderer() -> None:
    assert renderer("puertorico") is puertorico_renderer.blocks


def test_puerto_rico_shows_the_governor_at_seat_0_and_zero_values() -> None:
    for seed in range(40):
        table = Table("puertorico", 3, seed)
        if table.view().table.governor == 0:
            break
    else:
        pytest.fail("no seed gives seat 0 the governor")
    assert "round 1, governor: seat 0 Ann (you)" in table.text()
    roles = block(table.blocks(), "Roles").lines
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
    blocks = table.blocks()
    assert "VP chips: 0" in block(blocks, "seat 0 Ann (you)").lines
    assert "VP chips: hidden" in block(blocks, "seat 1 Ben").lines


def test_after_a_move_only_the_lines_that_changed_are_printed() -> None:
    table = Table("puertorico", 3, 6)
    before = table.blocks()
    table.move(lambda actions: actions[0])  # the first role on offer
    after = table.blocks()
    printed = changes(before, after)
    assert (
        "Roles" in printed and "Buildings for sale" not in " ".join(printed) and "Cargo ships" not in printed
    )
    old_lines = {line for found in before for line in found.lines}
    assert [line for line in printed if line.startswith("  ") and line.strip() in old_lines] == []
    assert any(line.endswith(", taken") for line in printed)
    assert changes(after, after) == []

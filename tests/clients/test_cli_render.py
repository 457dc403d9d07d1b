"""The generic part of the tables `bg` draws: the fallback for a title without a renderer, and
printing only what changed after a move (each title's own renderer is tested in its folder)."""

from __future__ import annotations

from cli.render import generic_blocks
from cli.renderers import renderer, table_blocks
from cli.screen import changes
from tests.clients.tables import Table
from tests.titles import TITLE


def test_a_title_without_a_renderer_is_shown_field_by_field() -> None:
    assert renderer("chess") is generic_blocks
    assert renderer("os.path") is generic_blocks, "only a module of cli.renderers is a renderer"
    table = Table(TITLE, 3, 5)
    game_view = table.game_view(title="chess")
    shown = table_blocks(game_view, table.data())
    fields = [field.name.replace("_", " ") for field, _ in table.view().ListFields()]
    assert [found.heading for found in shown] == fields, "one block per field of the view"


def test_nothing_is_printed_again_when_nothing_changed() -> None:
    table = Table(TITLE, 3, 6)
    before = table.blocks()
    table.move(lambda actions: actions[0])
    after = table.blocks()
    assert changes(before, after), "a move changes the table"
    assert changes(after, after) == []

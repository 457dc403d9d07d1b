"""The Golden City table `bg` draws (cli/renderers/goldencity.py), from real views of real games."""

from __future__ import annotations

from cli.renderers import goldencity as goldencity_renderer
from cli.renderers import renderer
from services.goldencity import tables
from services.goldencity.rules import HOUSE_COLOURS
from tests.clients.tables import Table, block, player_lines


def test_bg_draws_the_golden_city_with_its_own_renderer() -> None:
    assert renderer("goldencity") is goldencity_renderer.blocks


def test_the_table_says_the_data_set_is_a_reconstruction() -> None:
    table = Table("goldencity", 3, 1)
    lines = block(table.blocks(), "Data set").lines
    assert lines == ("v0 (v0-reconstruction)", goldencity_renderer.RECONSTRUCTION)


def test_every_place_is_drawn_with_its_bonus_houses_by_colour_and_roads() -> None:
    table = Table("goldencity", 3, 2)
    table.until(lambda view: sum(len(p.houses) for p in view.table.players) >= 6)
    view = table.view()
    found = tables.named("v0")
    drawn = table.blocks()
    region_lines = [line for b in drawn if b.heading.startswith("Region ") for line in b.lines]
    assert [b.heading for b in drawn if b.heading.startswith("Region ")] == [
        "Region meadow (N)",
        "Region forest (E)",
        "Region desert (S)",
        "Region mountains (W)",
    ]
    owner = {place: seat for seat, p in enumerate(view.table.players) for place in p.houses}
    for place in found.data.board.places:
        if found.is_city(place.id):
            continue
        line = next(line for line in region_lines if line.split()[0] == place.name)
        neighbours = sorted(found.place_names[n] for n in found.neighbours[place.id])
        assert line.endswith("roads: " + ", ".join(neighbours)), line
        if place.id in owner:
            assert f"houses: {HOUSE_COLOURS[owner[place.id]]} (seat {owner[place.id]} " in line, line
        else:
            assert "houses: -" in line, line
    city = block(drawn, "The Golden City").lines
    assert len(city) == 8 and city[0].startswith("meadow outer: ")
    assert any("1 coin" in line for line in region_lines)


def test_a_player_sees_their_own_cards_and_only_counts_of_the_others() -> None:
    table = Table("goldencity", 3, 3)
    view = table.view(0)
    mine = player_lines(table, 0)
    assert any(line.startswith("landscape cards: ") and "coast" in line for line in mine)
    theirs = player_lines(table, 1)
    assert f"landscape cards: {view.hand_sizes[1]} cards" in theirs


def test_the_table_draws_every_position_of_a_whole_game() -> None:
    table = Table("goldencity", 4, 4)
    while not table.game.is_terminal(table.state):
        for seat in (0, None):
            assert table.blocks(seat)
        table.move()
    final = table.blocks(0)
    heading = f"Round {table.view().table.round}"
    assert block(final, heading).lines[1] == "decision: game over"
    assert any(
        line.startswith("letters: ") and "+ bonus cards" in line for line in player_lines(table, 0)
    ) or (table.view().table.players[0].bonus_points == 0)


def test_a_set_the_title_data_lacks_is_drawn_with_ids() -> None:
    table = Table("goldencity", 3, 4)
    data = table.data()
    del data.data_sets[:]
    drawn = goldencity_renderer.blocks(table.view(), table.game_view(), data)
    assert [b.heading for b in drawn if b.heading.startswith("Region ")] == []
    assert block(drawn, "Data set").lines[0] == "v0 (v0-reconstruction)"
    goods = next(line for line in block(drawn, "Round 1").lines if line.startswith("goods cards face up"))
    shown = ", ".join(str(card) for card in table.view().table.goods_display)
    assert goods.startswith(f"goods cards face up: {shown or 'none'};"), goods

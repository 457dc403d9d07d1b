"""Assyria's table for people, from its View message (protos/boardgame/assyria/v1): the hex map with
its regions, rivers, huts by player, ziggurats and wells; the sowing columns, Assur, and each
player's tracks and hand.

The map is drawn with flat-topped hexes in columns q (left to right); each column is shifted half a
hex down from the one before, so a hex (q, r) touches (q, r +- 1) above and below and (q +- 1, ...)
on either side, as the labels' coordinates do. Hex facts, cards' names and the dignitaries come from
the title's data (its TitleData: the map table by hex number).
"""

from __future__ import annotations

from typing import cast

from boardgame.assyria.v1 import assyria_pb2 as pb
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.message import Message

from cli.render import Block, enum_word, seat_name

STEP = pb.Step.DESCRIPTOR
SEAT_LETTERS = "ABCD"  # the players' colours on the map
PIECES = ("", "Z1", "Z2", "Z3")  # a ziggurat: base, with centre, with roof
REGION_MARKS = {"outside": " ", "river_1": "~", "river_2": "~", "inside": ":"}
CELL = 9  # characters per hex column
LEGEND = (
    "~ river hex (lost at the Flood)   : between the rivers   A-D huts by player (+ fed, - unfed)",
    "Z1/Z2/Z3 ziggurat of 1-3 pieces, with its player's letter   wN wells on N corners of the hex",
)


def at(data: pb.TitleData, h: int) -> str:
    """A hex's coordinates: "(3,1)"."""
    return f"({data.hexes[h].q},{data.hexes[h].r})"


def hex_cell(table: pb.Table, data: pb.TitleData, h: int, wells: dict[int, int]) -> tuple[str, str]:
    """A hex's two lines: coordinates and food, then region mark, the piece on it and its wells."""
    facts = data.hexes[h]
    top = f"{facts.q},{facts.r} {facts.food[:3]}"
    mark = REGION_MARKS.get(facts.region, " ")
    piece = ""
    if table.hut_seats[h] >= 0:
        piece = SEAT_LETTERS[table.hut_seats[h]] + ("+" if table.fed[h] else "-")
    elif table.ziggurat_seats[h] >= 0:
        piece = PIECES[table.ziggurat_heights[h]] + SEAT_LETTERS[table.ziggurat_seats[h]]
    well = f"w{wells[h]}" if wells.get(h) else ""
    bottom = f"{mark}{piece:<4}{well:>2}{mark}"
    return top.ljust(CELL - 1), bottom.ljust(CELL - 1)


def map_lines(table: pb.Table, data: pb.TitleData) -> list[str]:
    """The board of this player count as a grid of hexes, columns q = 0.. from left to right."""
    board = [h for h, facts in enumerate(data.hexes) if table.player_count in facts.player_counts]
    wells: dict[int, int] = {}
    for site in table.wells:
        for h in data.well_sites[site].hexes:
            wells[h] = wells.get(h, 0) + 1
    placed = {h: 2 * data.hexes[h].r + data.hexes[h].q for h in board}  # the hex's first line
    top = min(placed.values())
    height = max(placed.values()) - top + 2
    columns = max(data.hexes[h].q for h in board) + 1
    grid = [[" " * CELL for _ in range(columns)] for _ in range(height)]
    for h, line in placed.items():
        q = data.hexes[h].q
        first, second = hex_cell(table, data, h, wells)
        grid[line - top][q] = "|" + first
        grid[line - top + 1][q] = "|" + second
    header = "".join(f"|q={q}".ljust(CELL) for q in range(columns))
    return [header, *("".join(row).rstrip() for row in grid), *LEGEND]


def table_block(table: pb.Table, game: gateway_pb2.GameView, data: pb.TitleData) -> Block:
    """Turn, reign, decision, expansion card, Assur row, decks, wells and plows."""
    order = ", ".join(seat_name(game, seat) for seat in table.turn_order)
    lines = [
        f"turn {table.turn} of 8, reign {table.reign} of 3; decision: {enum_word(STEP, table.step)}",
        f"turn order: {order}",
        f"expansion card: {table.expansion_card} huts; Assur row: "
        + (", ".join(str(c) for c in table.assur_cards) or "none"),
        f"food deck: {table.food_deck_size} cards; discards: {len(table.food_discard)};"
        f" expansion cards face down: {table.expansion_deck_size}",
        f"wells in supply: {table.wells_supply}; plow cards in the stack: {table.plow_stack}",
    ]
    if table.wells:
        sites = (data.well_sites[s].hexes for s in table.wells)
        lines.append("wells: " + "; ".join("/".join(at(data, h) for h in hexes) for hexes in sites))
    if table.draft_cards:
        lines.append("initial draft: " + ", ".join(data.card_names[c] for c in table.draft_cards))
    if table.step == pb.STEP_PLACE_HUTS:
        lines.append(f"huts left to place: {table.huts_to_place}")
    if table.feeding_symbols:
        food = enum_word(pb.Food.DESCRIPTOR, table.feeding_food)
        lines.append(f"card in use: {table.feeding_symbols} {food} symbol(s) left")
    return Block("Table", tuple(lines))


def sowing_block(table: pb.Table, game: gateway_pb2.GameView, data: pb.TitleData) -> Block | None:
    """The columns of this turn's sowing rows and who took them."""
    if not table.column_seats:
        return None
    lines = []
    for column, seat in enumerate(table.column_seats):
        cards = [data.card_names[c] for c in (table.sowing_row_1[column], table.sowing_row_2[column]) if c]
        who = f"taken by {seat_name(game, seat)}" if seat >= 0 else "free"
        lines.append(f"column {column + 1}: {' + '.join(cards) or 'empty'} ({who})")
    return Block("Sowing", tuple(lines))


def assur_block(table: pb.Table, game: gateway_pb2.GameView, data: pb.TitleData) -> Block:
    """The dignitaries' spaces from the top."""
    lines = []
    rows = (table.assur_higher, table.assur_middle, table.assur_lower)  # Dignitary 1, 2, 3
    for dignitary, row in zip(data.dignitaries, rows, strict=True):
        seats = list(row)
        spaces = [SEAT_LETTERS[s] for s in seats] + ["."] * (dignitary.spaces - len(seats))
        lines.append(f"{dignitary.name:>6}: {' '.join(spaces)}")
    return Block("Assur", tuple(lines))


def player_block(player: pb.Player, game: gateway_pb2.GameView, seat: int, data: pb.TitleData) -> Block:
    """A player's letter on the map, tracks, stock and hand."""
    hand = ", ".join(data.card_names[c] for c in player.hand) or "no cards"
    lines = (
        f"map letter: {SEAT_LETTERS[seat]}",
        f"score: {player.score}; camels: {player.camels}; offerings: {player.offerings}",
        f"huts in stock: {player.huts}; plow card: {'yes' if player.plow else 'no'}",
        f"hand: {hand}",
    )
    return Block(seat_name(game, seat), lines)


def blocks(message: Message, game: gateway_pb2.GameView, title_data: Message) -> list[Block]:
    """The whole table."""
    table, data = cast(pb.View, message).table, cast(pb.TitleData, title_data)
    found = [table_block(table, game, data), Block("Map", tuple(map_lines(table, data)), whole=True)]
    sowing = sowing_block(table, game, data)
    if sowing is not None:
        found.append(sowing)
    found.append(assur_block(table, game, data))
    found += [player_block(p, game, seat, data) for seat, p in enumerate(table.players)]
    return found

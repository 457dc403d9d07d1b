"""Glen More's table for people, from its View message (protos/boardgame/glenmore/v1): the rondel in
the fixed order of its 14 spaces, the warehouse, the stacks, and each player's goods and territory,
drawn as a grid of named tiles with their roads (east-west) and rivers (north-south).

Tile facts (name, number, edges, cost) come from the title's data (its TitleData, the tile table);
cells are (x, y) with x to the east and y to the north, as in the legal actions' labels.
"""

from __future__ import annotations

from typing import cast

from boardgame.gateway.v1 import gateway_pb2
from boardgame.glenmore.v1 import glenmore_pb2 as pb
from google.protobuf.message import Message

from cli.render import Block, enum_word, plural, seat_name

STEP = pb.Step.DESCRIPTOR
RESOURCE = pb.Resource.DESCRIPTOR
CARD = pb.SpecialLocation.DESCRIPTOR
MARGIN = " " * 6  # room for the row labels, "y=-2 "
LEGEND = "= road (runs east-west)   ~ river (runs north-south)"


def _info(data: pb.TitleData, number: int) -> pb.TileInfo:
    return data.tiles[number - 1]  # the tile table is indexed from tile 1


def _tile(data: pb.TitleData, number: int) -> str:
    info = _info(data, number)
    return f"{info.name} [{info.number}]"


def _cubes(data: pb.TitleData, cubes: pb.ResourceCounts) -> list[str]:
    return [f"{getattr(cubes, name)} {name}" for name in data.resource_names if getattr(cubes, name)]


def table_block(table: pb.Table, game: gateway_pb2.GameView) -> Block:
    """Start player, decision, scorings, stacks and the die."""
    lines = [
        f"start player: {seat_name(game, table.start_player)}",
        f"decision: {enum_word(STEP, table.step)}",
        f"intermediate scorings done: {table.scorings_done} of 3",
        "face-down stacks 0-3: " + ", ".join(str(size) for size in table.stack_sizes) + " tiles",
        f"tiles out of the game: {len(table.discarded_tiles)}",
    ]
    if any(entry.HasField("die") for entry in table.track):
        lines.append(f"last roll of the die: {table.last_die_roll or 'none yet'}")
    return Block("Table", tuple(lines))


def rondel_block(table: pb.Table, game: gateway_pb2.GameView, data: pb.TitleData) -> Block:
    """The 14 spaces of the rondel in their fixed order, with the tile or figure on each."""
    spaces = ["-"] * data.track_spaces
    for offset, entry in enumerate(table.track):
        kind = entry.WhichOneof("entry")
        if kind == "tile":
            text = f"{_tile(data, entry.tile)}, cost: {_info(data, entry.tile).cost}"
        elif kind == "figure":
            text = f"figure of {seat_name(game, entry.figure)}"
        else:
            text = "die figure"
        spaces[(table.track_space + offset) % data.track_spaces] = text
    return Block(
        "Rondel (spaces 0-13)", tuple(f"space {space:>2}: {text}" for space, text in enumerate(spaces))
    )


def market_block(table: pb.Table, data: pb.TitleData) -> Block:
    """The warehouse: for each resource, what buying and selling one cube pays."""
    lines = []
    slots = data.market_slots
    for row in table.market:
        buy = f"buy for {plural(row.filled + 1, 'coin')}" if row.filled < slots else "cannot buy"
        sell = f"sell for {plural(row.filled, 'coin')}" if row.filled else "cannot sell"
        lines.append(
            f"{enum_word(RESOURCE, row.resource)}: {row.filled} of {slots} slots filled, {buy}, {sell}"
        )
    return Block("Warehouse", tuple(lines))


def turn_block(table: pb.Table, game: gateway_pb2.GameView, data: pb.TitleData) -> Block | None:
    """The acting player's turn so far, once it took a tile or gathered movement points."""
    turn = table.turn
    lines = []
    if turn.tile:
        where = f", placed at ({turn.cell.x}, {turn.cell.y})" if turn.placed else ", not placed yet"
        lines.append(f"tile taken: {_tile(data, turn.tile)}{where}")
    if turn.movement_points:
        lines.append(f"movement points: {turn.movement_points}")
    if not lines:
        return None
    return Block(f"Turn of {seat_name(game, table.actor)}", tuple(lines))


def player_block(player: pb.Player, game: gateway_pb2.GameView, seat: int) -> Block:
    """A player's coins, VP, whisky, chieftains and cards."""
    vp = "hidden" if player.vp_hidden else f"{player.vp} ({player.scoring_vp} from scorings)"
    cards = ", ".join(enum_word(CARD, card) for card in player.cards) or "none"
    lines = (
        f"coins: {player.coins}",
        f"VP: {vp}",
        f"whisky: {player.whisky}",
        f"chieftains: {player.chieftains}",
        f"special locations: {cards}",
    )
    return Block(seat_name(game, seat), lines)


def _contents(data: pb.TitleData, placed: pb.PlacedTile) -> str:
    """What lies on a tile: clan members and cubes."""
    clan = [plural(placed.clan_members, "clan member")] if placed.clan_members else []
    return ", ".join([*clan, *_cubes(data, placed.cubes)])


def territory_lines(territory: list[pb.PlacedTile], data: pb.TitleData) -> list[str]:
    """A territory as a grid: each tile a box with its name and what lies on it; a road is drawn
    as '=' on the box's east and west sides, a river as '~' on its north and south sides."""
    cells = {(placed.cell.x, placed.cell.y): placed for placed in territory}
    if not cells:
        return []
    xs = range(min(x for x, _ in cells), max(x for x, _ in cells) + 1)
    ys = range(max(y for _, y in cells), min(y for _, y in cells) - 1, -1)
    texts = {where: (_tile(data, placed.tile), _contents(data, placed)) for where, placed in cells.items()}
    width = max(len(text) for pair in texts.values() for text in pair) + 2

    def edge(where: tuple[int, int], feature: str) -> bool:
        placed = cells.get(where)
        return placed is not None and bool(getattr(_info(data, placed.tile), feature))

    def border(y_above: int, y_below: int) -> str:
        parts = []
        for x in xs:
            near = [(x - 1, y_above), (x, y_above), (x - 1, y_below), (x, y_below)]
            parts.append("+" if any(where in cells for where in near) else " ")
            if (x, y_above) in cells or (x, y_below) in cells:
                mark = "~" if edge((x, y_above), "river") or edge((x, y_below), "river") else "-"
                parts.append(("-" * width)[: width // 2] + mark + ("-" * width)[width // 2 + 1 :])
            else:
                parts.append(" " * width)
        parts.append("+" if (xs[-1], y_above) in cells or (xs[-1], y_below) in cells else " ")
        return MARGIN + "".join(parts).rstrip()

    def row(y: int, line: int) -> str:
        parts = [f"y={y:<3} " if line == 0 else MARGIN]
        for x in xs:
            west, here = (x - 1, y), (x, y)
            side = "|" if west in cells or here in cells else " "
            if line == 0 and (edge(west, "road") or edge(here, "road")):
                side = "="
            parts.append(side)
            parts.append(texts[here][line].center(width) if here in cells else " " * width)
        east = (xs[-1], y)
        parts.append(("=" if line == 0 and edge(east, "road") else "|") if east in cells else " ")
        return "".join(parts).rstrip()

    lines = [MARGIN + "".join(" " + f"x={x}".center(width) for x in xs).rstrip()]
    for y in ys:
        lines.append(border(y + 1, y))
        lines.append(row(y, 0))
        lines.append(row(y, 1))
    lines.append(border(ys[-1], ys[-1] - 1))
    lines.append(LEGEND)
    return lines


def blocks(message: Message, game: gateway_pb2.GameView, title_data: Message) -> list[Block]:
    """The whole table."""
    view, data = cast(pb.View, message), cast(pb.TitleData, title_data)
    table = view.table
    found = [table_block(table, game), rondel_block(table, game, data), market_block(table, data)]
    turn = turn_block(table, game, data)
    if turn is not None:
        found.append(turn)
    for seat, player in enumerate(table.players):
        found.append(player_block(player, game, seat))
        found.append(
            Block(
                f"Territory of {seat_name(game, seat)}",
                tuple(territory_lines(list(player.territory), data)),
                whole=True,
            )
        )
    return found

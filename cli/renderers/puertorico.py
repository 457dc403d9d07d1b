"""Puerto Rico's table for people, from its View message (protos/boardgame/puertorico/v1): the
round, governor and role, the role cards, colonists, ships, trading house, buildings for sale with
their cost, VP and circles (from the title's data, the building table), and each player's board.

Zero values are shown where they matter (0 doubloons, seat 0); the bookkeeping fields of a phase in
progress (picks, passes in a row, what was just built or taken) are left out: the legal actions'
labels already say what they allow.
"""

from __future__ import annotations

from typing import cast

from boardgame.gateway.v1 import gateway_pb2
from boardgame.puertorico.v1 import puertorico_pb2 as pb
from google.protobuf.message import Message

from cli.render import Block, enum_word, plural, seat_name

STEP = pb.Step.DESCRIPTOR
ROLE = pb.Role.DESCRIPTOR
TILE = pb.Tile.DESCRIPTOR
GOOD = pb.Good.DESCRIPTOR
TRIGGER = pb.EndTrigger.DESCRIPTOR


def _info(data: pb.TitleData, number: int) -> pb.BuildingInfo:
    return data.buildings[number - 1]  # the enum numbers the table's rows from 1


def _goods(data: pb.TitleData, goods: pb.GoodCounts) -> str:
    return ", ".join(f"{getattr(goods, name)} {name}" for name in data.good_names)


def table_block(view: pb.View, game: gateway_pb2.GameView, data: pb.TitleData) -> Block:
    """Round, governor, role, the supplies and the end triggers."""
    table = view.table
    lines = [f"round {table.round}, governor: {seat_name(game, table.governor)}"]
    if table.role:
        lines.append(f"role: {enum_word(ROLE, table.role)}, chosen by {seat_name(game, table.role_selector)}")
    else:
        lines.append("role: none yet, roles are being chosen")
    lines.append(f"decision: {enum_word(STEP, table.step)}")
    lines.append(f"colonists: {table.colonist_ship} on the ship, {table.colonist_supply} in the supply")
    lines.append(f"VP chips in the pool: {table.vp_pool}")
    lines.append(
        f"quarries: {table.quarries}; plantations in the face-down stack: {view.plantation_stack_size}"
    )
    face_up = ", ".join(enum_word(TILE, tile) for tile in table.face_up_plantations) or "none"
    lines.append(f"face-up plantations: {face_up}")
    sold = ", ".join(enum_word(GOOD, good) for good in table.trading_house) or "empty"
    lines.append(
        f"trading house: {sold} ({len(table.trading_house)} of {data.trading_house_capacity} spaces)"
    )
    lines.append(f"goods in the supply: {_goods(data, table.goods_supply)}")
    if table.draft_picks:
        lines.append("drafted: " + ", ".join(_info(data, number).name for number in table.draft_picks))
    if table.end_triggers:
        why = ", ".join(enum_word(TRIGGER, trigger) for trigger in table.end_triggers)
        lines.append(f"the game ends after this round ({why})")
    return Block("Table", tuple(lines))


def roles_block(table: pb.Table) -> Block:
    """Each role card: its doubloons, and whether it is taken this round."""
    lines = [
        f"{enum_word(ROLE, card.role)}: {plural(card.doubloons, 'doubloon')}"
        + (", taken" if card.taken else "")
        for card in table.roles
    ]
    return Block("Roles", tuple(lines))


def ships_block(table: pb.Table) -> Block:
    """The cargo ships, smallest first, with their loads."""
    lines = []
    for number, ship in enumerate(table.cargo_ships):
        load = f"{ship.count} {enum_word(GOOD, ship.good)}" if ship.good else "empty"
        lines.append(f"ship {number} ({ship.capacity} holds): {load}")
    return Block("Cargo ships", tuple(lines))


def buildings_block(table: pb.Table, data: pb.TitleData) -> Block:
    """The buildings for sale, cheapest first, each with its cost, VP, circles and copies left."""
    stock = sorted(
        table.buildings_for_sale, key=lambda item: (_info(data, item.building).cost, item.building)
    )
    width = max((len(_info(data, item.building).name) for item in stock), default=0)
    lines = []
    for item in stock:
        info = _info(data, item.building)
        size = ", large" if info.spaces > 1 else ""
        lines.append(
            f"{info.name:<{width}}  cost {info.cost:>2}  {info.vp} VP  {plural(info.circles, 'circle')}{size}"
            f"  {item.count} left"
        )
    return Block("Buildings for sale (cost before quarries and the builder's privilege)", tuple(lines))


def player_block(view: pb.View, game: gateway_pb2.GameView, seat: int, data: pb.TitleData) -> Block:
    """What a player has: doubloons, VP chips, goods, colonists, island and city."""
    player = view.table.players[seat]
    vp = {entry.seat: entry.vp_chips for entry in view.vp_chips}
    lines = [
        f"doubloons: {player.doubloons}",
        f"VP chips: {vp[seat]}" if seat in vp else "VP chips: hidden",
        f"goods: {_goods(data, player.goods)}",
        f"colonists in San Juan: {player.san_juan}",
    ]
    tiles = sum(item.count for item in player.island)
    lines.append(f"island spaces used: {tiles} of {data.island_spaces}")
    for kind in player.island:
        lines.append(f"island: {enum_word(TILE, kind.tile)} x{kind.count}, {kind.occupied} manned")
    if (
        view.HasField("seat")
        and view.seat == seat
        and any(getattr(view.forests, name) for name in data.good_names)
    ):
        lines.append(f"island: forests hiding {_goods(data, view.forests)}")
    spaces = sum(_info(data, item.building).spaces for item in player.city)
    lines.append(f"city spaces used: {spaces} of {data.city_spaces}")
    for item in player.city:
        info = _info(data, item.building)
        lines.append(f"city: {info.name}, {info.vp} VP, colonists {item.colonists} of {info.circles}")
    if player.wharf_used:
        lines.append("wharf used this captain phase")
    if player.small_wharf_used:
        lines.append("small wharf used this captain phase")
    if view.hacienda_tile and view.HasField("seat") and view.seat == seat:
        lines.append(f"drawn with the hacienda, to place: {enum_word(TILE, view.hacienda_tile)}")
    return Block(seat_name(game, seat), tuple(lines))


def blocks(message: Message, game: gateway_pb2.GameView, title_data: Message) -> list[Block]:
    """The whole table."""
    view, data = cast(pb.View, message), cast(pb.TitleData, title_data)
    table = view.table
    return [
        table_block(view, game, data),
        roles_block(table),
        ships_block(table),
        buildings_block(table, data),
        *(player_block(view, game, seat, data) for seat in range(len(table.players))),
    ]

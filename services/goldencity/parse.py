"""The four data files' schemas (§12.2, §12.5-12.7): each file read into records, refusing a missing
or unknown field, a wrong type, a value outside its choices, a repeated id and a reference that does
not resolve. The facts the contents must keep are checked afterwards (`services.goldencity.checks`)."""

from __future__ import annotations

from typing import Final

from services.goldencity.checks import RULE_AREA_NODE_EXISTS, RULE_CARD_AREA_EXISTS
from services.goldencity.reader import REFERENCE, TYPE, Node, unique_names
from services.goldencity.records import (
    Area,
    Board,
    Bonus,
    BonusCard,
    GoodsCard,
    GoodsKind,
    Place,
    Road,
    ScoringCard,
    Source,
)
from services.goldencity.vocabulary import BonusCardKind, BonusType, Compass, Item, Landscape, PlaceKind

HEADER: Final = ("reconstruction", "data_version", "provenance")
BOARD_FIELDS: Final = (*HEADER, "regions", "goods_kinds", "nodes", "roads", "areas")
CARDS_FIELDS: Final = (*HEADER, "cards")
NODE_FIELDS: Final = ("id", "kind", "region", "compass", "on_river", "bonus")
BONUS_FIELDS: Final = ("type", "amount")
SCORING_CARD_FIELDS: Final = ("id", "back", "area", "goods", "house_points", "goods_points", "majority_bonus")
BONUS_CARD_FIELDS: Final = {
    BonusCardKind.PER_HOUSE_IN_AREA: ("id", "kind", "area", "points"),
    BonusCardKind.PER_ITEM: ("id", "kind", "item", "points"),
}
GOODS_CARD_FIELDS: Final = ("id", "goods")
GOODS_ITEM_SEPARATOR: Final = ":"  # `goods_symbol:<kind>` (§12.6)


def source_from(fields: dict[str, Node]) -> Source:
    """The provenance header every file carries (§12.1)."""
    return Source(
        file=fields["data_version"].file,
        data_version=fields["data_version"].text(),
        reconstruction=fields["reconstruction"].flag(),
        provenance=fields["provenance"].text(),
    )


def board_from(root: Node) -> tuple[Source, Board]:
    """The board file (§12.2)."""
    fields = root.fields(BOARD_FIELDS)
    source = source_from(fields)
    region_nodes = fields["regions"].items()
    regions = tuple(node.choice(Landscape) for node in region_nodes)
    unique_names(region_nodes, "the region")
    goods_names = unique_names(fields["goods_kinds"].items(), "the goods kind")
    node_fields = [entry.fields(NODE_FIELDS) for entry in fields["nodes"].items()]
    place_ids = unique_names([node["id"] for node in node_fields], "the node id")
    region_names = {node.text(): index for index, node in enumerate(region_nodes)}
    places = tuple(
        _place(place_id, node, region_names, regions)
        for place_id, node in zip(place_ids.values(), node_fields, strict=True)
    )
    return source, Board(
        regions=regions,
        goods_kinds=tuple(GoodsKind(kind_id, name) for name, kind_id in goods_names.items()),
        places=places,
        roads=_roads(fields["roads"], place_ids),
        areas=_areas(fields["areas"], place_ids),
    )


def _place(
    place_id: int, fields: dict[str, Node], region_names: dict[str, int], regions: tuple[Landscape, ...]
) -> Place:
    bonus = fields["bonus"].fields(BONUS_FIELDS)
    return Place(
        id=place_id,
        name=fields["id"].text(),
        kind=fields["kind"].choice(PlaceKind),
        region=regions[fields["region"].lookup(region_names, "regions")],
        compass=fields["compass"].choice(Compass),
        on_river=fields["on_river"].flag(),
        bonus=Bonus(bonus["type"].choice(BonusType), bonus["amount"].integer()),
    )


def _roads(node: Node, place_ids: dict[str, int]) -> tuple[Road, ...]:
    roads: dict[tuple[int, int], Node] = {}
    for road in node.items():
        ends = road.items()
        if len(ends) != 2:
            raise road.fail(TYPE, f"a road joins 2 places, found {len(ends)}")
        first, second = (end.lookup(place_ids, "node ids") for end in ends)
        if first == second:
            raise road.fail(REFERENCE, f"a road joins 2 different places, found {ends[0].value!r} twice")
        key = (min(first, second), max(first, second))
        if key in roads:
            raise road.fail(REFERENCE, f"the same road as {roads[key].path}")
        roads[key] = road
    return tuple(Road(key) for key in roads)


def _areas(node: Node, place_ids: dict[str, int]) -> tuple[Area, ...]:
    areas = []
    for area_id, (name, members) in enumerate(node.entries(), start=1):
        member_nodes = members.items()
        unique_names(member_nodes, f"in area {name!r} the node")
        places = frozenset(
            member.lookup(place_ids, "node ids", RULE_AREA_NODE_EXISTS) for member in member_nodes
        )
        areas.append(Area(area_id, name, places))
    return tuple(areas)


def _card_entries(root: Node) -> tuple[Source, list[Node], dict[str, int]]:
    fields = root.fields(CARDS_FIELDS)
    cards = fields["cards"].items()
    ids = unique_names([card.field("id") for card in cards], "the card id")
    return source_from(fields), cards, ids


def scoring_cards_from(root: Node, board: Board) -> tuple[Source, tuple[ScoringCard, ...]]:
    """The scoring cards file (§12.5); areas and goods kinds refer to the board."""
    source, cards, ids = _card_entries(root)
    areas, goods = _area_ids(board), _goods_ids(board)
    return source, tuple(_scoring_card(ids, card.fields(SCORING_CARD_FIELDS), areas, goods) for card in cards)


def _scoring_card(
    ids: dict[str, int], fields: dict[str, Node], areas: dict[str, int], goods: dict[str, int]
) -> ScoringCard:
    name = fields["id"].text()
    return ScoringCard(
        id=ids[name],
        name=name,
        back=fields["back"].integer(),
        area=fields["area"].lookup(areas, "board's areas", RULE_CARD_AREA_EXISTS),
        goods=fields["goods"].lookup(goods, "board's goods kinds"),
        house_points=fields["house_points"].integer(),
        goods_points=fields["goods_points"].integer(),
        majority_bonus=fields["majority_bonus"].integer(),
    )


def bonus_cards_from(root: Node, board: Board) -> tuple[Source, tuple[BonusCard, ...]]:
    """The bonus cards file (§12.6); areas and goods kinds refer to the board."""
    source, cards, ids = _card_entries(root)
    areas, goods = _area_ids(board), _goods_ids(board)
    return source, tuple(_bonus_card(ids, card, areas, goods) for card in cards)


def _bonus_card(ids: dict[str, int], card: Node, areas: dict[str, int], goods: dict[str, int]) -> BonusCard:
    kind = card.field("kind").choice(BonusCardKind)
    fields = card.fields(BONUS_CARD_FIELDS[kind])
    name = fields["id"].text()
    points = fields["points"].integer()
    if kind is BonusCardKind.PER_HOUSE_IN_AREA:
        return BonusCard(
            ids[name],
            name,
            kind,
            points,
            area=fields["area"].lookup(areas, "board's areas", RULE_CARD_AREA_EXISTS),
        )
    item_text = fields["item"].text()
    item_name, separator, goods_name = item_text.partition(GOODS_ITEM_SEPARATOR)
    item = Node(card.file, fields["item"].path, item_name).choice(Item)
    if not separator:
        return BonusCard(ids[name], name, kind, points, item=item)
    if item is not Item.GOODS_SYMBOL:
        raise fields["item"].fail(TYPE, f"only goods_symbol takes a goods kind, found {item_text!r}")
    goods_id = Node(card.file, fields["item"].path, goods_name).lookup(goods, "board's goods kinds")
    return BonusCard(ids[name], name, kind, points, item=item, goods=goods_id)


def goods_cards_from(root: Node, board: Board) -> tuple[Source, tuple[GoodsCard, ...]]:
    """The goods cards file (§12.7); goods kinds refer to the board."""
    source, cards, ids = _card_entries(root)
    goods = _goods_ids(board)
    found = []
    for card in cards:
        fields = card.fields(GOODS_CARD_FIELDS)
        name = fields["id"].text()
        kinds = tuple(kind.lookup(goods, "board's goods kinds") for kind in fields["goods"].items())
        found.append(GoodsCard(ids[name], name, kinds))
    return source, tuple(found)


def _area_ids(board: Board) -> dict[str, int]:
    return {area.name: area.id for area in board.areas}


def _goods_ids(board: Board) -> dict[str, int]:
    return {kind.name: kind.id for kind in board.goods_kinds}

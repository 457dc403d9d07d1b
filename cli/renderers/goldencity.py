"""The Golden City's table for people, from its View message (protos/boardgame/goldencity/v1): which
data set is played (and that v0 is a RECONSTRUCTION), the round and its scoring card, the pairs being
bid on, the board region by region (each place with its kind, bonus, houses by colour and roads), the
city quarter by quarter, and each player's holdings.

Names of places, areas, goods and cards come from the data set the view names, as the title's data
(its TitleData) holds it for each set installed where the rules service runs; a set it lacks (that
name at that data_version) is drawn with ids."""

from __future__ import annotations

from typing import cast

from boardgame.gateway.v1 import gateway_pb2
from boardgame.goldencity.v1 import goldencity_pb2 as pb
from google.protobuf.message import Message

from cli.render import Block, enum_word, plural, seat_name

STEP = pb.Step.DESCRIPTOR
LANDSCAPE = pb.Landscape.DESCRIPTOR
RECONSTRUCTION = "RECONSTRUCTION: placeholder board and cards, not the printed game"
NOBODY = -1  # the bid_seat of a free pair
CITY_PARTS = ("city_outer", "city_inner")


def _installed(view: pb.View, data: pb.TitleData) -> pb.InstalledSet | None:
    """The installed set the view's game plays with, if the data has it at that data_version."""
    played = view.table.data_set
    for found in data.data_sets:
        if (found.name, found.data_version) == (played.name, played.data_version):
            return found
    return None


def _cards(cards: list[int]) -> str:
    return ", ".join(enum_word(LANDSCAPE, card) for card in sorted(cards)) or "none"


def data_set_block(view: pb.View) -> Block:
    """The data set played with, flagged when it is a reconstruction."""
    data = view.table.data_set
    lines = [f"{data.name} ({data.data_version})"]
    if data.reconstruction:
        lines.append(RECONSTRUCTION)
    return Block("Data set", tuple(lines))


def _goods_card(found: pb.InstalledSet | None, card: int) -> str:
    return found.goods_cards[card - 1] if found is not None else str(card)


def round_block(view: pb.View, game: gateway_pb2.GameView, found: pb.InstalledSet | None) -> Block:
    """The round, its scoring card, the decision, the supplies."""
    table = view.table
    card = "scored" if not table.scoring_card else str(table.scoring_card)
    if table.scoring_card and found is not None:
        card = found.scoring_cards[table.scoring_card - 1]
    backs = {back: list(view.scoring_backs).count(back) for back in sorted(set(view.scoring_backs))}
    stack = ", ".join(f"{count} x back {back}" for back, count in backs.items()) or "empty"
    goods = ", ".join(_goods_card(found, c) for c in table.goods_display)
    return Block(
        f"Round {table.round}",
        (
            f"start player: {seat_name(game, table.start_player)}",
            f"decision: {enum_word(STEP, table.step)}",
            f"scoring card: {card}",
            f"scoring stack: {stack}",
            f"displacing a bid costs {plural(table.displacement + 1, 'coin')}",
            f"landscape deck: {view.landscape_deck_size} cards",
            f"landscape discard pile: {_cards(list(table.landscape_discard))}",
            f"goods cards face up: {goods or 'none'}; goods deck: {view.goods_deck_size}",
            f"keys in the supply: {table.key_supply}; bonus cards left: {view.bonus_supply_size}",
        ),
    )


def pairs_block(view: pb.View, game: gateway_pb2.GameView) -> Block | None:
    """The landscape pairs and the bid hands on them, during the bidding."""
    if not view.table.pairs:
        return None
    lines = []
    for index, pair in enumerate(view.table.pairs):
        where = "free" if pair.bid_seat == NOBODY else f"bid: {seat_name(game, pair.bid_seat)}"
        lines.append(f"pair {index + 1}: {_cards(list(pair.cards))} ({where})")
    return Block("Landscape pairs", tuple(lines))


def _houses(view: pb.View, game: gateway_pb2.GameView, data: pb.TitleData) -> dict[int, list[str]]:
    """The houses on each place, as colour and owner."""
    found: dict[int, list[str]] = {}
    for seat, player in enumerate(view.table.players):
        colour = data.house_colours[seat]
        for place in player.houses:
            found.setdefault(place, []).append(f"{colour} ({seat_name(game, seat)})")
        for place in player.black_houses:
            found.setdefault(place, []).append(f"{data.black_house_colour} ({seat_name(game, seat)})")
    return found


def board_blocks(
    view: pb.View, game: gateway_pb2.GameView, data: pb.TitleData, found: pb.InstalledSet
) -> list[Block]:
    """One block per region: its places, kinds, bonuses, houses and roads; then the city."""
    houses = _houses(view, game, data)
    names = {place.id: place.name for place in found.places}
    neighbours: dict[int, set[int]] = {place.id: set() for place in found.places}
    for road in found.roads:
        a, b = road.ends
        neighbours[a].add(b)
        neighbours[b].add(a)
    width = max(len(p.name) for p in found.places if p.kind not in CITY_PARTS)
    regions: dict[str, list[str]] = {}
    compass: dict[str, str] = {}
    city: list[str] = []
    for place in found.places:
        built = houses.get(place.id)
        standing = "; ".join(built) if built else "-"
        roads = ", ".join(sorted(names[n] for n in neighbours[place.id]))
        if place.kind in CITY_PARTS:
            part = "outer" if place.kind == "city_outer" else "inner"
            city.append(f"{place.region} {part}: {standing}   roads: {roads}")
            continue
        kind = "coast " if place.kind == "coast" else "inland"
        compass.setdefault(place.region, place.compass)
        regions.setdefault(place.region, []).append(
            f"{place.name:<{width}} {kind} {place.bonus_text:<14} houses: {standing:<30} roads: {roads}"
        )
    blocks = [
        Block(f"Region {region} ({compass[region]})", tuple(lines)) for region, lines in regions.items()
    ]
    blocks.append(Block("The Golden City", tuple(city)))
    return blocks


def player_block(
    view: pb.View, game: gateway_pb2.GameView, seat: int, data: pb.TitleData, found: pb.InstalledSet | None
) -> Block:
    """A player's holdings: what the viewer may see, and the counts of the rest."""
    player = view.table.players[seat]
    shown_hand = len(player.hand.cards) == view.hand_sizes[seat]
    hand = _cards(list(player.hand.cards)) if shown_hand else f"{view.hand_sizes[seat]} cards"
    count = view.bonus_card_counts[seat]
    if len(player.bonus_cards.cards) == count and found is not None:
        bonus = ", ".join(found.bonus_cards[c - 1] for c in player.bonus_cards.cards) or "none"
    else:
        bonus = plural(count, "card")
    goods = ", ".join(_goods_card(found, c) for c in player.goods_cards)
    houses = f"{player.houses_left} {data.house_colours[seat]} left"
    if player.black_houses or player.black_houses_left:
        houses += f", {player.black_houses_left} {data.black_house_colour} left"
    lines = [
        f"letters: {player.letters}"
        + (f" + bonus cards {player.bonus_points}" if player.bonus_points else ""),
        f"coins: {player.coins}; keys: {player.keys}",
        f"landscape cards: {hand}",
        f"goods cards: {goods or 'none'}",
        f"bonus cards: {bonus}",
        f"houses: {houses}",
    ]
    return Block(seat_name(game, seat), tuple(lines))


def blocks(message: Message, game: gateway_pb2.GameView, title_data: Message) -> list[Block]:
    """The whole table."""
    view, data = cast(pb.View, message), cast(pb.TitleData, title_data)
    found = _installed(view, data)
    result = [data_set_block(view), round_block(view, game, found)]
    pairs = pairs_block(view, game)
    if pairs is not None:
        result.append(pairs)
    if found is not None:
        result += board_blocks(view, game, data, found)
    if view.bonus_supply and found is not None:
        result.append(
            Block(
                "Bonus cards to choose from",
                tuple(found.bonus_cards[c - 1] for c in view.bonus_supply),
            )
        )
    result += [player_block(view, game, seat, data, found) for seat in range(len(view.table.players))]
    return result

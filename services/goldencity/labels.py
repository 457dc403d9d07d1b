"""Readable labels for actions and texts for events: what a client shows its players, each a message
of the title's catalogs (locale/<locale>.po). The game's terms are catalog terms
(`goldencity.landscape.meadow`); places, areas, goods kinds and cards are named as the data set names
them (`meadow_c1`, `north`, `goods_1`, `sc01`): those names are data, given as they are."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from enum import IntEnum
from pathlib import Path

from boardgame.rules.v1 import rules_pb2

from i18n.messages import DEFAULT_LOCALE, Domain, Message, Term, Value, argument, text
from services.goldencity import actions as act
from services.goldencity import events as ev
from services.goldencity.bidding import price
from services.goldencity.records import BonusCard
from services.goldencity.rules import NOBODY
from services.goldencity.state import State
from services.goldencity.tables import Tables
from services.goldencity.vocabulary import BonusCardKind, BonusType, Item, Landscape, PlaceKind, file_name

CATALOGS = Domain("goldencity", Path(__file__).parent / "locale")
"""The Golden City's catalogs: every label, event text and score line is one of their messages."""
_ = CATALOGS.message
G = "goldencity."


def terms(kind: str, members: type[IntEnum]) -> dict[int, Term]:
    """The term of each member of an enum, by value: `goldencity.<kind>.<its name in lower case>`."""
    return {int(member): Term(f"{G}{kind}.{file_name(member)}") for member in members}


LANDSCAPES = terms("landscape", Landscape)
PLACE_KINDS = terms("place_kind", PlaceKind)
BONUSES = terms("bonus", BonusType)
ITEMS = terms("item", Item)
HOUSES = {False: Term(G + "house.coloured.a"), True: Term(G + "house.black.a")}
"""A house with its article ("a house"), by whether it is black."""
COUNTED_BONUSES = {int(BonusType.COINS): G + "count.coins", int(BonusType.LETTERS): G + "count.letters"}
"""The place bonuses that come with an amount, and the message of that amount."""
BONUS_PLACES = (PlaceKind.COAST, PlaceKind.INLAND)
"""The kinds of place that show a bonus."""
NO_CARDS = Term(G + "no_cards")


def joined(items: Sequence[Value], template: str = G + "list") -> Value:
    """A list of one item or more as nested Texts of `template` ("{head}, {tail}"); one item is
    itself. Built in place: each level holds the next without copying it."""
    if len(items) == 1:
        return items[0]
    root = node = rules_pb2.Text()
    for head in items[:-2]:
        node.template = template
        node.arguments.append(argument("head", head))
        tail = node.arguments.add(name="tail")
        node = tail.text
    node.template = template
    node.arguments.extend((argument("head", items[-2]), argument("tail", items[-1])))
    return root


@functools.lru_cache(maxsize=1024)
def cards(landscapes: tuple[int, ...]) -> Value:
    """Landscape cards: "Meadow + Forest", "no cards" (a Text to read, not to change)."""
    if not landscapes:
        return NO_CARDS
    return joined([LANDSCAPES[card] for card in landscapes], G + "list.plus")


def bonus(kind: int, amount: int) -> Value:
    """A place bonus: "1 coin", "landscape card", "no bonus"."""
    counted = COUNTED_BONUSES.get(kind)
    if counted is not None:
        return text(counted, amount=amount)
    return BONUSES[kind]


def english(value: Value) -> Message:
    """A term or Text as a Message: its English, carrying it."""
    if isinstance(value, Term):
        return _(value.id)
    assert isinstance(value, rules_pb2.Text)
    return Message(CATALOGS.catalogs[DEFAULT_LOCALE].render(value), value)


def place(tables: Tables, where: int) -> rules_pb2.Text:
    """A place with its kind and bonus: "meadow_c1 (coast, 1 coin)"."""
    kind = tables.kind[where]
    name = tables.place_names[where]
    if kind in BONUS_PLACES:
        return text(
            G + "place_text.bonus", place=name, kind=PLACE_KINDS[kind], bonus=bonus(*tables.bonus[where])
        )
    return text(G + "place_text", place=name, kind=PLACE_KINDS[kind])


def goods_card(tables: Tables, card: int) -> rules_pb2.Text:
    """A goods card with its goods: "g3 (goods_3 + goods_4)"."""
    kinds = tables.data.board.goods_kinds
    goods: list[Value] = [kinds[k - 1].name for k in tables.goods_symbols[card]]
    name = tables.data.goods_cards[card - 1].name
    return text(G + "card_text.goods", card=name, goods=joined(goods, G + "list.plus"))


def bonus_card(tables: Tables, card: int) -> rules_pb2.Text:
    """A bonus card with what it pays: "bc7 (2 per key)"."""
    record: BonusCard | None = tables.bonus_cards[card]
    assert record is not None
    board = tables.data.board
    if record.kind == BonusCardKind.PER_HOUSE_IN_AREA:
        assert record.area is not None
        area = board.areas[record.area - 1].name
        return text(G + "card_text.bonus.area", card=record.name, points=record.points, area=area)
    assert record.item is not None
    if record.goods is not None:
        goods = board.goods_kinds[record.goods - 1].name
        return text(
            G + "card_text.bonus.goods",
            card=record.name,
            points=record.points,
            item=ITEMS[record.item],
            goods=goods,
        )
    return text(G + "card_text.bonus.item", card=record.name, points=record.points, item=ITEMS[record.item])


def scoring_card(tables: Tables, card: int) -> Message:
    """A scoring card: "sc05 (north x2, goods_2 x2)", carrying its Text."""
    record = tables.scoring_cards[card]
    assert record is not None
    board = tables.data.board
    return _(
        G + "card_text.scoring",
        card=record.name,
        area=board.areas[record.area - 1].name,
        house_points=record.house_points,
        goods=board.goods_kinds[record.goods - 1].name,
        goods_points=record.goods_points,
    )


# The labels worded so far (at most LABEL_MEMO; the legal ones are far fewer): an action by its data
# set and itself, a bid by its pair, the pair's cards, the bidder there and the price of displacing it.
REMEMBERED: dict[tuple[object, ...], str] = {}
LABEL_MEMO = 4096


def label(state: State, action: act.Action) -> str:
    """A legal action in words: a Message of the catalogs."""
    if action.kind == act.BID:
        return _bid(state, action.a)
    key = (state.tables, action)
    words = REMEMBERED.get(key)
    if words is None:
        if len(REMEMBERED) >= LABEL_MEMO:
            REMEMBERED.clear()
        words = REMEMBERED[key] = _worded(state.tables, action)
    return words


def _bid(state: State, index: int) -> str:
    pair = state.pairs[index]
    seat = pair.bid_seat
    landscapes = tuple(pair.cards)
    paid = 0 if seat == NOBODY else price(state)
    key = (index, landscapes, seat, paid)
    words = REMEMBERED.get(key)
    if words is None:
        if len(REMEMBERED) >= LABEL_MEMO:
            REMEMBERED.clear()
        if seat == NOBODY:
            words = _("goldencity.action.bid", pair=index + 1, cards=cards(landscapes))
        else:
            words = _(
                "goldencity.action.bid.displacing",
                pair=index + 1,
                cards=cards(landscapes),
                seat=seat,
                price=paid,
            )
        REMEMBERED[key] = words
    return words


def _worded(tables: Tables, action: act.Action) -> str:
    """The label of an action other than a bid."""
    kind = action.kind
    a = "goldencity.action."
    if kind == act.BUILD:
        return _(a + "build", house=HOUSES[bool(action.b)], place=place(tables, action.a))
    if kind == act.END_BUILDING:
        return _(a + "end_building")
    if kind == act.PAY_CARD:
        return _(a + "pay_card", landscape=LANDSCAPES[action.a])
    if kind == act.PAY_PAIR:
        return _(a + "pay_pair", cards=cards((action.a, action.b)))
    if kind == act.CHOOSE_GOODS_CARD:
        return _(a + "choose_goods_card", card=goods_card(tables, action.a))
    if kind == act.CHOOSE_BONUS_CARD:
        return _(a + "choose_bonus_card", card=bonus_card(tables, action.a))
    return _(a + "discard", landscape=LANDSCAPES[action.a])


@functools.lru_cache(maxsize=4096)
def _seat_points(seat: int, points: int) -> rules_pb2.Text:
    """A seat's points in a list of them: "seat 1 12" (a Text to read, not to change)."""
    return text(G + "event.seat_points", seat=seat, points=points)


# The event texts worded so far, by the event's kind and value (at most LABEL_MEMO).
SAID: dict[tuple[type, tuple], str] = {}  # type: ignore[type-arg]


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """An event in words (cards by number: the text has no data set at hand): a Message of the
    catalogs."""
    key = (type(event), event)
    try:
        words = SAID.get(key)
    except TypeError:  # an event holding a list: worded each time
        return _said(event)
    if words is None:
        if len(SAID) >= LABEL_MEMO:
            SAID.clear()
        words = SAID[key] = _said(event)
    return words


def _said(event: tuple) -> str:  # type: ignore[type-arg]
    e = G + "event."
    if isinstance(event, ev.GameStarted):
        started = "game_started.reconstruction" if event.reconstruction else "game_started"
        return _(e + started, data_set=event.data_set, seat=event.start_player)
    if isinstance(event, ev.RoundStarted):
        return _(
            e + "round_started", round=event.round, seat=event.start_player, card=event.scoring_card_name
        )
    if isinstance(event, ev.PairsLaidOut):
        pairs = joined([cards(tuple(pair)) for pair in event.pairs], G + "list.semicolon")
        return _(e + "pairs_laid_out", pairs=pairs)
    if isinstance(event, ev.DeckReshuffled):
        return _(e + "deck_reshuffled", cards=event.cards)
    if isinstance(event, ev.BidPlaced):
        if event.displaced == NOBODY:
            return _(e + "bid_placed", seat=event.seat, pair=event.pair + 1)
        return _(
            e + "bid_placed.displacing",
            seat=event.seat,
            pair=event.pair + 1,
            displaced=event.displaced,
            price=event.paid,
        )
    if isinstance(event, ev.PairTaken):
        return _(e + "pair_taken", seat=event.seat, cards=cards(tuple(event.cards)))
    if isinstance(event, ev.HouseBuilt):
        return _(e + "house_built", seat=event.seat, house=HOUSES[event.black], place=event.place_name)
    if isinstance(event, ev.CardsPaid):
        return _(e + "cards_paid", seat=event.seat, cards=cards(tuple(event.cards)))
    if isinstance(event, ev.KeySpent):
        return _(e + "key_spent", seat=event.seat)
    if isinstance(event, ev.CoinsGained):
        return _(e + "coins_gained", seat=event.seat, amount=event.amount)
    if isinstance(event, ev.LettersGained):
        return _(e + "letters_gained", seat=event.seat, amount=event.amount)
    if isinstance(event, ev.KeyTaken):
        return _(e + "key_taken", seat=event.seat)
    if isinstance(event, ev.LandscapeDrawn):
        return _(e + "landscape_drawn", seat=event.seat, landscape=LANDSCAPES[event.card])
    if isinstance(event, ev.GoodsCardTaken):
        return _(e + "goods_card_taken", seat=event.seat, card=event.card)
    if isinstance(event, ev.BonusCardTaken):
        return _(e + "bonus_card_taken", seat=event.seat, card=event.card)
    if isinstance(event, ev.BonusLost):
        return _(e + "bonus_lost", seat=event.seat, bonus=bonus(event.bonus, 1))
    if isinstance(event, ev.TurnEnded):
        return _(e + "turn_ended", seat=event.seat)
    if isinstance(event, ev.CardScored):
        lines: list[Value] = [
            _seat_points(s.seat, s.house_points + s.goods_points + s.house_majority + s.goods_majority)
            for s in event.seats
        ]
        return _(e + "card_scored", card=event.card, lines=joined(lines))
    if isinstance(event, ev.CardDiscarded):
        return _(e + "card_discarded", seat=event.seat, landscape=LANDSCAPES[event.card])
    assert isinstance(event, ev.GameEnded)
    totals = joined([_seat_points(s.seat, s.total) for s in event.seats])
    winners = joined([text(e + "winner", seat=w) for w in event.winners])
    return _(e + "game_ended", totals=totals, winners=winners)

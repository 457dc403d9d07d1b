"""Readable labels for actions and texts for events: what a client shows its players. Places and cards
are named as the data set names them (`meadow_c1`, `sc01`, `goods_1`)."""

from __future__ import annotations

from services.common.helpers import plural
from services.goldencity import actions as act
from services.goldencity import events as ev
from services.goldencity.bidding import price
from services.goldencity.records import BonusCard
from services.goldencity.rules import NOBODY
from services.goldencity.state import State
from services.goldencity.tables import Tables
from services.goldencity.vocabulary import BonusCardKind, BonusType, Item, Landscape, PlaceKind, file_name


def landscape(card: int) -> str:
    """A landscape's name: "Meadow"."""
    return Landscape(card).name.capitalize()


def cards_text(cards: tuple[int, ...] | list[int]) -> str:
    """Cards in words: "Meadow + Forest"."""
    return " + ".join(landscape(c) for c in cards) or "no cards"


def bonus_text(kind: int, amount: int) -> str:
    """A place bonus in words."""
    if kind == BonusType.COINS:
        return plural(amount, "coin")
    if kind == BonusType.LETTERS:
        return plural(amount, "letter")
    if kind == BonusType.NONE:
        return "no bonus"
    return file_name(BonusType(kind)).replace("_", " ")


def place_text(tables: Tables, place: int) -> str:
    """A place with its kind and bonus: "meadow_c1 (coast, 1 coin)"."""
    kind = PlaceKind(tables.kind[place])
    what = file_name(kind).replace("_", " ")
    if kind in (PlaceKind.COAST, PlaceKind.INLAND):
        what += ", " + bonus_text(*tables.bonus[place])
    return f"{tables.place_names[place]} ({what})"


def goods_card_text(tables: Tables, card: int) -> str:
    """A goods card with its goods: "g3 (goods_3 + goods_4)"."""
    kinds = tables.data.board.goods_kinds
    names = " + ".join(kinds[k - 1].name for k in tables.goods_symbols[card])
    return f"{tables.data.goods_cards[card - 1].name} ({names})"


def bonus_card_text(tables: Tables, card: int) -> str:
    """A bonus card with what it pays: "bc7 (2 per key)"."""
    record: BonusCard | None = tables.bonus_cards[card]
    assert record is not None
    if record.kind == BonusCardKind.PER_HOUSE_IN_AREA:
        assert record.area is not None
        what = f"per own house in {tables.data.board.areas[record.area - 1].name}"
    else:
        assert record.item is not None
        item = file_name(Item(record.item)).replace("_", " ")
        if record.goods is not None:
            item += f" of {tables.data.board.goods_kinds[record.goods - 1].name}"
        what = f"per {item}"
    return f"{record.name} ({record.points} {what})"


def scoring_card_text(tables: Tables, card: int) -> str:
    """A scoring card: "sc05 (north x2, goods_2 x2)"."""
    record = tables.scoring_cards[card]
    assert record is not None
    area = tables.data.board.areas[record.area - 1].name
    goods = tables.data.board.goods_kinds[record.goods - 1].name
    return f"{record.name} ({area} x{record.house_points}, {goods} x{record.goods_points})"


def _bid(state: State, action: act.Action) -> str:
    pair = state.pairs[action.a]
    what = f"Bid on pair {action.a + 1} ({cards_text(pair.cards)})"
    if pair.bid_seat == NOBODY:
        return what
    return f"{what}, displacing seat {pair.bid_seat} for {plural(price(state), 'coin')}"


def label(state: State, action: act.Action) -> str:
    """A legal action in words."""
    kind = action.kind
    tables = state.tables
    if kind == act.BID:
        return _bid(state, action)
    if kind == act.BUILD:
        house = "a black house" if action.b else "a house"
        return f"Build {house} on {place_text(tables, action.a)}"
    if kind == act.END_BUILDING:
        return "Build no more this turn"
    if kind == act.PAY_CARD:
        return f"Pay 1 {landscape(action.a)}"
    if kind == act.PAY_PAIR:
        return f"Pay {cards_text([action.a, action.b])} as a joker"
    if kind == act.CHOOSE_GOODS_CARD:
        return f"Take goods card {goods_card_text(tables, action.a)}"
    if kind == act.CHOOSE_BONUS_CARD:
        return f"Take bonus card {bonus_card_text(tables, action.a)}"
    return f"Discard 1 {landscape(action.a)}"


def _scored(e: ev.CardScored) -> str:
    lines = ", ".join(
        f"seat {s.seat} {s.house_points + s.goods_points + s.house_majority + s.goods_majority}"
        for s in e.seats
    )
    return f"Scoring card {e.card} scored: {lines}"


def event_text(event: tuple) -> str:  # type: ignore[type-arg]
    """An event in words (cards by number: the text has no data set at hand)."""
    if isinstance(event, ev.GameStarted):
        flag = " (a RECONSTRUCTION, not the printed game)" if event.reconstruction else ""
        return f"The game starts with data set {event.data_set}{flag}; seat {event.start_player} starts"
    if isinstance(event, ev.RoundStarted):
        return (
            f"Round {event.round}: seat {event.start_player} starts;"
            f" scoring card {event.scoring_card_name} revealed"
        )
    if isinstance(event, ev.PairsLaidOut):
        return "Pairs laid out: " + "; ".join(cards_text(p) for p in event.pairs)
    if isinstance(event, ev.DeckReshuffled):
        return f"The discard pile is shuffled into a new deck of {event.cards}"
    if isinstance(event, ev.BidPlaced):
        text = f"Seat {event.seat} bids on pair {event.pair + 1}"
        if event.displaced != NOBODY:
            text += f", displacing seat {event.displaced} for {plural(event.paid, 'coin')}"
        return text
    if isinstance(event, ev.PairTaken):
        return f"Seat {event.seat} takes {cards_text(event.cards)}"
    if isinstance(event, ev.HouseBuilt):
        house = "a black house" if event.black else "a house"
        return f"Seat {event.seat} builds {house} on {event.place_name}"
    if isinstance(event, ev.CardsPaid):
        return f"Seat {event.seat} pays {cards_text(event.cards)}"
    if isinstance(event, ev.KeySpent):
        return f"Seat {event.seat} spends a key"
    if isinstance(event, ev.CoinsGained):
        return f"Seat {event.seat} gains {plural(event.amount, 'coin')}"
    if isinstance(event, ev.LettersGained):
        return f"Seat {event.seat} gains {plural(event.amount, 'letter')}"
    if isinstance(event, ev.KeyTaken):
        return f"Seat {event.seat} takes a key"
    if isinstance(event, ev.LandscapeDrawn):
        return f"Seat {event.seat} draws {landscape(event.card)}"
    if isinstance(event, ev.GoodsCardTaken):
        return f"Seat {event.seat} takes goods card {event.card}"
    if isinstance(event, ev.BonusCardTaken):
        return f"Seat {event.seat} takes bonus card {event.card}"
    if isinstance(event, ev.BonusLost):
        return f"Seat {event.seat} gets no {bonus_text(event.bonus, 1)}: the supply is empty"
    if isinstance(event, ev.TurnEnded):
        return f"Seat {event.seat} ends their turn"
    if isinstance(event, ev.CardScored):
        return _scored(event)
    if isinstance(event, ev.CardDiscarded):
        return f"Seat {event.seat} discards {landscape(event.card)}"
    assert isinstance(event, ev.GameEnded)
    totals = ", ".join(f"seat {s.seat} {s.total}" for s in event.seats)
    return f"The game ends: {totals}; winner(s): {', '.join(map(str, event.winners))}"

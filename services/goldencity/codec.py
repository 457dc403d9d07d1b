"""Conversion between the native state, actions, views and events and the boardgame.goldencity.v1
messages. States convert field by field (`services.goldencity.convert`) and are checked on the way in
(`services.goldencity.consistency`); actions, views and events are the game's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardgame.goldencity.v1 import goldencity_pb2 as pb

from services.common.errors import MalformedRequest
from services.common.helpers import check_state, rng_from_proto, rng_to_proto
from services.goldencity import actions as act
from services.goldencity import consistency, convert, dataset, tables
from services.goldencity import events as ev
from services.goldencity.engine import check_seat
from services.goldencity.labels import event_text
from services.goldencity.payment import LANDSCAPES
from services.goldencity.reader import DataError
from services.goldencity.rules import (
    BONUS_CARDS_PUBLIC,
    DEFAULT_BONUS_CARD_TAKE,
    DEFAULT_INNER_COST,
    DEFAULT_JOKER,
    DEFAULT_REBID,
    PUBLIC_HANDS,
    RANDOM_START_SEAT,
)
from services.goldencity.state import Config as NativeConfig
from services.goldencity.state import State

TABLE = pb.Table.DESCRIPTOR
# Decoding a state's encoding gives back an equal state (the conformance suite checks it).
EXACT_STATE_ROUND_TRIP = True


def _enum(value: int, enum: type, default: int, what: str) -> int:
    if value == 0:
        return default
    if value not in enum.values():  # type: ignore[attr-defined]
        raise MalformedRequest(f"config: {what} {value} is not one of its values", option=what)
    return value


def config_from_proto(message: pb.Config) -> NativeConfig:
    """The native config, every unset option at its default and the data set resolved; a data set
    that is not installed or does not load is refused."""
    name = message.data_set or dataset.configured_name()
    if not dataset.SET_NAME.fullmatch(name):  # a name, never a path on the server
        raise MalformedRequest(f"config: data_set {name!r} is not a data set's name", data_set=name)
    try:
        tables.named(name)
    except DataError as error:
        raise MalformedRequest(f"config: data_set {name!r} cannot be used: {error}", data_set=name) from None
    start_seat = message.start_seat if message.HasField("start_seat") else RANDOM_START_SEAT
    if start_seat < RANDOM_START_SEAT:
        raise MalformedRequest(f"config: start_seat {start_seat} is not a seat", start_seat=str(start_seat))
    return NativeConfig(
        data_set=name,
        rebid=_enum(message.rebid, pb.Rebid, DEFAULT_REBID, "rebid"),
        bonus_card_take=_enum(
            message.bonus_card_take, pb.BonusCardTake, DEFAULT_BONUS_CARD_TAKE, "bonus_card_take"
        ),
        bonus_cards_public=(
            message.bonus_cards_public if message.HasField("bonus_cards_public") else BONUS_CARDS_PUBLIC
        ),
        inner_cost=_enum(message.inner_cost, pb.InnerCost, DEFAULT_INNER_COST, "inner_cost"),
        joker=_enum(message.joker, pb.Joker, DEFAULT_JOKER, "joker"),
        public_hands=message.public_hands if message.HasField("public_hands") else PUBLIC_HANDS,
        start_seat=start_seat,
    )


# State.


def _table_to_proto(state: State) -> pb.Table:
    return pb.Table(**convert.to_kwargs(state, TABLE))


def state_to_proto(state: State) -> pb.State:
    """The State message, hidden parts included."""
    return pb.State(
        table=_table_to_proto(state),
        rng=rng_to_proto(state.rng),
        scoring_stack=state.scoring_stack,
        landscape_deck=state.landscape_deck,
        goods_deck=state.goods_deck,
        bonus_supply=state.bonus_supply,
    )


def state_from_proto(message: pb.State) -> State:
    """The native state of a State message; MalformedRequest if it is not a consistent state."""
    found = convert.values(message.table)
    config = found["config"]
    check_state(bool(dataset.SET_NAME.fullmatch(config.data_set)), "config.data_set")
    try:
        lookup = tables.named(config.data_set)
    except DataError as error:
        raise MalformedRequest(f"invalid state: data set {config.data_set!r}: {error}") from None
    state = State.__new__(State)
    for name, value in found.items():
        setattr(state, name, value)
    state.n = len(state.players)
    state.tables = lookup
    state.rng = rng_from_proto(message.rng)
    state.scoring_stack = list(message.scoring_stack)
    state.landscape_deck = list(message.landscape_deck)
    state.goods_deck = list(message.goods_deck)
    state.bonus_supply = list(message.bonus_supply)
    state.legal = None
    consistency.check(state)
    return state


# Actions.


def _positive(value: int, what: str) -> int:
    if value < 1:
        raise MalformedRequest(f"action: {what} {value} is not an id", field=what)
    return value


def _landscape(value: int, what: str) -> int:
    if value not in LANDSCAPES:
        raise MalformedRequest(f"action: {what} {value} is not a landscape", field=what)
    return value


def action_from_proto(message: pb.Action) -> act.Action:
    """The native action; MalformedRequest if no move is set or a value is out of range."""
    move = message.WhichOneof("move")
    if move is None:
        raise MalformedRequest("the action sets no move")
    if move == "bid":
        if message.bid.pair < 0:
            raise MalformedRequest(f"action: pair {message.bid.pair} is not a pair", field="pair")
        return act.Action(act.BID, message.bid.pair)
    if move == "build":
        return act.Action(act.BUILD, _positive(message.build.place, "place"), int(message.build.black))
    if move == "end_building":
        return act.END_BUILDING_ACTION
    if move == "pay_card":
        return act.Action(act.PAY_CARD, _landscape(message.pay_card.landscape, "landscape"))
    if move == "pay_pair":
        first = _landscape(message.pay_pair.first, "first")
        second = _landscape(message.pay_pair.second, "second")
        if first > second:
            raise MalformedRequest("action: a joker pair's first card sorts after its second", field="first")
        return act.Action(act.PAY_PAIR, first, second)
    if move == "choose_goods_card":
        return act.Action(act.CHOOSE_GOODS_CARD, _positive(message.choose_goods_card.card, "card"))
    if move == "choose_bonus_card":
        return act.Action(act.CHOOSE_BONUS_CARD, _positive(message.choose_bonus_card.card, "card"))
    return act.Action(act.DISCARD, _landscape(message.discard.landscape, "landscape"))


def action_to_proto(action: act.Action) -> pb.Action:
    """The Action message."""
    kind, a, b = action
    if kind == act.BID:
        return pb.Action(bid=pb.Bid(pair=a))
    if kind == act.BUILD:
        return pb.Action(build=pb.Build(place=a, black=bool(b)))
    if kind == act.END_BUILDING:
        return pb.Action(end_building=pb.EndBuilding())
    if kind == act.PAY_CARD:
        return pb.Action(pay_card=pb.PayCard(landscape=a))
    if kind == act.PAY_PAIR:
        return pb.Action(pay_pair=pb.PayPair(first=a, second=b))
    if kind == act.CHOOSE_GOODS_CARD:
        return pb.Action(choose_goods_card=pb.ChooseGoodsCard(card=a))
    if kind == act.CHOOSE_BONUS_CARD:
        return pb.Action(choose_bonus_card=pb.ChooseBonusCard(card=a))
    return pb.Action(discard=pb.Discard(landscape=a))


# Views.


def hand_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) sees `seat`'s landscape hand (OP-20)."""
    return state.config.public_hands or viewer == seat


def bonus_cards_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` sees `seat`'s bonus cards (OP-3; everyone's once the game is over)."""
    return state.config.bonus_cards_public or viewer == seat or state.terminal


def view_to_proto(state: State, seat: int | None) -> pb.View:
    """What `seat` may see: the table without other seats' secrets, and the public counts."""
    if seat is not None:
        check_seat(state, seat)
    return _view(state, seat, _table_to_proto(state))


def views_to_proto(state: State, state_message: pb.State | None = None) -> list[pb.View]:
    """Every seat's view, then the spectator's, sharing one conversion of the table."""
    table = state_message.table if state_message is not None else _table_to_proto(state)
    return [_view(state, seat, table) for seat in [*range(state.n), None]]


def _view(state: State, seat: int | None, table: pb.Table) -> pb.View:
    view = pb.View(
        table=table,
        hand_sizes=[len(p.hand.cards) for p in state.players],
        bonus_card_counts=[len(p.bonus_cards.cards) for p in state.players],
        landscape_deck_size=len(state.landscape_deck),
        goods_deck_size=len(state.goods_deck),
        scoring_backs=[state.tables.scoring_cards[c].back for c in state.scoring_stack],  # type: ignore[union-attr]
        bonus_supply_size=len(state.bonus_supply),
    )
    for s, player in enumerate(view.table.players):
        if not hand_visible(state, seat, s):
            del player.hand.cards[:]
        if not bonus_cards_visible(state, seat, s):
            del player.bonus_cards.cards[:]
    if seat is not None:
        view.seat = seat
        if seat == state.bonus_chooser:
            view.bonus_supply.extend(state.bonus_supply)
    return view


# Events.


def event_to_proto(event: tuple) -> tuple[pb.Event, str, tuple[int, ...]]:  # type: ignore[type-arg]
    """The Event message, its text, and who may see it: everyone, except a landscape card drawn or a
    bonus card taken while those are secret, which only their seat sees."""
    visible_to: tuple[int, ...] = ()
    if isinstance(event, ev.LandscapeDrawn | ev.BonusCardTaken) and not event.public:
        visible_to = (event.seat,)
    return _EVENT_BUILDERS[type(event)](event), event_text(event), visible_to


def _pairs(e: ev.PairsLaidOut) -> pb.Event:
    return pb.Event(pairs_laid_out=pb.PairsLaidOut(pairs=[pb.Cards(cards=list(p)) for p in e.pairs]))


def _scored(e: ev.CardScored) -> pb.Event:
    return pb.Event(
        card_scored=pb.CardScored(card=e.card, seats=[pb.SeatScored(**s._asdict()) for s in e.seats])
    )


def _ended(e: ev.GameEnded) -> pb.Event:
    seats = [pb.SeatFinal(**s._asdict()) for s in e.seats]
    return pb.Event(game_ended=pb.GameEnded(seats=seats, winners=e.winners))


def _plain(field: str, message: Any) -> Callable[[Any], pb.Event]:
    """An event whose fields are its message's fields (the `public` flag aside)."""
    names = [f.name for f in message.DESCRIPTOR.fields]

    def build(e: tuple) -> pb.Event:  # type: ignore[type-arg]
        return pb.Event(**{field: message(**{name: getattr(e, name) for name in names})})

    return build


_EVENT_BUILDERS: dict[type, Callable[[Any], pb.Event]] = {
    ev.GameStarted: _plain("game_started", pb.GameStarted),
    ev.RoundStarted: _plain("round_started", pb.RoundStarted),
    ev.PairsLaidOut: _pairs,
    ev.DeckReshuffled: _plain("deck_reshuffled", pb.DeckReshuffled),
    ev.BidPlaced: _plain("bid_placed", pb.BidPlaced),
    ev.PairTaken: _plain("pair_taken", pb.PairTaken),
    ev.HouseBuilt: _plain("house_built", pb.HouseBuilt),
    ev.CardsPaid: _plain("cards_paid", pb.CardsPaid),
    ev.KeySpent: _plain("key_spent", pb.KeySpent),
    ev.CoinsGained: _plain("coins_gained", pb.CoinsGained),
    ev.LettersGained: _plain("letters_gained", pb.LettersGained),
    ev.KeyTaken: _plain("key_taken", pb.KeyTaken),
    ev.LandscapeDrawn: _plain("landscape_drawn", pb.LandscapeDrawn),
    ev.GoodsCardTaken: _plain("goods_card_taken", pb.GoodsCardTaken),
    ev.BonusCardTaken: _plain("bonus_card_taken", pb.BonusCardTaken),
    ev.BonusLost: _plain("bonus_lost", pb.BonusLost),
    ev.TurnEnded: _plain("turn_ended", pb.TurnEnded),
    ev.CardScored: _scored,
    ev.CardDiscarded: _plain("card_discarded", pb.CardDiscarded),
    ev.GameEnded: _ended,
}

"""The Golden City's own part of the conversion to boardgame.goldencity.v1 (services.common.convert
does the rest): the options' defaults and the data set they name, the actions' ranges, who sees
which hand and bonus cards (§10), and the events seen by one seat only.

Native attributes carry the protobuf field names and every id and enum is its protobuf number, so
the State's Table, Players, Pairs and the events (NamedTuples named as their messages) convert
without renames. The consistency of a decoded state is `validate.validate`.
"""

from __future__ import annotations

from typing import Any

from boardgame.goldencity.v1 import goldencity_pb2 as pb
from boardgame.rules.v1 import rules_pb2

from services.common.codec import Codec
from services.common.convert import Converter, KindTuples, Shape, leading_field, varint
from services.common.errors import MalformedRequest, echoed
from services.common.helpers import check_state
from services.common.rng import Rng
from services.common.wire import body, field_spans
from services.goldencity import actions as act
from services.goldencity import dataset, tables
from services.goldencity import events as ev
from services.goldencity.labels import event_text
from services.goldencity.payment import LANDSCAPES
from services.goldencity.reader import DataError
from services.goldencity.rules import RANDOM_START_SEAT
from services.goldencity.state import BonusCards, Cards, Config, DataSet, Pair, Player, State
from services.goldencity.validate import validate
from services.goldencity.visibility import bonus_cards_visible, hand_visible

DEFAULT_CONFIG = Config()  # the options' defaults (rules.py)
PLAYERS = pb.Table.DESCRIPTOR.fields_by_name["players"].number
PLAYER_KEY = varint(PLAYERS << 3 | 2)  # a length-delimited field


# Config: a request's unset options take their defaults; a state holds every option resolved.


def _tables(name: str, what: str) -> tables.Tables:
    if not dataset.SET_NAME.fullmatch(name):  # a name, never a path on the server
        refusal = f"{what}: data_set {echoed(name)} is not a data set's name"
        raise MalformedRequest(refusal, data_set=name[:64])
    try:
        return tables.named(name)
    except DataError as error:
        raise MalformedRequest(f"{what}: data_set {name!r} cannot be used: {error}", data_set=name) from None


def config_from_proto(message: pb.Config) -> Config:
    """The native config, every unset option at its default and the data set resolved; a data set
    that is not installed or does not load is refused."""
    raw = _read_config(message)  # refused: enum values the .proto does not declare
    name = raw.data_set or dataset.configured_name()
    _tables(name, "config")
    start_seat = RANDOM_START_SEAT if raw.start_seat is None else raw.start_seat
    if start_seat < RANDOM_START_SEAT:
        raise MalformedRequest(f"config: start_seat {start_seat} is not a seat", start_seat=str(start_seat))
    return Config(
        name,
        raw.rebid or DEFAULT_CONFIG.rebid,
        raw.bonus_card_take or DEFAULT_CONFIG.bonus_card_take,
        DEFAULT_CONFIG.bonus_cards_public if raw.bonus_cards_public is None else raw.bonus_cards_public,
        raw.inner_cost or DEFAULT_CONFIG.inner_cost,
        raw.joker or DEFAULT_CONFIG.joker,
        DEFAULT_CONFIG.public_hands if raw.public_hands is None else raw.public_hands,
        start_seat,
    )


# State.


def _state_config(*options: Any) -> Config:
    """A state's options, every one set (a Config holds only its options' types)."""
    check_state(None not in options, "config: unset")
    return Config(*options)


def _state(
    state: State | None,
    rng: Rng | None,
    scoring: list[int],
    landscapes: list[int],
    goods: list[int],
    bonus: list[int],
) -> State:
    check_state(
        state is not None and None not in (state.config, state.data_set), "no table, config or data set"
    )
    assert state is not None
    state.tables = _tables(state.config.data_set, "invalid state")
    state.n, state.rng, state.legal = len(state.players), rng or Rng(0, 0), None
    state.scoring_stack, state.landscape_deck = scoring, landscapes
    state.goods_deck, state.bonus_supply = goods, bonus
    return state


CONVERTER = Converter(
    [pb.Config, pb.State, pb.View, pb.Action, pb.Event],
    {
        pb.State: Shape(get={"table": lambda s: s}, make=_state),
        pb.Config: Shape(make=_state_config),
        pb.Table: Shape(into=State),
        pb.DataSet: Shape(make=DataSet),
        pb.Player: Shape(into=Player),
        pb.Pair: Shape(make=Pair),
        pb.Cards: Shape(make=Cards),
        pb.BonusCards: Shape(make=BonusCards),
        rules_pb2.RngState: Shape(make=Rng),
        pb.View: Shape(sequence=True),
        pb.PairsLaidOut: Shape(get={"pairs": lambda e: [Cards(list(pair)) for pair in e.pairs]}),
    },
)
# A request's options as sent, an unset one None (config_from_proto gives it its default).
_read_config = Converter([pb.Config], {}).reader(pb.Config)
_write_player = CONVERTER.writer(pb.Player)
_write_view = CONVERTER.writer(pb.View)


# Actions: (kind, a, b) with the kind the member's number in the oneof (from 1); each one's ranges.


def _action(kind: int, a: int = 0, b: int = 0) -> act.Action:
    return act.Action(kind, a, int(b))  # a flag (black) as 0 or 1


ACTIONS = KindTuples(
    pb.Action,
    "move",
    _action,
    kinds=("", *(f.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["move"].fields)),
)
INDEX, ID, FLAG, NONE = range(1 << 31), range(1, 1 << 31), range(2), range(1)  # an int32's
ARGUMENTS = {
    act.BID: (INDEX, NONE),  # a pair
    act.BUILD: (ID, FLAG),  # a place, black
    act.END_BUILDING: (NONE, NONE),
    act.PAY_CARD: (LANDSCAPES, NONE),
    act.PAY_PAIR: (LANDSCAPES, LANDSCAPES),
    act.CHOOSE_GOODS_CARD: (ID, NONE),
    act.CHOOSE_BONUS_CARD: (ID, NONE),
    act.DISCARD: (LANDSCAPES, NONE),
}


def _check_arguments(action: act.Action, message: pb.Action) -> None:
    """Refuse an action whose arguments are out of their kind's ranges."""
    kind, a, b = action
    first, second = ARGUMENTS[kind]
    if a not in first or b not in second or (kind == act.PAY_PAIR and a > b):
        move = message.WhichOneof("move")
        raise MalformedRequest(f"action: {move} ({a}, {b}) holds a value out of range", field=move)


# Views (§10): the table without the hands and bonus cards the viewer may not see, the public counts.


def _hidden_player(player: Player, hide_hand: bool, hide_bonus: bool) -> bytes:
    """A `players` entry of the Table, field key and length included, the hidden parts empty."""
    shown = player.copy()
    if hide_hand:
        shown.hand = Cards()
    if hide_bonus:
        shown.bonus_cards = BonusCards()
    data = _write_player(shown)
    return PLAYER_KEY + varint(len(data)) + data


class Shared:
    """What every view of one state shares: the table's bytes around its players, each player's
    entry as every viewer sees it or with its hidden parts empty, and the public counts."""

    def __init__(self, state: State, table: bytes) -> None:
        data = body(table)
        spans = field_spans(data, PLAYERS)
        self.before, self.after = data[: spans[0][0]], data[spans[-1][1] :]
        self.players = {(seat, False, False): data[start:end] for seat, (start, end) in enumerate(spans)}
        self.counts = (
            [len(p.hand.cards) for p in state.players],
            [len(p.bonus_cards.cards) for p in state.players],
            len(state.landscape_deck),
            len(state.goods_deck),
            [state.tables.scoring_cards[c].back for c in state.scoring_stack],  # type: ignore[union-attr]
            len(state.bonus_supply),
        )


def _view(state: State, seat: int | None, shared: Shared) -> bytes:
    supply = state.bonus_supply if seat is not None and seat == state.bonus_chooser else ()
    keys = [
        (s, not hand_visible(state, seat, s), not bonus_cards_visible(state, seat, s)) for s in range(state.n)
    ]
    players = shared.players
    for key in keys:
        if key not in players:
            players[key] = _hidden_player(state.players[key[0]], key[1], key[2])
    data = b"".join([shared.before, *[players[key] for key in keys], shared.after])
    return _write_view((data, seat, *shared.counts, supply))


class _Codec(Codec):
    """The Codec, the parts every view shares found once per state."""

    def encode_views(self, state: State, state_bytes: bytes) -> list[bytes]:
        shared = Shared(state, leading_field(state_bytes))
        return [_view(state, seat, shared) for seat in [*range(state.n), None]]


# Events: a landscape card drawn or a bonus card taken while those are secret is its seat's only.


def _audience(event: Any) -> tuple[int, ...]:
    secret = isinstance(event, ev.LandscapeDrawn | ev.BonusCardTaken) and not event.public
    return (event.seat,) if secret else ()


CODEC = _Codec(
    pb,
    CONVERTER,
    ACTIONS,
    validate=validate,
    view=lambda state, seat, table: _view(state, seat, Shared(state, table)),
    event_text=event_text,
    event_audience=_audience,
    check_action=_check_arguments,
    config_from_proto=config_from_proto,
    exact_state_round_trip=True,
)

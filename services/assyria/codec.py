"""Assyria's own part of the conversion to boardgame.assyria.v1 (services.common.convert does the
rest): the options' defaults, the deck sizes the table shows in place of the decks, the actions'
argument ranges, and the views (the public table, §8).

Native attributes carry the protobuf field names and every id is its protobuf number, so the State,
its Table and Players and the events (NamedTuples named as their messages) need no shapes beyond the
Table's seat count and deck sizes. The consistency of a decoded state is `validate.validate`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from boardgame.assyria.v1 import assyria_pb2 as pb
from boardgame.rules.v1 import rules_pb2

from services.assyria import actions as act
from services.assyria.board import HEX_COUNT, SITES
from services.assyria.cards import CARD_KINDS
from services.assyria.data import MAX_PLAYERS, SETUP
from services.assyria.labels import event_text
from services.assyria.state import Config, Player, State
from services.assyria.validate import validate
from services.common.codec import Codec
from services.common.convert import Converter, KindTuples, Shape
from services.common.errors import MalformedRequest
from services.common.helpers import check_state
from services.common.rng import Rng

DEFAULT_CONFIG = Config()


# Config: an unset option takes its default; options are written only where they differ from it.


def _config(
    fed_status_lasts: int,
    assur_2p_rule: bool | None,
    start_plow: bool | None,
    unused_plows: int,
    feeding: int,
) -> Config:
    d = DEFAULT_CONFIG
    return Config(
        fed_status_lasts=fed_status_lasts or d.fed_status_lasts,
        assur_2p_rule=d.assur_2p_rule if assur_2p_rule is None else assur_2p_rule,
        start_plow=d.start_plow if start_plow is None else start_plow,
        unused_plows=unused_plows or d.unused_plows,
        feeding=feeding or d.feeding,
    )


def _option(config: Config, name: str) -> Any:
    value = getattr(config, name)
    return None if value == getattr(DEFAULT_CONFIG, name) else value


def config_to_proto(config: Config) -> pb.Config:
    """The Config message, options written only where they differ from their defaults."""
    return pb.Config(**{f.name: _option(config, f.name) for f in pb.Config.DESCRIPTOR.fields})


@cache
def _config_bytes(config: Config) -> bytes:
    return bytes(config_to_proto(config).SerializeToString(deterministic=True))


# State: the Table's deck sizes wait in the decks' attributes (a list of the one size) until the
# State's decks replace them.


def _state(
    state: State | None, rng: Rng | None, food_deck: list[int], expansion_deck: list[int]
) -> tuple[State, tuple[int, int]]:
    check_state(state is not None, "no table")
    assert state is not None
    claimed = (state.food_deck[0], state.expansion_deck[0])
    state.food_deck, state.expansion_deck = food_deck, expansion_deck
    state.rng, state.legal = rng or Rng(0, 0), None
    return state, claimed


def _validated(decoded: tuple[State, tuple[int, int]]) -> State:
    """The decoded state, consistent and with the deck sizes its table claims."""
    state, (food, expansion) = decoded
    check_state(food == len(state.food_deck), "food deck size")
    check_state(expansion == len(state.expansion_deck), "expansion deck size")
    return validate(state)


def _player(camels: int, score: int, offerings: int, huts: int, hand: list[int], plow: bool) -> Player:
    player = Player.__new__(Player)
    player.camels, player.score, player.offerings, player.huts = camels, score, offerings, huts
    player.hand, player.plow = hand, plow
    return player


CONVERTER = Converter(
    [pb.Config, pb.State, pb.View, pb.Action, pb.Event],
    {
        pb.Config: Shape(make=_config),
        pb.State: Shape(get={"table": lambda s: s}, make=_state),
        pb.Table: Shape(
            names={"player_count": "n"},
            get={
                "config": lambda s: _config_bytes(s.config),
                "expansion_deck_size": lambda s: len(s.expansion_deck),
                "food_deck_size": lambda s: len(s.food_deck),
            },
            into=State,
            put={
                "config": lambda s, config: setattr(s, "config", config or DEFAULT_CONFIG),
                "expansion_deck_size": lambda s, size: setattr(s, "expansion_deck", [size]),
                "food_deck_size": lambda s, size: setattr(s, "food_deck", [size]),
            },
        ),
        pb.Player: Shape(make=_player),
        rules_pb2.RngState: Shape(make=Rng),
        pb.View: Shape(sequence=True),
    },
)
_write_view = CONVERTER.writer(pb.View)


# Actions: (kind, argument) with the kind the member's index in the oneof; each argument's range.

ACTIONS = KindTuples(pb.Action, "move", act.Action)
ARGUMENT_RANGES = {
    act.CHOOSE_START_SPACE: range(HEX_COUNT),
    act.PLACE_HUT: range(HEX_COUNT),
    act.FEED_HUT: range(HEX_COUNT),
    act.BUILD_BASE: range(HEX_COUNT),
    act.RAISE_ZIGGURAT: range(HEX_COUNT),
    act.DRAFT_CARD: range(1, CARD_KINDS + 1),
    act.PLAY_CARD: range(1, CARD_KINDS + 1),
    act.TAKE_COLUMN: range(SETUP[MAX_PLAYERS].sowing_row_cards),
    act.BUILD_WELL: range(1, len(SITES) + 1),
    act.INTRIGUE: range(1, 4),
    act.BUY_FOOD_CARD: range(1, 3),
}


def _check_argument(action: act.Action, message: pb.Action) -> None:
    """Refuse an action whose argument is out of its kind's range."""
    if action.kind in ARGUMENT_RANGES and action.a not in ARGUMENT_RANGES[action.kind]:
        move = message.WhichOneof("move")
        raise MalformedRequest(f"invalid action: {move} {action.a} is out of range", field=move)


# Views: every seat and spectator sees the public table (deck sizes, not their order; no RNG).


def _view(state: State, seat: int | None, table: bytes) -> bytes:
    return table + _write_view((None, seat))


CODEC = Codec(
    pb,
    CONVERTER,
    ACTIONS,
    validate=_validated,
    view=_view,
    event_text=event_text,
    event_audience=lambda event: (),  # every event is public (§8)
    check_action=_check_argument,
    config_from_proto=CONVERTER.reader(pb.Config),
    config_to_proto=config_to_proto,
    exact_state_round_trip=True,
    wire_decoding=False,
)

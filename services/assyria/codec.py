"""Conversion between the native state, actions, views and events and the boardgame.assyria.v1
messages.

Native attributes carry the protobuf field names and every id is its protobuf number, so the
conversion is a walk over field-name tables (TABLE_FIELDS, PLAYER_FIELDS, ACTION_ARGUMENTS, the event
classes named as their messages). Decoding checks every value and the consistency of the whole state,
so a forged or damaged state is refused as MalformedRequest.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from boardgame.assyria.v1 import assyria_pb2 as pb

from services.assyria import actions as act
from services.assyria.board import BOARDS, HEX_COUNT, SITES
from services.assyria.cards import CARD_KINDS, FOOD_DECK_CARDS, NO_CARD
from services.assyria.data import (
    CAMEL_CAP,
    DIGNITARY_SPACES,
    EXPANSION_CARDS,
    HUTS_PER_COLOUR,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OFFERINGS_MAX,
    PLOW_CARDS,
    REIGN_TURNS,
    SETUP,
    TURN_1_EXPANSION,
    TURNS,
    ZIGGURAT_PIECES_PER_COLOUR,
    Food,
    ZigguratPiece,
)
from services.assyria.engine import check_seat, legal_now
from services.assyria.labels import event_text
from services.assyria.state import (
    ACTIONS,
    FEED,
    GAME_OVER,
    HARVEST,
    NOBODY,
    PLACE_HUTS,
    START_SPACE,
    Config,
    State,
)
from services.common.errors import MalformedRequest
from services.common.helpers import check_state, rng_from_proto, rng_to_proto

# Table fields that are native attributes of the same name.
TABLE_FIELDS = (
    "step",
    "actor",
    "turn",
    "reign",
    "turn_order",
    "order_position",
    "expansion_card",
    "assur_cards",
    "food_discard",
    "draft_cards",
    "sowing_row_1",
    "sowing_row_2",
    "column_seats",
    "hut_seats",
    "fed",
    "ziggurat_seats",
    "ziggurat_heights",
    "raised",
    "wells",
    "wells_supply",
    "assur_higher",
    "assur_middle",
    "assur_lower",
    "plow_stack",
    "huts_to_place",
    "feeding_food",
    "feeding_symbols",
    "offered_this_turn",
    "plow_bought",
    "food_bought",
)
PLAYER_FIELDS = ("camels", "score", "offerings", "huts", "hand", "plow")

# Decoding a state's encoding gives back an equal state, attribute by attribute (the legal-action
# memo aside); the conformance suite checks it.
EXACT_STATE_ROUND_TRIP = True


# Config.


def config_from_proto(message: pb.Config) -> Config:
    """The native config; unset options take their defaults; values outside their enum are refused."""
    default = Config()
    fed = message.fed_status_lasts or default.fed_status_lasts
    plows = message.unused_plows or default.unused_plows
    if fed not in (1, 2):
        raise MalformedRequest(f"fed_status_lasts {fed} is not an option", option="fed_status_lasts")
    if plows not in (1, 2):
        raise MalformedRequest(f"unused_plows {plows} is not an option", option="unused_plows")
    return Config(
        fed_status_lasts=fed,
        assur_2p_rule=message.assur_2p_rule if message.HasField("assur_2p_rule") else default.assur_2p_rule,
        start_plow=message.start_plow if message.HasField("start_plow") else default.start_plow,
        unused_plows=plows,
    )


def config_to_proto(config: Config) -> pb.Config:
    """The Config message, options written only where they differ from their defaults."""
    default = Config()
    message = pb.Config()
    for name in ("fed_status_lasts", "assur_2p_rule", "start_plow", "unused_plows"):
        value = getattr(config, name)
        if value != getattr(default, name):
            setattr(message, name, value)
    return message


# State.


def _table_to_proto(state: State) -> pb.Table:
    return pb.Table(
        config=config_to_proto(state.config),
        player_count=state.n,
        expansion_deck_size=len(state.expansion_deck),
        food_deck_size=len(state.food_deck),
        players=[pb.Player(**{f: getattr(p, f) for f in PLAYER_FIELDS}) for p in state.players],
        **{f: getattr(state, f) for f in TABLE_FIELDS},
    )


def state_to_proto(state: State) -> pb.State:
    """The State message, hidden parts included."""
    return pb.State(
        table=_table_to_proto(state),
        rng=rng_to_proto(state.rng),
        food_deck=state.food_deck,
        expansion_deck=state.expansion_deck,
    )


def _seats(values: list[int], n: int, what: str, nobody: bool = False) -> None:
    low = NOBODY if nobody else 0
    check_state(all(low <= v < n for v in values), f"{what}: a seat out of range")


def _check_board(state: State) -> None:
    n, board = state.n, BOARDS[state.n]
    for name in ("hut_seats", "fed", "ziggurat_seats", "ziggurat_heights", "raised"):
        check_state(len(getattr(state, name)) == HEX_COUNT, f"{name}: one entry per hex")
    _seats(state.hut_seats, n, "hut_seats", nobody=True)
    _seats(state.ziggurat_seats, n, "ziggurat_seats", nobody=True)
    top = len(ZigguratPiece)
    for h in range(HEX_COUNT):
        hut, zig, height = state.hut_seats[h], state.ziggurat_seats[h], state.ziggurat_heights[h]
        check_state(board.usable[h] or (hut == zig == NOBODY), "a piece off this player count's board")
        check_state(hut == NOBODY or zig == NOBODY, "a hut and a ziggurat on one hex")
        check_state((zig == NOBODY) == (height == 0) and 0 <= height <= top, "a ziggurat's height")
        check_state(not state.fed[h] or hut != NOBODY, "a fed hex without a hut")
        check_state(not state.raised[h] or zig != NOBODY, "a raised hex without a ziggurat")
    for seat in range(n):
        check_state(
            state.ziggurat_seats.count(seat) <= ZIGGURAT_PIECES_PER_COLOUR[ZigguratPiece.BASE], "bases"
        )
    check_state(len(set(state.wells)) == len(state.wells), "a well built twice")
    check_state(all(w in board.sites for w in state.wells), "a well off the board's sites")
    check_state(state.wells_supply >= 0 and len(state.wells) + state.wells_supply == SETUP[n].wells, "wells")


def _check_cards(state: State) -> None:
    hands = [c for p in state.players for c in p.hand]
    rows = [c for c in (*state.sowing_row_1, *state.sowing_row_2) if c != NO_CARD]
    every = [*hands, *rows, *state.food_deck, *state.food_discard, *state.draft_cards]
    check_state(all(1 <= c <= CARD_KINDS for c in every), "a card of no kind")
    check_state(Counter(every) == Counter(FOOD_DECK_CARDS), "every food card exactly once")
    check_state(all(0 <= c <= CARD_KINDS for c in (*state.sowing_row_1, *state.sowing_row_2)), "sowing rows")
    in_turn = HARVEST <= state.step <= ACTIONS
    size = SETUP[state.n].sowing_row_cards if in_turn else 0
    check_state(
        len(state.sowing_row_1) == len(state.sowing_row_2) == len(state.column_seats) == size, "columns"
    )
    _seats(state.column_seats, state.n, "column_seats", nobody=True)
    taken = [s for s in state.column_seats if s != NOBODY]
    check_state(len(set(taken)) == len(taken), "a seat with two columns")
    if state.step > HARVEST and in_turn:
        check_state(sorted(taken) == list(range(state.n)), "every seat has a column after the harvest")
    for c, seat in enumerate(state.column_seats):
        check_state(
            seat == NOBODY or state.sowing_row_1[c] == state.sowing_row_2[c] == NO_CARD, "a taken column"
        )
    check_state(bool(state.draft_cards) == (state.step == 2), "draft cards outside the draft")


def _check_turn(state: State) -> None:
    n, step = state.n, state.step
    check_state(START_SPACE <= step <= GAME_OVER, "step")
    check_state(1 <= state.turn <= TURNS and 1 <= state.reign <= len(REIGN_TURNS), "turn and reign")
    check_state(state.turn in REIGN_TURNS[state.reign - 1], "the turn is not in the reign")
    check_state(sorted(state.turn_order) == list(range(n)), "turn order")
    check_state(0 <= state.order_position < n, "order position")
    if step != GAME_OVER:
        check_state(state.actor == state.turn_order[state.order_position], "the actor is not the one in turn")
    else:
        check_state(state.actor == 0 and state.turn == TURNS, "a finished game")
    revealed = 1 + state.turn - 1
    check_state(len(state.expansion_deck) == len(EXPANSION_CARDS) - revealed, "expansion cards left")
    rest = Counter(EXPANSION_CARDS) - Counter([TURN_1_EXPANSION])
    check_state(not Counter(state.expansion_deck) - rest, "expansion cards of no kind")
    first = REIGN_TURNS[state.reign - 1][0]
    bonus = 1 if SETUP[n].bonus_card and state.reign > 1 else 0
    check_state(len(state.assur_cards) == state.turn - first + 1 + bonus, "the reign's Assur row")
    check_state(state.expansion_card == state.assur_cards[-1], "the current expansion card")
    check_state(all(card in EXPANSION_CARDS for card in state.assur_cards), "an Assur card of no value")
    check_state((state.huts_to_place > 0) == (step == PLACE_HUTS), "huts to place")
    check_state(0 <= state.feeding_food <= Food.WILD and 0 <= state.feeding_symbols <= 3, "feeding")
    check_state((state.feeding_food > 0) == (state.feeding_symbols > 0), "feeding card")
    check_state(state.feeding_symbols == 0 or step == FEED, "feeding outside the feeding step")
    check_state(0 <= state.offered_this_turn <= 3, "offerings this turn")
    if step != ACTIONS:
        check_state(not (state.offered_this_turn or state.plow_bought or state.food_bought), "actions")


def _check_players(state: State) -> None:
    n = state.n
    for d, spaces in DIGNITARY_SPACES.items():
        at = state.assur(d)
        _seats(at, n, "Assur")
        check_state(len(at) <= spaces, "too many huts at a dignitary")
    for seat, player in enumerate(state.players):
        in_assur = sum(state.assur(d).count(seat) for d in (1, 2, 3))
        check_state(player.huts >= 0, "huts in stock")
        check_state(player.huts + state.hut_seats.count(seat) + in_assur == HUTS_PER_COLOUR, "huts")
        check_state(0 <= player.camels <= CAMEL_CAP, "camels")
        check_state(0 <= player.offerings <= OFFERINGS_MAX and player.score >= 0, "offerings or score")
    held = sum(p.plow for p in state.players)
    check_state(state.plow_stack >= 0 and held + state.plow_stack <= PLOW_CARDS, "plow cards")


def state_from_proto(message: pb.State) -> State:
    """The native state of a State message; MalformedRequest if it is not a consistent state."""
    table = message.table
    n = table.player_count
    check_state(MIN_PLAYERS <= n <= MAX_PLAYERS, "player count")
    check_state(len(table.players) == n, "one player record per seat")
    state = State(config_from_proto(table.config), n, rng_from_proto(message.rng))
    for name in TABLE_FIELDS:
        value = getattr(table, name)
        setattr(state, name, value if isinstance(value, int) else list(value))
    for player, player_message in zip(state.players, table.players, strict=True):
        for name in PLAYER_FIELDS:
            setattr(player, name, getattr(player_message, name))
        player.hand = list(player.hand)
    state.food_deck = list(message.food_deck)
    state.expansion_deck = list(message.expansion_deck)
    check_state(table.food_deck_size == len(state.food_deck), "food deck size")
    check_state(table.expansion_deck_size == len(state.expansion_deck), "expansion deck size")
    _check_turn(state)
    _check_board(state)
    _check_cards(state)
    _check_players(state)
    if state.step != GAME_OVER:
        # A forged position can be consistent yet offer nothing.
        check_state(bool(legal_now(state)), "the acting seat has no legal action")
    return state


# Actions: the oneof's fields in kind order, and each kind's argument field with its valid range.

_ACTION: Any = pb.Action.DESCRIPTOR
MOVE_FIELDS: tuple[str, ...] = tuple(
    f.name for f in sorted(_ACTION.oneofs_by_name["move"].fields, key=lambda f: f.number)
)
ARGUMENT_RANGES = {
    "hex": range(HEX_COUNT),
    "card": range(1, CARD_KINDS + 1),
    "column": range(SETUP[MAX_PLAYERS].sowing_row_cards),
    "site": range(1, len(SITES) + 1),
    "dignitary": range(1, 4),
    "row": range(1, 3),
}
ACTION_ARGUMENTS: tuple[str | None, ...] = tuple(
    next(iter(_ACTION.fields_by_name[name].message_type.fields_by_name), None) for name in MOVE_FIELDS
)
assert len(MOVE_FIELDS) == act.END_ACTIONS + 1


def action_to_proto(action: act.Action) -> pb.Action:
    """The Action message."""
    message = pb.Action()
    move = getattr(message, MOVE_FIELDS[action.kind])
    argument = ACTION_ARGUMENTS[action.kind]
    if argument is None:
        move.SetInParent()
    else:
        setattr(move, argument, action.a)
    return message


def action_from_proto(message: pb.Action) -> act.Action:
    """The native action; MalformedRequest if no move is set or its value is out of range."""
    move = message.WhichOneof("move")
    if move is None:
        raise MalformedRequest("the action sets no move")
    kind = MOVE_FIELDS.index(move)
    argument = ACTION_ARGUMENTS[kind]
    if argument is None:
        return act.Action(kind)
    value = getattr(getattr(message, move), argument)
    if value not in ARGUMENT_RANGES[argument]:
        raise MalformedRequest(f"invalid action: {move}.{argument} {value} is out of range", field=argument)
    return act.Action(kind, value)


# Views.


def view_to_proto(state: State, seat: int | None) -> pb.View:
    """What `seat` may see: the public table (deck sizes, not their order; no RNG)."""
    if seat is not None:
        check_seat(state, seat)
    return pb.View(table=_table_to_proto(state), seat=seat)


def views_to_proto(state: State, state_message: pb.State | None = None) -> list[pb.View]:
    """Every seat's view, then the spectator's, sharing one conversion of the table."""
    table = state_message.table if state_message is not None else _table_to_proto(state)
    return [pb.View(table=table, seat=seat) for seat in [*range(state.n), None]]


# Events: each native event class has the name of its message; the oneof field is its snake case.


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _message(value: Any) -> Any:
    if hasattr(value, "_fields"):
        return getattr(pb, type(value).__name__)(**{k: _message(v) for k, v in value._asdict().items()})
    if isinstance(value, tuple):
        return [_message(v) for v in value]
    return value


def event_to_proto(event: tuple) -> tuple[pb.Event, str, tuple[int, ...]]:  # type: ignore[type-arg]
    """The Event message, its text, and who may see it: everyone (§8)."""
    return pb.Event(**{_snake(type(event).__name__): _message(event)}), event_text(event), ()

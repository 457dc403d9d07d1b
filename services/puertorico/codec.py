"""Puerto Rico's own part of the conversion to boardgame.puertorico.v1 (services.common.convert does
the rest): where the native state is laid out otherwise than its messages, the options' defaults,
the actions, who sees what, and how a decoded message becomes a native state.

Native ids count from 0 where their enums count from 1 (0 is UNSPECIFIED): ENUM_OFFSETS. Decoding
refuses what the encoding cannot hold (undeclared enum values, a seat without its record, a tile or
building listed twice); the consistency of the whole state is `validate.validate`.
"""

from __future__ import annotations

import dataclasses
from functools import cache, partial
from typing import Any

from boardgame.puertorico.v1 import puertorico_pb2 as pb
from boardgame.rules.v1 import rules_pb2

from services.common.codec import Codec
from services.common.convert import Converter, KindTuples, Shape, Special
from services.common.errors import InvalidConfig, MalformedRequest
from services.common.game import Messages
from services.common.helpers import check_state
from services.common.rng import Rng
from services.puertorico import actions as act
from services.puertorico import engine
from services.puertorico import events as ev
from services.puertorico.data import (
    BUILDING_SET_BASE,
    BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM,
    BUILDINGS,
    CIRCLE_TILES,
    DEFAULT_CLOISTER_KINDS,
    FOREST,
    MIN_PLAYERS,
    SMALL_WHARF_ROUNDING,
    TILE_KINDS,
)
from services.puertorico.labels import event_text
from services.puertorico.setup import check_config
from services.puertorico.state import Config, Player, State
from services.puertorico.validate import validate

DEFAULT_CONFIG = Config()
OPTIONS = tuple(option.name for option in dataclasses.fields(Config))  # the Config message's fields
# The options that are enums in the Config message: number -> native value (0: the default).
ENUM_OPTIONS = {
    "buildings": {0: BUILDING_SET_BASE, 1: BUILDING_SET_BASE, 2: BUILDING_SET_DRAFT, 3: BUILDING_SET_RANDOM},
    "small_wharf_rounding": {0: SMALL_WHARF_ROUNDING, 1: "floor", 2: "ceil"},
    "cloister_kinds": {0: DEFAULT_CLOISTER_KINDS, 1: "all", 2: "plantations"},
}
ENUM_NUMBERS = {option: {v: k for k, v in table.items() if k} for option, table in ENUM_OPTIONS.items()}
ALWAYS_WRITTEN = ("public_vp", "vp_pool_5p", "buildings")
N_ROLES = 8
# The enums whose native ids count from 0 (the others' native values are their numbers).
ENUM_OFFSETS = {pb.Good: 1, pb.Tile: 1, pb.Role: 1, pb.Building: 1, pb.BlackMarketItem: 1}

# Decoding a state's encoding gives back an equal state, attribute by attribute, the legal-action memo
# aside (services.common.game.exact_state_round_trip; the conformance suite checks it).
EXACT_STATE_ROUND_TRIP = True


# Config.


@cache  # a game's options are a few values among few choices
def _config(*values: Any) -> Config:
    """The native config of a Config message's values (its fields are Config's, in order): an unset
    option (None, or 0 in a plain number field) takes its default."""
    options = {}
    for option, value in zip(OPTIONS, values, strict=True):
        if option in ENUM_OPTIONS:
            value = ENUM_OPTIONS[option][value]
        elif value is None or (type(value) is int and value == 0):
            value = getattr(DEFAULT_CONFIG, option)
        options[option] = value
    return Config(**options)


def _wire_option(config: Config, option: str) -> object:
    """An option as the Config message holds it: None (unset) at its default, except the options
    older than the open points, always written."""
    value = getattr(config, option)
    if option not in ALWAYS_WRITTEN and value == getattr(DEFAULT_CONFIG, option):
        return None
    return ENUM_NUMBERS[option][value] if option in ENUM_OPTIONS else value


def config_from_proto(message: pb.Config) -> Config:
    """The native config; unset fields take their defaults; InvalidConfig for an unsupported one."""
    try:
        config = _read(pb.Config)(message)
    except MalformedRequest as error:
        raise InvalidConfig(error.message) from error
    check_config(MIN_PLAYERS, config)
    return config


def config_to_proto(config: Config) -> pb.Config:
    """The Config message. The open-point options are written only when they differ from their
    defaults, so a default config encodes exactly as it did before they existed."""
    return pb.Config.FromString(_config_bytes(config))


@cache
def _config_bytes(config: Config) -> bytes:
    return CONVERTER.writer(pb.Config)(config)


# State.


def _island(player: Player, island: list[tuple[int, int, int]]) -> None:
    player.tiles = tiles = [0] * TILE_KINDS
    player.occupied = occupied = [0] * TILE_KINDS
    for kind, count, taken in island:
        tiles[kind], occupied[kind] = count, taken
    kinds = [kind for kind, _, _ in island]
    counts = [count for _, count, _ in island]
    distinct = len(set(kinds)) == len(kinds)
    check_state(
        distinct and min(kinds, default=0) >= 0 and min(counts, default=1) > 0,
        "island tiles listed twice or empty",
    )
    check_state(occupied.pop() == 0, "island occupancy")  # the forests (the last kind) hold no colonist


def _unseated(player: Player) -> Player:
    """A board as its message holds it: its VP chips and forests are the State's (see `_state`)."""
    player.vp, player.forests = 0, [0, 0, 0, 0, 0]
    return player


def _board(p: Player) -> tuple[Any, ...]:
    """What a board's message holds, as a key."""
    return (
        p.doubloons,
        *p.goods,
        *p.tiles,
        *p.occupied,
        *p.buildings.items(),
        p.san_juan,
        p.wharf_used,
        p.small_wharf_used,
    )


def _city(player: Player, city: list[tuple[int, int]]) -> None:
    player.buildings = buildings = dict(city)
    check_state(len(buildings) == len(city) and -1 not in buildings, "a building owned twice")


def _target_space(tile: int | None, building: int | None) -> int | None:
    """The board space of a ColonistTarget (see actions.SPACES); None if it names no space."""
    if tile is not None:
        return tile if tile in CIRCLE_TILES else None
    return None if building is None or building < 0 else act.BUILDING_SPACE + building


def _target_values(space: int) -> tuple[int | None, int | None]:
    """The ColonistTarget of a board space."""
    return (space, None) if space < act.BUILDING_SPACE else (None, space - act.BUILDING_SPACE)


def _move(source: int | None, destination: int | None) -> tuple[int, int]:
    check_state(source is not None and destination is not None, "colonist move space")
    return source, destination  # type: ignore[return-value]


def _roles(state: State, roles: list[tuple[int, int, bool]]) -> None:
    state.roles, state.role_doubloons, state.role_taken = (
        list(column) for column in zip(*roles, strict=True)
    )


def _ships(state: State, ships: list[tuple[int, int, int]]) -> None:
    state.ship_cap, state.ship_good, state.ship_count = (list(column) for column in zip(*ships, strict=True))
    if not ships:
        state.ship_cap, state.ship_good, state.ship_count = [], [], []


def _for_sale(state: State, for_sale: list[tuple[int, int]]) -> None:
    state.stock = stock = [0] * len(BUILDINGS)
    for building, count in for_sale:
        stock[building] = count
    buildings = [building for building, _ in for_sale]
    counts = [count for _, count in for_sale]
    if not (
        len(set(buildings)) == len(buildings)
        and min(buildings, default=0) >= 0
        and min(counts, default=1) > 0
    ):
        check_state(False, "buildings for sale")


def _state(state: State | None, rng: Rng | None, *values: Any) -> State:
    """The native state of a State message's values: its table's, and the hidden parts."""
    stack, vp_chips, forests, hacienda_tile = values
    check_state(state is not None, "no table")
    assert state is not None
    check_state(len(vp_chips) == state.n == len(state.players), "one player record per seat")
    check_state(len(forests) in (0, state.n), "one forest record per seat")
    state.rng, state.legal = rng or Rng(0, 0), None
    state.stack, state.pending_tile = stack, hacienda_tile
    for seat, player in enumerate(state.players):
        player.vp = vp_chips[seat]
        player.forests = forests[seat] if forests else [0, 0, 0, 0, 0]
    return state


COUNTS = Shape(sequence=True, make=list)
PAIRS = Shape(sequence=True)
CONVERTER = Converter(
    [pb.Config, pb.State, pb.View, pb.Action, pb.Event],
    {
        pb.Config: Shape(
            get={option: partial(_wire_option, option=option) for option in OPTIONS},
            make=_config,
            frozen=True,
        ),
        pb.State: Shape(
            get={
                "table": lambda s: s,
                "vp_chips": lambda s: [p.vp for p in s.players],
                "forests": lambda s: [p.forests for p in s.players] if s.expansion else (),
            },
            names={"plantation_stack": "stack", "hacienda_tile": "pending_tile"},
            make=_state,
        ),
        pb.Table: Shape(
            get={
                "config": lambda s: _config_bytes(s.config),
                "roles": lambda s: zip(s.roles, s.role_doubloons, s.role_taken, strict=True),
                "cargo_ships": lambda s: zip(s.ship_cap, s.ship_good, s.ship_count, strict=True),
                "buildings_for_sale": lambda s: [(b, c) for b, c in enumerate(s.stock) if c],
                "colonist_moves": lambda s: [
                    (_target_values(a), _target_values(b)) for a, b in s.colonist_moves
                ],
            },
            names={
                "player_count": "n",
                "role_selector": "selector",
                "face_up_plantations": "face_up",
                "plantation_discards": "discards",
                "trading_house": "house",
            },
            into=State,
            put={
                "config": lambda s, config: setattr(s, "config", config or DEFAULT_CONFIG),
                "roles": _roles,
                "cargo_ships": _ships,
                "buildings_for_sale": _for_sale,
            },
        ),
        pb.Player: Shape(
            get={
                "island": lambda p: [
                    (kind, count, p.occupied[kind] if kind != FOREST else 0)
                    for kind, count in enumerate(p.tiles)
                    if count
                ],
                "city": lambda p: p.buildings.items(),
            },
            into=Player,
            put={"island": _island, "city": _city},
            finish=_unseated,
            copy=Player.copy,
            key=_board,
        ),
        rules_pb2.RngState: Shape(make=Rng),
        pb.GoodCounts: COUNTS,
        pb.RoleCard: PAIRS,
        pb.CargoShip: PAIRS,
        pb.IslandTiles: PAIRS,
        pb.CityBuilding: PAIRS,
        pb.BuildingStock: PAIRS,
        pb.SeatVp: PAIRS,
        pb.ColonistTarget: Shape(sequence=True, make=_target_space),
        pb.ColonistMove: Shape(sequence=True, make=_move),
        pb.View: Shape(sequence=True),
        # Events: the native names that differ from the messages'.
        pb.GuestMoved: Shape(get={"target": lambda e: (e.tile, None) if e.tile >= 0 else (None, e.building)}),
        pb.ColonistsReceived: Shape(names={"count": "colonists"}),
        pb.GoodsLoaded: Shape(names={"count": "barrels"}),
        pb.ColonistShipRefilled: Shape(names={"count": "colonists"}),
    },
    ENUM_OFFSETS,
)
_read = CONVERTER.reader
_write_view = CONVERTER.writer(pb.View)


# Actions: a native action is (kind, arg, arg2); its kind names its member of the Action oneof
# (ACTION_KINDS), the colonists' spaces aside (actions.SPACES, converted by SPECIAL).


def _space_of(tile: int | None, building: int | None) -> int:
    space = _target_space(tile, building)
    if space is None:
        raise MalformedRequest("invalid action: tile or building out of range")
    return space


def _guest(target: tuple[int | None, int | None]) -> act.Action:
    space = _space_of(*target)
    return (
        act.GUEST_TILE[space]
        if space < act.BUILDING_SPACE
        else act.GUEST_BUILDING[space - act.BUILDING_SPACE]
    )


def _moved(move: tuple[tuple[int | None, int | None], tuple[int | None, int | None]]) -> act.Action:
    source, destination = (_space_of(*(target or (None, None))) for target in move)
    _check_action(source != destination, "destination (the colonist's own space)")
    return act.MOVE[source, destination]


def _returned(place: tuple[tuple[()] | None, int | None, int | None]) -> act.Action:
    san_juan, tile, building = place
    if san_juan is not None:
        return act.RETURN_FROM_SAN_JUAN
    if tile is not None:
        _check_action(tile in CIRCLE_TILES, "tile")
        return act.RETURN_FROM_TILE[tile]
    _check_action(building is not None and building >= 0, "building")
    return act.RETURN_FROM_BUILDING[building]  # type: ignore[index]


RETURN_PLACES = {act.FROM_SAN_JUAN: lambda b: ((), None, None), act.FROM_TILE: lambda t: (None, t, None)}
SPECIAL = {
    "place_colonist": Special(
        lambda a: (a[1], None) if a[0] == act.PLACE_ON_TILE else (None, a[1]),
        lambda target: act.place_on(_space_of(*target)),
    ),
    "move_guest": Special(lambda a: (a[1], None) if a[0] == act.GUEST_TO_TILE else (None, a[1]), _guest),
    "move_colonist": Special(lambda a: (_target_values(a[1]), _target_values(a[2])), _moved),
    "return_colonist": Special(
        lambda a: RETURN_PLACES.get(a[1], lambda b: (None, None, b))(a[2]),
        _returned,
    ),
}
MEMBERS = [f.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["move"].fields]
# The native kinds follow the oneof, but placing a colonist and moving a guest take two kinds each
# (onto a tile, onto a building).
ACTION_KINDS = [*MEMBERS[:7], "place_colonist", *MEMBERS[7:29], "move_guest", *MEMBERS[29:]]
ACTIONS = KindTuples(pb.Action, "move", act.Action, {}, ENUM_OFFSETS, kinds=ACTION_KINDS, special=SPECIAL)
# The kinds whose argument is a role, good or building id (never unset).
ID_KINDS = frozenset(
    kind for kind, name in enumerate(ACTION_KINDS) if pb.Action.DESCRIPTOR.fields_by_name[name].enum_type
) | {act.LOAD, act.SMALL_WHARF_GOODS}


def action_from_proto(message: pb.Action) -> act.Action:
    """The native action; MalformedRequest if no move is set or a value is out of range."""
    kind, arg, arg2 = action = act.Action(*ACTIONS.read(message))
    _check_action(kind not in ID_KINDS or arg >= 0, "role, good or building")
    _check_action(kind != act.LOAD or 0 <= arg2 < act.MAX_SHIPS, "ship")
    _check_action(kind != act.DRAFT_COST or arg in act.DRAFT_COST_ACTION, "draft cost")
    _check_action(kind != act.SMALL_WHARF_GOODS or arg2 >= 1, "count")
    return action


def action_to_proto(action: act.Action) -> pb.Action:
    """The Action message."""
    return pb.Action.FromString(ACTIONS.write(action))


def _check_action(condition: bool, what: str) -> None:
    if not condition:
        raise MalformedRequest(f"invalid action: {what} out of range")


# Views.


def vp_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) may see `seat`'s VP chips (hidden by the rules, §9)."""
    return state.config.public_vp or viewer == seat


def _view(state: State, seat: int | None, table: bytes) -> bytes:
    """A View: the State's table field, and what `seat` (None: a spectator) may see besides."""
    players = state.players
    mine = seat is not None
    return table + _write_view(
        (
            None,
            seat,
            len(state.stack),
            [(s, p.vp) for s, p in enumerate(players) if vp_visible(state, seat, s)],
            players[seat].forests if mine and state.expansion else None,  # type: ignore[index]
            state.pending_tile if mine and seat == state.actor else -1,
        )
    )


CODEC = Codec(
    Messages.of(pb),
    CONVERTER,
    validate=validate,
    view=_view,
    check_seat=engine.check_seat,
    seat_count=lambda state: state.n,
    event_text=event_text,
    # VP amounts only their owner sees, unless public.
    event_audience=lambda e: (e.seat,) if isinstance(e, ev.VpReceived) and not e.public else (),
    event_oneof="kind",
)
encode_state, state_to_proto, state_from_proto = (
    CODEC.encode_state,
    CODEC.state_to_proto,
    CODEC.state_from_proto,
)
decode_state = CODEC.decode_state
encode_views, view_to_proto, views_to_proto = CODEC.encode_views, CODEC.view_to_proto, CODEC.views_to_proto
encode_event, event_to_proto = CODEC.encode_event, CODEC.event_to_proto

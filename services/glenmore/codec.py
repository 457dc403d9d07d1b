"""Glen More's own part of the conversion to boardgame.glenmore.v1 (services.common.convert does the
rest): where the native state is laid out otherwise than its messages (territories as parallel
lists, cells as ints, the track as one chain of ints), the option's default, the actions, who sees
what, and how a decoded message becomes a native state.

Native ids count from 0 where enums and tile numbers count from 1: ENUM_OFFSETS and the tile fields'
offsets. Decoding refuses what the encoding cannot hold (undeclared enum values, cells out of range,
two tiles on a cell); the consistency of the whole state is `validate.validate`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from boardgame.glenmore.v1 import glenmore_pb2 as pb
from boardgame.rules.v1 import rules_pb2

from services.common.convert import Converter, Shape, leading_field, oneof_writer
from services.common.errors import MalformedRequest
from services.common.helpers import check_state
from services.common.rng import Rng
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import MAX_PLAYERS, PUBLIC_VP, STACK_TILES
from services.glenmore.engine import check_seat
from services.glenmore.labels import event_text
from services.glenmore.state import DIE, NO_CELL, NO_PAYMENT, Config, Player, State, figure
from services.glenmore.territory import cell, in_range, xy
from services.glenmore.validate import validate

ENUM_OFFSETS = {pb.Resource: 1, pb.SpecialLocation: 1}
DEFAULT_CONFIG = Config()
TILE = {"tile": 1}  # a message's `tile` field holds a tile number, the native tile index + 1

# Decoding a state's encoding gives back an equal state, attribute by attribute, the legal-action memo
# aside (services.common.game.exact_state_round_trip; the conformance suite checks it).
EXACT_STATE_ROUND_TRIP = True


# Config.


def config_from_proto(message: pb.Config) -> Config:
    """The native config; an unset `public_vp` takes its default (OP-23)."""
    return Config(public_vp=message.public_vp if message.HasField("public_vp") else PUBLIC_VP)


def config_to_proto(config: Config) -> pb.Config:
    """The Config message. Options are written only when they differ from their defaults, so a
    default config encodes exactly as it did before the options existed."""
    return pb.Config(public_vp=None if config.public_vp == PUBLIC_VP else config.public_vp)


@cache
def _config_bytes(config: Config) -> bytes:
    return bytes(config_to_proto(config).SerializeToString(deterministic=True))


# State.


def _cell(x: int, y: int) -> int:
    check_state(in_range(x, y), "a cell is out of range")
    return cell(x, y)


def _entry(tile: int | None, seat: int | None, die: object) -> int:
    """The chain entry of a TrackEntry."""
    if tile is not None:
        check_state(0 <= tile < STACK_TILES, "a track tile is not a stack tile")
        return tile
    if seat is not None:
        check_state(0 <= seat < MAX_PLAYERS, "a figure of no seat")
        return figure(seat)
    check_state(die is not None, "a track entry holding nothing")
    return DIE


def _track_entry(entry: int) -> tuple[int | None, int | None, tuple[()] | None]:
    if entry >= 0:
        return entry, None, None
    return (None, None, ()) if entry == DIE else (None, -1 - entry, None)


def _place(player: Player, territory: list[tuple[int, int | None, int, list[int]]]) -> None:
    """The territory's parallel lists, from its PlacedTile values."""
    player.tiles, player.cells, player.grid, player.cubes = [], [], {}, []
    player.load, player.own, player.clans = [], [0, 0, 0, 0, 0], []
    for tile, c, clans, cubes in territory:
        check_state(c is not None, "a territory tile without a cell")
        check_state(c not in player.grid, "two tiles on one cell")
        slot = player.add_tile(tile, c, clans)
        player.cubes[5 * slot : 5 * slot + 5] = cubes
        player.load[slot] = sum(cubes)
        for kind, count in enumerate(cubes):
            player.own[kind] += count


def _no_hidden_vp(player: Player, hidden: bool) -> None:
    check_state(not hidden, "hidden VP in a state")


def _territory(p: Player) -> list[tuple[int, tuple[int, int], int, list[int]]]:
    cubes, clans = p.cubes, p.clans
    return [(t, xy(c), clans[s], cubes[5 * s : 5 * s + 5]) for s, (t, c) in enumerate(zip(p.tiles, p.cells))]  # noqa: B905


def _market(state: State, rows: list[tuple[int, int]]) -> None:
    check_state([resource for resource, _ in rows] == [0, 1, 2, 3, 4], "market row")
    state.market = [filled for _, filled in rows]


def _turn(state: State, turn: tuple[Any, ...] | None) -> None:
    """The progress of the turn, from a Turn's values (players and actor already decoded)."""
    state.clear_turn()
    if turn is None:
        return
    tile, placed, c, payment, choose, purpose, activate_all, ness_ready, ness_used, activated, moves = turn
    state.t_tile, state.t_placed, state.t_cell = tile, placed, NO_CELL if c is None else c
    state.choose_left, state.choose_purpose, state.activate_all = choose, purpose, activate_all
    state.ness_ready, state.ness_used, state.moves = ness_ready, ness_used, moves
    if payment is not None:
        purpose, cubes, different, used, any_cubes, clan, act_cell, count = payment
        state.pay_purpose, state.pay_cubes, state.pay_different, state.pay_used = (
            purpose,
            cubes,
            different,
            used,
        )
        state.pay_any, state.pay_clan, state.act_count = any_cubes, clan, count
        state.act_cell = NO_CELL if act_cell is None else act_cell
    grid = state.players[state.actor].grid if 0 <= state.actor < len(state.players) else {}
    last = -1
    for activated_cell in activated:
        slot = grid.get(activated_cell, -1)
        check_state(slot > last, "activated tiles")
        last = slot
        state.activated |= 1 << slot


def _state(state: State | None, rng: Rng | None, stacks: list[list[int]]) -> State:
    """The native state of a State message's values: its table's, and the hidden parts."""
    check_state(state is not None, "no table")
    assert state is not None
    state.rng, state.stacks, state.legal = rng or Rng(0, 0), stacks, None
    return state


def _counts(*counts: int) -> list[int]:
    return list(counts)


def _tiles(tiles: list[int]) -> list[int]:
    return tiles


SEQUENCE = Shape(sequence=True)
CONVERTER = Converter(
    [pb.Config, pb.State, pb.View, pb.Action, pb.Event],
    {
        pb.Config: Shape(make=lambda public_vp: Config(PUBLIC_VP if public_vp is None else public_vp)),
        pb.State: Shape(
            get={"table": lambda s: s, "stacks": lambda s: [(k,) for k in s.stacks]}, make=_state
        ),
        pb.TileStack: Shape(sequence=True, make=_tiles, offsets=TILE),
        pb.Table: Shape(
            get={
                "config": lambda s: _config_bytes(s.config),
                "track": lambda s: [_track_entry(e) for e in s.chain],
                "stack_sizes": lambda s: [len(stack) for stack in s.stacks],
                "market": lambda s: enumerate(s.market),
                "turn": lambda s: s,
            },
            names={
                "player_count": "n",
                "track": "chain",
                "discarded_tiles": "discarded",
                "last_die_roll": "last_die",
            },
            offsets={"discarded_tiles": 1},
            into=State,
            put={
                "config": lambda s, config: setattr(s, "config", config or DEFAULT_CONFIG),
                "stack_sizes": lambda s, sizes: None,  # checked against the stacks by state_from_proto
                "market": _market,
                "turn": _turn,
            },
        ),
        pb.TrackEntry: Shape(sequence=True, make=_entry, offsets=TILE),
        pb.DieFigure: SEQUENCE,
        pb.MarketRow: SEQUENCE,
        pb.Player: Shape(
            get={"territory": _territory, "vp_hidden": lambda p: False},
            into=Player,
            put={
                "territory": _place,
                "vp_hidden": lambda p, hidden: check_state(not hidden, "hidden VP in a state"),
            },
        ),
        pb.PlacedTile: Shape(sequence=True, offsets=TILE),
        pb.ResourceCounts: Shape(sequence=True, make=_counts),
        pb.Cell: Shape(sequence=True, make=_cell),
        pb.Turn: Shape(
            get={
                "cell": lambda s: xy(s.t_cell) if s.t_placed else None,
                "payment": lambda s: None if s.pay_purpose == NO_PAYMENT else s,
                "activated": lambda s: [
                    xy(c) for slot, c in enumerate(s.players[s.actor].cells) if s.activated >> slot & 1
                ],
            },
            names={
                "tile": "t_tile",
                "placed": "t_placed",
                "cubes_to_choose": "choose_left",
                "cube_purpose": "choose_purpose",
                "loch_ness_ready": "ness_ready",
                "loch_ness_used": "ness_used",
                "movement_points": "moves",
            },
            offsets=TILE,
            make=lambda *values: values,
        ),
        pb.Payment: Shape(
            get={"activation_cell": lambda s: None if s.act_cell == NO_CELL else xy(s.act_cell)},
            names={
                "purpose": "pay_purpose",
                "resources": "pay_cubes",
                "different_cubes": "pay_different",
                "kinds_paid": "pay_used",
                "any_cubes": "pay_any",
                "clan_member": "pay_clan",
                "activation_count": "act_count",
            },
            make=lambda *values: values,
        ),
        rules_pb2.RngState: Shape(make=Rng),
        pb.View: SEQUENCE,
        # Events: the native names that differ from the messages', and the tile numbers.
        pb.TilesDrawn: Shape(offsets={"tiles": 1}),
        pb.TileTaken: Shape(offsets=TILE),
        pb.TileDiscarded: Shape(offsets=TILE),
        pb.TilePlaced: Shape(offsets=TILE),
        pb.TileActivated: Shape(offsets=TILE),
        pb.CubeSpent: Shape(names={"resource": "kind"}),
        pb.CubeBought: Shape(names={"resource": "kind"}),
        pb.CubeSold: Shape(names={"resource": "kind"}),
        pb.CubeGained: Shape(names={"resource": "kind"}, get={"lost": lambda e: e.cell is None}),
        pb.WhiskySpent: Shape(names={"count": "barrels"}),
        pb.WhiskyGained: Shape(names={"count": "barrels"}),
        pb.ClanMembersGained: Shape(names={"count": "members"}),
        pb.ClanMemberMoved: Shape(names={"from": "origin", "to": "target"}),
        pb.ScoringDone: Shape(
            get={
                "seats": lambda e: (
                    e.seats
                    if e.public
                    else [s._replace(whisky_vp=0, chieftain_vp=0, card_vp=0) for s in e.seats]
                ),
                "vp_hidden": lambda e: not e.public,
            }
        ),
    },
    ENUM_OFFSETS,
)
_write_state = CONVERTER.writer(pb.State)
_write_view = CONVERTER.writer(pb.View)
_write_event = oneof_writer(CONVERTER, pb.Event, "event")
_read_state = CONVERTER.reader(pb.State)


def encode_state(state: State) -> bytes:
    """The State message's deterministic bytes, hidden parts included."""
    return _write_state(state)


def state_to_proto(state: State) -> pb.State:
    """The State message, hidden parts included."""
    return pb.State.FromString(_write_state(state))


def state_from_proto(message: pb.State) -> State:
    """The native state of a State message; MalformedRequest if it is not a consistent state."""
    state = validate(_read_state(message))
    check_state(list(message.table.stack_sizes) == [len(stack) for stack in state.stacks], "stack sizes")
    return state


# Actions.


def _action_check(condition: bool, what: str) -> None:
    if not condition:
        raise MalformedRequest(f"invalid action: {what}")


def _action_cell(message: pb.Cell, what: str) -> tuple[int, int]:
    _action_check(in_range(message.x, message.y), f"{what} out of range")
    return message.x, message.y


def _action_resource(value: int) -> int:
    _action_check(1 <= value <= 5, "resource out of range")
    return value - 1


def action_from_proto(message: pb.Action) -> act.Action:
    """The native action; MalformedRequest if no move is set or a value is out of range."""
    move = message.WhichOneof("move")
    if move is None:
        raise MalformedRequest("the action sets no move")
    if move == "take_tile":
        _action_check(1 <= message.take_tile.tile <= STACK_TILES, "tile out of range")
        return act.Action(act.TAKE_TILE, message.take_tile.tile - 1)
    if move == "place_tile":
        return act.Action(act.PLACE_TILE, *_action_cell(message.place_tile.cell, "cell"))
    if move == "pay_cube":
        x, y = _action_cell(message.pay_cube.cell, "cell")
        return act.Action(act.PAY_CUBE, x, y, _action_resource(message.pay_cube.resource))
    if move == "buy_cube":
        return act.BUY_ACTION[_action_resource(message.buy_cube.resource)]
    if move == "pay_clan_member":
        return act.Action(act.PAY_CLAN, *_action_cell(message.pay_clan_member.cell, "cell"))
    if move == "choose_cube":
        return act.CHOOSE_ACTION[_action_resource(message.choose_cube.resource)]
    if move == "activate":
        activate = message.activate
        x, y = _action_cell(activate.cell, "cell")
        _action_check(0 <= activate.count <= 5, "count out of range")
        _action_check(0 <= activate.resource <= 5, "resource out of range")
        return act.Action(act.ACTIVATE, x, y, activate.count, activate.resource)
    if move == "move_clan_member":
        x, y = _action_cell(getattr(message.move_clan_member, "from"), "origin")
        tx, ty = _action_cell(message.move_clan_member.to, "target")
        return act.Action(act.MOVE_CLAN, x, y, tx, ty)
    if move == "make_chieftain":
        return act.Action(act.MAKE_CHIEFTAIN, *_action_cell(message.make_chieftain.cell, "cell"))
    if move == "sell":
        return act.SELL_ACTION[_action_resource(message.sell.resource)]
    return _EMPTY_MOVES[move]


_EMPTY_MOVES = {
    "discard_first_tile": act.DISCARD_FIRST_ACTION,
    "pay_chieftain": act.PAY_CHIEFTAIN_ACTION,
    "end_activations": act.END_ACTIVATIONS_ACTION,
    "end_movement": act.END_MOVEMENT_ACTION,
}
_EMPTY_KINDS = {action.kind: name for name, action in _EMPTY_MOVES.items()}


def action_to_proto(action: act.Action) -> pb.Action:
    """The Action message."""
    kind, a, b, c, d = action
    if kind == act.TAKE_TILE:
        return pb.Action(take_tile=pb.TakeTile(tile=a + 1))
    if kind == act.PLACE_TILE:
        return pb.Action(place_tile=pb.PlaceTile(cell=pb.Cell(x=a, y=b)))
    if kind == act.PAY_CUBE:
        return pb.Action(pay_cube=pb.PayCube(cell=pb.Cell(x=a, y=b), resource=c + 1))
    if kind == act.BUY_CUBE:
        return pb.Action(buy_cube=pb.BuyCube(resource=a + 1))
    if kind == act.PAY_CLAN:
        return pb.Action(pay_clan_member=pb.PayClanMember(cell=pb.Cell(x=a, y=b)))
    if kind == act.CHOOSE_CUBE:
        return pb.Action(choose_cube=pb.ChooseCube(resource=a + 1))
    if kind == act.ACTIVATE:
        return pb.Action(activate=pb.Activate(cell=pb.Cell(x=a, y=b), count=c, resource=d))
    if kind == act.MOVE_CLAN:
        move = pb.MoveClanMember(to=pb.Cell(x=c, y=d))
        getattr(move, "from").CopyFrom(pb.Cell(x=a, y=b))
        return pb.Action(move_clan_member=move)
    if kind == act.MAKE_CHIEFTAIN:
        return pb.Action(make_chieftain=pb.MakeChieftain(cell=pb.Cell(x=a, y=b)))
    if kind == act.SELL:
        return pb.Action(sell=pb.Sell(resource=a + 1))
    message = pb.Action()
    getattr(message, _EMPTY_KINDS[kind]).SetInParent()
    return message


# Views.


def vp_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) may see `seat`'s VP: always with the option public_vp
    (OP-23), else only its own, and everyone's once the game is over (the final scores are public)."""
    return state.config.public_vp or viewer == seat or state.terminal


def encode_views(state: State, state_bytes: bytes) -> list[bytes]:
    """Every seat's view, then the spectator's: the State's table (spliced from `state_bytes`, the
    state's `encode_state`) and the seat, without the VP of the seats whose VP it may not see."""
    viewers = [*range(state.n), None]
    if all(vp_visible(state, viewer, seat) for viewer in viewers for seat in range(state.n)):
        table = leading_field(state_bytes)
        return [table + _write_view((None, seat)) for seat in viewers]
    table_message = pb.State.FromString(state_bytes).table
    return [_view(state, seat, table_message).SerializeToString(deterministic=True) for seat in viewers]


def view_to_proto(state: State, seat: int | None) -> pb.View:
    """What `seat` may see: the public table (stack sizes, not their order; no RNG), without the VP
    of the seats whose VP it may not see."""
    if seat is not None:
        check_seat(state, seat)
    return _view(state, seat, state_to_proto(state).table)


def views_to_proto(state: State, state_message: pb.State | None = None) -> list[pb.View]:
    """Every seat's view, then the spectator's."""
    return [pb.View.FromString(data) for data in encode_views(state, encode_state(state))]


def _view(state: State, seat: int | None, table: pb.Table) -> pb.View:
    view = pb.View(table=table)
    for s, player in enumerate(view.table.players):
        if not vp_visible(state, seat, s):
            player.vp = 0
            player.scoring_vp = 0
            player.vp_hidden = True
    if seat is not None:
        view.seat = seat
    return view


# Events.


def encode_event(event: tuple) -> tuple[bytes, str, tuple[int, ...]]:  # type: ignore[type-arg]
    """The Event message's bytes, its text, and who may see it: everyone, except VP gained with the
    option public_vp off, which only their seat sees (OP-23)."""
    visible_to: tuple[int, ...] = ()
    if isinstance(event, ev.VpGained) and not event.public:
        visible_to = (event.seat,)
    return _write_event(event), event_text(event), visible_to


def event_to_proto(event: tuple) -> tuple[pb.Event, str, tuple[int, ...]]:  # type: ignore[type-arg]
    """`encode_event` with the Event message."""
    data, text, visible_to = encode_event(event)
    return pb.Event.FromString(data), text, visible_to

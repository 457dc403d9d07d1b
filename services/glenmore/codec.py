"""Glen More's own part of the conversion to boardgame.glenmore.v1, besides services.common.convert:
the native layouts that differ from the messages (territories as parallel lists, cells as ints, the
track as one chain of ints, the Turn and its Payment flat on the State), the actions' ranges and the
views (whose VP a seat sees: services.glenmore.visibility). Native ids count from 0 where enums and
tile numbers count from 1 (ENUM_OFFSETS, TILE). Decoding refuses what the encoding cannot hold
(undeclared enum values, cells out of range, two tiles on a cell); the consistency of the whole
state is `validate.validate`."""

from __future__ import annotations

from typing import Any

from boardgame.glenmore.v1 import glenmore_pb2 as pb
from boardgame.rules.v1 import rules_pb2

from services.common import convert as cv
from services.common.codec import Codec
from services.common.helpers import check_state
from services.common.masking import masked
from services.common.rng import Rng
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import MAX_PLAYERS, STACK_TILES
from services.glenmore.labels import event_text
from services.glenmore.state import DIE, NO_CELL, NO_PAYMENT, Config, Player, State, figure
from services.glenmore.territory import MAX_COORDINATE, cell, in_range, xy
from services.glenmore.validate import validate
from services.glenmore.visibility import vp_visible

ENUM_OFFSETS = {pb.Resource: 1, pb.SpecialLocation: 1}
TILE = {"tile": 1}  # every message's `tile` field holds a tile number, the native tile index + 1

# The TrackEntry values (tile, figure, die) of each chain entry, and the chain entry of each.
TRACK_ENTRIES: dict[int, tuple[Any, ...]] = {tile: (tile, None, None) for tile in range(STACK_TILES)}
TRACK_ENTRIES |= {figure(seat): (None, seat, None) for seat in range(MAX_PLAYERS)}
TRACK_ENTRIES[DIE] = (None, None, ())
CHAIN_ENTRIES = {values: entry for entry, values in TRACK_ENTRIES.items()}


# State.


def _cell(x: int, y: int) -> int:
    check_state(in_range(x, y), "a cell is out of range")
    return cell(x, y)


def _entry(*values: Any) -> int:
    """The chain entry of a TrackEntry's values."""
    entry = CHAIN_ENTRIES.get(values)
    check_state(entry is not None, "a track entry holding no stack tile, seat's figure or die")
    return entry  # type: ignore[return-value]


def _place(player: Player, territory: list[tuple[int, int, int, list[int]]]) -> None:
    """The territory, from its PlacedTile values: each tile on a cell of its own."""
    player.set_territory(territory)
    check_state(NO_CELL not in player.grid, "a territory tile without a cell")
    check_state(len(player.grid) == len(player.tiles), "two tiles on one cell")


def _activated(state: State, cells: list[int]) -> None:
    """The actor's activated tiles, from their cells in slot order (the players and actor are decoded)."""
    grid = state.players[state.actor].grid if 0 <= state.actor < len(state.players) else {}
    slots = [grid.get(c, -1) for c in cells]
    check_state(-1 not in slots and slots == sorted(set(slots)), "activated tiles")
    state.activated = sum(1 << slot for slot in slots)


def _stacks(state: State, stacks: list[list[int]]) -> None:
    """The stacks, whose sizes the table claims (held in `stacks` until now, the last field decoded):
    a false claim is refused after what `validate` refuses besides."""
    claimed, state.stacks = state.stacks, stacks
    if claimed != [len(stack) for stack in stacks]:
        validate(state)
        check_state(False, "stack sizes")


CONVERTER = cv.Converter(
    [pb.Config, pb.State, pb.View, pb.Action, pb.Event],
    {
        # An option is written only when it differs from its default (so that a default config encodes
        # as it did before the options existed) and read as its default when unset (OP-23).
        pb.Config: cv.options(pb.Config, Config),
        pb.State: cv.Shape(
            base="table", get={"stacks": lambda s: [(k,) for k in s.stacks]}, put={"stacks": _stacks}
        ),
        pb.TileStack: cv.Shape(sequence=True, make=lambda tiles: tiles),
        pb.Table: cv.Shape(
            get={
                "track": lambda s: [TRACK_ENTRIES[e] for e in s.track],
                "stack_sizes": lambda s: [len(stack) for stack in s.stacks],
            },
            # The sizes the table claims wait in `stacks` for the State's stacks (see _stacks).
            names={"player_count": "n", "stack_sizes": "stacks"},
            offsets={"discarded_tiles": 1},
            layouts={
                "market": cv.Indexed("market"),
                "turn": cv.Inline(pb.Turn, State.clear_turn, {"activated": _activated}, ["payment"]),
            },
            into=State,
            constants={"legal": None},
        ),
        pb.TrackEntry: cv.Shape(sequence=True, make=_entry),
        **dict.fromkeys((pb.DieFigure, pb.MarketRow, pb.View), cv.Shape(sequence=True)),
        pb.Player: cv.Shape(
            get={"territory": lambda p: p.territory(xy), "vp_hidden": lambda p: False},
            into=Player,
            put={
                "territory": _place,
                "vp_hidden": lambda p, hidden: check_state(not hidden, "hidden VP in a state"),
            },
        ),
        pb.PlacedTile: cv.Shape(sequence=True),
        # An unset ResourceCounts holds none, as protobuf reads it.
        pb.ResourceCounts: cv.Shape(sequence=True, make=list, absent=lambda: [0, 0, 0, 0, 0]),
        pb.Cell: cv.Shape(sequence=True, make=_cell, absent=lambda: NO_CELL),
        pb.Turn: cv.Shape(
            get={
                "cell": lambda s: xy(s.cell) if s.placed else None,
                "payment": lambda s: None if s.purpose == NO_PAYMENT else s,
                "activated": lambda s: [xy(c) for c in s.activated_cells()],
            },
            make=cv.field_values,
        ),
        pb.Payment: cv.Shape(
            get={
                "activation_cell": lambda s: None if s.activation_cell == NO_CELL else xy(s.activation_cell)
            },
            make=cv.field_values,
        ),
        rules_pb2.RngState: cv.Shape(make=Rng, absent=lambda: Rng(0, 0)),
        # Events: what the native events hold otherwise than their messages.
        pb.TilesDrawn: cv.Shape(offsets={"tiles": 1}),
        pb.CubeGained: cv.Shape(get={"lost": lambda e: e.cell is None}),
        # A NamedTuple's field may not be named `count` (tuple.count): the events name what they count.
        **dict.fromkeys((pb.WhiskySpent, pb.WhiskyGained), cv.Shape(names={"count": "barrels"})),
        pb.ClanMembersGained: cv.Shape(names={"count": "members"}),
    },
    ENUM_OFFSETS,
    TILE,
)
_write_view = CONVERTER.writer(pb.View)


# Actions: a native action is (kind, arguments) in the order of the Action message's oneof.

COORDINATES = range(-MAX_COORDINATE, MAX_COORDINATE + 1)
# An Activate's resource is read as its number (a kind + 1, 0: none).
ACTION_SHAPES = {pb.Activate: cv.Shape(offsets={"resource": 0})}
ACTIONS = cv.KindTuples(
    pb.Action,
    "move",
    act.Action,
    ACTION_SHAPES,
    ENUM_OFFSETS,
    refuse_unset=True,
    field_offsets=TILE,
    ranges={
        pb.TakeTile: {"tile": range(STACK_TILES)},
        pb.Cell: dict.fromkeys("xy", COORDINATES),
        pb.Activate: {"count": range(6)},
    },
)


# Views.

VP_HIDDEN = {"vp": 0, "scoring_vp": 0, "vp_hidden": True}  # a Player's VP, hidden from the viewer


def _view(state: State, seat: int | None, table: bytes) -> bytes:
    """A View: the State's table field, the VP of the seats whose VP `seat` (None: a spectator) may
    not see hidden (VP_HIDDEN), and the seat."""
    hidden = [s for s in range(state.n) if not vp_visible(state, seat, s)]
    return masked(pb.View, table, "table.players", hidden, VP_HIDDEN) + _write_view((None, seat))


CODEC = Codec(
    pb,
    CONVERTER,
    ACTIONS,
    validate=validate,
    view=_view,
    event_text=event_text,
    # Every event is public, except VP gained with the option public_vp off: only its seat sees it.
    event_audience=lambda e: (e.seat,) if isinstance(e, ev.VpGained) and not e.public else (),
    exact_state_round_trip=True,
)

"""Puerto Rico's own part of the conversion to boardgame.puertorico.v1 (services.common.convert does
the rest): where the native state is laid out otherwise than its messages (in the converter's
generic layouts), which options are always written, the actions, and who sees what.

Native ids count from 0 where their enums count from 1 (0 is UNSPECIFIED): ENUM_OFFSETS. Decoding
refuses what the encoding cannot hold (undeclared or unset enum values, a seat without its record, a
tile or building listed twice); the consistency of the whole state is `validate.validate`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from boardgame.puertorico.v1 import puertorico_pb2 as pb
from boardgame.rules.v1 import rules_pb2

from services.common import convert as cv
from services.common.codec import Codec
from services.common.errors import MalformedRequest
from services.common.rng import Rng
from services.puertorico import actions as act
from services.puertorico import events as ev
from services.puertorico.data import BUILDINGS, CIRCLE_TILES, MIN_PLAYERS, TILE_KINDS
from services.puertorico.labels import event_text
from services.puertorico.setup import check_config
from services.puertorico.state import Config, Player, State
from services.puertorico.validate import validate

# The options older than the open points are always written, so that a default config encodes
# exactly as it did before the open points existed; the others only when they differ from their defaults.
CONFIG = cv.options(pb.Config, Config, always_written=("public_vp", "vp_pool_5p", "buildings"))
# The enums whose native ids count from 0 (the others' native values are their numbers).
ENUM_OFFSETS = {pb.Good: 1, pb.Tile: 1, pb.Role: 1, pb.Building: 1, pb.BlackMarketItem: 1}


# A colonist's space (actions.SPACES): a tile kind, or BUILDING_SPACE + a building.
SPACE = cv.Union(pb.ColonistTarget, ENUM_OFFSETS)
# The messages whose native values are tuples of their fields.
TUPLE = cv.Shape(sequence=True)
TUPLES = (pb.View, pb.RoleCard, pb.CargoShip, pb.IslandTiles, pb.CityBuilding, pb.BuildingStock, pb.SeatVp)
CONVERTER = cv.Converter(
    [pb.Config, pb.State, pb.View, pb.Action, pb.Event],
    {
        pb.Config: CONFIG,
        pb.State: cv.Shape(
            base="table",
            # A board's message lacks its VP chips and forests: hidden, they are the State's.
            layouts={
                "vp_chips": cv.Gather("players", "vp"),
                "forests": cv.Gather("players", "forests", lambda s: s.expansion, lambda: [0, 0, 0, 0, 0]),
            },
        ),
        pb.Table: cv.Shape(
            names={"player_count": "n"},
            layouts={
                "roles": cv.Columns("roles", "role_doubloons", "role_taken"),
                "cargo_ships": cv.Columns("ship_cap", "ship_good", "ship_count"),
                "buildings_for_sale": cv.Tally(stock=len(BUILDINGS)),
            },
            into=State,
            constants={"legal": None},
        ),
        pb.Player: cv.Shape(
            # The forests (the last tile kind) hold no colonist.
            layouts={
                "island": cv.Tally(tiles=TILE_KINDS, occupied=len(CIRCLE_TILES)),
                "city": cv.Keyed("buildings"),
            },
            into=Player,
            constants={"vp": 0, "forests": []},  # the State's, which its Gather layouts put here
            copy=Player.copy,
            key=cv.ATTRIBUTES,
        ),
        rules_pb2.RngState: cv.Shape(make=Rng, absent=lambda: Rng(0, 0)),
        pb.GoodCounts: cv.Shape(sequence=True, make=list),
        pb.ColonistTarget: SPACE.shape,
        pb.ColonistMove: TUPLE,
        **dict.fromkeys(TUPLES, TUPLE),
        # Events: the native names that differ from the messages'.
        pb.GuestMoved: cv.Shape(
            get={"target": lambda e: e.tile if e.tile >= 0 else act.BUILDING_SPACE + e.building}
        ),
        pb.ColonistsReceived: cv.Shape(names={"count": "colonists"}),
        pb.GoodsLoaded: cv.Shape(names={"count": "barrels"}),
        pb.ColonistShipRefilled: cv.Shape(names={"count": "colonists"}),
    },
    ENUM_OFFSETS,
)
_write_view = CONVERTER.writer(pb.View)


# Actions: a native action is (kind, arg, arg2); its kind names its member of the Action oneof
# (ACTION_KINDS), a place (a ColonistTarget or ColonistLocation) as its member's index and value, a
# colonist's move as two spaces (see SPACE).


def _moved(move: tuple[Any, Any]) -> act.Action:
    source, destination = (SPACE.id(*(target or (None, None))) for target in move)
    _check_action((source, destination) in act.MOVE, "colonist move")
    return act.MOVE[source, destination]  # type: ignore[index]


MEMBERS = [f.name for f in pb.Action.DESCRIPTOR.oneofs_by_name["move"].fields]
# The native kinds follow the oneof, but placing a colonist and moving a guest take two kinds each
# (onto a tile, onto a building).
ACTION_KINDS = [*MEMBERS[:7], "place_colonist", *MEMBERS[7:29], "move_guest", *MEMBERS[29:]]
MOVES = {"move_colonist": cv.Special(lambda a: (SPACE.values(a[1]), SPACE.values(a[2])), _moved)}
ACTIONS = cv.KindTuples(
    pb.Action, "move", act.Action, {}, ENUM_OFFSETS, kinds=ACTION_KINDS, special=MOVES, refuse_unset=True
)
# The kinds whose argument is a tile: a circle (a forest holds no colonist).
TILE_ARGUMENT = frozenset((act.PLACE_ON_TILE, act.GUEST_TO_TILE))


def _check_arguments(action: act.Action, message: pb.Action) -> None:
    """Refuse an action whose arguments are out of their kind's range."""
    kind, arg, arg2 = action
    _check_action(kind not in TILE_ARGUMENT or arg in CIRCLE_TILES, "tile")
    _check_action(kind != act.RETURN_COLONIST or arg != act.FROM_TILE or arg2 in CIRCLE_TILES, "tile")
    _check_action(kind != act.LOAD or 0 <= arg2 < act.MAX_SHIPS, "ship")
    _check_action(kind != act.DRAFT_COST or arg in act.DRAFT_COST_ACTION, "draft cost")
    _check_action(kind != act.SMALL_WHARF_GOODS or arg2 >= 1, "count")


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
            len(state.plantation_stack),
            [(s, p.vp) for s, p in enumerate(players) if vp_visible(state, seat, s)],
            players[seat].forests if mine and state.expansion else None,  # type: ignore[index]
            state.hacienda_tile if mine and seat == state.actor else -1,
        )
    )


CODEC = Codec(
    pb,
    CONVERTER,
    ACTIONS,
    validate=validate,
    view=_view,
    event_text=event_text,
    # VP amounts only their owner sees, unless public.
    event_audience=lambda e: (e.seat,) if isinstance(e, ev.VpReceived) and not e.public else (),
    check_config=partial(check_config, MIN_PLAYERS),
    check_action=_check_arguments,
    exact_state_round_trip=True,
)

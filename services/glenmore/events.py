"""Events the engine emits: one NamedTuple per kind, converted to protobuf only at the service edge.

Each is named as its Event message and, where a tuple allows it, its fields as the message's (a
Python keyword with "_"), so that services.common.convert writes it. Cells are (x, y) pairs;
resources and cards are native indices. Every event is public except a
VpGained whose `public` is false (option `public_vp` off), which only its seat may see.
"""

from __future__ import annotations

from typing import Final, NamedTuple

Cell = tuple[int, int]

DISCARD_PASSED: Final = 1
DISCARD_DIE: Final = 2
DISCARD_NO_LEGAL_TILE: Final = 3
VP_ACTIVATION: Final = 1
VP_SCORING: Final = 2


class GameStarted(NamedTuple):
    start_player: int


class TilesDrawn(NamedTuple):
    tiles: tuple[int, ...]


class TileTaken(NamedTuple):
    seat: int
    tile: int


class TileDiscarded(NamedTuple):
    tile: int
    reason: int


class DieRolled(NamedTuple):
    roll: int


class TilePlaced(NamedTuple):
    seat: int
    tile: int
    cell: Cell


class CubeSpent(NamedTuple):
    seat: int
    resource: int
    cell: Cell


class CubeBought(NamedTuple):
    seat: int
    resource: int
    price: int


class CubeSold(NamedTuple):
    seat: int
    resource: int
    price: int
    cell: Cell


class ClanMemberSpent(NamedTuple):
    seat: int
    chieftain: bool
    cell: Cell | None


class WhiskySpent(NamedTuple):
    seat: int
    barrels: int


class CardTaken(NamedTuple):
    seat: int
    card: int


class TileActivated(NamedTuple):
    seat: int
    tile: int
    cell: Cell
    loch_ness: bool


class CubeGained(NamedTuple):
    seat: int
    resource: int
    cell: Cell | None  # None: lost for want of room


class VpGained(NamedTuple):
    seat: int
    amount: int
    reason: int
    public: bool = True  # False: only `seat` may see it (option public_vp off)


class WhiskyGained(NamedTuple):
    seat: int
    barrels: int


class CoinsGained(NamedTuple):
    seat: int
    amount: int


class ClanMembersGained(NamedTuple):
    seat: int
    members: int
    cell: Cell


class MovementGained(NamedTuple):
    seat: int
    points: int


class ClanMemberMoved(NamedTuple):
    seat: int
    from_: Cell
    to: Cell


class ChieftainMade(NamedTuple):
    seat: int
    cell: Cell


class TurnEnded(NamedTuple):
    seat: int


class SeatScoring(NamedTuple):
    seat: int
    whisky: int
    whisky_vp: int
    chieftains: int
    chieftain_vp: int
    cards: int
    card_vp: int


class ScoringDone(NamedTuple):
    number: int
    seats: tuple[SeatScoring, ...]
    vp_hidden: bool = False  # the seats' VP are withheld, read 0 (each seat gets a private VpGained)


class SeatFinal(NamedTuple):
    seat: int
    card_vp: int
    coin_vp: int
    tile_penalty: int
    total: int
    cubes: int


class GameEnded(NamedTuple):
    seats: tuple[SeatFinal, ...]
    winners: tuple[int, ...]

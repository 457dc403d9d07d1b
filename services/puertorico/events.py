"""Events the engine emits: one NamedTuple per kind, converted to protobuf only at the service edge."""

from __future__ import annotations

from typing import Final, NamedTuple


class GameStarted(NamedTuple):
    governor: int


class RoleChosen(NamedTuple):
    seat: int
    role: int


class Passed(NamedTuple):
    seat: int
    step: int


class TileTaken(NamedTuple):
    seat: int
    tile: int
    source: int


class ColonistsReceived(NamedTuple):
    seat: int
    colonists: int
    source: int


class ColonistsArranged(NamedTuple):
    seat: int
    san_juan: int


class BuildingBuilt(NamedTuple):
    seat: int
    building: int
    price: int


class GoodsProduced(NamedTuple):
    seat: int
    goods: tuple[int, ...]
    privilege: bool
    building: int = -1  # the building that gave the goods (the aqueduct); -1 for production


class DoubloonsReceived(NamedTuple):
    seat: int
    amount: int
    reason: int


class GoodSold(NamedTuple):
    seat: int
    good: int
    price: int
    trading_post: bool = False


class GoodsLoaded(NamedTuple):
    seat: int
    good: int
    barrels: int
    ship: int  # -1: the wharf


class VpReceived(NamedTuple):
    seat: int
    amount: int
    reason: int
    public: bool  # False: only `seat` may see it


class GoodsDiscarded(NamedTuple):
    seat: int
    goods: tuple[int, ...]


class ShipsCleared(NamedTuple):
    ships: tuple[int, ...]


class TradingHouseCleared(NamedTuple):
    pass


class PlantationsRevealed(NamedTuple):
    tiles: tuple[int, ...]


class ColonistShipRefilled(NamedTuple):
    colonists: int


class EndTriggered(NamedTuple):
    trigger: int


class RoundEnded(NamedTuple):
    round: int
    next_governor: int


class GameEnded(NamedTuple):
    scores: tuple[int, ...]
    winners: tuple[int, ...]


class DraftPicked(NamedTuple):
    seat: int
    building: int


class GuestMoved(NamedTuple):
    seat: int
    tile: int  # the tile kind the guest moved to, or -1
    building: int  # the building the guest moved to, or -1


class BlackMarketReturned(NamedTuple):
    seat: int
    item: int  # data.BLACK_MARKET_COLONIST, _GOOD or _VP
    good: int  # the good returned, or -1


class SmallWharfShipped(NamedTuple):
    seat: int
    goods: tuple[int, ...]


# Reasons and sources, numbered like their protobuf enums.
DOUBLOONS_ROLE_CARD: Final = 1
DOUBLOONS_PROSPECTOR: Final = 2
DOUBLOONS_FACTORY: Final = 3
DOUBLOONS_SPECIALTY_FACTORY: Final = 4
DOUBLOONS_LIGHTHOUSE: Final = 5
VP_SHIPPING: Final = 1
VP_CAPTAIN: Final = 2
VP_HARBOR: Final = 3
VP_CHURCH: Final = 4
VP_UNION_HALL: Final = 5
FROM_SHIP: Final = 1
FROM_PRIVILEGE: Final = 2
FROM_HOSPICE: Final = 3
FROM_UNIVERSITY: Final = 4
TILE_FACE_UP: Final = 1
TILE_QUARRY: Final = 2
TILE_HACIENDA: Final = 3
TILE_LIBRARY: Final = 4

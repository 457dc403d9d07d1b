"""Events the engine emits: one NamedTuple per kind, converted to protobuf only at the service edge."""

from __future__ import annotations

from typing import NamedTuple


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


class DoubloonsReceived(NamedTuple):
    seat: int
    amount: int
    reason: int


class GoodSold(NamedTuple):
    seat: int
    good: int
    price: int


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


# Reasons and sources, numbered like their protobuf enums.
DOUBLOONS_ROLE_CARD, DOUBLOONS_PROSPECTOR, DOUBLOONS_FACTORY = 1, 2, 3
VP_SHIPPING, VP_CAPTAIN, VP_HARBOR = 1, 2, 3
FROM_SHIP, FROM_PRIVILEGE, FROM_HOSPICE, FROM_UNIVERSITY = 1, 2, 3, 4
TILE_FACE_UP, TILE_QUARRY, TILE_HACIENDA = 1, 2, 3

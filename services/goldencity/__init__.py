"""The Golden City (Die Goldene Stadt) rules: a pure engine over native data, its board and cards
taken from a versioned data set (`services.goldencity.dataset`), its codec, and its gRPC service."""

from services.goldencity.game import GOLDEN_CITY as GAME

__all__ = ["GAME"]

"""Glen More rules: a pure engine over native data, its codec, and its gRPC service."""

from services.glenmore.game import GLEN_MORE as GAME

__all__ = ["GAME"]

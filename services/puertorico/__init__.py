"""Puerto Rico rules: a pure engine over native data, its codec, and its gRPC service."""

from services.puertorico.game import PUERTO_RICO as GAME

__all__ = ["GAME"]

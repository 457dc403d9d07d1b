"""Puerto Rico rules: a pure engine over native data, its codec, and its gRPC service."""

from services.puertorico.game import PuertoRico

GAME = PuertoRico()

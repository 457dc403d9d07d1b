"""Puerto Rico rules: a pure engine over native data, its codec, and its gRPC service."""

from services.common.game import Game
from services.puertorico.game import PuertoRico

GAME: Game = PuertoRico()

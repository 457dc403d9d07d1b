"""Glen More rules: a pure engine over native data, its codec, and its gRPC service."""

from services.common.game import Game
from services.glenmore.game import GlenMore

GAME: Game = GlenMore()

"""Bot levels: the levels a player chooses a bot by (random, easy, medium, hard), weakest first.

`LEVELS` is the one table of them, read by the gateway (the catalog, the matchmaker, the bots' names)
and the workers (which bot plays a level, at what budget: `workers.bots.levels`). Each level is a
`BotStrength` value of the API; HEURISTIC and SEARCH are the older names of EASY and MEDIUM (the same
values). Each level's rating on each title is measured by self-play (`python -m bench.levels
--write`) and kept in RATINGS_FILE, committed with the code: `ratings` reads it, `nearest` picks the
level for a rating.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from boardgame.gateway.v1 import gateway_pb2

from live import matchmaking

RATINGS_FILE = Path(__file__).with_name("bot_levels.json")
# openskill's prior (its PlackettLuce defaults, as the players' ratings start): a title not measured
# shows its levels at it.
PRIOR_MU = 25.0
PRIOR_SIGMA = 25.0 / 3


@dataclass(frozen=True)
class Level:
    """A bot level: its name, its API value, the bot playing it (`workers.bots`: random, heuristic or
    search) and, for the search bot, its budget a move: `iterations`, and `seconds` at most."""

    name: str
    strength: gateway_pb2.BotStrength
    bot: str
    display_name: str  # the bots' players are named "<display_name> <number>" (gateway.bots)
    iterations: int = 0
    seconds: float = 0.0


RANDOM = Level("random", gateway_pb2.BOT_STRENGTH_RANDOM, "random", "Random bot")
EASY = Level("easy", gateway_pb2.BOT_STRENGTH_EASY, "heuristic", "Easy bot")
MEDIUM = Level("medium", gateway_pb2.BOT_STRENGTH_MEDIUM, "search", "Medium bot", iterations=250, seconds=0.5)
HARD = Level("hard", gateway_pb2.BOT_STRENGTH_HARD, "search", "Hard bot", iterations=500, seconds=1.0)
LEVELS = (RANDOM, EASY, MEDIUM, HARD)
BY_NAME = {level.name: level for level in LEVELS}
BY_STRENGTH = {int(level.strength): level for level in LEVELS}
# The names the bots' players had before the levels (bots of the same values): still nobody's to take.
RETIRED_DISPLAY_NAMES = ("Heuristic bot", "Search bot")


def of(strength: int) -> Level:
    """The level of a BotStrength value: unset or unknown is random (as AddBot seats it)."""
    return BY_STRENGTH.get(strength, RANDOM)


@dataclass(frozen=True)
class Measured:
    """A level's rating on a title as self-play measured it (openskill mu and sigma), the games it
    played there, and when (UTC date) and at which commit."""

    mu: float
    sigma: float
    games: int = 0
    measured_on: str = ""
    commit: str = ""

    @property
    def rating(self) -> float:
        """The displayed rating, as the leaderboard shows ratings (mu - 3 sigma)."""
        return matchmaking.displayed(self.mu, self.sigma)


UNMEASURED = Measured(PRIOR_MU, PRIOR_SIGMA)


@cache
def _file(path: Path = RATINGS_FILE) -> dict[str, Any]:
    if not path.exists():
        return {}
    loaded: dict[str, Any] = json.loads(path.read_text())
    return loaded


def ratings(title: str, path: Path = RATINGS_FILE) -> dict[str, Measured]:
    """Every level's measured rating on a title, by level name; the prior (games 0) for a level or a
    title not measured."""
    found = _file(path).get("titles", {}).get(title, {})
    levels = found.get("levels", {})
    result = {}
    for level in LEVELS:
        entry = levels.get(level.name)
        if entry is None:
            result[level.name] = UNMEASURED
            continue
        result[level.name] = Measured(
            float(entry["mu"]),
            float(entry["sigma"]),
            int(entry["games"]),
            str(found.get("measured_on", "")),
            str(found.get("commit", "")),
        )
    return result


def nearest(title: str, rating: float, path: Path = RATINGS_FILE) -> Level:
    """The level whose measured displayed rating on the title is nearest `rating` (the weaker on a tie);
    random when the title was never measured."""
    measured = ratings(title, path)
    known = [level for level in LEVELS if measured[level.name].games > 0]
    if not known or not math.isfinite(rating):
        return RANDOM
    return min(known, key=lambda level: abs(measured[level.name].rating - rating))

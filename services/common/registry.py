"""The game registry: one line per game. Everything generic finds games here."""

from __future__ import annotations

import importlib
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only named in annotations: reading GAME_MODULES imports no engine (deploy/compile.py)
    from services.common.game import AnyGame

GAME_MODULES: tuple[str, ...] = (
    "services.puertorico",
    "services.glenmore",
    "services.assyria",
    "services.goldencity",
)


@cache
def games() -> dict[str, AnyGame]:
    """Every registered game by name, in registry order."""
    found: dict[str, AnyGame] = {}
    for module_name in GAME_MODULES:
        game: AnyGame = importlib.import_module(module_name).GAME
        found[game.info.name] = game
    return found


def get(name: str) -> AnyGame:
    """The registered game called `name`; KeyError if there is none."""
    return games()[name]

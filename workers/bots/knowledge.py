"""A game's optional bot knowledge, found generically: `heuristic_action` and `determinize`.

A game provides them as methods (see `services.common.game.HasHeuristic` and `HasDeterminize`) or, until
its Game class forwards them, as functions of the same names in a `bot` module beside its class
(`services/<game>/bot.py`). A game with neither gets the generic behaviour: the one-ply policy of
`workers.bots.heuristic`, and `disturb_hidden` as its determinization.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache
from types import ModuleType
from typing import Any

from services.common.game import Game
from services.common.rng import Rng

Hook = Callable[[Any, int, Rng], Any]


@cache
def _bot_module(module_name: str) -> ModuleType | None:
    package = module_name.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.bot")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.bot":
            raise
        return None


def hook(game: Game, name: str) -> Hook | None:
    """The game's `name` function (a method, or a function of its bot module), or None."""
    method = getattr(game, name, None)
    if callable(method):
        return method
    module = _bot_module(type(game).__module__)
    function = getattr(module, name, None) if module is not None else None
    return function if callable(function) else None


def determinize(game: Game, state: Any, seat: int, rng: Rng) -> Any:
    """A copy of `state` whose hidden parts are resampled from what `seat` may see."""
    if not game.info.has_hidden_information and not game.info.has_chance:
        return game.copy_state(state)
    sample = hook(game, "determinize")
    if sample is not None:
        return sample(state, seat, rng)
    return game.disturb_hidden(state, seat, rng)

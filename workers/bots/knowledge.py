"""Determinization for the search bot: a game's own `determinize` if its spec has one, else its
`disturb_hidden` (which changes only hidden data too); a game with neither chance nor hidden
information is searched as it is."""

from __future__ import annotations

from typing import Any

from services.common.game import AnyGame
from services.common.rng import Rng


def determinize(game: AnyGame, state: Any, seat: int, rng: Rng) -> Any:
    """A copy of `state` whose hidden parts are resampled from what `seat` may see."""
    if not game.info.has_hidden_information and not game.info.has_chance:
        return game.copy_state(state)
    if game.determinize is not None:
        return game.determinize(state, seat, rng)
    return game.disturb_hidden(state, seat, rng)

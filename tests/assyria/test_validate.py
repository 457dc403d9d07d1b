"""validate refuses each board inconsistency of a forged state, naming it, and passes a real one."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from services.assyria import GAME
from services.assyria.board import BOARDS
from services.assyria.state import NOBODY, State
from services.assyria.validate import validate
from services.common.errors import MalformedRequest
from services.common.playout import random_playout
from services.common.rng import Rng

BASE = random_playout(GAME, 2, b"validate", rng=Rng.from_seed(b"validate"), max_steps=60).state
OFF = BOARDS[2].usable.index(False)
ZIGGURAT = next(h for h, seat in enumerate(BASE.ziggurat_seats) if seat != NOBODY)
FREE = next(
    h
    for h in range(len(BASE.hut_seats))
    if BASE.hut_seats[h] == BASE.ziggurat_seats[h] == NOBODY and BOARDS[2].usable[h]
)


def _set(name: str, hex_: int, value: object) -> Callable[[State], None]:
    return lambda state: getattr(state, name).__setitem__(hex_, value)


def test_a_real_state_passes() -> None:
    assert validate(BASE.copy()) is not None


@pytest.mark.parametrize(
    ("forge", "message"),
    [
        (_set("hut_seats", OFF, 0), "a piece off this player count's board"),
        (_set("hut_seats", ZIGGURAT, 0), "a hut and a ziggurat on one hex"),
        (_set("ziggurat_heights", ZIGGURAT, 0), "a ziggurat's height"),
        (_set("ziggurat_heights", FREE, 1), "a ziggurat's height"),
        (_set("ziggurat_heights", ZIGGURAT, 4), "a ziggurat's height"),
        (_set("fed", FREE, True), "a fed hex without a hut"),
        (_set("raised", FREE, True), "a raised hex without a ziggurat"),
        (_set("hut_seats", FREE, 2), "hut_seats: a seat out of range"),
    ],
)
def test_board_inconsistencies_are_refused(forge: Callable[[State], None], message: str) -> None:
    state = BASE.copy()
    forge(state)
    with pytest.raises(MalformedRequest, match=message):
        validate(state)

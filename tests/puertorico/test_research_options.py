"""Puerto Rico's Expansion I in the research environments: the draft puts violet buildings the base game
lacks into play, and the observation (the same length as the base game's) carries them."""

from __future__ import annotations

from research.pettingzoo_env import TitleEnv
from services.puertorico import GAME
from tests.research.test_options import finish

TITLE = GAME.info.name


def test_expansion_buildings_reach_the_market() -> None:
    """The draft of Puerto Rico's Expansion I puts violet buildings the base game lacks into play, and
    the environment's observation (the same length as the base game's) carries them."""
    base, drafted = (
        TitleEnv(TITLE, players=3),
        TitleEnv(TITLE, players=3, options={"buildings": "draft"}),
    )
    base.reset(seed=5)
    drafted.reset(seed=5)
    assert base.rules.encoder.size == drafted.rules.encoder.size
    seat = drafted.rules.acting_seat(drafted.state)
    assert seat is not None
    base_labels = {label for s in range(3) for label in base.rules.labels(base.state, s)}
    drafted_labels = drafted.rules.labels(drafted.state, seat)
    assert any(label not in base_labels for label in drafted_labels), drafted_labels
    assert finish(drafted, seed=5) > 0

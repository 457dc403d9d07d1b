"""The bot levels' table (`live.levels`): the API's values, the level nearest a rating, and each level's
budget within a worker's (`workers.bots.levels`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from boardgame.gateway.v1 import gateway_pb2

from live import levels
from live.levels import EASY, HARD, LEVELS, MEDIUM, RANDOM
from services.common import registry
from services.common.playout import default_config
from services.common.rng import Rng
from workers.bots import Budget
from workers.bots.levels import budget, level_action

TITLES = sorted(registry.games())


def test_the_levels_are_the_api_values_weakest_first_and_the_older_names_keep_their_levels() -> None:
    assert [level.name for level in LEVELS] == ["random", "easy", "medium", "hard"]
    assert [level.strength for level in LEVELS] == [
        gateway_pb2.BOT_STRENGTH_RANDOM,
        gateway_pb2.BOT_STRENGTH_EASY,
        gateway_pb2.BOT_STRENGTH_MEDIUM,
        gateway_pb2.BOT_STRENGTH_HARD,
    ]
    assert levels.of(gateway_pb2.BOT_STRENGTH_HEURISTIC) == EASY
    assert levels.of(gateway_pb2.BOT_STRENGTH_SEARCH) == MEDIUM
    assert levels.of(gateway_pb2.BOT_STRENGTH_UNSPECIFIED) == RANDOM
    assert levels.of(99) == RANDOM
    assert [level.bot for level in LEVELS] == ["random", "heuristic", "search", "search"]
    assert 0 < MEDIUM.iterations < HARD.iterations and 0 < MEDIUM.seconds <= HARD.seconds <= 1.0


def test_nearest_picks_the_level_whose_displayed_rating_is_nearest(tmp_path: Path) -> None:
    path = tmp_path / "levels.json"
    rated = {"random": (10.0, 1.0), "easy": (20.0, 1.0), "medium": (26.0, 1.0), "hard": (33.0, 1.0)}
    entry = {name: {"mu": mu, "sigma": sigma, "games": 8} for name, (mu, sigma) in rated.items()}
    path.write_text(
        json.dumps({"titles": {"t": {"measured_on": "2026-01-01", "commit": "c", "levels": entry}}})
    )
    # Displayed: random 7, easy 17, medium 23, hard 30.
    assert levels.nearest("t", 0.0, path) == RANDOM
    assert levels.nearest("t", 12.0, path) == RANDOM, "a tie goes to the weaker"
    assert levels.nearest("t", 12.1, path) == EASY
    assert levels.nearest("t", 24.0, path) == MEDIUM
    assert levels.nearest("t", 60.0, path) == HARD
    assert levels.nearest("unmeasured", 60.0, path) == RANDOM
    unmeasured = levels.ratings("unmeasured", path)
    assert unmeasured["hard"] == levels.UNMEASURED and unmeasured["hard"].rating == pytest.approx(0.0)


def test_a_levels_budget_stays_within_the_workers() -> None:
    assert budget(HARD) == Budget(seconds=HARD.seconds, iterations=HARD.iterations)
    assert budget(HARD, Budget(seconds=0.01)) == Budget(seconds=0.01, iterations=HARD.iterations)
    assert budget(HARD, Budget(seconds=0, iterations=7)) == Budget(seconds=HARD.seconds, iterations=7)
    assert budget(MEDIUM, Budget(seconds=5, iterations=10_000, rollout_depth=9)) == Budget(
        seconds=MEDIUM.seconds, iterations=MEDIUM.iterations, rollout_depth=9
    )


@pytest.mark.parametrize("title", TITLES)
def test_every_level_chooses_a_legal_action(title: str) -> None:
    game = registry.get(title)
    state, _ = game.new_game(game.info.min_players, default_config(game), b"levels")
    seat = game.acting_seats(state)[0]
    for level in LEVELS:
        action = level_action(game, state, seat, level, Rng(3), Budget(seconds=0, iterations=20))
        assert action in game.legal_actions(state, seat), level.name

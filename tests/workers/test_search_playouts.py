"""The search bot's fast path: every game's `legal_now` and `advance` (what its playouts and tree walk
use) give exactly the acting seat's legal actions and the state `play` gives, so the search chooses
as it did when it went through `legal_actions` and `play`."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from services.common import registry
from services.common.game import Game
from services.common.playout import default_config, random_playout
from services.common.rng import Rng
from workers.bots.search import rollout

TITLES = sorted(registry.games())
DEPTH = 200


def reference_rollout(game: Game, world: Any, rng: Rng, depth: int) -> None:
    """The playout as the search bot played it before its fast path: through the checked API."""
    for _ in range(depth):
        if game.is_terminal(world):
            break
        actor = game.acting_seats(world)[0]
        actions = game.legal_actions(world, actor)
        game.play(world, actor, actions[rng.below(len(actions))])


def digest(game: Game, state: Any) -> str:
    return hashlib.sha256(game.encode_state(state)).hexdigest()


@pytest.mark.parametrize("title", TITLES)
def test_legal_now_and_advance_are_legal_actions_and_play(title: str) -> None:
    game = registry.get(title)
    checked = 0
    for players in game.info.player_counts:
        state, _ = game.new_game(players, default_config(game), b"fast-%d" % players)
        rng = Rng(players)
        while not game.is_terminal(state):
            actor = game.acting_seats(state)[0]
            legal = list(game.legal_actions(state, actor))
            assert list(game.legal_now(state)) == legal
            action = legal[rng.below(len(legal))]
            fast = game.copy_state(state)
            game.advance(fast, action)
            game.play(state, actor, action)
            assert digest(game, fast) == digest(game, state)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("title", TITLES)
def test_playouts_end_where_the_checked_playout_ends(title: str) -> None:
    game = registry.get(title)
    for index in range(12):
        players = game.info.player_counts[index % len(game.info.player_counts)]
        seed = b"playout-%d" % index
        start = random_playout(game, players, seed, rng=Rng(index), max_steps=10 * index).state
        fast, checked = game.copy_state(start), game.copy_state(start)
        fast_rng, checked_rng = Rng(100 + index), Rng(100 + index)
        rollout(game, fast, fast_rng, DEPTH)
        reference_rollout(game, checked, checked_rng, DEPTH)
        assert digest(game, fast) == digest(game, checked)
        assert (fast_rng.key, fast_rng.counter) == (checked_rng.key, checked_rng.counter)

"""Puerto Rico against the IEEE CoG Puerto Rico AI competition's engine (bench/puertorico/competition.py):
whole games in lockstep with a clone of its repository made here, and the strength table's rows
without a checkout.

The competition's code is external and optional, as the Go toolchain is: without a copy (the mirror at
COMPETITION_MIRROR, or a repository or checkout at $PR_COMPETITION_DIR) the lockstep tests are skipped
with the way to provide one, and fail when CI=true.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from bench.puertorico.competition import ENV_VAR, HOW_TO_GET, play_game
from bench.strength import competition_table
from services.puertorico import GAME

TITLE = GAME.info.name

COMPETITION_MIRROR = Path("/work/.mirror/dae-hany+PuertoRico_AI_Competition/repo")


@pytest.fixture(scope="module")
def competition(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A fresh clone of the competition's repository (engine and agents checked out)."""
    source = str(COMPETITION_MIRROR) if COMPETITION_MIRROR.is_dir() else os.environ.get(ENV_VAR)
    if not source:
        reason = f"no copy of the Puerto Rico AI competition to clone: {HOW_TO_GET}"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    target = tmp_path_factory.mktemp("competition") / "repo"
    # Not a plain clone: the repository's PPO checkpoint may be absent from a mirror, and the
    # benchmark needs only the engine and the agents.
    subprocess.run(["git", "clone", "-q", "--no-checkout", source, str(target)], check=True)
    subprocess.run(
        ["git", "-C", str(target), "checkout", "-q", "HEAD", "--", "puerto_rico", "agents"], check=True
    )
    return str(target)


def test_competition_rows_without_a_checkout_say_how_to_get_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    text = competition_table(TITLE, None, 2, 0.1, None)  # type: ignore[arg-type]
    assert "not run" in text and "search vs 2 x mcts" in text
    assert "git clone" in text and ENV_VAR in text


def test_a_whole_game_in_lockstep_ends_with_the_same_scores_in_both_engines(competition: str) -> None:
    outcome = play_game(competition, 0, [("ours", "random"), ("theirs", "random"), ("theirs", "random")])
    assert outcome.mismatch is None, outcome.mismatch.report()
    assert outcome.decisions > 100
    assert outcome.our_scores is not None and outcome.their_scores is not None
    assert [s[0] for s in outcome.our_scores] == [s[0] for s in outcome.their_scores]
    assert outcome.winners


def test_our_heuristic_against_their_action_value_agent_in_lockstep(competition: str) -> None:
    outcome = play_game(
        competition, 1, [("theirs", "actionvalue"), ("ours", "heuristic"), ("theirs", "actionvalue")]
    )
    assert outcome.mismatch is None, outcome.mismatch.report()
    assert [s[0] for s in outcome.our_scores or []] == [s[0] for s in outcome.their_scores or []]


def test_the_lockstep_check_stops_a_game_where_the_engines_differ(competition: str) -> None:
    # Seed 5: a hacienda owner's turn with the face-down stack empty and tiles in the discard pile.
    # Our rules (§4.1 step 2) reshuffle the discards and offer the draw; their engine offers none.
    outcome = play_game(competition, 5, [("ours", "random"), ("theirs", "random"), ("theirs", "random")])
    assert outcome.mismatch is not None
    assert outcome.mismatch.rule == "§4.1 step 2 hacienda"
    assert "face-down stack 0" in outcome.mismatch.detail
    assert outcome.mismatch.ours and outcome.mismatch.theirs

"""Diff every golden playthrough against the same seeded game played now, in memory."""

from __future__ import annotations

import difflib
import re

import pytest

from tests.golden import cases, expected, golden_path, rendered, stale_files

MAX_DIFF_LINES = 80


@pytest.mark.parametrize(
    ("game_name", "player_count", "config"), cases(), ids=[golden_path(*case).stem for case in cases()]
)
def test_playthrough_matches_golden_file(game_name: str, player_count: int, config: str) -> None:
    """The stored playthrough is exactly what the engine plays now for the same seed and choices."""
    path = golden_path(game_name, player_count, config)
    assert path.exists(), f"{path} is missing: run `make golden` to create it"
    now = rendered(game_name, player_count, config)
    stored = path.read_text()
    if now != stored:
        diff = list(
            difflib.unified_diff(
                stored.splitlines(),
                now.splitlines(),
                f"{path.name} (stored)",
                f"{path.name} (now)",
                lineterm="",
            )
        )
        shown = "\n".join(diff[:MAX_DIFF_LINES])
        more = f"\n... {len(diff) - MAX_DIFF_LINES} more diff lines" if len(diff) > MAX_DIFF_LINES else ""
        pytest.fail(
            f"{path.name} no longer matches the engine's play. If the change is intended, run "
            f"`make golden` (python -m tests.golden --regenerate) and review the diff.\n{shown}{more}",
            pytrace=False,
        )


def test_playthrough_ends_and_names_winners() -> None:
    """Each golden playthrough reaches the end of its game and names its winners."""
    for case, text in zip(cases(), expected().values(), strict=True):
        lines = text.splitlines()
        assert any(line.startswith("over after ") for line in lines), golden_path(*case).name
        assert lines[-1].startswith("winners: ") and lines[-1] != "winners: none"


def test_no_stale_golden_files() -> None:
    """No golden file is left over from a game or player count that is no longer registered."""
    stale = stale_files(list(expected()))
    assert not stale, f"stale golden files {stale}: run `make golden` to remove them"


def test_each_decision_lists_its_seat_legal_actions_and_the_views_change() -> None:
    """Below every decision come the legal actions of the seat that chose, its choice among them, and
    after setup every seat's own part of its view."""
    for case, text in zip(cases(), expected().values(), strict=True):
        lines = text.splitlines()
        decisions = [i for i, line in enumerate(lines) if re.match(r"\s*\d+  seat \d+  ", line)]
        assert decisions, golden_path(*case).name
        for index in decisions:
            seat, label = re.match(r"\s*\d+  seat (\d+)  (.*)", lines[index]).groups()  # type: ignore[union-attr]
            below = lines[index + 1 : index + 1 + case[1]]
            legal = next((line for line in below if line.strip().startswith(f"legal for seat {seat}: ")), "")
            assert label in legal.split(": ", 1)[-1].split(" | "), (golden_path(*case).name, lines[index])
        for seat in range(case[1]):
            assert any(line.strip().startswith(f"seat {seat} view  ") for line in lines[: decisions[0]])
        assert any(line.strip().startswith("view  ") for line in lines[decisions[0] :])

"""`make bench`'s search bot table runs end to end: a baseline commit checked out beside this tree, both
searching the same positions of every registered game in turn, a figure and a verdict for each, and
the worktree removed afterwards. Tiny budgets: it checks the measuring, never the speed."""

from __future__ import annotations

import re
import subprocess

import pytest

from bench import reference_players, search
from deploy.throwaway import ROOT
from services.common import registry
from tests.bench import worktrees


def test_the_search_benchmark_measures_both_trees_on_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    made = worktrees.noted(search, monkeypatch)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    commit = head.stdout.strip()
    table = search.measure(positions=2, iterations=3, rounds=2, commit=commit)
    lines = table.splitlines()
    assert lines[0].startswith(f"(s) search bot, iterations per CPU second: this tree against {commit[:10]}")
    rows = {cells[0]: cells[1:] for cells in (re.split(r"\s{2,}", line.strip()) for line in lines[3:])}
    assert sorted(rows) == sorted(registry.games()), table
    for name, (players, budget, baseline, now, ratio, target, meets, same) in rows.items():
        assert players == str(reference_players(registry.get(name))), table
        assert budget == "2 x 3", table
        assert float(baseline.replace(",", "")) > 0 and float(now.replace(",", "")) > 0, table
        assert re.fullmatch(r"\d+\.\d\dx", ratio), table
        assert (target, meets) == (">= 3.0x", "yes" if float(ratio[:-1]) >= 3.0 else "NO"), table
        # HEAD and this tree search alike: the same choices, unless this tree's bots were changed.
        assert same == "2/2", table
    worktrees.assert_removed(made)

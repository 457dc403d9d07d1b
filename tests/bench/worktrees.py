"""The baseline worktrees a benchmark checks out (`bench.pipeline.worktree`), noted so that a test can
check its own were removed, whatever other tests add and remove meanwhile."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from deploy.throwaway import ROOT


def listed() -> set[Path]:
    """The checkout's worktrees now."""
    run = subprocess.run(
        ["git", "worktree", "list", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return {
        Path(line.removeprefix("worktree "))
        for line in run.stdout.splitlines()
        if line.startswith("worktree ")
    }


def noted(module: ModuleType, monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The folders `module`'s `worktree` will check out, as it makes them."""
    made: list[Path] = []
    checkout = module.worktree

    @contextlib.contextmanager
    def noting(commit: str) -> Iterator[Path]:
        with checkout(commit) as folder:
            made.append(folder)
            yield folder

    monkeypatch.setattr(module, "worktree", noting)
    return made


def assert_removed(made: list[Path]) -> None:
    """One worktree was made, and it is gone from git's list and from the disk."""
    assert len(made) == 1, made
    assert made[0] not in listed() and not made[0].exists(), f"the baseline {made[0]} stayed"

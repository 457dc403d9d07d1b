"""`make bench`'s live-path table runs end to end: a baseline commit checked out beside this tree, both
gateways loaded the same way, every figure measured, and the worktree removed afterwards."""

from __future__ import annotations

import re
import subprocess

import pytest

from bench import pipeline
from deploy.throwaway import ROOT
from tests.bench import worktrees


def test_the_live_path_benchmark_measures_both_gateways_and_the_crowd(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    made = worktrees.noted(pipeline, monkeypatch)
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True)
    table = pipeline.measure(
        games=2, crowd=4, processes=1, warmup=0.2, seconds=1.0, commit=head.stdout.strip(), rounds=1
    )
    rows = {
        cells[0]: cells[1:]
        for cells in (re.split(r"\s{2,}", line.strip()) for line in table.splitlines()[3:])
    }
    for label in (
        "2 games, no pauses: moves per second",
        "gateway CPU ms per move",
        "one game alone: submit-to-event p50 ms",
        "bare path ms (2 gRPC echoes + 2 PINGs)",
        "transport alone: gateway CPU ms per move (bench.transport)",
        "every process on the machine: CPU ms per move",
        "moves per second the cores allow were the gateway at the transport alone",
    ):
        baseline, now = (float(value.replace(",", "")) for value in rows[label][:2])
        assert baseline > 0 and now > 0, (label, table)
    assert rows["4 games, 0-2 s pauses: every game played, no stall or failure"][1:] == [
        "yes",
        "-",
        "yes",
        "yes",
    ], table
    worktrees.assert_removed(made)

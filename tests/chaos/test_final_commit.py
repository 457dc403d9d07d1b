"""kill -9 between a game's last commit and its scoring (`chaos.final_commit`, 20 rounds in `make
chaos`), once for each kind of process: a gateway, the worker and Redis. Every game is scored and
archived exactly once: the outbox sweep performs what the killed committer wrote with its commit."""

from __future__ import annotations

import asyncio

from chaos import final_commit, suite
from live.archiving import SWEEP_SETTLE_MS


def test_a_kill_between_the_last_commit_and_the_scoring_loses_no_scoring() -> None:
    title = final_commit.quickest_title()
    with suite.running(final_commit.ENVIRONMENT) as running:
        report = asyncio.run(final_commit.run(running, 1, title))
        rendered = report.render()
        log = running.data_dir / "launcher.log"
        # A gateway's INTERNAL answer is explained by the traceback it logged, maybe long before the tail.
        logged = suite.around(log, "gateway failure", 150)
        assert report.passed, f"{rendered}\n{suite.tail(log, 60)}\n{logged}"
    assert sorted(o.kind for o in report.outcomes) == sorted(final_commit.KINDS), rendered


def test_a_round_gives_up_before_the_archive_sweep_could_mend_a_lost_archival() -> None:
    assert final_commit.FOLLOW_TIMEOUT_SECONDS < SWEEP_SETTLE_MS / 1000

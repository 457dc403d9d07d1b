"""A short chaos tournament (`make chaos` in small): a few games on the real processes under the
launcher, every kind of process killed once with kill -9 while they play, then every check of
`chaos.checks`: nothing lost, nothing applied twice, every game finished and replayed bit for bit."""

from __future__ import annotations

import asyncio

from chaos import killer, suite
from chaos.tournament import Options, tournament


def test_a_short_chaos_tournament_loses_nothing() -> None:
    with suite.running() as running:
        kinds = killer.kinds(running)
        # The scripted clients think long enough for every kind of process to be killed while they
        # play, each back before the next kill, on a busy machine too (at 0.1 s the games ended after
        # 7 of 8 kills with make test's four processes on two cores).
        options = Options(bot_games=2, human_games=2, kills=len(kinds), pause=(0.3, 1.5), think=0.2)
        report = asyncio.run(tournament(running, options))
        rendered = report.render()
        assert report.passed, rendered + "\n" + suite.tail(running.data_dir / "launcher.log", 60)
    assert set(report.killer.kills) == set(kinds), rendered  # every kind of process, once
    assert report.findings.counts["games replayed bit for bit"] == 4, rendered
    assert report.findings.counts["moves acknowledged"] > 0, rendered
    assert report.clients["failovers"] > 0, rendered  # the clients did meet a dead gateway

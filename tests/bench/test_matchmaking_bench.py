"""Table (h) of `python -m bench`: the matchmaker's throughput, measured on real servers (small runs)."""

from __future__ import annotations

from bench import matchmaking


def test_the_matchmaker_table_has_a_rate_for_the_script_and_for_the_streams() -> None:
    report = matchmaking.measure(script_players=300, stream_players=2 * matchmaking.SEATS)
    rows = report.splitlines()[3:]
    assert [row.split("  ")[0] for row in rows] == ["match script", "FindMatch streams, one gateway"]
    for row in rows:
        assert float(row.split()[-1].replace(",", "")) > 0, report

"""`make bench`'s conversion table runs on every registered game and measures every figure."""

from __future__ import annotations

import re
from pathlib import Path

import prometheus_client

from bench import conversion
from services.common import registry


def cache_hits() -> float:
    """How many lookups in the rules services' state caches of this process have hit."""
    hits = prometheus_client.REGISTRY.get_sample_value("rules_state_cache_lookups_total", {"result": "hit"})
    return hits or 0.0


def test_the_conversion_table_measures_every_figure_of_every_game(tmp_path: Path) -> None:
    games = list(registry.games().values())
    figures = tmp_path / "conversion.json"
    text = conversion.report(games, samples=2, json_out=str(figures), baseline=None)
    written = conversion.read_json(str(figures))
    assert list(written) == list(registry.games())
    for name, measured in written.items():
        assert measured["samples"] == 2, name
        for key, _ in conversion.FIGURES:
            assert measured[key] > 0, (name, key)
        # The engine alone is part of a whole call, which also decodes, encodes and builds views.
        assert measured["apply_us"] < measured["call_uncached_us"], name
        assert measured["codec_lines"] > 0, name
    rows = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()[3:]]
    assert [row[0] for row in rows] == list(registry.games())


def test_the_baseline_table_compares_each_figure_and_holds_the_call_to_its_target(tmp_path: Path) -> None:
    game = next(iter(registry.games().values()))
    results = [conversion.measure_conversion(game, conversion.reference_players(game), samples=2)]
    baseline = tmp_path / "baseline.json"
    conversion.write_json(results, str(baseline))
    text = conversion.baseline_table(results, conversion.read_json(str(baseline)), "itself")
    rows = [re.split(r"\s{2,}", line.strip()) for line in text.splitlines()[3:]]
    assert len(rows) == len(conversion.FIGURES) + 1  # and the codec's lines
    assert {row[4] for row in rows} == {"1.00"}
    target = [row for row in rows if row[5] != "-"]
    assert [row[1] for row in target] == ["call, cache off"]
    assert target[0][5:] == [f"<= {conversion.CALL_TARGET_SHARE:g}", "NO"]


def test_with_the_cache_on_each_timed_call_finds_its_state_in_the_cache() -> None:
    for name, game in registry.games().items():
        before = cache_hits()
        result = conversion.measure_conversion(game, conversion.reference_players(game), samples=2)
        timed_calls = result.samples * (conversion.ROUNDS + 1)  # and a round to warm up
        assert result.cache_used == game.exact_state_round_trip, name
        assert cache_hits() - before >= (timed_calls if result.cache_used else 0), name

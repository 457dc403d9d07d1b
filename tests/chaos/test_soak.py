"""The soak's figures: growth per hour after the warm-up, the bounded verdict, and the PNG plot."""

from __future__ import annotations

import asyncio
import math
import re
import statistics
import time
from pathlib import Path

from chaos import soak


def series(*bounds: soak.Bound) -> dict[str, soak.Series]:
    return {f"series {i}": soak.Series(lambda: 0.0, bound) for i, bound in enumerate(bounds)}


def test_a_flat_series_is_bounded_and_a_growing_one_is_not(tmp_path: Path) -> None:
    measures = series(soak.STEADY, soak.STEADY)
    rows = [[float(t), 100.0 + (50.0 if t > 30 else t), 10.0 + t] for t in range(0, 121, 10)]
    text, bounded = soak.report(
        measures, rows, capacity=100.0, load=soak.Load(rate=80.0, moves=8000), seconds=120
    )
    flat, growing = (re.split(r"\s{2,}", line.strip()) for line in text.splitlines()[3:])  # cells
    assert flat[6] == "yes" and float(flat[4].replace(",", "")) == 0.0
    assert growing[6] == "NO" and float(growing[4].replace(",", "")) == 3600.0  # 1 a second
    assert not bounded
    _, bounded = soak.report(series(soak.STEADY), [row[:2] for row in rows], 100.0, soak.Load(), 120)
    assert bounded
    path = tmp_path / "soak.png"
    soak.plot(measures, rows, path, "a soak")
    assert path.read_bytes().startswith(b"\x89PNG")


def test_a_pool_is_bounded_below_its_ceiling_and_a_window_by_its_expiry() -> None:
    rows = [[float(t), 20.0 + t, 1.0 + t / 100] for t in range(0, 121, 10)]  # both grow throughout
    pool, window = soak.Bound(ceiling=200.0), soak.Bound(window_hours=1.0)
    text, bounded = soak.report(series(pool, window), rows, 100.0, soak.Load(), 120)
    assert bounded, text
    assert "at most 200" in text and "plateau ~36.0 after 1 h" in text  # 0.01 a second for an hour
    _, bounded = soak.report(
        series(soak.Bound(ceiling=100.0)), [row[:2] for row in rows], 100.0, soak.Load(), 120
    )
    assert not bounded  # 140 connections: past its ceiling, so not the pool it claims to be


def test_the_pace_spaces_moves_at_its_rate() -> None:
    async def six_moves() -> float:
        load = soak.Load(rate=50.0)
        started = time.monotonic()
        await asyncio.gather(*(load() for _ in range(6)))
        return time.monotonic() - started

    assert 0.09 <= asyncio.run(six_moves()) < 0.5  # the sixth waits 5 intervals of 20 ms


def test_spikes_of_a_noisy_series_are_not_growth() -> None:
    times = [float(t) for t in range(0, 180, 3)]
    depth = [14.0 if i % 7 == 3 else float(i % 3) for i in range(len(times))]  # a queue, bursts
    assert abs(soak.growth_per_hour(times, depth)) < 1e-9


def test_a_queue_that_keeps_emptying_drains_and_one_that_falls_behind_does_not() -> None:
    times = [float(t) for t in range(0, 180, 3)]
    bursts = [[t, 14.0 if i % 7 == 3 else float(i % 3)] for i, t in enumerate(times)]  # back to 0
    behind = [[t, row[1] + i] for i, (t, row) in enumerate(zip(times, bursts, strict=True))]  # rising
    queue = series(soak.Bound(drains=True))
    assert soak.report(queue, bursts, 100.0, soak.Load(), 180)[1]
    text, bounded = soak.report(queue, behind, 100.0, soak.Load(), 180)
    assert not bounded, text


def test_keys_trimmed_to_a_cap_are_bounded_while_none_is_past_it() -> None:
    rows = [[float(t), 1.0 + t / 10] for t in range(0, 121, 10)]  # filling throughout
    full = soak.Fullest(over=0, family="inbox", longest=250, limit=200, plateau_mb=3.5, slack=100)
    text, bounded = soak.report(series(soak.Bound(fill=lambda: full)), rows, 100.0, soak.Load(), 120)
    assert bounded, text
    assert "fullest inbox 250/200 (+100 allowed)" in text and "~3.5 at caps" in text
    past = soak.Fullest(over=2, family="player_games", longest=140, limit=100, plateau_mb=1.0)
    text, bounded = soak.report(series(soak.Bound(fill=lambda: past)), rows, 100.0, soak.Load(), 120)
    assert not bounded and "2 past" in text


def test_keys_expiring_later_reach_a_plateau_at_their_expiry_and_unknown_keys_are_named() -> None:
    rows = [[float(t), 1.0 + t / 100, 5.0] for t in range(0, 121, 10)]  # growing, then flat
    later = soak.Bound(expires_later=lambda: soak.Plateau(864.0, "lobby", 36.0, 24.0))
    unknown = soak.Bound(note=lambda: "unknown: mystery... x2")
    text, bounded = soak.report(series(later, unknown), rows, 100.0, soak.Load(), 120)
    assert bounded, text
    assert "plateau ~864.0; most lobby, +36.00/h for 24 h" in text and "unknown: mystery... x2" in text


def test_series_of_one_panel_share_it() -> None:
    measures = {
        "a": soak.Series(lambda: 0.0, soak.STEADY, "Redis"),
        "b": soak.Series(lambda: 0.0),
        "c": soak.Series(lambda: 0.0, soak.STEADY, "Redis"),
    }
    assert soak.panels(measures) == {"Redis": [0, 2], "b": [1]}


def test_a_steady_series_noisier_than_its_trend_is_bounded_and_a_trend_out_of_its_noise_is_not() -> None:
    """The live games' logs make the keys without expiry jump by kilobytes as games end and start: a
    few kilobytes more in the last sixth is noise, not growth, unless the trend stands out of it."""
    times = [float(t) for t in range(0, 1760, 10)]
    noise = [30.0 * math.sin(i) for i in range(len(times))]
    step = [200.0 + wobble + (10.0 if i > len(times) * 5 // 6 else 0.0) for i, wobble in enumerate(noise)]
    rising = [200.0 + wobble + 0.2 * moment for moment, wobble in zip(times, noise, strict=True)]
    kept = len(times) // 2
    growth = soak.growth_per_hour(times[kept:], step[kept:])
    assert growth > soak.BOUNDED_SHARE_PER_HOUR * statistics.fmean(step[kept:])  # by the 10% alone: NO
    slope, error = soak.trend(times[kept:], step[kept:])
    assert 0 < slope <= soak.SIGNIFICANT_ERRORS * error
    rows = [[moment, a, b] for moment, a, b in zip(times, step, rising, strict=True)]
    text, bounded = soak.report(series(soak.STEADY, soak.STEADY), rows, 100.0, soak.Load(), 1760)
    noisy, growing = (re.split(r"\s{2,}", line.strip()) for line in text.splitlines()[3:])
    assert (noisy[6], growing[6]) == ("yes", "NO"), text
    assert "noise" in noisy[7] and not bounded

"""bench.levels: a title's table of one bot of every level, seats rotated, rated and written where the
gateway reads the levels' ratings (`live.levels`). Tiny search budgets: it checks the measuring, never
the strength."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from bench.levels import Played, Task, fit, lineups, measure, tasks_for
from live import levels
from live.levels import LEVELS
from tests.titles import GAME, TITLE

TINY = tuple(dataclasses.replace(level, iterations=min(level.iterations, 3)) for level in LEVELS)


def test_a_titles_tables_seat_every_level_in_every_seat() -> None:
    tables = lineups(TITLE, TINY)
    seats = len(tables[0])
    assert seats == (len(TINY) if GAME.info.min_players <= len(TINY) <= GAME.info.max_players else 2)
    tasks = tasks_for(TITLE, seats, TINY, time_cap=False)
    assert [task.index for task in tasks] == list(range(len(tables) * seats))
    for lineup in tables:
        rotated = [task.seats for task in tasks if set(task.seats) == set(lineup)]
        assert {order.index(lineup[0]) for order in rotated} == set(range(seats))


def test_the_fit_rates_the_levels_game_by_game_from_the_players_prior() -> None:
    random, easy, medium, hard = LEVELS
    games = [
        Played(Task("t", 0, (random, easy, medium, hard), False), (4, 3, 2, 1), ((), (), (0.1,), (0.5,))),
        Played(Task("t", 1, (easy, medium, hard, random), False), (2, 2, 1, 4), ((), (0.2,), (0.7,), ())),
    ]
    result = fit(games, LEVELS)
    mus = [result.ratings[level.name].mu for level in LEVELS]
    assert mus == sorted(mus) and len(set(mus)) == 4
    assert all(result.ratings[level.name].games == 2 for level in LEVELS)
    assert result.firsts == {"random": 0.0, "easy": 0.0, "medium": 0.0, "hard": 2.0}
    assert result.ahead[("medium", "easy")] == [1.0, 0.5]
    assert result.ahead[("hard", "random")] == [1.0, 1.0]
    assert result.seconds["hard"] == [0.5, 0.7]


def test_a_measured_title_is_written_where_the_gateway_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "bot_levels.json"
    path.write_text(json.dumps({"titles": {"kept": {"games": 1, "levels": {}}}}))
    report = measure([TITLE], 1, processes=1, levels=TINY, write_to=path)
    assert f"bot levels: {TITLE}" in report and "finishing ahead" in report
    written = json.loads(path.read_text())["titles"]
    assert set(written) == {"kept", TITLE}, "the other titles' entries are kept"
    entry = written[TITLE]
    games = len(lineups(TITLE, TINY))
    assert entry["games"] == games and len(entry["commit"]) == 40
    measured = levels.ratings(TITLE, path)
    for level in TINY:
        assert entry["levels"][level.name]["iterations"] == level.iterations
        assert measured[level.name].games == games
        assert measured[level.name].mu == entry["levels"][level.name]["mu"]

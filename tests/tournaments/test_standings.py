"""Standings: points from placings, byes, and each tie-break in its turn, on worked examples; and
seeding by rating."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from live.tournaments import seeding
from live.tournaments.standings import Bye, Placing, bye_points, placed, placement_points, standings
from tests.tournaments.support import field_of, played


def test_two_seats_score_as_chess() -> None:
    win = [Placing("a", 1), Placing("b", 2)]
    draw = [Placing("a", 1), Placing("b", 1)]
    assert (placement_points(win, "a"), placement_points(win, "b")) == (1.0, 0.0)
    assert placement_points(draw, "a") == placement_points(draw, "b") == 0.5


def test_a_table_of_four_with_a_tie_and_a_forfeit() -> None:
    table = [Placing("a", 1), Placing("b", 2), Placing("c", 2), Placing("d", 4, forfeited=True)]
    assert [placement_points(table, p) for p in "abcd"] == [3.0, 1.5, 1.5, 0.0]


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 6), st.integers(0, 2**32))
def test_a_table_shares_k_times_k_minus_1_over_2_points(seats: int, seed: int) -> None:
    table = played(field_of(seats), random.Random(seed))
    total = sum(placement_points(table, placing.player_id) for placing in table)
    assert total == seats * (seats - 1) / 2


def test_buchholz_then_sonneborn_berger_then_scores_then_seed() -> None:
    # Two rounds of two-seat games among four: a beats b and c; d beats c, loses... see each line.
    tables = [
        [Placing("a", 1, 10, 1), Placing("b", 2, 5)],
        [Placing("c", 1, 7), Placing("d", 2, 6)],
        [Placing("a", 1, 9), Placing("c", 2, 8)],
        [Placing("b", 1, 4), Placing("d", 2, 3, 2)],
    ]
    result = standings(["a", "b", "c", "d"], tables, [])
    assert [(s.player_id, s.points, s.buchholz, s.sonneborn_berger) for s in result] == [
        ("a", 2.0, 2.0, 2.0),
        ("c", 1.0, 2.0, 0.0),  # met a (2) and d (0); beat d (0 points): SB 0
        ("b", 1.0, 2.0, 0.0),  # met a (2) and d (0); level with c on both: scores 9 < 15
        ("d", 0.0, 2.0, 0.0),
    ]
    assert [(s.score_total, s.tiebreak_total, s.games) for s in result] == [
        (19, 1, 2),
        (15, 0, 2),
        (9, 0, 2),
        (9, 2, 2),
    ]


def test_sonneborn_berger_splits_equal_buchholz() -> None:
    tables = [
        [Placing("a", 1), Placing("b", 2)],
        [Placing("c", 1), Placing("d", 2)],
        [Placing("b", 1), Placing("c", 2)],
        [Placing("d", 1), Placing("a", 2)],
    ]
    result = standings(["a", "b", "c", "d"], tables, [])
    # All have 1 point and Buchholz 2; SB: each beat one opponent of 1 point.
    assert {s.player_id: s.points for s in result} == dict.fromkeys("abcd", 1.0)
    assert [s.player_id for s in result] == ["a", "b", "c", "d"], "then by seed"


def test_a_bye_gives_its_points_and_no_opponent() -> None:
    result = standings(["a", "b", "c"], [[Placing("a", 1), Placing("b", 2)]], [Bye("c", bye_points(2))])
    by_id = {s.player_id: s for s in result}
    assert (by_id["c"].points, by_id["c"].byes, by_id["c"].games, by_id["c"].buchholz) == (1.0, 1, 0, 0.0)
    assert [s.player_id for s in result] == ["a", "c", "b"], "a's Buchholz (0) equals c's: seed"
    assert bye_points(4, 0.5) == 1.5


def test_elimination_places_by_how_far_each_got() -> None:
    tables = [
        [Placing("a", 1), Placing("d", 2)],
        [Placing("b", 1), Placing("c", 2)],
        [Placing("b", 1), Placing("a", 2)],
    ]
    ordered = standings(["a", "b", "c", "d"], tables, [])
    reached = {"b": (3, 0), "a": (2, 2), "c": (1, 2), "d": (1, 2)}
    assert [s.player_id for s in placed(ordered, reached)] == ["b", "a", "c", "d"]


def test_seeding_by_rating_keeps_registration_order_on_ties() -> None:
    registered = ["x", "y", "z", "w"]
    assert seeding.seeded(registered, {"y": 3.0, "z": 3.0, "w": -1.0}) == ["y", "z", "x", "w"]

"""Single elimination: the round count, round 1's tables bringing the field to a power of k with byes
to the top seeds, snake seating, and whole brackets played down to one champion."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from live.tournaments import elimination
from tests.tournaments.support import field_of, is_partition, played


@pytest.mark.parametrize(
    ("entrants", "seats", "expected"), [(2, 2, 1), (3, 2, 2), (16, 2, 4), (17, 2, 5), (9, 3, 2), (10, 3, 3)]
)
def test_rounds_is_the_fewest_with_room_for_everyone(entrants: int, seats: int, expected: int) -> None:
    assert elimination.rounds(entrants, seats) == expected


def test_sixteen_at_three_seats_gives_the_top_five_a_bye() -> None:
    pairing = elimination.pair(field_of(16), 3, 2)
    assert pairing.byes == ("e01", "e02", "e03", "e04", "e05")
    assert pairing.tables == (
        ("e06", "e13", "e14"),
        ("e07", "e12", "e15"),
        ("e08", "e11", "e16"),
        ("e09", "e10"),
    )


def test_a_short_table_below_the_titles_fewest_seats_is_split_again() -> None:
    assert elimination.table_sizes(8, 4, 2) == ([4, 2], 2)  # 8 -> 4: a full table removes 3, a short 1
    assert elimination.table_sizes(8, 4, 3) == ([3, 3], 2)  # a table of 2 would not do: two of 3
    with pytest.raises(elimination.NoBracket):
        elimination.table_sizes(5, 4, 3)  # 5 -> 4: one table of 2, which the title cannot seat


def brute_sizes(entrants: int, seats: int, fewest: int, target: int) -> bool:
    """Whether some tables of `fewest` to `seats` seats and byes bring `entrants` to `target`."""
    for tables in range(1, target + 1):
        removed = entrants - target
        if tables * (fewest - 1) <= removed <= tables * (seats - 1):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 5).flatmap(lambda k: st.tuples(st.just(k), st.integers(2, k), st.integers(2, 300))))
def test_round_one_brings_the_field_to_a_power_of_the_table_size(case: tuple[int, int, int]) -> None:
    seats, fewest, entrants = case
    target = 1 if entrants <= seats else seats ** (elimination.rounds(entrants, seats) - 1)
    try:
        sizes, byes = elimination.table_sizes(entrants, seats, fewest)
    except elimination.NoBracket:
        assert not brute_sizes(entrants, seats, fewest, target)
        return
    assert all(fewest <= size <= seats for size in sizes)
    assert sum(sizes) + byes == entrants
    assert len(sizes) + byes == target, "one winner a table, and the byes, go on"
    removed, short = entrants - target, sum(1 for size in sizes if size < seats)
    if removed % (seats - 1) == 0 or removed % (seats - 1) + 1 >= fewest:
        assert short <= 1, "full tables wherever they fit"


@settings(max_examples=100, deadline=None)
@given(st.integers(2, 5), st.integers(2, 80), st.integers(0, 2**32))
def test_a_bracket_plays_down_to_one_champion(seats: int, count: int, seed: int) -> None:
    rng = random.Random(seed)
    entrants = field_of(count)
    seeds = {player: number for number, player in enumerate(entrants, start=1)}
    remaining = entrants
    played_rounds = 0
    while len(remaining) > 1:
        pairing = elimination.pair(remaining, seats, 2)
        assert is_partition(pairing, remaining)
        if played_rounds:
            assert not pairing.byes and all(len(table) == seats for table in pairing.tables)
        assert list(pairing.byes) == remaining[: len(pairing.byes)], "byes to the top seeds"
        winners = []
        for table in pairing.tables:
            ranks = {placing.player_id: placing.rank for placing in played(table, rng)}
            winners.append(elimination.winner(ranks, seeds))
        remaining = sorted([*pairing.byes, *winners], key=seeds.__getitem__)
        played_rounds += 1
    assert played_rounds == elimination.rounds(count, seats)


def test_a_shared_first_place_sends_the_better_seed_on() -> None:
    seeds = {"e01": 1, "e02": 2, "e03": 3}
    assert elimination.winner({"e03": 1, "e02": 1, "e01": 3}, seeds) == "e02"


def test_snake_order_spreads_the_seeds() -> None:
    assert elimination.snake(field_of(8), [4, 4]) == [
        ("e01", "e04", "e05", "e08"),
        ("e02", "e03", "e06", "e07"),
    ]
    assert elimination.snake(field_of(5), [3, 2]) == [("e01", "e04", "e05"), ("e02", "e03")]

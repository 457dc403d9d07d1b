"""Round-robin schedules: the circle method meets every pair exactly once; tables of more seats meet
every pair at least once, in full tables with the leftover entrants sitting out in turn."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from math import ceil

import pytest

from live.tournaments import roundrobin
from live.tournaments.pairing import meetings, pair_of
from tests.tournaments.support import field_of, is_partition


@pytest.mark.parametrize("count", range(2, 31))
def test_the_circle_method_meets_every_pair_exactly_once(count: int) -> None:
    entrants = field_of(count)
    rounds = roundrobin.schedule(entrants, 2)
    assert len(rounds) == (count if count % 2 else count - 1)
    met = meetings(table for pairing in rounds for table in pairing.tables)
    assert met == Counter({pair_of(a, b): 1 for a, b in combinations(entrants, 2)})
    assert all(is_partition(pairing, entrants) for pairing in rounds)
    byes = Counter(player for pairing in rounds for player in pairing.byes)
    assert byes == (Counter(entrants) if count % 2 else Counter())


def test_the_circle_method_turns_round_the_first_entrant() -> None:
    rounds = roundrobin.schedule(field_of(4), 2)
    assert [pairing.tables for pairing in rounds] == [
        (("e01", "e04"), ("e02", "e03")),
        (("e01", "e03"), ("e04", "e02")),
        (("e01", "e02"), ("e03", "e04")),
    ]


CASES = [(seats, count) for seats in (3, 4, 5) for count in range(seats, 31)]


@pytest.mark.parametrize(("seats", "count"), CASES)
def test_larger_tables_meet_every_pair_with_byes_in_turn(seats: int, count: int) -> None:
    entrants = field_of(count)
    rounds = roundrobin.schedule(entrants, seats)
    met = meetings(table for pairing in rounds for table in pairing.tables)
    assert set(met) == {pair_of(a, b) for a, b in combinations(entrants, 2)}, "every pair meets"
    for pairing in rounds:
        assert is_partition(pairing, entrants)
        assert all(len(table) == seats for table in pairing.tables)
        assert len(pairing.byes) == count % seats
    byes = Counter(player for pairing in rounds for player in pairing.byes)
    assert max(byes[player] for player in entrants) - min(byes[player] for player in entrants) <= 2
    # Each entrant meets seats - 1 others a round it plays, and plays (count - byes) / count of them.
    least = ceil((count - 1) / (seats - 1) * count / (count - count % seats))
    assert least <= len(rounds) <= 2 * least
    assert roundrobin.schedule(entrants, seats) == rounds, "the same schedule every time"


def test_a_field_smaller_than_a_table_has_no_schedule() -> None:
    assert roundrobin.schedule(field_of(2), 3) == []


def test_sixteen_entrants_at_three_seats() -> None:
    rounds = roundrobin.schedule(field_of(16), 3)
    met = meetings(table for pairing in rounds for table in pairing.tables)
    assert (len(rounds), max(met.values())) == (13, 3)  # the figures docs/tournaments.md gives

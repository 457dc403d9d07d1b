"""Swiss pairing: every entrant once, full tables, byes to the lowest-ranked and one each at most, no
repeat meeting while one can be avoided (checked against an exhaustive search), the top ranks
together."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from live.tournaments import swiss
from live.tournaments.pairing import Pairing, meetings, pair_of, repeats
from tests.tournaments.support import field_of, is_partition, repeat_free_exists


def test_the_top_ranks_meet_and_the_lowest_sits_out() -> None:
    order = field_of(7)
    pairing = swiss.pair(order, 3, {}, set())
    assert pairing == Pairing((("e01", "e02", "e03"), ("e04", "e05", "e06")), ("e07",))


def test_a_bye_goes_to_the_lowest_ranked_who_had_none() -> None:
    order = field_of(7)
    assert swiss.pair(order, 2, {}, {"e07", "e06"}).byes == ("e05",)
    assert swiss.byes(order, 2, {"e07"}) == ["e06", "e05"]
    assert swiss.byes(order, 2, set(order)) == ["e07", "e06"], "everyone had one: the lowest again"
    assert swiss.byes(order, 2, set(order) - {"e01"}) == ["e01", "e07"]


def test_a_table_that_would_repeat_a_meeting_is_paired_another_way() -> None:
    order = field_of(4)
    met = meetings([("e01", "e02"), ("e03", "e04")])
    assert swiss.pair(order, 2, met, set()).tables == (("e01", "e03"), ("e02", "e04"))
    met.update(meetings([("e01", "e03"), ("e02", "e04")]))
    assert swiss.pair(order, 2, met, set()).tables == (("e01", "e04"), ("e02", "e03"))


def test_the_search_looks_past_a_first_table_that_strands_the_rest() -> None:
    # e01 with e02 would leave e03 and e04, who met: the search seats e01 with e03 instead.
    met = meetings([("e03", "e04"), ("e01", "e04")])
    assert swiss.pair(field_of(4), 2, met, set()).tables == (("e01", "e03"), ("e02", "e04"))


def test_when_every_pairing_repeats_the_fewest_repeats_are_chosen() -> None:
    order = field_of(4)
    met = meetings([("e01", "e02"), ("e03", "e04"), ("e01", "e03"), ("e02", "e04")])
    met.update(meetings([("e01", "e04"), ("e02", "e03"), ("e01", "e02"), ("e03", "e04")]))
    pairing = swiss.pair(order, 2, met, set())
    assert swiss.without_repeats(order, 2, met) is None
    assert pairing.tables == (("e01", "e03"), ("e02", "e04")), "each pair met once: the least met"


def test_a_search_out_of_budget_settles_for_the_greedy_tables() -> None:
    order = field_of(6)
    assert swiss.without_repeats(order, 3, {}, budget=1) is None
    assert swiss.pair(order, 3, {}, set()).tables == (("e01", "e02", "e03"), ("e04", "e05", "e06"))


@st.composite
def swiss_state(draw: st.DrawFn) -> tuple[list[str], int, Counter[frozenset[str]], set[str]]:
    """A field, a table size and the rounds played so far (with made-up ranking orders)."""
    seats = draw(st.integers(2, 5))
    entrants = field_of(draw(st.integers(seats, 13)))
    rng = random.Random(draw(st.integers(0, 2**32)))
    met: Counter[frozenset[str]] = Counter()
    had_bye: set[str] = set()
    for _ in range(draw(st.integers(0, 4))):
        order = rng.sample(entrants, len(entrants))
        pairing = swiss.pair(order, seats, met, had_bye)
        met.update(meetings(pairing.tables))
        had_bye.update(pairing.byes)
    return rng.sample(entrants, len(entrants)), seats, met, had_bye


@settings(max_examples=150, deadline=None)
@given(swiss_state())
def test_a_round_seats_everyone_once_at_full_tables_with_fair_byes(
    state: tuple[list[str], int, Counter[frozenset[str]], set[str]],
) -> None:
    order, seats, met, had_bye = state
    pairing = swiss.pair(order, seats, met, had_bye)
    assert is_partition(pairing, order)
    assert all(len(table) == seats for table in pairing.tables)
    assert len(pairing.byes) == len(order) % seats
    without = [player for player in order if player not in had_bye]
    if len(without) >= len(pairing.byes):
        assert not set(pairing.byes) & had_bye, "nobody gets a second bye while others had none"
        assert list(pairing.byes) == without[::-1][: len(pairing.byes)], "the lowest-ranked sit out"
    assert swiss.pair(order, seats, met, had_bye) == pairing, "the same round every time"


@settings(max_examples=150, deadline=None)
@given(swiss_state())
def test_no_repeat_meeting_while_the_rest_can_be_seated_without(
    state: tuple[list[str], int, Counter[frozenset[str]], set[str]],
) -> None:
    order, seats, met, had_bye = state
    pairing = swiss.pair(order, seats, met, had_bye)
    seated = [player for player in order if player not in pairing.byes]
    total = sum(repeats(met, table) for table in pairing.tables)
    assert (total == 0) == repeat_free_exists(seated, seats, met)
    first = pairing.tables[0]
    assert first[0] == seated[0], "the highest-ranked takes the first table"


def test_a_sixteen_entrant_swiss_of_four_rounds_at_three_seats_never_repeats() -> None:
    entrants = field_of(16)
    rng = random.Random(7)
    met: Counter[frozenset[str]] = Counter()
    had_bye: set[str] = set()
    for _ in range(4):
        pairing = swiss.pair(rng.sample(entrants, 16), 3, met, had_bye)
        assert all(met[pair_of(a, b)] == 0 for table in pairing.tables for a in table for b in table if a < b)
        assert len(pairing.byes) == 1 and not set(pairing.byes) & had_bye
        met.update(meetings(pairing.tables))
        had_bye.update(pairing.byes)
    assert len(had_bye) == 4

"""Round-robin schedules: every entrant meets every other.

Tables of two: the circle method. Entrant 1 stays put and the others turn round it one place a
round; an odd field adds an empty place, whose partner sits out. n - 1 rounds (n for an odd field),
every pair meets exactly once and every entrant of an odd field sits out once.

Tables of k > 2 seats: a pair meets at most once in a perfect schedule, which exists for few field
sizes, so the schedule is built round by round to cover the pairs not yet met as fast as it can,
until every pair has met at least once. Each round the `n mod k` who sit out are first those who have
met everyone already, then those who sat out least, then those with the fewest pairs left to meet.
Each table then starts from the seated entrant with the most opponents left to meet, and takes, seat
by seat, the entrant who has met the fewest of those at the table (then who has met them least often,
then whoever has the most left to meet). A round always brings at least one new meeting, so the
schedule ends; its length for a field is `len(schedule(...))`, fixed when the tournament starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from live.tournaments.pairing import Meetings, Pairing, meetings, pair_of


def schedule(entrants: Sequence[str], seats: int) -> list[Pairing]:
    """Every round of a round robin of the entrants (in seed order) at tables of `seats`."""
    if len(entrants) < seats:
        return []
    if seats == 2:
        return circle(entrants)
    return covering(entrants, seats)


def circle(entrants: Sequence[str]) -> list[Pairing]:
    """The circle method for tables of two (see the module docstring)."""
    places: list[str | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)
    count = len(places)
    rounds = []
    for _ in range(count - 1):
        tables: list[tuple[str, ...]] = []
        byes: list[str] = []
        for index in range(count // 2):
            first, second = places[index], places[count - 1 - index]
            if first is None or second is None:
                byes.append(first or second or "")
            else:
                tables.append((first, second))
        rounds.append(Pairing(tuple(tables), tuple(byes)))
        places = [places[0], places[-1], *places[1:-1]]
    return rounds


def _left_to_meet(player: str, among: Sequence[str], unmet: set[frozenset[str]]) -> int:
    """How many of `among` the entrant has not met yet."""
    return sum(1 for other in among if other != player and pair_of(player, other) in unmet)


def covering(entrants: Sequence[str], seats: int) -> list[Pairing]:
    """Rounds of tables of `seats` > 2 until every pair has met (see the module docstring)."""
    position = {player: index for index, player in enumerate(entrants)}
    unmet = {pair_of(a, b) for a, b in combinations(entrants, 2)}
    sat_out = dict.fromkeys(entrants, 0)
    met = meetings([])
    rounds: list[Pairing] = []
    while unmet:
        left = {player: _left_to_meet(player, entrants, unmet) for player in entrants}
        by_need = sorted(entrants, key=lambda p: (left[p] > 0, sat_out[p], left[p], -position[p]))
        byes = by_need[: len(entrants) % seats]
        seated = [player for player in entrants if player not in byes]
        tables = [_table(seated, seats, unmet, met, left, position) for _ in range(len(seated) // seats)]
        covered = {pair_of(a, b) for table in tables for a, b in combinations(table, 2)}
        if not covered & unmet:
            raise AssertionError("a round-robin round met nobody new")  # never: see the docstring
        unmet -= covered
        met.update(meetings(tables))
        for player in byes:
            sat_out[player] += 1
        rounds.append(Pairing(tuple(tables), tuple(byes)))
    return rounds


def _table(
    seated: list[str],
    seats: int,
    unmet: set[frozenset[str]],
    met: Meetings,
    left: dict[str, int],
    position: dict[str, int],
) -> tuple[str, ...]:
    """The next table of a round, taken out of `seated` (see the module docstring)."""
    first = max(seated, key=lambda p: (_left_to_meet(p, seated, unmet), -position[p]))
    table = [first]
    seated.remove(first)
    while len(table) < seats:

        def fit(p: str) -> tuple[int, int, int, int]:
            new = sum(1 for q in table if pair_of(p, q) in unmet)
            again = sum(met.get(pair_of(p, q), 0) for q in table)
            return (-new, again, -left[p], position[p])

        chosen = min(seated, key=fit)
        table.append(chosen)
        seated.remove(chosen)
    return tuple(table)

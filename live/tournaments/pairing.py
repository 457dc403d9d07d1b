"""What one round of a tournament is: its tables (entrant ids in seat order) and its byes, and who
has met whom so far."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import combinations

Meetings = Mapping[frozenset[str], int]  # a pair of entrant ids -> how many tables they shared


@dataclass(frozen=True)
class Pairing:
    """One round's seating: its tables, each a tuple of entrant ids, and the entrants who sit out."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()

    def entrants(self) -> list[str]:
        """Every entrant of the round, seated or on a bye."""
        return [player for table in self.tables for player in table] + list(self.byes)


def pair_of(first: str, second: str) -> frozenset[str]:
    """The key of two entrants in `Meetings`."""
    return frozenset((first, second))


def meetings(tables: Iterable[Iterable[str]]) -> Counter[frozenset[str]]:
    """How many of these tables each pair of entrants shared."""
    met: Counter[frozenset[str]] = Counter()
    for table in tables:
        for first, second in combinations(table, 2):
            met[pair_of(first, second)] += 1
    return met


def repeats(met: Meetings, table: Iterable[str]) -> int:
    """How many pairs at `table` have met before."""
    return sum(met.get(pair_of(first, second), 0) for first, second in combinations(table, 2))

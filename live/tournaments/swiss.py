"""Swiss pairing for tables of any size: the Monrad system (neighbours in the standings meet)
extended from pairs to tables of k seats, never seating two entrants together twice while a way
round it exists.

A round is paired from `order`, the entrants still playing by score and then seed (the caller's
ranking). When the entrants do not fill whole tables, the `n mod k` left over sit out with a bye:
the lowest-ranked who have not had one yet (an entrant gets at most one while anyone is left
without). The others are seated top down: the highest-ranked unseated entrant takes the next table
with the next highest who have met nobody at it, searched depth first so that a table that would
leave the rest without a repeat-free seating is tried another way. The search gives up after
SEARCH_BUDGET steps (only ever reached where repeats are unavoidable or nearly so) and then seats each
table greedily with the fewest repeat meetings.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from collections.abc import Set as AbstractSet

from live.tournaments.pairing import Meetings, Pairing, pair_of, repeats

SEARCH_BUDGET = 20_000  # tables tried before the search settles for the fewest repeat meetings


class _OutOfBudget(Exception):
    """The repeat-free search took its whole budget."""


def byes(order: Sequence[str], count: int, had_bye: AbstractSet[str]) -> list[str]:
    """The `count` entrants who sit out: the lowest-ranked of those without a bye, then (only once
    everyone had one) the lowest-ranked of the rest."""
    chosen = [player for player in reversed(order) if player not in had_bye][:count]
    again = [player for player in reversed(order) if player not in chosen]
    return chosen + again[: count - len(chosen)]


def pair(order: Sequence[str], seats: int, met: Meetings, had_bye: AbstractSet[str]) -> Pairing:
    """The round's tables of `seats` and its byes (see the module docstring)."""
    sitting_out = byes(order, len(order) % seats, had_bye)
    out = set(sitting_out)
    playing = [player for player in order if player not in out]
    tables = without_repeats(playing, seats, met)
    if tables is None:
        tables = fewest_repeats(playing, seats, met)
    return Pairing(tuple(tables), tuple(sitting_out))


def without_repeats(
    players: Sequence[str], seats: int, met: Meetings, budget: int = SEARCH_BUDGET
) -> list[tuple[str, ...]] | None:
    """Tables of `seats` in which nobody meets anyone again, the highest-ranked together first (depth
    first, in ranking order); None when there are none, or none found within `budget` steps."""
    left = [budget]

    def step() -> None:
        left[0] -= 1
        if left[0] < 0:
            raise _OutOfBudget

    def groups(table: tuple[str, ...], candidates: Sequence[str], size: int) -> Iterator[tuple[str, ...]]:
        if size == 0:
            yield ()
            return
        for index, player in enumerate(candidates):
            step()
            if any(met.get(pair_of(player, other), 0) for other in table):
                continue
            for more in groups((*table, player), candidates[index + 1 :], size - 1):
                yield (player, *more)

    def seat(unseated: Sequence[str]) -> list[tuple[str, ...]] | None:
        if not unseated:
            return []
        first, rest = unseated[0], unseated[1:]
        for others in groups((first,), rest, seats - 1):
            taken = set(others)
            found = seat([player for player in rest if player not in taken])
            if found is not None:
                return [(first, *others), *found]
        return None

    try:
        return seat(list(players))
    except _OutOfBudget:
        return None


def fewest_repeats(players: Sequence[str], seats: int, met: Meetings) -> list[tuple[str, ...]]:
    """Tables of `seats`, each the highest-ranked unseated entrant with those who add the fewest repeat
    meetings to it (the higher-ranked on a tie)."""
    left = list(players)
    tables = []
    while left:
        table = [left.pop(0)]
        while len(table) < seats:
            best = min(range(len(left)), key=lambda index: (repeats(met, [*table, left[index]]), index))
            table.append(left.pop(best))
        tables.append(tuple(table))
    return tables

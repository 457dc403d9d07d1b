"""Single elimination at tables of k seats: each table's winner goes on, the others are out.

Every round after the first seats exactly k^j entrants at full tables, so the field must first come
down to a power of k: round 1 brings n entrants to T = k^(r-1), where r = rounds(n, k) is the fewest
rounds with k^r >= n. The top seeds go straight to round 2 (byes), the others play, and each table
sends one winner on, so a table of s seats removes s - 1 entrants: the tables must remove n - T in
all. Full tables remove k - 1 each; when n - T is not a multiple of k - 1, one table is short (or,
if that table would have fewer seats than the title allows, a full table is split into short ones
until every table has enough). The byes are what is left: T minus the number of tables.

The field is re-seeded every round: the entrants still in, by their seed, are dealt to the round's
tables in snake order (table 1, 2, ... t, then t ... 2, 1, ...), so the top seeds meet as late as
possible. A table's winner is its seat ranked first (the rules' rank, the title's tie-breaks
included); seats sharing first place go on by their seed, the better one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from live.tournaments.pairing import Pairing


class NoBracket(ValueError):
    """No bracket fits the field: too few entrants, or a table the title cannot seat."""


def rounds(entrants: int, seats: int) -> int:
    """How many rounds a field of `entrants` takes at tables of `seats` (0 for fewer than 2)."""
    count, reach = 0, 1
    while reach < entrants:
        reach *= seats
        count += 1
    return count


def table_sizes(entrants: int, seats: int, fewest_seats: int) -> tuple[list[int], int]:
    """The sizes of the tables of a round of `entrants` (largest first) and how many byes it has;
    NoBracket when no tables of `fewest_seats` to `seats` bring the field to the next power of k."""
    if entrants < 2:
        raise NoBracket(f"{entrants} entrant(s) make no bracket")
    if entrants <= seats:
        if entrants < fewest_seats:
            raise NoBracket(f"a final table of {entrants} is below the title's {fewest_seats} players")
        return [entrants], 0
    target = seats ** (rounds(entrants, seats) - 1)
    to_remove = entrants - target
    full, rest = divmod(to_remove, seats - 1)
    for split in range(full + 1):  # full tables broken up into `split + 1` short ones
        short_count = split + 1 if rest or split else 0
        removed = rest + split * (seats - 1)
        if short_count and not (short_count * (fewest_seats - 1) <= removed <= short_count * (seats - 1)):
            continue
        even, over = divmod(removed, short_count) if short_count else (0, 0)
        shares = [even + (1 if index < over else 0) for index in range(short_count)]
        sizes = [seats] * (full - split) + [share + 1 for share in shares]
        byes = target - len(sizes)
        if byes >= 0 and all(fewest_seats <= size <= seats for size in sizes):
            return sorted(sizes, reverse=True), byes
    raise NoBracket(f"no tables of {fewest_seats} to {seats} bring {entrants} entrants to {target}")


def snake(players: Sequence[str], sizes: Sequence[int]) -> list[tuple[str, ...]]:
    """Deal `players` (best first) to tables of `sizes` in snake order, skipping full tables."""
    tables: list[list[str]] = [[] for _ in sizes]
    order = list(range(len(sizes)))
    turn = 0
    dealt = iter(players)
    while any(len(table) < size for table, size in zip(tables, sizes, strict=True)):
        for index in order if turn % 2 == 0 else reversed(order):
            if len(tables[index]) < sizes[index]:
                tables[index].append(next(dealt))
        turn += 1
    return [tuple(table) for table in tables]


def pair(remaining: Sequence[str], seats: int, fewest_seats: int) -> Pairing:
    """The round of the entrants still in (by seed, best first): byes to the top seeds, the others
    dealt to the tables in snake order."""
    sizes, byes = table_sizes(len(remaining), seats, fewest_seats)
    return Pairing(tuple(snake(remaining[byes:], sizes)), tuple(remaining[:byes]))


def winner(ranks: Mapping[str, int], seeds: Mapping[str, int]) -> str:
    """The entrant a finished table sends on: ranked first, the better seed among those sharing it."""
    return min(ranks, key=lambda player: (ranks[player], seeds[player]))

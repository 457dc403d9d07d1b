"""Helpers of the pure tournament tests: fields of entrants and rounds played with made-up results."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from live.tournaments.pairing import Meetings, Pairing, pair_of
from live.tournaments.standings import Placing


def field_of(count: int) -> list[str]:
    """Entrant ids e01, e02, ... by seed."""
    return [f"e{number:02d}" for number in range(1, count + 1)]


def played(table: Sequence[str], rng: random.Random) -> list[Placing]:
    """A finished table with made-up ranks (ties now and then) and scores."""
    scores = {player: rng.randrange(0, 4) for player in table}
    return [
        Placing(player, 1 + sum(1 for other in table if scores[other] > scores[player]), scores[player])
        for player in table
    ]


def is_partition(pairing: Pairing, entrants: Sequence[str]) -> bool:
    """Whether every entrant is at exactly one table or on a bye, and nobody else is."""
    return sorted(pairing.entrants()) == sorted(entrants)


def repeat_free_exists(players: Sequence[str], seats: int, met: Meetings) -> bool:
    """Whether `players` can be seated at tables of `seats` with nobody meeting anyone again, by
    trying every way (small fields only): the check shares no code with the pairing it checks."""
    if not players:
        return True
    first, rest = players[0], players[1:]
    for others in combinations(rest, seats - 1):
        table = (first, *others)
        if any(met.get(pair_of(a, b), 0) for a, b in combinations(table, 2)):
            continue
        if repeat_free_exists([p for p in rest if p not in others], seats, met):
            return True
    return False

"""Seeding: the entrants in order of strength, seed 1 the strongest."""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def seeded(registered: Sequence[str], ratings: Mapping[str, float]) -> list[str]:
    """The entrants (ids, in registration order) by rating, highest first; an entrant without a rating
    counts as 0 (a new player's displayed rating), and equal ratings keep registration order."""
    position = {player: index for index, player in enumerate(registered)}
    return sorted(registered, key=lambda player: (-ratings.get(player, 0.0), position[player]))

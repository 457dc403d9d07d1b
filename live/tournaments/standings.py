"""Standings: tournament points from each game's placings, then the tie-breaks.

Points: at a table of k seats an entrant scores one point for each opponent ranked below them and
half a point for each ranked level (the rules' ranks, which already apply the title's own tie-break;
a seat that resigned or forfeited ranks after every other, tied with the others who did). So a
two-seat game is 1, 1/2 or 0 as in chess, and a k-seat table shares k(k-1)/2 points. A bye scores
`bye_points` (a win's in a Swiss, as a pairing-allocated bye does in chess; half of that in a round
robin, where byes are the schedule's and everyone gets about as many).

Entrants with equal points are ordered by, in turn:
1. Buchholz: the sum of the points of every opponent met, once per table shared (a bye adds none);
2. Sonneborn-Berger: the sum, over the tables played, of each opponent's points times the result
   against them (1 ranked above, 1/2 level, 0 below);
3. the sum of the entrant's final scores in its games (the title's score);
4. the sum of the title's own tie-break values (`SeatScore.tiebreak`) in its games;
5. the seed (the better first).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Placing:
    """One seat of a finished table: who sat there, the rank they finished at (1 is best), their
    final score and the title's tie-break value, and whether they resigned or forfeited."""

    player_id: str
    rank: int
    score: int = 0
    tiebreak: int = 0
    forfeited: bool = False


@dataclass(frozen=True)
class Bye:
    """An entrant who sat out a round, and the points it gave."""

    player_id: str
    points: float


@dataclass
class Standing:
    """An entrant's standing: points, the tie-breaks, games and byes."""

    player_id: str
    seed: int
    points: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    score_total: int = 0
    tiebreak_total: int = 0
    games: int = 0
    byes: int = 0
    opponents: list[str] = field(default_factory=list)  # once per table shared


def bye_points(seats: int, share: float = 1.0) -> float:
    """What a bye gives at tables of `seats`: `share` of a win's points (`seats - 1`)."""
    return share * (seats - 1)


def result_against(mine: int, theirs: int) -> float:
    """1 for ranking above an opponent at a table, 1/2 level, 0 below."""
    return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0


def placement_points(table: Sequence[Placing], player_id: str) -> float:
    """The tournament points of an entrant's placing at a finished table."""
    mine = next(placing.rank for placing in table if placing.player_id == player_id)
    return sum(result_against(mine, other.rank) for other in table if other.player_id != player_id)


def standings(
    seeded: Sequence[str], tables: Iterable[Sequence[Placing]], byes: Iterable[Bye]
) -> list[Standing]:
    """Every entrant's standing (`seeded`: the entrants by seed, best first), best first."""
    by_player = {player: Standing(player, seed) for seed, player in enumerate(seeded, start=1)}
    played = [list(table) for table in tables]
    for table in played:
        for placing in table:
            standing = by_player[placing.player_id]
            standing.points += placement_points(table, placing.player_id)
            standing.score_total += placing.score
            standing.tiebreak_total += placing.tiebreak
            standing.games += 1
            standing.opponents.extend(other.player_id for other in table if other is not placing)
    for bye in byes:
        by_player[bye.player_id].points += bye.points
        by_player[bye.player_id].byes += 1
    points = {player: standing.points for player, standing in by_player.items()}
    for table in played:
        for placing in table:
            standing = by_player[placing.player_id]
            for other in table:
                if other is not placing:
                    standing.buchholz += points[other.player_id]
                    standing.sonneborn_berger += points[other.player_id] * result_against(
                        placing.rank, other.rank
                    )
    return sorted(by_player.values(), key=order_key)


def order_key(standing: Standing) -> tuple[float, float, float, int, int, int]:
    """The standings' order: points, Buchholz, Sonneborn-Berger, score total, tie-break total (each
    higher first), then seed."""
    return (
        -standing.points,
        -standing.buchholz,
        -standing.sonneborn_berger,
        -standing.score_total,
        -standing.tiebreak_total,
        standing.seed,
    )


def pairing_order(ordered: Sequence[Standing], playing: Iterable[str]) -> list[str]:
    """The entrants still playing in the order a Swiss round pairs them: points, then seed."""
    still = set(playing)
    return [s.player_id for s in sorted(ordered, key=lambda s: (-s.points, s.seed)) if s.player_id in still]


def placed(ordered: Sequence[Standing], reached: Mapping[str, tuple[int, int]]) -> list[Standing]:
    """A single elimination's final order: by how far each entrant got (`reached`: the number of its
    last round and its rank at that round's table; the champion's is one round past the final, rank
    0), the further first, then the better rank there, then the standings' order."""
    return sorted(ordered, key=lambda s: (-reached[s.player_id][0], reached[s.player_id][1], *order_key(s)))

"""A stored `Tournament` message taken from round to round: the pure parts (`swiss`, `roundrobin`,
`elimination`, `standings`) applied to it, with no Redis. Each function either reads the message or
changes it in place (inside a `live.tournaments.store.update`)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence

from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from live.tournaments import elimination, roundrobin, swiss
from live.tournaments.pairing import Pairing, meetings
from live.tournaments.seeding import seeded
from live.tournaments.standings import (
    Bye,
    Placing,
    Standing,
    bye_points,
    pairing_order,
    placed,
    placement_points,
    standings,
)

Tournament = tournaments_pb2.Tournament
SWISS = tournaments_pb2.TOURNAMENT_FORMAT_SWISS
ROUND_ROBIN = tournaments_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN
SINGLE_ELIMINATION = tournaments_pb2.TOURNAMENT_FORMAT_SINGLE_ELIMINATION
# What a bye scores, as a share of a win's points: a win in a Swiss (as chess's pairing-allocated
# bye) and in a single elimination (the entrant goes on as a winner would), half in a round robin,
# where the schedule hands out byes about evenly.
BYE_SHARE = {SWISS: 1.0, SINGLE_ELIMINATION: 1.0, ROUND_ROBIN: 0.5}


def stamp(ms: int) -> Timestamp:
    """A Timestamp of milliseconds since the epoch."""
    at = Timestamp()
    at.FromMilliseconds(ms)
    return at


def by_seed(tournament: Tournament) -> list[str]:
    """The entrants' ids by seed, best first (registration order before the start)."""
    unseeded = len(tournament.entrants) + 1
    order = sorted(enumerate(tournament.entrants), key=lambda item: (item[1].seed or unseeded, item[0]))
    return [entrant.player.player_id for _, entrant in order]


def seed(tournament: Tournament, ratings: dict[str, float]) -> None:
    """Give each entrant its rating and seed (`seeding`)."""
    order = seeded([entrant.player.player_id for entrant in tournament.entrants], ratings)
    number = {player: index for index, player in enumerate(order, start=1)}
    for entrant in tournament.entrants:
        entrant.rating = ratings.get(entrant.player.player_id, 0.0)
        entrant.seed = number[entrant.player.player_id]


def round_count(tournament: Tournament, fewest_seats: int) -> int:
    """The rounds the seeded field plays: a Swiss's asked rounds cut to what the field allows (one bye
    each at most, and no more than (n - 1) / (k - 1) rounds, after which nobody has anyone new left to
    meet), a round robin's schedule, a single elimination's bracket (NoBracket if none fits)."""
    count, seats = len(tournament.entrants), tournament.seats_per_table
    if tournament.format == SWISS:
        byes = count % seats
        most = (count - 1) // (seats - 1)
        if byes:
            most = min(most, count // byes)
        return max(1, min(tournament.round_count, most))
    if tournament.format == ROUND_ROBIN:
        return len(roundrobin.schedule(by_seed(tournament), seats))
    elimination.table_sizes(count, seats, fewest_seats)  # raises NoBracket for a field that fits none
    return elimination.rounds(count, seats)


def placings(table: tournaments_pb2.TournamentTable) -> list[Placing]:
    """A finished table's results, as the standings take them."""
    return [
        Placing(seat.player_id, seat.rank, seat.score, seat.tiebreak, seat.forfeited) for seat in table.seats
    ]


def played_tables(tournament: Tournament) -> list[list[Placing]]:
    """Every finished table so far."""
    return [placings(table) for round_ in tournament.rounds for table in round_.tables if table.finished]


def byes_so_far(tournament: Tournament) -> list[Bye]:
    """Every bye so far."""
    return [
        Bye(player, round_.bye_points) for round_ in tournament.rounds for player in round_.bye_player_ids
    ]


def _seeds(tournament: Tournament) -> dict[str, int]:
    return {entrant.player.player_id: entrant.seed for entrant in tournament.entrants}


def _withdrawn(tournament: Tournament) -> set[str]:
    return {entrant.player.player_id for entrant in tournament.entrants if entrant.withdrawn}


def still_in(tournament: Tournament) -> list[str]:
    """A single elimination's entrants still in, by seed: those who have not lost a table (nor
    withdrawn). An entrant is out once its table is finished and another seat went on from it."""
    seeds = _seeds(tournament)
    out = set(_withdrawn(tournament))
    for round_ in tournament.rounds:
        for table in round_.tables:
            if table.finished:
                ranks = {seat.player_id: seat.rank for seat in table.seats}
                winner = elimination.winner(ranks, seeds)
                out.update(player for player in ranks if player != winner)
    return [player for player in by_seed(tournament) if player not in out]


def _reached(tournament: Tournament) -> tuple[dict[str, tuple[int, int]], dict[str, int]]:
    """A single elimination's (how far each entrant got, its rank there: `standings.placed`) and the
    round each entrant went out in."""
    going = set(still_in(tournament))
    reached: dict[str, tuple[int, int]] = {player: (0, 0) for player in by_seed(tournament)}
    out_in: dict[str, int] = {}
    for round_ in tournament.rounds:
        for player in round_.bye_player_ids:
            reached[player] = (round_.number, 0)
        for table in round_.tables:
            for seat in table.seats:
                reached[seat.player_id] = (round_.number, seat.rank if table.finished else 0)
    for player, (number, rank) in reached.items():
        if player in going:
            reached[player] = (number + 1, 0)
        elif rank:
            out_in[player] = number
    return reached, out_in


def current_standings(tournament: Tournament) -> list[tournaments_pb2.TournamentStanding]:
    """The standings after the results so far (`standings`; a single elimination by how far each got)."""
    tables, byes = played_tables(tournament), byes_so_far(tournament)
    ordered: list[Standing] = standings(by_seed(tournament), tables, byes)
    out_in: dict[str, int] = {}
    if tournament.format == SINGLE_ELIMINATION and tournament.rounds:
        reached, out_in = _reached(tournament)
        ordered = placed(ordered, reached)
    names = {entrant.player.player_id: entrant.player.display_name for entrant in tournament.entrants}
    withdrawn = _withdrawn(tournament)
    return [
        tournaments_pb2.TournamentStanding(
            place=place,
            player_id=standing.player_id,
            display_name=names[standing.player_id],
            points=standing.points,
            buchholz=standing.buchholz,
            sonneborn_berger=standing.sonneborn_berger,
            score_total=standing.score_total,
            tiebreak_total=standing.tiebreak_total,
            games=standing.games,
            byes=standing.byes,
            seed=standing.seed,
            withdrawn=standing.player_id in withdrawn,
            eliminated_in_round=out_in.get(standing.player_id, 0),
        )
        for place, standing in enumerate(ordered, start=1)
    ]


def next_pairing(tournament: Tournament, fewest_seats: int) -> Pairing | None:
    """The next round of a running tournament whose rounds so far are all finished; None when it is
    over."""
    number = len(tournament.rounds) + 1
    seats = tournament.seats_per_table
    if tournament.format == SINGLE_ELIMINATION:
        remaining = still_in(tournament)
        if len(remaining) < 2:
            return None
        return elimination.pair(remaining, seats, fewest_seats)
    if number > tournament.round_count:
        return None
    if tournament.format == ROUND_ROBIN:
        return roundrobin.schedule(by_seed(tournament), seats)[number - 1]
    withdrawn = _withdrawn(tournament)
    playing = [player for player in by_seed(tournament) if player not in withdrawn]
    if len(playing) < seats:
        return None
    ordered = standings(by_seed(tournament), played_tables(tournament), byes_so_far(tournament))
    met = meetings([p.player_id for p in table] for table in played_tables(tournament))
    had_bye = {bye.player_id for bye in byes_so_far(tournament)}
    return swiss.pair(pairing_order(ordered, playing), seats, met, had_bye)


def seat_order(tournament_id: str, number: int, table: int, players: Sequence[str]) -> list[str]:
    """A table's entrants in seat order: shuffled by a generator seeded from the tournament, round and
    table, so that nobody's place in the pairing decides who plays first, and the same every time."""
    digest = hashlib.sha256(f"{tournament_id}:{number}:{table}".encode()).digest()
    order = list(players)
    random.Random(int.from_bytes(digest[:8], "little")).shuffle(order)
    return order


def add_round(tournament: Tournament, pairing: Pairing, game_ids: Sequence[str], now_ms: int) -> None:
    """Append the round `pairing` seats, its tables named by `game_ids`, its byes scored."""
    number = len(tournament.rounds) + 1
    round_ = tournament.rounds.add(number=number, bye_player_ids=pairing.byes, started_at=stamp(now_ms))
    round_.bye_points = bye_points(tournament.seats_per_table, BYE_SHARE[tournament.format])
    if tournament.round_seconds:
        round_.deadline.CopyFrom(stamp(now_ms + tournament.round_seconds * 1000))
    for index, (players, game_id) in enumerate(zip(pairing.tables, game_ids, strict=True), start=1):
        table = round_.tables.add(number=index, game_id=game_id)
        for seat, player in enumerate(seat_order(tournament.tournament_id, number, index, players)):
            table.seats.add(seat=seat, player_id=player)
    if not pairing.tables:
        round_.finished = True


def table_of(tournament: Tournament, game_id: str) -> tournaments_pb2.TournamentTable | None:
    """The table played as `game_id`, or None."""
    for round_ in tournament.rounds:
        for table in round_.tables:
            if table.game_id == game_id:
                return table
    return None


def record_result(tournament: Tournament, game_id: str, results: Mapping[int, Placing]) -> bool:
    """Count a finished game's results (a Placing per seat number) at its table; whether this finished
    the round. Nothing changes if they were counted already."""
    table = table_of(tournament, game_id)
    if table is None or table.finished:
        return False
    for seat in table.seats:
        result = results[seat.seat]
        seat.rank, seat.score, seat.tiebreak, seat.forfeited = (
            result.rank,
            result.score,
            result.tiebreak,
            result.forfeited,
        )
    table.finished = True
    finished = placings(table)
    for seat in table.seats:
        seat.points = placement_points(finished, seat.player_id)
    round_ = tournament.rounds[-1]
    if round_.finished or not all(t.finished for t in round_.tables):
        return False
    round_.finished = True
    return True


def game_seats(tournament: Tournament, table: tournaments_pb2.TournamentTable) -> list[gateway_pb2.GameSeat]:
    """The seats of a table's game: each entrant's player (a bot entrant with its strength); a
    withdrawn entrant's seat (a round robin's) is forfeited from the start and played by a bot."""
    entrants = {entrant.player.player_id: entrant for entrant in tournament.entrants}
    seats = []
    for seat in table.seats:
        entrant = entrants[seat.player_id]
        game_seat = gateway_pb2.GameSeat(
            seat=seat.seat, player=entrant.player, bot_strength=entrant.bot_strength
        )
        if entrant.withdrawn and not entrant.player.bot:
            game_seat.resigned = True
            game_seat.bot_strength = gateway_pb2.BOT_STRENGTH_HEURISTIC
        seats.append(game_seat)
    return seats

"""A finished tournament in PostgreSQL, beside its games (`live.archive`): the whole Tournament message,
every table with its game and each seat's counted result, and the final standings, inserted once in
one transaction (ON CONFLICT DO NOTHING), by `archive` on the workers' archive queue. Its Redis record
then stays ARCHIVED_KEPT_SECONDS for the listings, after which GetTournament reads it from here
(`archived`)."""

from __future__ import annotations

from typing import Any

import psycopg
from boardgame.gateway.v1 import tournaments_pb2

from live import keys
from live.table import Table
from live.tournaments import store
from live.tournaments.store import ARCHIVED_KEPT_SECONDS, Tournament

INSERT_TOURNAMENT = """
INSERT INTO tournaments (tournament_id, title, format, name, organiser_player_id, rated, started_at,
    finished_at, record)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (tournament_id) DO NOTHING
"""
INSERT_TABLE = """
INSERT INTO tournament_tables (tournament_id, round, table_number, game_id) VALUES (%s, %s, %s, %s)
ON CONFLICT DO NOTHING
"""
INSERT_SEAT = """
INSERT INTO tournament_seats (tournament_id, round, table_number, seat, player_id, rank, points, score,
    forfeited)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING
"""
INSERT_STANDING = """
INSERT INTO tournament_standings (tournament_id, place, player_id, points, buchholz, sonneborn_berger,
    score_total, tiebreak_total, games, byes)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING
"""
SELECT_TOURNAMENT = "SELECT record FROM tournaments WHERE tournament_id = %s"


def _time(tournament: Tournament, name: str) -> Any:
    return getattr(tournament, name).ToDatetime() if tournament.HasField(name) else None


async def save(database: Any, tournament: Tournament) -> None:
    """Insert a finished tournament's rows once (`database`: a `live.postgres.Database`)."""
    tid = tournament.tournament_id

    async def insert(conn: psycopg.AsyncConnection[Any]) -> None:
        async with conn.transaction():
            await conn.execute(
                INSERT_TOURNAMENT,
                (
                    tid,
                    tournament.title,
                    tournaments_pb2.TournamentFormat.Name(tournament.format).removeprefix(
                        "TOURNAMENT_FORMAT_"
                    ),
                    tournament.name,
                    tournament.organiser_player_id,
                    tournament.rated,
                    _time(tournament, "started_at"),
                    _time(tournament, "finished_at"),
                    tournament.SerializeToString(),
                ),
            )
            for round_ in tournament.rounds:
                for table in round_.tables:
                    await conn.execute(INSERT_TABLE, (tid, round_.number, table.number, table.game_id))
                    for seat in table.seats:
                        await conn.execute(
                            INSERT_SEAT,
                            (
                                tid,
                                round_.number,
                                table.number,
                                seat.seat,
                                seat.player_id,
                                seat.rank,
                                seat.points,
                                seat.score,
                                seat.forfeited,
                            ),
                        )
            for standing in tournament.standings:
                await conn.execute(
                    INSERT_STANDING,
                    (
                        tid,
                        standing.place,
                        standing.player_id,
                        standing.points,
                        standing.buchholz,
                        standing.sonneborn_berger,
                        standing.score_total,
                        standing.tiebreak_total,
                        standing.games,
                        standing.byes,
                    ),
                )

    await database.run(insert)


async def archive(app: Table, tournament_id: str) -> bool:
    """Copy a finished tournament to PostgreSQL once, mark it archived and let its Redis record expire
    ARCHIVED_KEPT_SECONDS later; False if there is no archive, it is not finished, or it was archived
    already. UNAVAILABLE with the database down (nothing is marked: the next check queues it again)."""
    if app.archive is None or await app.redis.exists(keys.tournament_archived(tournament_id)):
        return False
    tournament = await store.load(app.redis, tournament_id)
    if tournament is None or tournament.status != tournaments_pb2.TOURNAMENT_STATUS_FINISHED:
        return False
    await save(app.archive.database, tournament)
    async with app.redis.pipeline(transaction=True) as pipe:
        pipe.set(keys.tournament_archived(tournament_id), "1", ex=ARCHIVED_KEPT_SECONDS)
        pipe.expire(keys.tournament(tournament_id), ARCHIVED_KEPT_SECONDS)
        await pipe.execute()
    return True


async def archived(app: Table, tournament_id: str) -> Tournament | None:
    """The tournament as archived, or None (no archive, or never archived)."""
    if app.archive is None:
        return None

    async def select(conn: psycopg.AsyncConnection[Any]) -> Any:
        cursor = await conn.execute(SELECT_TOURNAMENT, (tournament_id,))
        return await cursor.fetchone()

    row = await app.archive.database.run(select)
    return None if row is None else Tournament.FromString(bytes(row[0]))

"""Where finished games go once they leave Redis: PostgreSQL (`Archive`). It inserts an archived game's
rows once (`save`: record with seed, log and scores, final state, meta, ranks, and every player's
rating before and after, in one transaction, ON CONFLICT DO NOTHING), serves an archived game to the
read calls once its keys are gone (`game`: `live.store.GameStore` asks it, and PostgreSQL is asked
whether a game Redis does not know exists at all), and the histories' older pages (`rows`).
`live.archiving` decides when a game moves here.

The windows: a finished game's keys (`game_keys`) and its index entry live on for RECENT_SECONDS
after it is archived (its request ids and its kept changes already expire RECENT_SECONDS after the
last move, `live.store`), so a retried move gets its first result and a watcher resumes from the
kept changes while the game is recent; afterwards every read comes from here and a watcher gets the
final view (resync, no history).
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from typing import Any

import psycopg
from boardgame.gateway.v1 import gateway_pb2

from live import keys, postgres
from live.store import FINISHED_TTL_SECONDS, STATUS_FINISHED, ArchivedGame, meta_of

RECENT_SECONDS = FINISHED_TTL_SECONDS  # how long an archived game's keys stay in Redis
CACHED_GAMES = 256  # archived games kept in memory per process (they never change)
# Ids the archive does not have, remembered per process so that a flood of unknown ids asks it once
# each: at most this many, each for this long (a game is only ever asked for once its keys are gone,
# so an id found missing stays missing).
CACHED_UNKNOWN = 4096
UNKNOWN_SECONDS = 300.0

INSERT_GAME = """
INSERT INTO archived_games
    (game_id, title, version, finished_at, finished_ms, record, state, meta_record, clock, lobby_id, ranks,
    acting)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT (game_id) DO NOTHING
"""
INSERT_PLAYER = """
INSERT INTO game_players (game_id, seat, player_id, rank) VALUES (%s, %s, %s, %s)
ON CONFLICT DO NOTHING
"""
INSERT_RATING = """
INSERT INTO rating_history (game_id, player_id, title, finished_at, mu_before, sigma_before,
    ordinal_before, mu_after, sigma_after, ordinal_after)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
ON CONFLICT DO NOTHING
"""
SELECT_GAME = """
SELECT version, record, state, meta_record, clock, lobby_id, acting FROM archived_games WHERE game_id = %s
"""


def game_keys(game_id: str) -> list[str]:
    """Every Redis key of a game that expires once it is archived."""
    return [
        keys.game_meta(game_id),
        keys.game_state(game_id),
        keys.game_version(game_id),
        keys.game_log(game_id),
        keys.game_events(game_id),
        keys.game_requests(game_id),
        keys.game_clock(game_id),
        keys.game_outbox(game_id),
        keys.game_result(game_id),
        keys.game_chat(game_id),
    ]


class Archive:
    """The archived games in PostgreSQL, every wait on it bounded (`live.postgres.Database`), and the
    games read last kept in memory."""

    def __init__(self, url: str, timeout_seconds: float) -> None:
        self.url = url
        self.database = postgres.Database(url, timeout_seconds)
        self._games: OrderedDict[str, ArchivedGame] = OrderedDict()
        self._unknown: OrderedDict[str, float] = OrderedDict()  # id -> when it was found missing

    async def _run(self, work: Any) -> Any:
        """Run `work(connection)` on the process's connection, one at a time; UNAVAILABLE when the
        database cannot be reached or does not answer in time."""
        return await self.database.run(work)

    async def save(self, game_id: str, title: str, version: int, row: dict[str, Any]) -> None:
        """Insert one game's rows, once (a second save changes nothing)."""

        async def insert(conn: psycopg.AsyncConnection[Any]) -> None:
            finished_at = row["finished_at"] or None
            async with conn.transaction():
                await conn.execute(
                    INSERT_GAME,
                    (
                        game_id,
                        title,
                        version,
                        finished_at,
                        row["finished_ms"],
                        row["record"],
                        row["state"],
                        row["meta_record"],
                        row["clock"],
                        row["lobby_id"],
                        json.dumps(row["ranks"]),
                        row["acting"],
                    ),
                )
                for seat, player_id, rank in row["players"]:
                    await conn.execute(INSERT_PLAYER, (game_id, seat, player_id, rank))
                for player_id, ratings in row["ratings"].items():
                    before, after = ratings["before"], ratings["after"]
                    await conn.execute(
                        INSERT_RATING, (game_id, player_id, title, finished_at, *before, *after)
                    )

        await self._run(insert)

    async def game(self, game_id: str) -> ArchivedGame | None:
        """The archived game, or None if it was never archived."""
        cached = self._games.get(game_id)
        if cached is not None:
            self._games.move_to_end(game_id)
            return cached
        missing = self._unknown.get(game_id)
        if missing is not None and time.monotonic() - missing < UNKNOWN_SECONDS:
            return None

        async def select(conn: psycopg.AsyncConnection[Any]) -> Any:
            cursor = await conn.execute(SELECT_GAME, (game_id,))
            return await cursor.fetchone()

        row = await self._run(select)
        if row is None:
            self._unknown[game_id] = time.monotonic()
            self._unknown.move_to_end(game_id)
            if len(self._unknown) > CACHED_UNKNOWN:
                self._unknown.popitem(last=False)
            return None
        version, record, state, meta_record, clock, lobby_id, acting = row
        meta = meta_of([bytes(meta_record), STATUS_FINISHED.encode(), bytes(clock), lobby_id, acting, None])
        assert meta is not None
        game = ArchivedGame(meta, gateway_pb2.GameRecord.FromString(bytes(record)), bytes(state), version)
        self._games[game_id] = game
        if len(self._games) > CACHED_GAMES:
            self._games.popitem(last=False)
        return game

    async def rows(self, query: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        """The rows of a read-only query (the histories' older pages, `live.history`)."""

        async def select(conn: psycopg.AsyncConnection[Any]) -> Any:
            cursor = await conn.execute(query.encode(), args)
            return await cursor.fetchall()

        return list(await self._run(select))

    async def close(self) -> None:
        """Close the connection, if open."""
        await self.database.close()

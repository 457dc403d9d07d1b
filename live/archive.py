"""Finished games leave Redis for PostgreSQL: `archive` copies a scored game there (record with seed,
log and scores, final state, meta, ranks, and every player's rating before and after), trims the
players' and the title's histories to their newest games (`live.history`), writes a small index entry
in Redis and lets the game's keys and the entry expire; `Archive.game` serves an archived game to the
read calls once its keys are gone (asking PostgreSQL whether a game Redis does not know exists at all).

`archive(app, game_id)` runs after scoring (`workers.finalize` queues it) and may run any number of
times: the rows are inserted once (ON CONFLICT DO NOTHING, in one transaction), the histories are
trimmed after them, the index entry is written after that, and the game's keys get their expiry only
then. A crash anywhere leaves either nothing done or a game that is in PostgreSQL and still whole in
Redis, which the next run finishes. So a history holds more games than its cap only while some of
them have no index entry yet (scored, not archived): each trim came after the save of every game
with an entry.

A game whose archival task was lost (the broker down as scoring queued it) is found by `unarchived`,
which the workers' beat runs every minute: in its title's history, scored over a minute and less than
a week ago, its result still in Redis and no index entry.

The windows: a finished game's keys and its index entry live on for RECENT_SECONDS after it is
archived (its request ids
and its kept changes already expire RECENT_SECONDS after the last move, `live.store`), so a retried
move gets its first result and a watcher resumes from the kept changes while the game is recent;
afterwards every read comes from here and a watcher gets the final view (resync, no history).
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg
from boardgame.gateway.v1 import gateway_pb2

from live import history, keys, postgres
from live.replies import blob, text
from live.store import FINISHED_TTL_SECONDS, STATUS_FINISHED, Meta, meta_of, read_meta

if TYPE_CHECKING:
    from live.table import Table

RECENT_SECONDS = FINISHED_TTL_SECONDS  # how long an archived game's keys stay in Redis
# The sweep for archivals whose task was lost: games finished between these many ms ago, at most
# SWEEP_LIMIT per title and sweep.
SWEEP_SETTLE_MS = 60_000
SWEEP_LOOKBACK_MS = 7 * 24 * 3600 * 1000
SWEEP_LIMIT = 500
CACHED_GAMES = 256  # archived games kept in memory per process (they never change)
# Ids the archive does not have, remembered per process so that a flood of unknown ids asks it once
# each: at most this many, each for this long (a game is only ever asked for once its keys are gone,
# so an id found missing stays missing).
CACHED_UNKNOWN = 4096
UNKNOWN_SECONDS = 300.0
META_HASH_FIELDS = ("clock", "lobby_id", "acting", "finished_at")  # the record: from the meta

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


@dataclass(frozen=True)
class ArchivedGame:
    """What the read calls need of a game whose keys have left Redis."""

    meta: Meta
    record: gateway_pb2.GameRecord  # whole: seed, finish time, actions, scores
    state: bytes
    version: int


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


async def archive(app: Table, game_id: str) -> bool:
    """Archive a scored game (see the module docstring); False if it is not scored yet, already
    archived, or there is no archive."""
    from live.games import full_record  # live.games needs the table, which needs this module

    redis, store = app.redis, app.archive
    if store is None or await redis.exists(keys.game_archived(game_id)):
        return False
    result: dict[bytes, bytes] = await redis.hgetall(keys.game_result(game_id))  # type: ignore[assignment]
    meta = await read_meta(redis, game_id)
    if not result or meta is None:
        return False
    record, version = await full_record(app, meta)
    fields = await redis.hmget(keys.game_meta(game_id), list(META_HASH_FIELDS))
    state = await redis.get(keys.game_state(game_id))
    clock, lobby_id, acting, finished_at = (blob(field or b"") for field in fields)
    ranks = {int(seat): rank for seat, rank in json.loads(result[b"ranks"]).items()}
    await store.save(
        game_id,
        record.title,
        version,
        {
            "record": record.SerializeToString(),
            "state": blob(state or b""),
            "meta_record": meta.record.SerializeToString(),  # with the spectators invited meanwhile
            "clock": clock,
            "lobby_id": text(lobby_id),
            "acting": text(acting),
            "finished_at": text(finished_at),
            "finished_ms": record.finished_at.ToMilliseconds() if record.HasField("finished_at") else 0,
            "ranks": ranks,
            "players": [(s.seat, s.player.player_id, ranks[s.seat]) for s in record.seats],
            "ratings": json.loads(result[b"ratings"]),
        },
    )
    await history.trim(app, sorted({s.player.player_id for s in record.seats}), record.title)
    async with redis.pipeline(transaction=True) as pipe:
        pipe.set(keys.game_archived(game_id), record.title, ex=RECENT_SECONDS)
        for key in game_keys(game_id):
            pipe.expire(key, RECENT_SECONDS, nx=True)
        await pipe.execute()
    return True


async def unarchived(app: Table, now_ms: int) -> list[str]:
    """Games scored SWEEP_SETTLE_MS to SWEEP_LOOKBACK_MS ago whose result is in Redis and that have no
    index entry (their archival was lost; a game archived past its window has neither); none without
    an archive."""
    if app.archive is None:
        return []
    found: list[str] = []
    for title in sorted(app.rules.titles):
        listed: list[bytes] = await app.redis.zrangebyscore(  # type: ignore[assignment]
            keys.title_games(title),
            now_ms - SWEEP_LOOKBACK_MS,
            now_ms - SWEEP_SETTLE_MS,
            start=0,
            num=SWEEP_LIMIT,
        )
        ids = [text(game_id) for game_id in listed]
        async with app.redis.pipeline(transaction=False) as pipe:
            for game_id in ids:
                pipe.exists(keys.game_result(game_id))
                pipe.exists(keys.game_archived(game_id))
            replies = await pipe.execute()
        found.extend(
            game_id
            for game_id, scored, archived in zip(ids, replies[::2], replies[1::2], strict=True)
            if scored and not archived
        )
    return found

"""The archiving stage: a scored game leaves Redis for the archive (`live.archive`).

`archive(app, game_id)` copies a scored game there, trims the players' and the title's histories to
their newest games (`live.history`), writes a small index entry in Redis and lets the game's keys and
the entry expire. It runs after scoring (`workers.finalize` queues it on the archive queue) and may
run any number of times: the rows are inserted once, the histories are trimmed after them, the
index entry is written after that, and the game's keys get their expiry only then. A crash anywhere
leaves either nothing done or a game that is in PostgreSQL and still whole in Redis, which the next
run finishes. So a history holds more games than its cap only while some of them have no index
entry yet (scored, not archived): each trim came after the save of every game with an entry.

A game whose archival task was lost (the broker down as scoring queued it) is found by `unarchived`,
which the workers' beat runs every minute: in its title's history, scored over a minute and less than
a week ago, its result still in Redis and no index entry.
"""

from __future__ import annotations

import json

from live import history, keys
from live.archive import RECENT_SECONDS, game_keys
from live.games import full_record
from live.replies import blob, text
from live.store import read_meta
from live.table import Table

# The sweep for archivals whose task was lost: games finished between these many ms ago, at most
# SWEEP_LIMIT per title and sweep.
SWEEP_SETTLE_MS = 60_000
SWEEP_LOOKBACK_MS = 7 * 24 * 3600 * 1000
SWEEP_LIMIT = 500
META_HASH_FIELDS = ("clock", "lobby_id", "acting", "finished_at")  # the record: from the meta


async def archive(app: Table, game_id: str) -> bool:
    """Archive a scored game (see the module docstring); False if it is not scored yet, already
    archived, or there is no archive."""
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

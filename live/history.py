"""Histories of finished games, newest first: a player's (`keys.player_games`) and a title's
(`keys.title_games`), each a sorted set of game ids by finish time (ms since the epoch).

With an archive, Redis keeps only the newest games of each (`Settings.history_per_player`,
`history_per_title`): `trim` drops the older ones as a game is archived, and `page` lists past the
oldest one Redis still holds from PostgreSQL (`archived_games`, `game_players`), in the same order
(finish time, then game id, both descending, as Redis orders equal scores), so that a listing goes
on across the boundary without a gap or a repeat. A page continues after a `Finished` cursor, the
last game of the page before, whichever side it came from.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from live import keys
from live.replies import text

if TYPE_CHECKING:
    from live.table import Table

# The order of Redis (finish time in ms as scored, then the id in byte order), from the index of
# migration 0002.
_ORDER = '(a.finished_ms, a.game_id COLLATE "C")'
PLAYER_GAMES = f"""
SELECT a.game_id, a.finished_ms FROM archived_games a
WHERE a.game_id IN (SELECT game_id FROM game_players WHERE player_id = %s) AND {_ORDER} < (%s, %s)
ORDER BY a.finished_ms DESC, a.game_id COLLATE "C" DESC LIMIT %s
"""
TITLE_GAMES = f"""
SELECT a.game_id, a.finished_ms FROM archived_games a
WHERE a.title = %s AND {_ORDER} < (%s, %s)
ORDER BY a.finished_ms DESC, a.game_id COLLATE "C" DESC LIMIT %s
"""
NEWEST = (2**62, "")  # a cursor before every game


@dataclass(frozen=True, order=True)
class Finished:
    """One game of a history: when it finished (ms since the epoch) and its id."""

    finished_ms: int
    game_id: str


async def player_page(app: Table, player_id: str, size: int, after: Finished | None = None) -> list[Finished]:
    """Up to `size` of the player's finished games after `after` (from the newest), newest first."""
    return await _page(app, keys.player_games(player_id), PLAYER_GAMES, player_id, size, after)


async def title_page(app: Table, title: str, size: int, after: Finished | None = None) -> list[Finished]:
    """Up to `size` of the title's finished games after `after` (from the newest), newest first."""
    return await _page(app, keys.title_games(title), TITLE_GAMES, title, size, after)


async def _page(
    app: Table, key: str, query: str, subject: str, size: int, after: Finished | None
) -> list[Finished]:
    found = await _kept(app, key, size, after)
    if len(found) < size and app.archive is not None:
        last = found[-1] if found else after
        cursor = (last.finished_ms, last.game_id) if last is not None else NEWEST
        rows = await app.archive.rows(query, (subject, *cursor, size - len(found)))
        found.extend(Finished(int(finished), str(game_id)) for game_id, finished in rows)
    return found


async def _kept(app: Table, key: str, size: int, after: Finished | None) -> list[Finished]:
    """The page's games the sorted set still holds."""
    redis = app.redis
    if after is None:
        listed = await redis.zrevrange(key, 0, size - 1, withscores=True)
    else:
        ties = int(await redis.zcount(key, after.finished_ms, after.finished_ms))
        listed = await redis.zrevrangebyscore(
            key, after.finished_ms, "-inf", start=0, num=size + ties, withscores=True
        )
    games = [Finished(int(score), text(member)) for member, score in cast(list[tuple[bytes, float]], listed)]
    return [game for game in games if after is None or game < after][:size]


async def trim(app: Table, player_ids: list[str], title: str) -> None:
    """Keep only the newest games of each player's and the title's history (one key at a time: each is
    in a slot of its own)."""
    kept = [(keys.player_games(p), app.settings.history_per_player) for p in player_ids]
    for key, newest in [*kept, (keys.title_games(title), app.settings.history_per_title)]:
        await app.redis.zremrangebyrank(key, 0, -newest - 1)

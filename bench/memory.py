"""Redis memory per game, per title: what one 4-player game of random moves holds across all its keys
(MEMORY USAGE of every `{game_id}` key), while it is live (half-way through), once it is finished,
scored and archived but still recent (its keys not yet expired), and once the recent window has passed
(every key of the game, its index entry too, has expired: nothing is left). Below the table, what the
history sorted sets hold at most once games are archived (`live.history`): a player's and a title's,
full at HISTORY_PER_PLAYER and HISTORY_PER_TITLE games, whatever the length of the history.

Parts: a throwaway redis-server and PostgreSQL, every rules service, and the live table in this
process. Moves go through the one write path (`live.moves.play`) with a fresh request id each, as a
client's do; scoring and archival are the workers' own functions, called here.

    python -m bench.memory [--game NAME]
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from dataclasses import dataclass, replace

import psycopg
import redis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2
from psycopg import sql

from bench import reference_players, table, verdict
from deploy import throwaway
from live import archive, archiving, keys, moves
from live.games import start_game
from live.settings import Settings
from live.table import NoDispatch, Table, connect
from services.common import registry
from services.common.rng import Rng
from workers import scoring

TARGET_RECENT_BYTES = 32 * 1024  # every key of a live or recent game
TARGET_ARCHIVED_BYTES = 0  # an archived game once its window passed: nothing


@dataclass(frozen=True)
class GameBytes:
    """Bytes across every key of one game at each stage, and its moves."""

    moves: int
    live: int
    scored: int  # finished and scored, not yet archived
    recent: int
    archived: int  # once the recent window has passed
    state_and_log: int
    database: int  # the archived game's rows in PostgreSQL (pg_column_size, without indexes)


def every_key(game_id: str) -> list[str]:
    """Every key a game may have."""
    return [*archive.game_keys(game_id), keys.game_archived(game_id)]


# The tables holding an archived game's rows (live/migrations), each keyed by game_id.
ARCHIVE_TABLES = ("archived_games", "game_players", "rating_history")


def database_bytes(database_url: str, game_id: str) -> int:
    """The bytes of the game's rows across the archive's tables (pg_column_size of each row)."""
    query = sql.SQL("SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {} t WHERE game_id = %s")
    total = 0
    with psycopg.connect(database_url) as conn:
        for name in ARCHIVE_TABLES:
            row = conn.execute(query.format(sql.Identifier(name)), (game_id,)).fetchone()
            total += int(row[0]) if row else 0
    return total


def game_bytes(client: redis.Redis, game_id: str) -> int:
    """MEMORY USAGE summed over every key of the game."""
    return sum(client.memory_usage(key, samples=0) or 0 for key in every_key(game_id))


async def _random_move(app: Table, game_id: str, rng: Rng) -> bool:
    """One random legal move of the acting seat, under a fresh request id; False once the game is over."""
    meta = await moves.load_meta(app.store, game_id)
    state, version = await app.store.state(game_id)
    if not meta.acting_seats:
        return False
    seat = meta.acting_seats[0]
    view = await app.rules.get(meta.record.title).call(
        "GetView",
        rules_pb2.GetViewRequest(state=any_pb2.Any.FromString(state), seat=seat, include_legal_actions=True),
    )
    if view.game_over or not view.legal_actions:
        return False
    choice = view.legal_actions[rng.below(len(view.legal_actions))]
    await moves.play(app, game_id, seat, choice.action, version, uuid.uuid4().hex)
    return True


async def _measure(settings: Settings, client: redis.Redis, title: str, seed: int) -> GameBytes:
    app = await connect(settings)
    app.dispatcher = NoDispatch()
    assert app.archive is not None
    try:
        players = reference_players(registry.get(title))
        seats = [
            gateway_pb2.GameSeat(seat=s, player=gateway_pb2.Player(player_id=f"bench-{seed}-{s}"))
            for s in range(players)
        ]
        game_id = await start_game(
            app,
            title=title,
            player_count=players,
            options=[],
            seats=seats,
            clock=gateway_pb2.TurnClock(),
            lobby_id=uuid.uuid4().hex,
        )
        rng = Rng(seed)
        played: list[int] = []
        while await _random_move(app, game_id, rng):
            played.append(game_bytes(client, game_id))
        await scoring.finalize(app, game_id)
        scored = game_bytes(client, game_id)
        assert await archiving.archive(app, game_id)
        recent = game_bytes(client, game_id)
        core = [keys.game_state(game_id), keys.game_log(game_id)]
        state_and_log = sum(client.memory_usage(key, samples=0) or 0 for key in core)
        for key in every_key(game_id):  # the recent window ends: Redis expires these
            if client.ttl(key) > 0:
                client.delete(key)
        archived = game_bytes(client, game_id)
        database = database_bytes(settings.database_url, game_id)
        return GameBytes(len(played), max(played), scored, recent, archived, state_and_log, database)
    finally:
        await app.rules.close()
        await app.redis.aclose()
        await app.archive.close()


def per_game(titles: list[str], seed: int = 7) -> dict[str, GameBytes]:
    """Each title's bytes per game at every stage, one game of random moves each."""
    measured = {}
    with (
        throwaway.redis_server() as redis_url,
        throwaway.postgres_server() as database_url,
        throwaway.rules_servers() as rules,
    ):
        settings = replace(
            Settings(), redis_url=redis_url, rules_addresses=tuple(rules.values()), database_url=database_url
        )
        client = redis.Redis.from_url(redis_url)
        try:
            for title in titles:
                measured[title] = asyncio.run(_measure(settings, client, title, seed))
        finally:
            client.close()
    return measured


def history_bytes(client: redis.Redis, games: int) -> int:
    """MEMORY USAGE of a history sorted set of `games` finished games (ids as the gateway makes them,
    scored by finish times a second apart)."""
    key = keys.title_games(f"bench-{uuid.uuid4().hex}")
    now_ms = int(time.time() * 1000)
    client.zadd(key, {uuid.uuid4().hex: now_ms - 1000 * n for n in range(games)})
    try:
        return client.memory_usage(key, samples=0) or 0
    finally:
        client.delete(key)


def history_bound(settings: Settings | None = None) -> str:
    """The line under table (g): the most the history sorted sets hold, per player and per title (of
    `settings`, the defaults if None)."""
    settings = settings or Settings()
    with throwaway.redis_server() as redis_url:
        client = redis.Redis.from_url(redis_url)
        try:
            player = history_bytes(client, settings.history_per_player)
            title = history_bytes(client, settings.history_per_title)
        finally:
            client.close()
    return (
        f"history sorted sets once archived: a player's at most {player:,} B "
        f"(HISTORY_PER_PLAYER={settings.history_per_player}), a title's at most {title:,} B "
        f"(HISTORY_PER_TITLE={settings.history_per_title}); older games are listed from PostgreSQL"
    )


def measure(titles: list[str], seed: int = 7) -> str:
    """Table (g): bytes per game per title, live, recent and archived."""
    rows = []
    for title, sizes in per_game(titles, seed).items():
        rows.append(
            [
                title,
                reference_players(registry.get(title)),
                sizes.moves,
                sizes.state_and_log,
                sizes.live,
                sizes.recent,
                f"<= {TARGET_RECENT_BYTES}",
                verdict(max(sizes.live, sizes.recent) <= TARGET_RECENT_BYTES),
                sizes.archived,
                f"<= {TARGET_ARCHIVED_BYTES}",
                verdict(sizes.archived <= TARGET_ARCHIVED_BYTES),
            ]
        )
    headers = [
        "game",
        "players",
        "moves",
        "state+log B",
        "live max B",
        "recent B",
        "target",
        "meets",
        "archived B",
        "target",
        "meets",
    ]
    title = "(g) Redis memory per game across all its keys (MEMORY USAGE), random moves"
    return "\n".join([table(title, headers, rows), history_bound()])


def main() -> None:
    """Print table (g) for every registered game, or those named."""
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__)
    parser.add_argument("--game", action="append", help="only this registered game (repeatable)")
    args = parser.parse_args()
    print(measure(args.game or list(registry.games())))


if __name__ == "__main__":
    main()

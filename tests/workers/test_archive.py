"""Finished games leave Redis for a real PostgreSQL: the worker archives each scored game, its keys
expire after the recent window, and every read call answers the same before and after."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import grpc
import psycopg
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from deploy import postgres as local_postgres
from deploy.throwaway import free_port
from gateway import auth, spectators
from gateway.auth import Principal
from live import archiving, history, keys, postgres
from live.archive import RECENT_SECONDS, Archive, game_keys
from live.errors import GatewayError
from live.games import start_game
from live.history import Finished
from live.settings import Settings
from services.common import registry
from services.common.rng import Rng
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players
from tests.gateway.undoing import play_with_undos
from tests.redis_modes import EVERY_TITLE_ON_ONE_NODE
from tests.workers.support import bot_seat, finalized, new_game, wait_for
from workers import scoring, tasks

TITLES = sorted(registry.games())


def played(
    gateway: GatewayProcess,
    redis_client: redis.Redis,
    title: str,
    seats: list[gateway_pb2.GameSeat] | None = None,
) -> str:
    """A game of random bots (new ones on the smallest table of four or more, unless `seats` are
    given), played, scored and archived."""
    info = registry.get(title).info
    count = min(max(4, info.min_players), info.max_players)
    seats = seats or [bot_seat(gateway, seat, "random") for seat in range(count)]
    game_id = new_game(gateway, title, seats)
    wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")
    wait_for(lambda: redis_client.exists(keys.game_archived(game_id)), 60, f"game {game_id} archived")
    return game_id


def keys_left(redis_client: redis.Redis, game_id: str) -> list[bytes]:
    """Every key of the game in Redis (on a Cluster, KEYS asks every primary: one alone may not hold
    the game's slot)."""
    pattern = f"*{{{game_id}}}*"
    if isinstance(redis_client, redis.RedisCluster):
        return list(redis_client.keys(pattern, target_nodes=redis.RedisCluster.PRIMARIES))
    return list(redis_client.keys(pattern))  # type: ignore[arg-type]


def expire_window(redis_client: redis.Redis, game_id: str) -> None:
    """What Redis does once the recent window ends: every key of the game that expires is gone."""
    for key in game_keys(game_id):
        ttl = redis_client.ttl(key)
        assert 0 < ttl <= RECENT_SECONDS or ttl == -2, (key, ttl)
        redis_client.delete(key)


def reads(client: Client, title: str, game_id: str) -> list[object]:
    """What the read calls answer about a finished game."""
    games, auth = client.games, client.auth
    return [
        games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=auth),
        games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=auth),
        games.ReplayGame(gateway_pb2.ReplayGameRequest(game_id=game_id), metadata=auth),
        client.leaderboard.GetLeaderboard(
            gateway_pb2.GetLeaderboardRequest(title=title, page_size=100), metadata=auth
        ),
    ]


@EVERY_TITLE_ON_ONE_NODE
@pytest.mark.parametrize("title", TITLES)
def test_an_archived_game_is_read_the_same_once_its_keys_left_redis(
    title: str,
    gateway: GatewayProcess,
    celery_worker: None,
    redis_client: redis.Redis,
    database_url: str,
) -> None:
    game_id = played(gateway, redis_client, title)
    result = gateway.run(scoring.result(gateway.app.redis, game_id))  # type: ignore[union-attr]
    with grpc.insecure_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("historian")
        before = reads(client, title, game_id)
        expire_window(redis_client, game_id)
        assert keys_left(redis_client, game_id) == [keys.game_archived(game_id).encode()]
        after = reads(client, title, game_id)
        assert after == before
        assert before[2].consistent  # type: ignore[attr-defined]
        # The edition the game started with stays in the archived record, for a title that has one.
        kept = after[1].record  # type: ignore[attr-defined]
        assert kept.HasField("edition") == (registry.get(title).edition is not None)

        record = before[1].record  # type: ignore[attr-defined]
        watch = gateway_pb2.WatchGameRequest(game_id=game_id, from_version=0)
        watched = list(client.games.WatchGame(watch, metadata=client.auth, timeout=30))
        assert [(w.game, w.resync) for w in watched] == [(before[0].game, True)]  # type: ignore[attr-defined]
        move = gateway_pb2.SubmitActionRequest(
            game_id=game_id, action=record.actions[-1].action, expected_version=0, request_id="late"
        )
        for call, request in (
            (client.games.Resign, gateway_pb2.ResignRequest(game_id=game_id)),
            (client.games.SubmitAction, move),
        ):
            with pytest.raises(grpc.RpcError) as refused:
                call(request, metadata=client.auth)
            assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
            assert "game is over" in (refused.value.details() or "")
        with pytest.raises(grpc.RpcError) as unknown:
            client.games.GetGame(gateway_pb2.GetGameRequest(game_id="f" * 32), metadata=client.auth)
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND

    with psycopg.connect(database_url) as conn:
        history = conn.execute(
            "SELECT player_id, mu_before, sigma_before, ordinal_before, mu_after, sigma_after, ordinal_after"
            " FROM rating_history WHERE game_id = %s",
            (game_id,),
        ).fetchall()
        players = conn.execute(
            "SELECT seat, player_id, rank FROM game_players WHERE game_id = %s ORDER BY seat", (game_id,)
        ).fetchall()
    ratings = result["ratings"]  # type: ignore[index]
    assert {row[0]: [list(row[1:4]), list(row[4:7])] for row in history} == {
        p: [r["before"], r["after"]] for p, r in ratings.items()
    }
    assert players == [(s.seat, s.player.player_id, result["ranks"][s.seat]) for s in record.seats]  # type: ignore[index]


def test_archiving_again_or_after_a_crash_between_its_steps_inserts_once(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, database_url: str
) -> None:
    title = TITLES[0]
    game_id = played(gateway, redis_client, title)
    app = gateway.app
    assert app is not None and app.archive is not None
    assert gateway.run(archiving.archive(app, game_id)) is False  # already done

    # A crash after the rows went in but before the index entry: the next run finishes the job.
    redis_client.delete(keys.game_archived(game_id))
    for key in game_keys(game_id):
        redis_client.persist(key)
    assert gateway.run(archiving.archive(app, game_id)) is True
    kept = [key for key in game_keys(game_id) if redis_client.exists(key)]
    assert kept and all(0 < redis_client.ttl(key) <= RECENT_SECONDS for key in kept)
    with psycopg.connect(database_url) as conn:
        rows = conn.execute("SELECT count(*) FROM archived_games WHERE game_id = %s", (game_id,)).fetchone()
        ratings = conn.execute(
            "SELECT count(*) FROM rating_history WHERE game_id = %s", (game_id,)
        ).fetchone()
    rated = json.loads(redis_client.hget(keys.game_result(game_id), "ratings"))  # type: ignore[arg-type]
    assert rows == (1,)
    assert ratings == (len(rated),)


def test_a_game_not_scored_yet_is_not_archived(gateway: GatewayProcess, redis_client: redis.Redis) -> None:
    app = gateway.app
    assert app is not None and app.archive is not None
    assert gateway.run(archiving.archive(app, "0" * 32)) is False
    assert not redis_client.exists(keys.game_archived("0" * 32))


def test_an_unreachable_archive_is_unavailable_not_internal(gateway: GatewayProcess) -> None:
    unreachable = Archive(local_postgres.url("127.0.0.1", free_port()), Settings().database_timeout_seconds)
    with pytest.raises(GatewayError) as refused:
        gateway.run(unreachable.game("0" * 32))
    assert refused.value.code == grpc.StatusCode.UNAVAILABLE
    assert refused.value.reason == "ARCHIVE_UNAVAILABLE"


def test_migrations_apply_once_in_order(database_url: str, tmp_path: Path) -> None:
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("CREATE DATABASE migration_probe")
    url = database_url.rsplit("/", 1)[0] + "/migration_probe"
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE probe (n integer);")
    (tmp_path / "0002_second.sql").write_text("INSERT INTO probe VALUES (2); INSERT INTO probe VALUES (3);")
    assert asyncio.run(postgres.migrate(url, tmp_path)) == [1, 2]
    assert asyncio.run(postgres.migrate(url, tmp_path)) == []
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT n FROM probe ORDER BY n").fetchall() == [(2,), (3,)]
    (tmp_path / "3_bad name.sql").write_text("")
    with pytest.raises(ValueError, match="bad name"):
        postgres.migrations(tmp_path)


def test_a_scored_game_whose_archival_was_lost_is_found_by_the_sweep_and_archived(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, database_url: str
) -> None:
    title = TITLES[0]
    game_id = played(gateway, redis_client, title)
    app = gateway.app
    assert app is not None
    finished = int(redis_client.zscore(keys.title_games(title), game_id))  # type: ignore[arg-type]
    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute("DELETE FROM archived_games WHERE game_id = %s", (game_id,))
    redis_client.delete(keys.game_archived(game_id))  # as if archive_game had never been delivered
    for key in game_keys(game_id):
        redis_client.persist(key)

    assert game_id not in gateway.run(archiving.unarchived(app, finished + 1000)), "not settled yet"
    later = finished + archiving.SWEEP_SETTLE_MS + 1000
    assert game_id in gateway.run(archiving.unarchived(app, later))
    settled = finished - archiving.SWEEP_SETTLE_MS - 1000  # as if it had finished over a minute ago
    redis_client.zadd(keys.title_games(title), {game_id: settled})
    tasks.sweep_archive.delay()  # what beat runs every minute: it finds the game and queues its archival
    wait_for(lambda: redis_client.exists(keys.game_archived(game_id)), 60, "the sweep to archive it")
    assert game_id not in gateway.run(archiving.unarchived(app, later))
    redis_client.zadd(keys.title_games(title), {game_id: finished})  # its own finish time again
    forget(redis_client, game_id)  # past its window, a game archived is no longer swept
    assert game_id not in gateway.run(archiving.unarchived(app, later))
    with psycopg.connect(database_url) as conn:
        assert conn.execute(
            "SELECT count(*) FROM archived_games WHERE game_id = %s", (game_id,)
        ).fetchone() == (1,)


def forget(redis_client: redis.Redis, game_id: str) -> None:
    """What Redis does once the recent window ends, index entry included: no key of the game is left."""
    ttl = redis_client.ttl(keys.game_archived(game_id))
    assert 0 < ttl <= RECENT_SECONDS, ttl
    expire_window(redis_client, game_id)
    redis_client.delete(keys.game_archived(game_id))
    assert keys_left(redis_client, game_id) == []


def test_a_game_is_read_the_same_once_its_index_entry_expired_too_and_unknown_ids_are_not_found(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, database_url: str
) -> None:
    title = TITLES[0]
    game_id = played(gateway, redis_client, title)
    with grpc.insecure_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("historian")
        before = reads(client, title, game_id)
        forget(redis_client, game_id)
        assert reads(client, title, game_id) == before
        for call, request in (
            (client.games.GetGame, gateway_pb2.GetGameRequest(game_id="e" * 32)),
            (client.games.GetGameRecord, gateway_pb2.GetGameRecordRequest(game_id="e" * 32)),
        ):
            with pytest.raises(grpc.RpcError) as unknown:
                call(request, metadata=client.auth)
            assert unknown.value.code() == grpc.StatusCode.NOT_FOUND

    # An id the archive lacks is asked once: later, even with the database gone, it is still unknown.
    store = Archive(database_url, Settings().database_timeout_seconds)
    assert gateway.run(store.game("d" * 32)) is None
    assert gateway.run(store.game(game_id)) is not None
    gateway.run(store.close())
    store.database.url = local_postgres.url("127.0.0.1", free_port())
    assert gateway.run(store.game("d" * 32)) is None
    with pytest.raises(GatewayError):
        gateway.run(store.game("c" * 32))


def pages(gateway: GatewayProcess, listing: Callable[..., Any], subject: str, size: int) -> list[Finished]:
    """Every game of a history, read page by page."""
    found: list[Finished] = []
    while True:
        page = gateway.run(listing(gateway.app, subject, size, found[-1] if found else None))
        assert len(page) <= size
        found.extend(page)
        if len(page) < size:
            return found


def test_history_pages_go_on_from_postgresql_once_redis_keeps_only_the_newest_games(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    title = TITLES[0]
    info = registry.get(title).info
    seats = [bot_seat(gateway, seat, "random") for seat in range(max(2, info.min_players))]
    player_id = seats[0].player.player_id
    played_ids: list[str] = []
    for _ in range(3):
        played_ids.append(played(gateway, redis_client, title, seats))
    listings = [(history.player_page, player_id), (history.title_page, title)]
    before = [pages(gateway, listing, subject, size) for listing, subject in listings for size in (1, 2, 100)]
    assert [game.game_id for game in before[0]] == played_ids[::-1]
    assert before[1] == before[2] == before[0]
    assert before[4] == before[5] == before[3]

    # Redis keeps the newest game only, and the games' keys have left: the same pages, the older ones
    # from PostgreSQL.
    for key in (keys.player_games(player_id), keys.title_games(title)):
        redis_client.zremrangebyrank(key, 0, -2)
        assert redis_client.zcard(key) == 1
    for game_id in played_ids:
        forget(redis_client, game_id)
    after = [pages(gateway, listing, subject, size) for listing, subject in listings for size in (1, 2, 100)]
    assert after == before


def to_archive_again(gateway: GatewayProcess, redis_client: redis.Redis) -> tuple[str, str, int]:
    """A game played and archived, then made unarchived again (as after a crash before its index
    entry) with its first player's history holding older games past its cap: the game's id, that
    history's key and its cap."""
    game_id = played(gateway, redis_client, TITLES[0])
    app = gateway.app
    assert app is not None
    meta = gateway.run(app.store.meta(game_id))
    assert meta is not None
    history_key = keys.player_games(meta.record.seats[0].player.player_id)
    kept = app.settings.history_per_player
    redis_client.zadd(history_key, {f"older-{n}": n + 1 for n in range(kept + 20)})
    redis_client.delete(keys.game_archived(game_id))
    for key in game_keys(game_id):
        redis_client.persist(key)
    return game_id, history_key, kept


def test_archiving_trims_the_histories_to_the_newest_games_of_the_settings(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    game_id, history_key, kept = to_archive_again(gateway, redis_client)
    assert gateway.run(archiving.archive(gateway.app, game_id)) is True
    assert redis_client.zcard(history_key) == kept
    assert redis_client.zrevrange(history_key, 0, 0) == [game_id.encode()]
    assert redis_client.zscore(history_key, "older-0") is None


def test_a_crash_as_the_histories_are_trimmed_leaves_the_game_for_the_next_run_to_archive(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The histories are trimmed before the index entry is written, so that a history holds more games
    than its cap only while some of them are not archived (the soak's census counts on it), and a
    crash as they are trimmed leaves the game to be archived again, trim and all."""
    game_id, history_key, kept = to_archive_again(gateway, redis_client)
    trim = history.trim

    async def crash(*args: Any) -> None:
        monkeypatch.setattr(history, "trim", trim)
        raise ConnectionError("the worker died as it trimmed")

    monkeypatch.setattr(history, "trim", crash)
    with pytest.raises(ConnectionError):
        gateway.run(archiving.archive(gateway.app, game_id))
    assert not redis_client.exists(keys.game_archived(game_id))
    assert gateway.run(archiving.archive(gateway.app, game_id)) is True
    assert redis_client.zcard(history_key) == kept


def test_the_histories_keep_the_games_their_variables_name_and_at_least_one() -> None:
    settings = Settings.from_env({"HISTORY_PER_PLAYER": "7", "HISTORY_PER_TITLE": "70"})
    assert (settings.history_per_player, settings.history_per_title) == (7, 70)
    assert (Settings.from_env({}).history_per_player, Settings.from_env({}).history_per_title) == (
        100,
        10_000,
    )
    for name in ("HISTORY_PER_PLAYER", "HISTORY_PER_TITLE"):
        with pytest.raises(ValueError, match=f"{name} must be 1 or more, not 0"):
            Settings.from_env({name: "0"})


def test_the_spectators_invited_before_and_during_a_game_are_kept_in_its_archive(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    """A game only the invited may watch: one invited from its lobby, one while it is played; once its
    keys left Redis, both still watch it from the archive, and nobody else."""
    app = gateway.app
    seats = [bot_seat(gateway, seat, "random") for seat in range(2)]
    people = [gateway.run(auth.create_player(app, name, guest=True)) for name in ("early", "late", "other")]  # type: ignore[arg-type]
    early, late, other = people
    game_id = gateway.run(
        start_game(
            app,  # type: ignore[arg-type]
            title=TITLES[0],
            player_count=2,
            options=[],
            seats=seats,
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
            spectators=gateway_pb2.SPECTATORS_INVITED,
            invited_spectators=[early.player_id],
        )
    )
    invited = gateway.run(
        spectators.invite_to_game(app, Principal(seats[0].player), game_id, late.player_id)  # type: ignore[arg-type]
    )
    assert invited == [early.player_id, late.player_id]
    wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")
    wait_for(lambda: redis_client.exists(keys.game_archived(game_id)), 60, f"game {game_id} archived")
    expire_window(redis_client, game_id)
    archived = gateway.run(gateway.app.store.meta(game_id))  # type: ignore[union-attr]
    assert archived.record.invited_spectator_ids == [early.player_id, late.player_id]
    for player, may in ((early, True), (late, True), (other, False)):
        assert spectators.may_watch(archived.record, player.player_id) == may
    with pytest.raises(GatewayError) as over:
        gateway.run(spectators.invite_to_game(app, Principal(seats[0].player), game_id, other.player_id))  # type: ignore[arg-type]
    assert over.value.reason == "GAME_OVER"


def test_a_game_with_undos_is_archived_with_them_and_replays_from_the_archive(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    """Its players undo now and then: the archived record keeps each undo's version returned to, and
    every read answers the same once the game's keys left Redis, ReplayGame included."""
    with patient_channel(gateway.address) as channel:
        clients = [Client(channel), Client(channel)]
        for number, client in enumerate(clients):
            client.sign_in_as_guest(f"undoer {number}")
        game_id = gateway.run(
            start_game(
                gateway.app,  # type: ignore[arg-type]
                title=TITLES[0],
                player_count=2,
                options=[],
                seats=seat_players(clients),
                clock=gateway_pb2.TurnClock(),
                lobby_id="",
            )
        )
        bound = 2 * registry.get(TITLES[0]).info.max_game_length
        undos = play_with_undos(clients, game_id, Rng(5), bound)
        assert undos > 0
        wait_for(lambda: finalized(redis_client, game_id), 240, f"game {game_id} to be finalized")
        wait_for(lambda: redis_client.exists(keys.game_archived(game_id)), 60, f"game {game_id} archived")
        before = reads(clients[0], TITLES[0], game_id)
        expire_window(redis_client, game_id)
        assert keys_left(redis_client, game_id) == [keys.game_archived(game_id).encode()]
        after = reads(clients[0], TITLES[0], game_id)
    assert after == before
    record = after[1].record  # type: ignore[attr-defined]
    assert sum(logged.HasField("returned_to") for logged in record.actions) == undos
    assert after[2].consistent and after[2].actions_replayed == len(record.actions)  # type: ignore[attr-defined]

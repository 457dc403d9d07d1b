"""The per-player lists behind ListMyGames, on a real Redis (one node and a Cluster): an update older
than the stored one changes nothing, tells nobody and files no reminder, a game leaves the live list
when it ends, and only the last FINISHED_KEPT finished games stay listed."""

from __future__ import annotations

import asyncio
import dataclasses
import uuid

from boardgame.gateway.v1 import gateway_pb2

from live import inbox, keys, mygames
from live.connection import async_client, sync_client
from live.settings import Settings
from tests.titles import TITLE


def record(*players: str) -> gateway_pb2.GameRecord:
    seats = [
        gateway_pb2.GameSeat(seat=i, player=gateway_pb2.Player(player_id=p, display_name=p))
        for i, p in enumerate(players)
    ]
    return gateway_pb2.GameRecord(game_id=uuid.uuid4().hex, title=TITLE, player_count=len(seats), seats=seats)


def run(redis_url: str, *changes: mygames.Change) -> None:
    async def apply() -> None:
        client = async_client(Settings(redis_url=redis_url))
        for change in changes:
            await mygames.committed(client, change)
        await client.aclose()

    asyncio.run(apply())


def test_a_late_update_changes_nothing_and_tells_nobody(redis_url: str) -> None:
    me, rival = uuid.uuid4().hex, uuid.uuid4().hex
    game = record(me, rival)
    store = sync_client(redis_url)
    run(redis_url, mygames.Change(game, 0, (1,), False, at_ms=1000))
    run(redis_url, mygames.Change(game, 2, (0,), False, at_ms=3000, acting_before=(1,)))
    assert store.xlen(keys.inbox(me)) == 1, "YOUR_TURN at version 2"
    run(redis_url, mygames.Change(game, 1, (0,), False, at_ms=2000, acting_before=(1,)))
    listed = gateway_pb2.MyGame.FromString(store.hget(keys.my_games(me), game.game_id))
    assert (listed.version, listed.last_move_at.ToMilliseconds()) == (2, 3000)
    assert store.xlen(keys.inbox(me)) == 1, "the late version 1 told nobody"
    assert store.zscore(keys.my_live_games(me), game.game_id) == 3000

    run(redis_url, mygames.Change(game, 3, (), True, at_ms=4000))
    assert store.zscore(keys.my_live_games(me), game.game_id) is None
    assert store.zscore(keys.my_finished_games(me), game.game_id) == 4000
    store.close()


def test_only_the_last_finished_games_stay_listed(redis_url: str) -> None:
    me = uuid.uuid4().hex
    games = [record(me) for _ in range(mygames.FINISHED_KEPT + 3)]
    run(redis_url, *(mygames.Change(g, 5, (), True, at_ms=1000 + i) for i, g in enumerate(games)))
    store = sync_client(redis_url)
    kept = {member.decode() for member in store.zrange(keys.my_finished_games(me), 0, -1)}
    assert kept == {g.game_id for g in games[3:]}
    assert {field.decode() for field in store.hkeys(keys.my_games(me))} == kept | {f"r:{g}" for g in kept}
    store.close()


def test_a_turn_under_a_clock_files_its_reminder_once_and_a_late_update_none(redis_url: str) -> None:
    me, rival = uuid.uuid4().hex, uuid.uuid4().hex
    game = record(me, rival)
    store = sync_client(redis_url)
    clocked = mygames.Change(game, 2, (0,), False, 601_000, 0, at_ms=1000, acting_before=(1,))
    run(redis_url, clocked)
    filed = inbox.reminder_member(game.game_id, 2, me)
    assert store.zscore(keys.inbox_reminders(), filed) == inbox.reminder_due(
        1000, 601_000, gateway_pb2.CLOCK_PACE_REAL_TIME
    )

    store.zrem(keys.inbox_reminders(), filed)  # the sweep took it
    run(redis_url, clocked)
    run(redis_url, dataclasses.replace(clocked, version=1, at_ms=500))
    late = inbox.reminder_member(game.game_id, 1, me)
    assert store.zmscore(keys.inbox_reminders(), [filed, late]) == [None, None], "sent twice, or late: none"
    store.close()


def test_a_correspondence_turn_is_reminded_hours_before_a_real_time_one_minutes_before(
    redis_url: str,
) -> None:
    me, rival = uuid.uuid4().hex, uuid.uuid4().hex
    day, hour = 24 * 3600_000, 3600_000
    paces = {
        gateway_pb2.CLOCK_PACE_CORRESPONDENCE: (2 * day, 12 * hour),
        gateway_pb2.CLOCK_PACE_REAL_TIME: (hour, 5 * 60_000),
    }
    store = sync_client(redis_url)
    for pace, (turn, lead) in paces.items():
        game = record(me, rival)
        change = mygames.Change(game, 0, (0,), False, 1000 + turn, 0, at_ms=1000, pace=pace)
        run(redis_url, change)
        due = store.zscore(keys.inbox_reminders(), inbox.reminder_member(game.game_id, 0, me))
        assert due == 1000 + turn - lead, gateway_pb2.ClockPace.Name(pace)
    store.close()


GAMES_ENDING = 40


def test_a_page_read_as_games_end_lists_each_once_and_as_it_was_at_one_moment(redis_url: str) -> None:
    """A ListMyGames page read while the player's games end is one snapshot: no game listed both live
    ('waiting', to a client its GAME_ENDED had reached) and finished."""
    from gateway import mygames as listing  # the gateway's page, on the lists alone

    me = uuid.uuid4().hex
    games = [record(me) for _ in range(GAMES_ENDING)]
    run(redis_url, *(mygames.Change(g, 1, (0,), False, at_ms=1000 + i) for i, g in enumerate(games)))

    async def race() -> list[str]:
        client = async_client(Settings(redis_url=redis_url))
        table = type("Lists", (), {"redis": client})()  # the page reads the lists through app.redis only
        wrong = []
        for i, game in enumerate(games):
            ending = mygames.committed(client, mygames.Change(game, 2, (), True, at_ms=5000 + i))
            pages = [listing.page(table, me, 100, "") for _ in range(3)]  # type: ignore[arg-type]
            _, *answers = await asyncio.gather(ending, *pages)
            for answer in answers:
                ids = [g.game_id for g in answer.games]
                wrong += [f"{game_id} listed twice" for game_id in set(ids) if ids.count(game_id) > 1]
        await client.aclose()
        return wrong

    assert asyncio.run(race()) == []

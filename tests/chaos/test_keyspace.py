"""The soak's census of Redis (`chaos.keyspace`) against a real redis-server: each key put in the class
of what bounds it, the capped families' holders and fill counted, unknown names named, not guessed."""

from __future__ import annotations

import inspect
from collections.abc import Iterator

import pytest
import redis

from chaos import keyspace, soak
from deploy.throwaway import redis_server
from gateway.lobbies import LOBBY_TTL_SECONDS
from live import keys
from live.archive import RECENT_SECONDS
from live.inbox import INBOX_KEPT, INBOX_TTL_SECONDS
from live.settings import Settings

SETTINGS = Settings()


@pytest.fixture(scope="module")
def client() -> Iterator[redis.Redis]:
    with redis_server() as url:
        connection = redis.Redis.from_url(url)
        yield connection
        connection.close()


def test_every_key_of_the_key_table_is_told_by_its_own_family(client: redis.Redis) -> None:
    space = keyspace.Keyspace(client, SETTINGS)
    named = [f for _, f in inspect.getmembers(keys, inspect.isfunction) if f.__module__ == keys.__name__]
    checked = 0
    for function in named:
        if function in keyspace.NOT_KEYS:
            continue
        example = function(*["a:b" for _ in inspect.signature(function).parameters])  # ':' in an id, too
        assert space.family(example) == function.__name__, example
        checked += 1
    assert checked >= 40
    assert space.family(keys.rate(keys.address_subject("10.0.0.1"), "guest", 7)) == "rate"
    assert space.family("_kombu.binding.celery") == "broker"
    assert space.family("mystery:thing") is None


def test_each_key_goes_to_the_class_of_what_bounds_it(client: redis.Redis) -> None:
    client.flushall()
    title = "puerto_rico"
    expected: dict[str, list[str]] = {kind: [] for kind in keyspace.CLASSES}

    def put(kind: str, name: str) -> None:
        expected[kind].append(name)

    client.hset(keys.game_meta("done"), "status", "finished")  # a finished game, in its window
    client.expire(keys.game_meta("done"), RECENT_SECONDS)
    put(keyspace.EXPIRING, keys.game_meta("done"))
    client.rpush(keys.game_events("done"), b"change")  # capped, but expiring with its game first
    client.expire(keys.game_events("done"), RECENT_SECONDS)
    put(keyspace.EXPIRING, keys.game_events("done"))
    client.set(keys.lobby("l1"), b"lobby", ex=LOBBY_TTL_SECONDS)
    put(keyspace.LONG_TTL, keys.lobby("l1"))
    for _ in range(INBOX_KEPT + 50):  # as `live.inbox` posts: trimmed, with a long expiry
        client.xadd(keys.inbox("p1"), {"e": b"event"}, maxlen=INBOX_KEPT, approximate=True)
    client.expire(keys.inbox("p1"), INBOX_TTL_SECONDS)
    put(keyspace.CAPPED, keys.inbox("p1"))
    client.zadd(keys.my_finished_games("p1"), {"g1": 1, "g2": 2, "g3": 3})
    put(keyspace.CAPPED, keys.my_finished_games("p1"))
    client.rpush(keys.game_events("live"), *[b"change"] * 5)  # a live game's: no expiry yet
    put(keyspace.CAPPED, keys.game_events("live"))
    # Histories one past their cap: p2's games all archived (a trim was missed), p3's newest game
    # scored but not archived yet (its archival trims it).
    archived = [f"g{n}" for n in range(SETTINGS.history_per_player + 1)]
    for game_id in archived:
        client.set(keys.game_archived(game_id), title, ex=RECENT_SECONDS)
        put(keyspace.EXPIRING, keys.game_archived(game_id))
    client.zadd(keys.player_games("p2"), {game_id: n for n, game_id in enumerate(archived)})
    put(keyspace.CAPPED, keys.player_games("p2"))
    client.zadd(keys.player_games("p3"), {game_id: n for n, game_id in enumerate([*archived[1:], "new"])})
    put(keyspace.CAPPED, keys.player_games("p3"))
    client.hset(keys.player("p1"), "name", "Ann")
    client.hset(keys.rating(title, "p1"), "mu", 25)
    client.rpush("celery", b"task")
    put(keyspace.FIXED, keys.player("p1"))
    put(keyspace.FIXED, keys.rating(title, "p1"))
    put(keyspace.FIXED, "celery")
    client.set("mystery:thing", b"?")
    client.set("mystery:other", b"?")
    put(keyspace.UNKNOWN, "mystery:thing")
    put(keyspace.UNKNOWN, "mystery:other")

    census = keyspace.Keyspace(client, SETTINGS).census()

    for kind, names in expected.items():
        assert census.bytes[kind] == sum(client.memory_usage(name) or 0 for name in names), kind
    assert LOBBY_TTL_SECONDS - 5 <= census.longest_ttl["lobby"] <= LOBBY_TTL_SECONDS
    assert (
        census.family_keys[keyspace.FIXED, "broker"] == 1
        and census.family_keys[keyspace.UNKNOWN, "mystery..."] == 2
    )
    assert census.unknown == {"mystery...": 2}
    inbox = census.fills["inbox"]
    assert inbox.holders == 1 and inbox.longest == client.xlen(keys.inbox("p1")) >= INBOX_KEPT
    assert inbox.over == 0  # MAXLEN ~ keeps whole nodes: within the stream's slack
    assert census.fills["game_events"].holders == 1 and census.fills["game_events"].longest == 5
    assert census.fills["my_finished_games"].longest == 3
    histories = census.fills["player_games"]
    assert (histories.holders, histories.longest, histories.over) == (2, SETTINGS.history_per_player + 1, 1)
    assert census.over() == 1
    assert census.holders() == 5


def test_a_full_familys_plateau_is_its_bytes_per_entry_at_the_cap() -> None:
    fill = keyspace.Fill(keyspace.Cap(limit=100), holders=2, entries=50, bytes=5_000)
    assert fill.plateau() == 100 * 100 * 2  # 100 bytes an entry, 100 entries, two holders
    assert keyspace.fill_lines({"inbox": fill})[0][:4] == ["inbox", "2", "0", "100"]


def test_keys_expiring_later_plateau_at_their_own_familys_expiry(client: redis.Redis) -> None:
    client.flushall()
    weighing = soak.Weighing(client, SETTINGS)
    for number in range(6):  # a lobby a sample, each for a day; a guest's record, there throughout
        client.set(keys.lobby(f"l{number}"), b"lobby", ex=LOBBY_TTL_SECONDS)
        client.hset(keys.player("guest"), "guest", "1")
        client.expire(keys.player("guest"), 3 * LOBBY_TTL_SECONDS)
        weighing.take()
    plateau = weighing.later_plateau()
    growth = weighing.family_growth()
    assert growth[keyspace.LONG_TTL, "player"] == 0.0 and growth[keyspace.LONG_TTL, "lobby"] > 0
    assert (
        plateau.family == "lobby"
        and LOBBY_TTL_SECONDS / 3600 - 0.01 <= plateau.hours <= LOBBY_TTL_SECONDS / 3600
    )
    assert plateau.mb == pytest.approx(plateau.growth * plateau.hours)  # the guest adds nothing
    assert "lobby" in weighing.family_table().splitlines()[3]  # the fastest growing, first

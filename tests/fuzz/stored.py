"""What Redis holds of a game or a lobby, byte for byte, to show that a refused request changed none
of it: every key with the game's hash tag (DUMP of each) and the game's entries in the shared sets."""

from __future__ import annotations

import time

import redis

from live import keys

Stored = dict[str, object]


SETTLE_SECONDS = 5.0


def game_stored(store: redis.Redis, game_id: str) -> Stored:
    """Every key of the game (`game:{id}:*`: a hash's fields and values, any other key dumped) and its
    deadline entry. A hash is compared by content: a large one is a hash table whose DUMP follows its
    buckets, and a read may move those on (Redis rehashes step by step on lookups too).

    It is read once the game's last commit is settled: its follow-ups, which the gateway performs
    after its reply, are done and acknowledged (its outbox is gone, `live.outbox`)."""
    settle = time.monotonic() + SETTLE_SECONDS
    while store.exists(keys.game_outbox(game_id)) and time.monotonic() < settle:
        time.sleep(0.005)
    names = sorted(store.scan_iter(match=f"game:{{{game_id}}}:*", count=1000))
    with store.pipeline(transaction=False) as pipe:
        for name in names:
            pipe.type(name)
        types = pipe.execute()
    with store.pipeline(transaction=False) as pipe:
        for name, kind in zip(names, types, strict=True):
            if kind == b"hash":
                pipe.hgetall(name)
            else:
                pipe.dump(name)
        pipe.zscore(keys.deadlines(), game_id)
        replies = pipe.execute()
    stored: Stored = {name.decode(): value for name, value in zip(names, replies, strict=False)}
    stored["deadline"] = replies[-1]
    return stored


def lobby_stored(store: redis.Redis, lobby_id: str, title: str) -> Stored:
    """The lobby's key (dumped) and its entries in the open-lobby listings."""
    with store.pipeline(transaction=False) as pipe:
        pipe.dump(keys.lobby(lobby_id))
        pipe.zscore(keys.open_lobbies(), lobby_id)
        pipe.zscore(keys.open_lobbies_of(title), lobby_id)
        lobby, listed, listed_of_title = pipe.execute()
    return {"lobby": lobby, "listed": listed, "listed of title": listed_of_title}


def listings(store: redis.Redis) -> Stored:
    """How many lobbies are listed open, and the newest of them."""
    return {"open": store.zcard(keys.open_lobbies()), "newest": store.zrange(keys.open_lobbies(), -1, -1)}

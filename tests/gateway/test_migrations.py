"""Upgrading a Redis an older version wrote: `python -m gateway.admin migrate-keys` gives a player's
ratings and history their new names (with the {player_id} hash tag), keeps their contents, leaves a
key whose new name is taken, and does nothing the second time."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid

from live import keys
from live.connection import sync_client
from tests.redis_modes import ONE_NODE

pytestmark = ONE_NODE  # an older version ran on one node


def migrate(redis_url: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "gateway.admin", "migrate-keys"],
        env={**os.environ, "REDIS_URL": redis_url},
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return done.stdout.strip()


def test_old_rating_and_history_keys_get_their_tagged_names_once(redis_url: str) -> None:
    store = sync_client(redis_url)
    ann, bob = uuid.uuid4().hex, uuid.uuid4().hex
    store.hset(f"rating:anytitle:{ann}", mapping={"mu": 26.5, "games": 3})
    store.zadd(f"history:player:{ann}", {"game-1": 1000, "game-2": 2000})
    store.hset(f"rating:anytitle:{bob}", mapping={"games": 1})
    store.hset(keys.rating("anytitle", bob), mapping={"games": 2})  # scored since the upgrade

    assert migrate(redis_url) == "renamed 2 keys; kept 1 whose new name was taken"
    assert store.hgetall(keys.rating("anytitle", ann)) == {b"mu": b"26.5", b"games": b"3"}
    assert store.zrange(keys.player_games(ann), 0, -1) == [b"game-1", b"game-2"]
    assert not store.exists(f"rating:anytitle:{ann}", f"history:player:{ann}")
    assert store.hget(keys.rating("anytitle", bob), "games") == b"2"

    assert migrate(redis_url) == "renamed 0 keys; kept 1 whose new name was taken"
    store.close()

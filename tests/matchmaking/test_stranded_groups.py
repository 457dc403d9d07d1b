"""A group the match script formed whose gateway dies (kill -9) or stalls before creating its game: its
players end up in exactly one game, told of it, and free to search again, never "forming" for good.

Real processes throughout: the title's rules service runs as its own process, stopped (SIGSTOP) so
the gateway that formed the group hangs in NewGame, between the match and the game's creation; that
gateway is then killed, or left to resume after another replica took the group over."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from deploy.probe import serving
from deploy.throwaway import ROOT, free_port, gateway_serving, start_gateway_process, stop_worker_process
from live import keys, matchmaking
from live.connection import sync_client
from live.replies import blob, text
from live.store import read_kept
from tests import redis_modes
from tests.gateway.support import Client
from tests.titles import GAME, TITLE
from tests.workers.support import wait_for

SEARCH = gateway_pb2.FindMatchRequest(title=TITLE, seat_count=GAME.info.min_players, bots_after_seconds=600)
TAKE_OVER_SECONDS = matchmaking.FORMING_LEASE_MS / 1000 + 20  # the lease, then a matcher's tick or two


@contextlib.contextmanager
def rules_process() -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """The title's rules service as `python -m services.<title>` on a free port."""
    address = f"127.0.0.1:{free_port()}"
    process = subprocess.Popen(
        [sys.executable, "-m", f"services.{TITLE}"],
        cwd=ROOT,
        env={**os.environ, "RULES_ADDRESS": address, "METRICS_PORT": "off", "LOG_LEVEL": "WARNING"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        wait_for(lambda: serving(address), 60, f"the rules service at {address}")
        yield process, address
    finally:
        os.killpg(process.pid, signal.SIGCONT)
        stop_worker_process(process, signal.SIGKILL)  # a call it was stopped in may hold up a graceful stop


@contextlib.contextmanager
def gateway_process(redis_url: str, rules: str, **env: str) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    port = free_port()
    settings = {"CELERY_BROKER_URL": redis_modes.broker_of(redis_url), **env}
    process = start_gateway_process(redis_url, rules, port, settings)
    address = f"127.0.0.1:{port}"
    try:
        gateway_serving(process, address)
        yield process, address
    finally:
        stop_worker_process(process, signal.SIGKILL)


def guests(channel: grpc.Channel, count: int) -> list[Client]:
    players = [Client(channel) for _ in range(count)]
    for index, player in enumerate(players):
        player.sign_in_as_guest(f"stranded {index}")
    return players


Search = Iterator[gateway_pb2.FindMatchResponse]


def search(player: Client) -> Search:
    return player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=120)


def search_until_forming(
    players: list[Client], rules: subprocess.Popen[bytes], store: redis.Redis
) -> tuple[list[str], list[Search]]:
    """With the rules service stopped, start every player's search; their tickets and streams once
    the match script grouped them (the gateway now hangs in NewGame)."""
    os.killpg(rules.pid, signal.SIGSTOP)
    tickets, streams = [], []
    for player in players:
        streams.append(search(player))
        tickets.append(next(streams[-1]).ticket_id)
    wait_for(
        lambda: all(status(store, ticket) == matchmaking.MATCH_FORMING for ticket in tickets),
        30,
        "the tickets to be grouped",
    )
    return tickets, streams


def status(store: redis.Redis, ticket: str) -> str:
    return text(store.hget(keys.match_ticket(ticket), "status") or b"")


def the_game(store: redis.Redis, tickets: list[str]) -> str:
    """The one game the tickets were matched into, once they all are."""
    wait_for(
        lambda: all(status(store, ticket) == matchmaking.MATCH_MATCHED for ticket in tickets),
        TAKE_OVER_SECONDS,
        "the group to be taken over and its game started",
    )
    (game_id,) = {text(store.hget(keys.match_ticket(ticket), "game_id") or b"") for ticket in tickets}
    return game_id


def setup_events(store: redis.Redis, game_id: str) -> list[int]:
    """The versions of the game's kept changes (a second creation would add a second version 0)."""
    return [read_kept(blob(entry))[0] for entry in store.lrange(keys.game_events(game_id), 0, -1)]


def assert_in_one_game_and_free(address: str, players: list[Client], game_id: str) -> None:
    """Each player lists exactly `game_id` and may search again."""
    with grpc.insecure_channel(address) as channel:
        for player in players:
            elsewhere = Client(channel, player.token)
            mine = elsewhere.games.ListMyGames(gateway_pb2.ListMyGamesRequest(), metadata=player.auth)
            assert [game.game_id for game in mine.games] == [game_id]
            again = elsewhere.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
            assert next(again).status == gateway_pb2.MATCH_STATUS_SEARCHING, "the player may search again"
            elsewhere.matches.CancelMatch(gateway_pb2.CancelMatchRequest(), metadata=player.auth)
            assert [reply.status for reply in again][-1] == gateway_pb2.MATCH_STATUS_CANCELLED


@pytest.fixture
def store(redis_url: str) -> Iterator[redis.Redis]:
    client = sync_client(redis_url)
    yield client
    client.close()


def test_a_gateway_killed_between_match_and_game_leaves_its_group_to_another(
    redis_url: str, store: redis.Redis
) -> None:
    with rules_process() as (rules, rules_address):
        with (
            gateway_process(redis_url, rules_address) as (doomed, address),
            grpc.insecure_channel(address) as channel,
        ):
            players = guests(channel, SEARCH.seat_count)
            tickets, _ = search_until_forming(players, rules, store)
            os.killpg(doomed.pid, signal.SIGKILL)
            doomed.wait(30)
        os.killpg(rules.pid, signal.SIGCONT)
        assert all(status(store, ticket) == matchmaking.MATCH_FORMING for ticket in tickets)
        with gateway_process(redis_url, rules_address) as (_, survivor):
            game_id = the_game(store, tickets)
            assert setup_events(store, game_id) == [0]
            assert_in_one_game_and_free(survivor, players, game_id)


def test_a_stalled_gateway_resuming_after_a_take_over_creates_no_second_game(
    redis_url: str, store: redis.Redis
) -> None:
    with (
        rules_process() as (stalled_rules, stalled_address),
        rules_process() as (_, rules_address),
        # A NewGame that may take a minute: the stalled gateway still waits for it when it resumes.
        gateway_process(redis_url, stalled_address, RULES_TIMEOUT_SECONDS="60") as (_, address),
        grpc.insecure_channel(address) as channel,
    ):
        players = guests(channel, SEARCH.seat_count)
        tickets, streams = search_until_forming(players, stalled_rules, store)
        with gateway_process(redis_url, rules_address):
            game_id = the_game(store, tickets)
            assert [reply.status for reply in streams[0]][-1] == gateway_pb2.MATCH_STATUS_MATCHED, (
                "the stream on the stalled gateway tells of the game the other one started"
            )
            record = store.hget(keys.game_meta(game_id), "record")
        os.killpg(stalled_rules.pid, signal.SIGCONT)
        # Its matcher goes on to the next group only once its stalled attempt is over.
        later = [search(player) for player in guests(channel, SEARCH.seat_count)]
        assert [[reply.status for reply in stream][-1] for stream in later] == [
            gateway_pb2.MATCH_STATUS_MATCHED
        ] * SEARCH.seat_count
        assert store.hget(keys.game_meta(game_id), "record") == record, "the game was not created again"
        assert setup_events(store, game_id) == [0]
        assert all(status(store, ticket) == matchmaking.MATCH_MATCHED for ticket in tickets)
        assert_in_one_game_and_free(address, players, game_id)

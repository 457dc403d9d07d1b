"""A search's life on a real gateway: one at a time per player, withdrawn by CancelMatch from another
connection or by hanging up, its band widening while it waits."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys, matchmaking
from live.connection import sync_client
from live.settings import Settings
from services.common.status import error_info
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.titles import GAME, TITLE
from tests.workers.support import wait_for

# The most seats and the longest wait: nobody else searches here, so no search ends matched.
SEARCH = gateway_pb2.FindMatchRequest(title=TITLE, seat_count=GAME.info.max_players, bots_after_seconds=600)


@pytest.fixture(scope="module")
def gateway(redis_url: str, rules: dict[str, str]) -> Iterator[GatewayProcess]:
    with GatewayProcess(gateway_settings(redis_url, rules)) as process:
        yield process


@pytest.fixture
def player(gateway: GatewayProcess) -> Iterator[Client]:
    with grpc.insecure_channel(gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("searcher")
        yield client


def test_a_second_search_is_refused_and_cancel_match_ends_the_first(
    gateway: GatewayProcess, player: Client
) -> None:
    first = player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
    opening = next(first)
    assert opening.status == gateway_pb2.MATCH_STATUS_SEARCHING and opening.ticket_id
    with pytest.raises(grpc.RpcError) as refused:
        next(player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=10))
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error_info(refused.value).reason == "ALREADY_SEARCHING"
    with grpc.insecure_channel(gateway.address) as other:
        elsewhere = Client(other, player.token)
        cancelled = elsewhere.matches.CancelMatch(gateway_pb2.CancelMatchRequest(), metadata=player.auth)
    assert cancelled.ticket_id == opening.ticket_id
    assert [reply.status for reply in first][-1] == gateway_pb2.MATCH_STATUS_CANCELLED
    assert next(player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=10)).status == (
        gateway_pb2.MATCH_STATUS_SEARCHING
    ), "the player may search again"


def test_hanging_up_withdraws_the_search(player: Client, redis_url: str) -> None:
    store = sync_client(redis_url)
    stream = player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
    ticket = next(stream).ticket_id
    queue = ticket.partition(".")[0]
    assert store.zscore(keys.match_tickets(queue), ticket) is not None
    stream.cancel()
    wait_for(lambda: store.zscore(keys.match_tickets(queue), ticket) is None, 10, "the ticket to leave")
    me = player.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=player.auth).player.player_id
    wait_for(lambda: not store.exists(keys.match_player(me)), 10, "the claim to end after the ticket")
    store.close()


def test_the_band_widens_while_the_search_waits(player: Client) -> None:
    stream = player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
    started = time.monotonic()
    replies = [next(stream) for _ in range(3)]
    stream.cancel()
    bands = [reply.band for reply in replies]
    assert bands[0] >= Settings().match_band_start and bands[0] < bands[1] < bands[2], bands
    assert time.monotonic() - started >= 2.0, "at most one widening a second"
    assert [reply.waited_ms for reply in replies] == sorted(reply.waited_ms for reply in replies)


RACES = 120  # the report saw 2 INTERNAL answers in 120 tries
RACERS = 4  # players racing at once, each within its own rate limit
CALLS_PER_RACE = 4  # two FindMatch and two CancelMatch, of the "lobby" rate class


def race(gateway: GatewayProcess, store: redis.Redis, name: str, races: int) -> Counter[str]:
    """`races` times: a search, then two CancelMatch and a FindMatch at once; the answers seen. Paced
    to keep within the player's rate limit, and each ends once the player holds no claim."""
    pace = 2 * CALLS_PER_RACE / Settings().rate_limit("lobby")  # twice: the counting second is fixed
    answers: Counter[str] = Counter()
    with grpc.insecure_channel(gateway.address) as channel:
        player = Client(channel)
        player.sign_in_as_guest(name)
        me = player.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=player.auth).player.player_id

        def cancel() -> str:
            try:
                player.matches.CancelMatch(gateway_pb2.CancelMatchRequest(), metadata=player.auth, timeout=10)
            except grpc.RpcError as refused:
                return f"{refused.code().name} {error_info(refused).reason}"
            return "OK"

        def find(streams: list[Any]) -> str:
            stream = player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
            streams.append(stream)
            try:
                return gateway_pb2.MatchStatus.Name(next(stream).status)
            except grpc.RpcError as refused:
                return f"{refused.code().name} {error_info(refused).reason}"

        with ThreadPoolExecutor(max_workers=3) as pool:
            for _ in range(races):
                began = time.monotonic()
                streams: list[Any] = []
                answers[find(streams)] += 1
                racing = [pool.submit(cancel), pool.submit(find, streams), pool.submit(cancel)]
                answers.update(future.result() for future in racing)
                for stream in streams:
                    stream.cancel()
                wait_for(lambda: not store.exists(keys.match_player(me)), 10, "the player's claim to end")
                time.sleep(max(0.0, pace - (time.monotonic() - began)))
    return answers


def test_cancel_match_racing_find_match_and_another_cancel_answers_only_their_statuses(
    gateway: GatewayProcess, redis_url: str
) -> None:
    """Two CancelMatch and a FindMatch at once on a search: each answers OK or its refusal, never
    INTERNAL, and once every stream is over the player holds no claim on a search (a refused
    FindMatch leaves none)."""
    store = sync_client(redis_url)
    with ThreadPoolExecutor(max_workers=RACERS) as pool:
        runs = [pool.submit(race, gateway, store, f"racer {n}", RACES // RACERS) for n in range(RACERS)]
        answers = sum((run.result() for run in runs), Counter[str]())
    store.close()
    expected = {
        "OK",
        "MATCH_STATUS_SEARCHING",
        "MATCH_STATUS_CANCELLED",  # a search cancelled by a CancelMatch before its first reply
        "FAILED_PRECONDITION NOT_SEARCHING",
        "FAILED_PRECONDITION ALREADY_SEARCHING",
    }
    assert set(answers) <= expected, answers
    assert answers["MATCH_STATUS_SEARCHING"] >= RACES and answers["OK"] >= RACES, answers


def test_a_search_that_ends_matched_ends_its_claim_itself(player: Client, redis_url: str) -> None:
    """The stream of a search its matcher matched ends the player's claim as it ends, so the player may
    search again at once, even when the matcher died between marking it matched and ending the claim
    (the fuzz saw a refused FindMatch, ALREADY_SEARCHING, right after a match)."""
    store = sync_client(redis_url)
    stream = player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
    ticket = next(stream).ticket_id
    store.hset(keys.match_ticket(ticket), mapping={"status": matchmaking.MATCH_MATCHED, "game_id": "g" * 32})
    assert [reply.status for reply in stream][-1] == gateway_pb2.MATCH_STATUS_MATCHED
    again = player.matches.FindMatch(SEARCH, metadata=player.auth, timeout=30)
    assert next(again).status == gateway_pb2.MATCH_STATUS_SEARCHING, "the player may search again"
    again.cancel()
    store.close()

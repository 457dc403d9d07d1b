"""Matchmaker throughput: players matched per second on this machine, by the match script alone (a
queue of waiting tickets of ratings spread over 40 points, grouped run after run, a second of waiting
added per run, until bots fill what is left) and end to end (new players, a multiple of the seat
count, opening FindMatch streams at once on a gateway process, until the last stream says MATCHED:
games created, rules service called, every stream polled).

Parts: a throwaway redis-server, every rules service and a gateway process (`python -m gateway`).

    python -m bench.matchmaking [--players N]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import time

import grpc
import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from bench import table
from deploy import throwaway
from gateway.auth import create_api_key
from live import keys, matchmaking
from live.settings import Settings
from services.common import registry

SCRIPT_PLAYERS = 2000
STREAM_PLAYERS = 198  # new players, all rated 0: full games only, none waits for bots
SEATS = 3
BOTS_AFTER_SECONDS = 5
RATING_SPREAD = 40.0


async def script_rate(url: str, players: int) -> tuple[float, int]:
    """Players the match script groups per second (script time only) and the games it formed."""
    client = aioredis.Redis.from_url(url)
    settings = Settings()
    bands = matchmaking.Bands(
        settings.match_band_start, settings.match_band_growth_per_second, settings.match_band_max
    )
    kind = gateway_pb2.FindMatchRequest(title="bench", seat_count=SEATS)
    queue = matchmaking.queue_id(kind)
    rng = random.Random(19)  # the ratings only: any fixed spread will do
    joined = 1_000_000
    for index in range(players):
        facts = matchmaking.facts(f"p{index}", rng.uniform(0, RATING_SPREAD), BOTS_AFTER_SECONDS * 1000, 0)
        await matchmaking.join(client, kind, matchmaking.new_ticket(queue), facts, joined, b"")
    spent, games, now = 0.0, 0, joined
    while await client.zcard(keys.match_tickets(queue)):
        started = time.perf_counter()
        games += len(await matchmaking.match(client, queue, SEATS, bands, now))
        spent += time.perf_counter() - started
        now += 1000
    await client.aclose()
    return players / spent, games


async def stream_rate(url: str, address: str, players: int) -> tuple[float, float]:
    """Players matched per second end to end, and the seconds until the last was matched."""
    client = aioredis.Redis.from_url(url)
    key = await create_api_key(client, "bench")
    await client.aclose()
    title = next(iter(registry.games()))
    async with grpc.aio.insecure_channel(address) as channel:
        accounts = gateway_pb2_grpc.AccountServiceStub(channel)
        tokens = []
        for index in range(players):
            request = gateway_pb2.IssuePlayerTokenRequest(
                external_id=f"b{index}", display_name=f"Bench {index}"
            )
            while True:
                try:
                    reply = await accounts.IssuePlayerToken(request, metadata=(("x-api-key", key),))
                    break
                except grpc.aio.AioRpcError as error:
                    if error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
                        raise
                    await asyncio.sleep(0.2)
            tokens.append(reply.session.token)
        matches = gateway_pb2_grpc.MatchServiceStub(channel)
        search = gateway_pb2.FindMatchRequest(
            title=title, seat_count=SEATS, bots_after_seconds=BOTS_AFTER_SECONDS
        )

        async def one(token: str) -> None:
            async for reply in matches.FindMatch(search, metadata=(("authorization", f"Bearer {token}"),)):
                if reply.status != gateway_pb2.MATCH_STATUS_SEARCHING:
                    assert reply.status == gateway_pb2.MATCH_STATUS_MATCHED, reply

        started = time.perf_counter()
        await asyncio.gather(*(one(token) for token in tokens))
        elapsed = time.perf_counter() - started
    return players / elapsed, elapsed


def measure(script_players: int = SCRIPT_PLAYERS, stream_players: int = STREAM_PLAYERS) -> str:
    """Table (h): the matchmaker's throughput."""
    with throwaway.redis_server() as url, throwaway.rules_servers() as rules:
        script, games = asyncio.run(script_rate(url, script_players))
        port = throwaway.free_port()
        process = throwaway.start_gateway_process(url, ",".join(rules.values()), port)
        address = f"127.0.0.1:{port}"
        try:
            throwaway.gateway_serving(process, address)
            streams, elapsed = asyncio.run(stream_rate(url, address, stream_players))
        finally:
            throwaway.stop_worker_process(process)
    rows = [
        ["match script", script_players, SEATS, f"{games} games", f"{script:,.0f}"],
        [
            "FindMatch streams, one gateway",
            stream_players,
            SEATS,
            f"last after {elapsed:.1f} s",
            f"{streams:,.0f}",
        ],
    ]
    headers = ["matcher", "players", "seats", "formed", "players/s"]
    return table(
        f"(h) matchmaker throughput (ratings over {RATING_SPREAD:.0f} points, bots after "
        f"{BOTS_AFTER_SECONDS} s)",
        headers,
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.matchmaking", description=__doc__)
    parser.add_argument("--players", type=int, default=STREAM_PLAYERS, help="searchers on the gateway")
    args = parser.parse_args()
    print(measure(stream_players=args.players))


if __name__ == "__main__":
    main()

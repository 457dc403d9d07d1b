"""A gateway process's open file descriptors do not grow with the clients it has served: rounds of
clients that each open a channel, start a game, watch it and go away leave the gateway where the first
round did (the soak's "gateways' other open fds"), its connections to Redis a pool that keeps the most
it needed at once, below REDIS_MAX_CONNECTIONS (the soak's "gateways' connections to Redis")."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator

import pytest

from chaos import games, soak
from chaos.gateways import Auth, Gateways
from deploy.throwaway import (
    free_port,
    gateway_serving,
    redis_server,
    rules_servers,
    start_gateway_process,
    stop_worker_process,
)
from live.settings import Settings

CLIENTS = 10  # at once, each a channel, a game and a watch stream of its own
ROUNDS = 6
WARM_UP_ROUNDS = 2
SLACK = 4  # descriptors the gateway may open or close of itself meanwhile (gRPC's pollers, a timer)
# Connections a round may add to the pool by chance, needing more at once than the rounds before (one
# kept per client, a leak, adds CLIENTS every round: 4 times CLIENTS after the warm-up).
POOL_SLACK = CLIENTS


@dataclasses.dataclass
class Gateway:
    address: str
    pid: int
    redis_port: int


@pytest.fixture(scope="module")
def gateway() -> Iterator[Gateway]:
    with redis_server() as redis_url, rules_servers() as rules:
        port = free_port()
        process = start_gateway_process(redis_url, ",".join(rules.values()), port)
        address = f"127.0.0.1:{port}"
        try:
            gateway_serving(process, address)
            yield Gateway(address, process.pid, int(redis_url.rsplit(":", 1)[1].split("/")[0]))
        finally:
            stop_worker_process(process)


async def one_round(address: str, players: list[Auth], round_number: int) -> None:
    """Each player, on a channel of its own: open a game against a bot, watch it until its first view,
    drop the stream and close the channel."""
    plan = dataclasses.replace(games.plans(0, 1)[0], seats=2, bot_seats=1)

    async def client(seat: int) -> None:
        gateways = Gateways([address])
        try:
            number = round_number * CLIENTS + seat
            game_id, _ = await games.open_game(gateways, plan, number, [players[seat]])
            async for _view in gateways.watch(game_id, players[seat], stall=10.0):
                break
        finally:
            await gateways.close()

    await asyncio.gather(*(client(seat) for seat in range(CLIENTS)))


async def counts_over_rounds(gateway: Gateway) -> list[tuple[int, int]]:
    """(connections to Redis, other descriptors) of the gateway after each round."""
    registrar = Gateways([gateway.address])
    players = [await games.guest(registrar, f"descriptors {seat}") for seat in range(CLIENTS)]
    await registrar.close()
    counts = []
    for number in range(ROUNDS):
        await one_round(gateway.address, players, number)
        await asyncio.sleep(1.0)  # the gateway's side of the closed streams and channels goes too
        to_redis = soak.connections_to([gateway.pid], gateway.redis_port)
        counts.append((to_redis, soak.fds(gateway.pid) - to_redis))
    return counts


def test_rounds_of_clients_leave_the_gateways_descriptors_where_the_first_round_did(gateway: Gateway) -> None:
    counts = asyncio.run(counts_over_rounds(gateway))
    warm = counts[:WARM_UP_ROUNDS]  # the pool grows to what a round needs at once, the rules channels open
    (last_redis, last_other) = counts[-1]
    assert last_other <= max(other for _, other in warm) + SLACK, counts  # a leak: CLIENTS more a round
    assert last_redis <= max(redis for redis, _ in warm) + POOL_SLACK, (
        counts
    )  # the pool reuses what it opened
    assert max(redis for redis, _ in counts) <= Settings().redis_max_connections + 1, counts

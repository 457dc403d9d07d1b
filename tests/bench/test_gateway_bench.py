"""`make bench`'s gateway table runs end to end: real processes, moves made, every figure measured;
and its players keep playing when their connection is cut."""

from __future__ import annotations

import asyncio
import re
import time

import grpc

from bench import gateway
from deploy.throwaway import redis_server, rules_servers
from tests.clients.proxy import Proxy
from tests.gateway.support import GatewayProcess, gateway_settings

CUT_EVERY_SECONDS = 0.7
GAME_SECONDS = 120.0


def test_the_gateway_benchmark_measures_every_figure() -> None:
    table = gateway.measure(games=2, processes=1, warmup=0.2, seconds=0.5)
    cells = [re.split(r"\s{2,}", line.strip()) for line in table.splitlines()[3:]]
    rows = {label: value.split() for label, value, *_ in cells}
    moved = int(re.search(r"(\d[\d,]*) moves in", table).group(1).replace(",", ""))  # type: ignore[union-attr]
    assert moved > 0
    assert float(rows["2 games, no pauses: moves per second"][0].replace(",", "")) > 0
    for row in (
        "2 games, no pauses: submit-to-event p50 ms",
        "one game alone, no pauses: submit-to-event p50 ms",
        "floor ms (gRPC echo + Redis PING)",
        "a move's bare path ms (2 gRPC echoes + 2 PINGs)",
    ):
        assert float(rows[row][0]) > 0, row
    assert float(rows["a move's bare path ms (2 gRPC echoes + 2 PINGs)"][0]) > float(
        rows["floor ms (gRPC echo + Redis PING)"][0]
    )
    gateway_cpu, rules_cpu = (
        float(ms) for ms in rows["2 games, no pauses: CPU ms per move, gateway / rules"][::2]
    )
    assert gateway_cpu > 0 and rules_cpu > 0
    assert 1_000 < int(rows["finished 4p game: state + log B"][0].replace(",", "")) <= 32 * 1024


def test_the_benchmark_players_reopen_their_streams_when_the_connection_is_cut() -> None:
    """Every connection is dropped again and again during a game (as a gateway restart would): each
    player's watch stream is opened again from its last version, and the game is played to its end."""
    out = gateway.new_record()

    async def play(proxy: Proxy) -> None:
        async with grpc.aio.insecure_channel(proxy.address) as channel:
            table = await gateway._new_game(channel)
            start = time.perf_counter()
            game = asyncio.create_task(
                gateway._play(channel, table, 1, gateway.Run((start, start + 300), 0.0, out))
            )
            while not game.done() and proxy.cuts < 20:
                await asyncio.sleep(CUT_EVERY_SECONDS)
                await asyncio.to_thread(proxy.cut)
            await asyncio.wait_for(game, GAME_SECONDS)

    with (
        redis_server() as redis_url,
        rules_servers() as rules,
        GatewayProcess(gateway_settings(redis_url, rules)) as process,
        Proxy(process.address) as proxy,
    ):
        asyncio.run(play(proxy))
    assert out["finished"] == [1], "the game was played to its end"
    assert proxy.cuts >= 2 and len(out["reconnects"]) >= 4, "each player's stream was cut at least once"

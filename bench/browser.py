"""The browser transport's cost, and the web client's size.

Processes: a redis-server, the first registered title's rules service and the gateway (each a real
process, the gateway with its browser listener). Four guests play games of the title, the acting seat
always taking its first legal action; the moves alternate between native gRPC and the Connect protocol
(binary, as the web client sends it, by connect-python's client), so both are timed in the same run on
the same games. Only SubmitAction is timed, from sending it to its reply. Then the web client's bundle
(clients/web/dist, built by `make setup`) is weighed gzipped.

    python -m bench.browser [--moves 300]
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import statistics
import sys
import time
import uuid
from pathlib import Path

import grpc
import uvloop
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from connectrpc.client import ConnectClient

from bench import table, unpin, verdict
from bench.gateway import _new_game, _patiently, _start, _wait_serving, start_rules
from deploy.throwaway import free_port, redis_server
from gateway.browser import WEB_CLIENT_DIR, method_info

TARGET_CONNECT_OVER_NATIVE_P50 = 1.5
TARGET_BUNDLE_GZIP_BYTES = 300 * 1024
BUNDLE_FILES = ("app.js", "index.html", "style.css")
MOVE_SECONDS = 0.025  # 40 moves a second at most: under the read and move limits of one player
SUBMIT = method_info("/boardgame.gateway.v1.GameService/SubmitAction")
Auth = tuple[tuple[str, str], ...]


async def _view(games: gateway_pb2_grpc.GameServiceStub, game_id: str, auth: Auth) -> gateway_pb2.GameView:
    """The caller's view, waiting out the rate limit if a call comes too soon."""
    return (await _patiently(games.GetGame, gateway_pb2.GetGameRequest(game_id=game_id), auth)).game


async def _submit_times(gateway_address: str, web_url: str, moves: int) -> tuple[list[float], list[float]]:
    """SubmitAction round trips (ms), native gRPC and Connect, alternating, `moves` of each; a move
    at most every MOVE_SECONDS, so that no player goes over the rate limits a user gets."""
    native: list[float] = []
    connect: list[float] = []
    client = ConnectClient(web_url, send_compression=None)
    async with grpc.aio.insecure_channel(gateway_address) as channel:
        games = gateway_pb2_grpc.GameServiceStub(channel)
        game_id, players = await _new_game(channel)
        acting = list((await _view(games, game_id, players[0])).acting_seats)
        while len(connect) < moves:
            paced = asyncio.create_task(asyncio.sleep(MOVE_SECONDS))
            if not acting:
                game_id, players = await _new_game(channel)
                acting = list((await _view(games, game_id, players[0])).acting_seats)
                continue
            auth = players[acting[0]]
            view = await _view(games, game_id, auth)
            request = gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=view.legal_actions[0].action,
                expected_version=view.version,
                request_id=uuid.uuid4().hex,
            )
            by_connect = len(native) > len(connect)
            started = time.perf_counter()
            if by_connect:
                reply = await client.execute_unary(request=request, method=SUBMIT, headers=dict(auth))
            else:
                reply = await games.SubmitAction(request, metadata=auth)
            (connect if by_connect else native).append((time.perf_counter() - started) * 1000)
            finished = reply.game.status == gateway_pb2.GAME_STATUS_FINISHED
            acting = [] if finished else list(reply.game.acting_seats)
            await paced
    await client.close()
    return native, connect


def bundle_bytes(folder: Path = WEB_CLIENT_DIR) -> tuple[int, int]:
    """The web client's files: their bytes, and their bytes gzipped (each file on its own)."""
    raw = [(folder / name).read_bytes() for name in BUNDLE_FILES]
    return sum(map(len, raw)), sum(len(gzip.compress(data, 9)) for data in raw)


def measure(moves: int = 300) -> str:
    """Run the comparison on every CPU and return its table."""
    unpin()
    with redis_server() as redis_url:
        rules_port, gateway_port, web_port = free_port(), free_port(), free_port()
        rules = start_rules(f"127.0.0.1:{rules_port}")
        gateway_address = f"127.0.0.1:{gateway_port}"
        gateway = _start(
            [sys.executable, "-m", "gateway"],
            {
                "GATEWAY_ADDRESS": gateway_address,
                "WEB_ADDRESS": f"127.0.0.1:{web_port}",
                "REDIS_URL": redis_url,
                "METRICS_PORT": "off",
                "RULES_ADDRESSES": f"127.0.0.1:{rules_port}",
            },
        )
        try:
            _wait_serving(gateway_address)
            native, connect = uvloop.run(
                _submit_times(gateway_address, f"http://127.0.0.1:{web_port}", moves)
            )
        finally:
            for process in (gateway, rules):
                process.terminate()
                process.wait(30)
    native_p50, connect_p50 = statistics.median(native), statistics.median(connect)
    ratio = connect_p50 / native_p50
    raw, zipped = bundle_bytes()
    rows = [
        ["SubmitAction p50 ms, native gRPC", len(native), f"{native_p50:.2f}", "-", "-"],
        ["SubmitAction p50 ms, Connect (browser transport)", len(connect), f"{connect_p50:.2f}", "-", "-"],
        [
            "Connect p50 / native p50",
            len(connect),
            f"{ratio:.2f}",
            f"<= {TARGET_CONNECT_OVER_NATIVE_P50:g}",
            verdict(ratio <= TARGET_CONNECT_OVER_NATIVE_P50),
        ],
        [
            f"web client bundle B ({raw:,} B raw), gzipped",
            1,
            f"{zipped:,}",
            "< 307,200",
            verdict(zipped < TARGET_BUNDLE_GZIP_BYTES),
        ],
    ]
    return table(
        "(g) browser transport vs native gRPC, one game at a time; the web client's size",
        ["figure", "samples", "value", "target", "meets"],
        rows,
    )


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="python -m bench.browser", description=__doc__)
    parser.add_argument("--moves", type=int, default=300, help="moves timed per transport (default 300)")
    print(measure(parser.parse_args().moves))


if __name__ == "__main__":
    main()

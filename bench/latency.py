"""ApplyAction latency over gRPC on loopback, next to a bare echo RPC of the same payload.

The server runs in a child process (pinned to another CPU where there is one) and serves both the
game's RulesService, built by `services.common.server.create_server`, and an echo method that
returns its request bytes, on the same server. The client sends pre-serialized requests to both
and does not parse the replies, so the difference between the two is the rules service's own work.
"""

from __future__ import annotations

import multiprocessing
import statistics
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection

import grpc
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from bench import pin_to_cpu
from services.common import registry
from services.common.game import Game
from services.common.playout import choose_random, default_config
from services.common.rng import Rng

APPLY_METHOD = "/boardgame.rules.v1.RulesService/ApplyAction"
ECHO_SERVICE = "bench.v1.Echo"
ECHO_METHOD = f"/{ECHO_SERVICE}/Echo"
WARMUP_CALLS = 200
STARTUP_TIMEOUT_SECONDS = 60.0


@dataclass(frozen=True)
class Latency:
    """Per-call latencies in microseconds of ApplyAction and of the echo, same payloads."""

    game: str
    players: int
    payload_bytes: list[int]
    apply_us: list[float]
    echo_us: list[float]


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered)) - 1))
    return ordered[rank]


def _echo(request: bytes, context: grpc.ServicerContext) -> bytes:
    return request


def serve_in_child(game_name: str, cpu: int | None, connection: Connection) -> None:
    """Child process: serve the game and the echo on one server until the parent says stop."""
    pin_to_cpu(cpu)
    from services.common.server import create_server

    server, port = create_server("127.0.0.1:0", registry.get(game_name))
    echo = grpc.method_handlers_generic_handler(
        ECHO_SERVICE, {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((echo,))
    server.start()
    connection.send(port)
    connection.recv()
    server.stop(grace=None).wait()


def mid_game_requests(game: Game, players: int, count: int) -> list[bytes]:
    """`count` serialized ApplyActionRequests, each a random legal action in a mid-game state."""
    config = default_config(game)
    rng = Rng.from_seed(f"bench-latency-{game.info.name}-{players}".encode())
    requests: list[bytes] = []
    number = 0
    while len(requests) < count:
        state, _ = game.new_game(players, config, f"bench-latency-{number}".encode())
        number += 1
        history = []
        while not game.is_terminal(state):
            history.append(game.copy_state(state))
            seat, action = choose_random(game, state, rng)
            game.play(state, seat, action)
        third = len(history) // 3
        for mid in history[third : len(history) - third : 5]:
            seat, action = choose_random(game, mid, rng)
            request = rules_pb2.ApplyActionRequest(
                state=_pack(game.state_to_proto(mid)), seat=seat, action=_pack(game.action_to_proto(action))
            )
            requests.append(request.SerializeToString(deterministic=True))
    return requests[:count]


def _pack(message: object) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(message, deterministic=True)  # type: ignore[arg-type]
    return packed


def measure_latency(game: Game, players: int, calls: int, server_cpu: int | None) -> Latency:
    """Time `calls` ApplyAction calls and as many echoes of the same bytes, interleaved."""
    requests = mid_game_requests(game, players, calls)
    context = multiprocessing.get_context("spawn")
    parent_end, child_end = context.Pipe()
    child = context.Process(target=serve_in_child, args=(game.info.name, server_cpu, child_end))
    child.start()
    try:
        if not parent_end.poll(STARTUP_TIMEOUT_SECONDS):
            raise RuntimeError("the benchmark server did not start")
        port = parent_end.recv()
        with grpc.insecure_channel(f"127.0.0.1:{port}") as channel:
            apply = channel.unary_unary(APPLY_METHOD)
            echo = channel.unary_unary(ECHO_METHOD)
            for request in requests[:WARMUP_CALLS]:
                apply(request)
                echo(request)
            apply_us: list[float] = []
            echo_us: list[float] = []
            for index, request in enumerate(requests):
                # Alternate which call goes first so neither always runs on a warmer path.
                order = (
                    ((apply, apply_us), (echo, echo_us))
                    if index % 2
                    else ((echo, echo_us), (apply, apply_us))
                )
                for call, sink in order:
                    start = time.perf_counter_ns()
                    reply = call(request)
                    sink.append((time.perf_counter_ns() - start) / 1000)
                    if not reply:
                        raise RuntimeError("an empty reply")
    finally:
        if child.is_alive():
            parent_end.send("stop")
        child.join(timeout=30)
        if child.is_alive():
            child.kill()
    return Latency(game.info.name, players, [len(r) for r in requests], apply_us, echo_us)


def median(values: list[float]) -> float:
    """The median."""
    return statistics.median(values)

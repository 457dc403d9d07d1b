"""Gateway under load: 100 concurrent games of the first registered title on this machine, driven by
client processes.

Processes: a redis-server, the game's rules service and the gateway (each a real process), plus
client processes. Every game has four guest players, each watching the game on its own stream; the
player whose turn it is picks a random legal action from its view, at once (the saturation run) or
after a pause of 0 to 2 s (the paced run), and a new game starts when one ends. Figures: moves per
second, the CPU time the gateway and the rules service spend per move (no-pause run), submit-to-event
latency (from sending SubmitAction to each player's watch stream delivering
that version, measured in the client process), and the floor measured in the same run: a bare gRPC
echo round trip plus a Redis round trip. Next to it, the bare path every move takes in this design:
the client's hop to the gateway and the gateway's to the rules service (a gRPC echo each), and two
Redis round trips (read, commit), with no work done. Finally, the Redis memory of
one finished 4-player game (its state and action log).

The gateway runs with the limits a user gets. The clients behave as docs/clients.md asks: a call
refused as RATE_LIMITED is sent again after the delay it gives, and a watch stream that fails or ends
before its game is over is opened again from the last version seen (both counted in the table).

    python -m bench.gateway [--games 100] [--processes 2] [--seconds 20] [--warmup 3]
"""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import grpc
import redis
import uvloop
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from bench import memory, table, unpin, verdict
from bench.latency import percentile
from deploy.probe import serving
from deploy.throwaway import free_port, redis_server
from live import keys
from services.common import registry
from services.common.rng import Rng
from services.common.status import error_info

TITLE, TITLE_MODULE = next(iter(registry.games())), registry.GAME_MODULES[0]
PLAYERS = 4
TARGET_P50_OVER_FLOOR = 3.0
TARGET_MOVES_PER_SECOND = 500
TARGET_FINISHED_GAME_BYTES = 32 * 1024
READY_TIMEOUT = 60.0
CLIENT_SETUP_SECONDS = 120.0  # a client process's lobbies and games, made before its window opens
SINGLE_GAME_SECONDS = 5.0
THINK_SECONDS = 1.0  # the paced run: players take 0 to 2 s to move, like quick people
FORWARDED_HEADER = "x-forwarded-for"  # what a proxy in front of the gateway names the client by
STALL_SECONDS = 60.0  # no view for this long: the run is broken, not slow
RECONNECT_FIRST_SECONDS = 0.1
RECONNECT_MAX_SECONDS = 5.0
MAX_RECONNECTS = 10  # a unary call's tries after lost connections, in a row
# A watch stream failing with one of these would not do better opened again.
FINAL_CODES = frozenset(
    {
        grpc.StatusCode.INVALID_ARGUMENT,
        grpc.StatusCode.NOT_FOUND,
        grpc.StatusCode.PERMISSION_DENIED,
        grpc.StatusCode.UNAUTHENTICATED,
    }
)

Auth = tuple[tuple[str, str], ...]  # a player's call metadata
Table = tuple[str, list[Auth]]  # a game's id and its players, by seat


def _start(argv: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    log = open(os.environ.get("BENCH_LOG", os.devnull), "ab")  # noqa: SIM115 - lives as long as the process
    return subprocess.Popen(argv, env={**os.environ, **env}, stdout=log, stderr=log)


def start_rules(address: str, module: str = TITLE_MODULE) -> subprocess.Popen[bytes]:
    """A title's rules service (`python -m services.<title>`, by default the first registered's) on
    `address`, no metrics."""
    return _start([sys.executable, "-m", module], {"RULES_ADDRESS": address, "METRICS_PORT": "off"})


def start_gateway(
    address: str, redis_url: str, rules_addresses: str, broker_url: str = ""
) -> subprocess.Popen[bytes]:
    """`python -m gateway` on `address` with this Redis (and Celery broker: a Cluster needs a plain
    Redis) and these rules services, no metrics, and its browser listener on a free port of its own
    (two gateways on one machine cannot share one)."""
    return _start(
        [sys.executable, "-m", "gateway"],
        {
            "GATEWAY_ADDRESS": address,
            "REDIS_URL": redis_url,
            "METRICS_PORT": "off",
            "RULES_ADDRESSES": rules_addresses,
            "WEB_ADDRESS": f"127.0.0.1:{free_port()}",
            **({"CELERY_BROKER_URL": broker_url} if broker_url else {}),
        },
    )


def _wait_serving(address: str) -> None:
    deadline = time.monotonic() + READY_TIMEOUT
    while time.monotonic() < deadline:
        if serving(address, timeout=1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{address} did not start")


def rate_limit_delay(error: grpc.RpcError) -> float | None:
    """Seconds a RATE_LIMITED refusal asks to wait (its `retry_after_ms`); None for other errors."""
    info = error_info(error) if error.code() == grpc.StatusCode.RESOURCE_EXHAUSTED else None
    return int(info.metadata["retry_after_ms"]) / 1000 if info and info.reason == "RATE_LIMITED" else None


def reconnect_delay(failures: int) -> float:
    """The pause before trying again after `failures` lost connections in a row."""
    return min(RECONNECT_MAX_SECONDS, RECONNECT_FIRST_SECONDS * 2**failures)


async def _submit(games, game_id: str, action, version: int, metadata: Auth, out=None):  # type: ignore[no-untyped-def]
    """Submit `action` at `version` under a fresh request id, patiently (see `_patiently`)."""
    request = gateway_pb2.SubmitActionRequest(
        game_id=game_id, action=action, expected_version=version, request_id=uuid.uuid4().hex
    )
    return await _patiently(games.SubmitAction, request, metadata, out)


async def _patiently(call, request, metadata: Auth, out: dict[str, list[float]] | None = None):  # type: ignore[no-untyped-def]
    """The reply of a unary call, sent again after the delay a RATE_LIMITED refusal asks for (each
    refusal counted in out["limited"]) or, a few times, after a lost connection (UNAVAILABLE; a move
    carries its request_id, so it is applied once)."""
    lost = 0
    while True:
        try:
            return await call(request, metadata=metadata)
        except grpc.aio.AioRpcError as error:
            delay = rate_limit_delay(error)
            if delay is not None and out is not None:
                out["limited"].append(1)
            if delay is None and error.code() == grpc.StatusCode.UNAVAILABLE and lost < MAX_RECONNECTS:
                delay, lost = reconnect_delay(lost), lost + 1
            if delay is None:
                raise
            await asyncio.sleep(delay)


async def _guest(stub: gateway_pb2_grpc.AccountServiceStub, name: str) -> Auth:
    """A new guest's call metadata. It signs up from an address of its own, as a proxy in front of the
    gateway names it (FORWARDED_HEADER; a gateway that trusts no proxy ignores it)."""
    address = (FORWARDED_HEADER, str(ipaddress.IPv4Address(0x0A000000 + random.getrandbits(24))))
    session = (
        await _patiently(stub.CreateGuest, gateway_pb2.CreateGuestRequest(display_name=name), (address,))
    ).session
    return (("authorization", f"Bearer {session.token}"),)


async def _new_game(channel: grpc.aio.Channel) -> Table:
    accounts = gateway_pb2_grpc.AccountServiceStub(channel)
    lobbies = gateway_pb2_grpc.LobbyServiceStub(channel)
    players = [await _guest(accounts, f"load {i}") for i in range(PLAYERS)]
    lobby = (
        await _patiently(
            lobbies.CreateLobby,
            gateway_pb2.CreateLobbyRequest(
                title=TITLE, seat_count=PLAYERS, seating=gateway_pb2.SEATING_FIXED
            ),
            players[0],
        )
    ).lobby
    for auth in players[1:]:
        await _patiently(lobbies.JoinLobby, gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id), auth)
    started = await _patiently(
        lobbies.StartGame, gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), players[0]
    )
    return started.game_id, players


RECORDED = ("latency", "moves", "finished", "limited", "reconnects")


def new_record() -> dict[str, list[float]]:
    """An empty record of what a client process measures (see Run)."""
    return {name: [] for name in RECORDED}


@dataclass(frozen=True)
class Run:
    """What a client process's games share: the measuring window (perf_counter start and end), the
    mean pause before a move (s), and what is recorded ("latency" ms, "moves", "finished", "limited"
    refusals waited out, watch stream "reconnects", "cpu")."""

    window: tuple[float, float]
    think: float
    out: dict[str, list[float]]


async def _watch(
    games: gateway_pb2_grpc.GameServiceStub,
    game_id: str,
    auth: Auth,
    on_update: Callable[[gateway_pb2.WatchGameResponse], Awaitable[None]],
    out: dict[str, list[float]],
) -> None:
    """Follow a game until it is over: a stream that fails or ends early is opened again from the last
    version seen, after a growing pause or the one a RATE_LIMITED refusal asks for (each reopening
    counted in out["reconnects"])."""
    seen, failures = 0, 0
    while True:
        stream = games.WatchGame(
            gateway_pb2.WatchGameRequest(game_id=game_id, from_version=seen), metadata=auth
        )
        delay = None
        try:
            async for update in stream:
                failures = 0
                if update.HasField("game"):
                    seen = max(seen, update.game.version)
                await on_update(update)
                if update.game.status == gateway_pb2.GAME_STATUS_FINISHED:
                    return
        except grpc.aio.AioRpcError as error:
            if error.code() in FINAL_CODES:
                raise
            delay = rate_limit_delay(error)
        finally:
            stream.cancel()
        out["reconnects"].append(1)
        await asyncio.sleep(delay or reconnect_delay(failures))
        failures += 1


async def _drive(channel: grpc.aio.Channel, table: Table, seed: int, run: Run) -> None:
    """Play games at one table until the window closes, a new game whenever one ends."""
    while time.perf_counter() < run.window[1]:
        await _play(channel, table, seed, run)
        table, seed = await _new_game(channel), seed + 1


async def _play(channel: grpc.aio.Channel, table: Table, seed: int, run: Run) -> None:
    """Play one game as its four players would: each watches the game, and the seat whose turn it is
    picks a random legal action from its own view after a pause of `run.think` seconds on average.
    Moves and latencies inside the measuring window are recorded."""
    games = gateway_pb2_grpc.GameServiceStub(channel)
    game_id, players = table
    rng = Rng(seed)
    start, until = run.window
    think, out = run.think, run.out
    sent: dict[int, float] = {}
    updates: asyncio.Queue[tuple[int, gateway_pb2.GameView | BaseException]] = asyncio.Queue()

    def arrived(seat: int) -> Callable[[gateway_pb2.WatchGameResponse], Awaitable[None]]:
        async def on_update(update: gateway_pb2.WatchGameResponse) -> None:
            if not update.HasField("game"):
                return
            arrived = time.perf_counter()
            version = update.game.version
            if version in sent and start <= sent[version] <= until:
                out["latency"].append((arrived - sent[version]) * 1000)
            await updates.put((seat, update.game))

        return on_update

    async def watch(seat: int) -> None:
        try:
            await _watch(games, game_id, players[seat], arrived(seat), out)
        except Exception as error:  # the game's loop must hear of it, or it waits for ever
            await updates.put((seat, error))

    watchers = [asyncio.create_task(watch(seat)) for seat in range(PLAYERS)]
    played = -1
    try:
        while time.perf_counter() < until:
            try:
                seat, view = await asyncio.wait_for(updates.get(), STALL_SECONDS)
            except TimeoutError:
                raise RuntimeError(f"game {game_id}: no view for {STALL_SECONDS:.0f} s") from None
            if isinstance(view, BaseException):
                raise RuntimeError(f"game {game_id}: seat {seat} stopped watching") from view
            if view.status == gateway_pb2.GAME_STATUS_FINISHED:
                out["finished"].append(1)
                break
            if view.version <= played or not view.legal_actions:
                continue
            if think:
                await asyncio.sleep(rng.below(int(2000 * think)) / 1000)
            choice = view.legal_actions[rng.below(len(view.legal_actions))]
            played = view.version
            now = time.perf_counter()
            sent[view.version + 1] = now
            await _submit(games, game_id, choice.action, view.version, players[seat], out)
            if start <= now <= until:
                out["moves"].append(1)
    finally:
        for watcher in watchers:
            watcher.cancel()


def _cpu_seconds(pid: int) -> float:
    """CPU time (user + system) a process has used so far, from /proc (0 where there is no /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float:
    """CPU time (every kind but idle and I/O wait) every process of the machine has used so far, from
    /proc/stat (0 where there is none)."""
    try:
        with open("/proc/stat") as stat:
            ticks = [int(value) for value in stat.readline().split()[1:]]
    except OSError:
        return 0.0
    return (sum(ticks) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


async def _sample_cpu(pids: tuple[int, ...], run: Run) -> None:
    """The CPU seconds each process in `pids` uses during the measuring window, into out["cpu"], and
    those of the whole machine, into out["machine_cpu"]."""
    start, until = run.window
    await asyncio.sleep(max(0.0, start - time.perf_counter()))
    before, machine = [_cpu_seconds(pid) for pid in pids], machine_cpu_seconds()
    await asyncio.sleep(max(0.0, until - time.perf_counter()))
    run.out["cpu"] = [_cpu_seconds(pid) - used for pid, used in zip(pids, before, strict=True)]
    run.out["machine_cpu"] = [machine_cpu_seconds() - machine]


def _client_process(  # type: ignore[no-untyped-def]
    address: str,
    games: int,
    first_seed: int,
    warmup: float,
    seconds: float,
    think: float,
    result,
    watched: tuple[int, ...] = (),
) -> None:
    async def run() -> dict[str, list[float]]:
        out = new_record()
        async with grpc.aio.insecure_channel(address) as channel:
            tables = [await _new_game(channel) for _ in range(games)]
            start = time.perf_counter() + warmup
            run = Run((start, start + seconds), think, out)
            await asyncio.gather(
                _sample_cpu(watched, run),
                *(_drive(channel, table, 1000 * (first_seed + i), run) for i, table in enumerate(tables)),
            )
        return out

    result.put(uvloop.run(run()))


def _echo(address: str, calls: int) -> float:
    """p50 ms of a bare gRPC round trip: a health check on the server at `address`."""
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    echo = []
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        request = health_pb2.HealthCheckRequest()
        for _ in range(calls):
            started = time.perf_counter()
            stub.Check(request)
            echo.append((time.perf_counter() - started) * 1000)
    return statistics.median(echo)


def _floor(gateway_address: str, rules_address: str, redis_url: str, calls: int = 500) -> tuple[float, ...]:
    """p50 ms of a bare gRPC round trip to the gateway, of one to the rules service, and of a Redis PING."""
    ping = []
    client = redis.Redis.from_url(redis_url)
    for _ in range(calls):
        started = time.perf_counter()
        client.ping()
        ping.append((time.perf_counter() - started) * 1000)
    return _echo(gateway_address, calls), _echo(rules_address, calls), statistics.median(ping)


def _finished_game_bytes(channel_address: str, redis_url: str) -> tuple[int, int]:
    """Redis memory of one finished 4-player game: (state + log, every key of the game)."""

    async def play() -> str:
        async with grpc.aio.insecure_channel(channel_address) as channel:
            games = gateway_pb2_grpc.GameServiceStub(channel)
            game_id, players = await _new_game(channel)
            rng = Rng(99)
            while True:
                request = gateway_pb2.GetGameRequest(game_id=game_id)
                view = (await _patiently(games.GetGame, request, players[0])).game
                if view.status == gateway_pb2.GAME_STATUS_FINISHED:
                    return game_id
                actor = players[view.acting_seats[0]]
                mine = (await _patiently(games.GetGame, request, actor)).game
                choice = mine.legal_actions[rng.below(len(mine.legal_actions))]
                await _submit(games, game_id, choice.action, mine.version, actor)

    game_id = asyncio.run(play())
    client = redis.Redis.from_url(redis_url)
    core = [keys.game_state(game_id), keys.game_log(game_id)]
    usage = {key: client.memory_usage(key, samples=0) or 0 for key in memory.every_key(game_id)}
    return sum(usage[k] for k in core), sum(usage.values())


def _load(
    address: str | Sequence[str],
    games: int,
    processes: int,
    warmup: float,
    seconds: float,
    think: float,
    watched: tuple[int, ...] = (),
) -> list[dict[str, list[float]]]:
    """What each client process measured while its share of `games` was played (the first one also
    measures the CPU time the `watched` processes use in its window). Given several gateway
    addresses, the client processes take them in turn.

    Client processes are spawned, not forked: a child forked from a process that has used gRPC can
    hang in gRPC's own threads.
    """
    addresses = [address] if isinstance(address, str) else list(address)
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    clients = [
        context.Process(
            target=_client_process,
            args=(
                addresses[i % len(addresses)],
                games // processes,
                1000 * i,
                warmup,
                seconds,
                think,
                queue,
                () if i else watched,
            ),
        )
        for i in range(processes)
    ]
    for client in clients:
        client.start()
    try:
        results = [
            queue.get(timeout=READY_TIMEOUT + warmup + seconds + CLIENT_SETUP_SECONDS) for _ in clients
        ]
    finally:
        for client in clients:
            client.join(timeout=READY_TIMEOUT)
            if client.is_alive():
                client.kill()
    return results


def measure(games: int = 100, processes: int = 2, warmup: float = 3.0, seconds: float = 20.0) -> str:
    """Run the whole load benchmark on every CPU (not the one the other tables pin) and return its table."""
    unpin()
    with redis_server() as redis_url:
        rules_port, gateway_port = free_port(), free_port()
        rules = start_rules(f"127.0.0.1:{rules_port}")
        gateway_address = f"127.0.0.1:{gateway_port}"
        gateway = start_gateway(gateway_address, redis_url, f"127.0.0.1:{rules_port}")
        try:
            _wait_serving(gateway_address)
            echo_ms, rules_echo_ms, ping_ms = _floor(gateway_address, f"127.0.0.1:{rules_port}", redis_url)
            results = _load(gateway_address, games, processes, warmup, seconds, 0.0, (gateway.pid, rules.pid))
            paced = _load(gateway_address, games, processes, warmup, seconds, THINK_SECONDS)
            alone = _load(gateway_address, 1, 1, 1.0, SINGLE_GAME_SECONDS, 0.0)[0]
            state_log, whole = _finished_game_bytes(gateway_address, redis_url)
        finally:
            for process in (gateway, rules):
                process.terminate()
                process.wait(10)
    limited = sum(len(r["limited"]) for run in (results, paced, [alone]) for r in run)
    reconnects = sum(len(r["reconnects"]) for run in (results, paced, [alone]) for r in run)
    latencies = [ms for r in results for ms in r["latency"]]
    moves = sum(len(r["moves"]) for r in results)
    finished = sum(len(r["finished"]) for r in results)
    paced_latencies = [ms for r in paced for ms in r["latency"]]
    paced_rate = sum(len(r["moves"]) for r in paced) / seconds
    floor = echo_ms + ping_ms
    path = echo_ms + rules_echo_ms + 2 * ping_ms  # client -> gateway -> rules, read and commit
    limit = TARGET_P50_OVER_FLOOR * floor
    rate = moves / seconds
    sampled = next((r["cpu"] for r in results if r.get("cpu")), [0.0, 0.0])  # the process that sampled
    cpu = [f"{1000 * used / moves:.2f}" if moves and used else "-" for used in sampled]

    def p50_row(label: str, values: list[float]) -> list[str]:
        if not values:  # a run too short for any move to be timed
            return [label, "-", f"<= {limit:.2f} (3 x floor)", "-"]
        p50 = statistics.median(values)
        return [label, f"{p50:.2f}", f"<= {limit:.2f} (3 x floor)", verdict(p50 <= limit)]

    def p99(values: list[float]) -> str:
        return f"{percentile(values, 0.99):.2f}" if values else "-"

    rows = [
        [
            f"{games} games, no pauses: moves per second",
            f"{rate:,.0f}",
            f">= {TARGET_MOVES_PER_SECOND}",
            verdict(rate >= TARGET_MOVES_PER_SECOND),
        ],
        [f"{games} games, no pauses: CPU ms per move, gateway / rules", " / ".join(cpu), "-", "-"],
        p50_row(f"{games} games, no pauses: submit-to-event p50 ms", latencies),
        [f"{games} games, no pauses: submit-to-event p99 ms", p99(latencies), "-", "-"],
        [f"{games} games, 0-2 s pauses: moves per second", f"{paced_rate:,.0f}", "-", "-"],
        p50_row(f"{games} games, 0-2 s pauses: submit-to-event p50 ms", paced_latencies),
        [
            f"{games} games, 0-2 s pauses: submit-to-event p99 ms",
            p99(paced_latencies),
            "-",
            "-",
        ],
        p50_row("one game alone, no pauses: submit-to-event p50 ms", alone["latency"]),
        ["floor ms (gRPC echo + Redis PING)", f"{floor:.2f} ({echo_ms:.2f} + {ping_ms:.2f})", "-", "-"],
        [
            "a move's bare path ms (2 gRPC echoes + 2 PINGs)",
            f"{path:.2f} ({echo_ms:.2f} + {rules_echo_ms:.2f} + 2 x {ping_ms:.2f})",
            "-",
            "-",
        ],
        [
            "finished 4p game: state + log B",
            f"{state_log:,}",
            f"<= {TARGET_FINISHED_GAME_BYTES:,}",
            verdict(state_log <= TARGET_FINISHED_GAME_BYTES),
        ],
        ["finished 4p game: every key B", f"{whole:,}", "-", "-"],
        ["calls rate limited (waited, sent again)", f"{limited:,}", "-", "-"],
        ["watch streams reopened", f"{reconnects:,}", "-", "-"],
    ]
    title = (
        f"(d) gateway: {games} concurrent {TITLE} games, {processes} client processes, "
        f"{moves:,} moves in {seconds:.0f} s, {finished} games finished"
    )
    return table(title, ["figure", "value", "target", "meets"], rows)


def main() -> None:
    """Run the benchmark with the sizes given on the command line."""
    parser = argparse.ArgumentParser(description="The gateway under load (table d of `make bench`).")
    parser.add_argument("--games", type=int, default=100, help="concurrent games (default 100)")
    parser.add_argument("--processes", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measuring window (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before it (default 3)")
    args = parser.parse_args()
    print(measure(args.games, args.processes, args.warmup, args.seconds))


if __name__ == "__main__":
    main()

"""Capacity on this machine: moves per second with 1 and 2 gateway replicas and 1 and 3 rules replicas
of the first registered title, the CPU each part spends per move, and Redis memory per game live,
finished (scored, before archival) and archived: the figures docs/scaling.md sizes a deployment from.

Processes: one redis-server, the title's rules service replicas and the gateway replicas (each a real
process, the gateway balancing its rules calls over every replica as `live.balancing` does), and
client processes taking the gateways in turn, each playing its games at once as bench/gateway.py's
saturation run does (random legal moves from the players' own views, under fresh request ids). The
floor, measured in the same run: a bare Redis PING and a gRPC echo (a health check) of a gateway and
of a rules replica. Memory per game comes from bench/memory.py (a real PostgreSQL for the archival).

    python -m bench.capacity [--games 20] [--processes 2] [--seconds 8] [--warmup 2]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
from collections.abc import Iterator
from dataclasses import astuple, dataclass

import redis

from bench import gateway, memory, table, unpin
from deploy.throwaway import free_port, redis_server

# (gateway replicas, rules replicas of the title), the first being the one the others are compared to.
LAYOUTS = ((1, 1), (1, 3), (2, 1), (2, 3))


@dataclass(frozen=True)
class Throughput:
    """One layout's figures: moves in the window, its length (s), submit-to-event p50 (ms), and the CPU
    seconds the gateways, the rules replicas and Redis used in it."""

    moves: int
    seconds: float
    p50_ms: float | None
    cpu: dict[str, float]

    @property
    def rate(self) -> float:
        """Moves per second."""
        return self.moves / self.seconds

    def cpu_ms_per_move(self, part: str) -> float | None:
        """CPU ms one move cost `part` ("gateway", "rules", "redis"); None without moves or /proc."""
        used = self.cpu.get(part, 0.0)
        return 1000 * used / self.moves if self.moves and used else None


@dataclass(frozen=True)
class Floor:
    """p50 ms of a bare gRPC echo of a gateway, of a rules replica, and of a Redis PING."""

    gateway_echo: float
    rules_echo: float
    ping: float

    @property
    def move_path(self) -> float:
        """A move's bare path: client -> gateway -> rules (an echo each) and two Redis round trips."""
        return self.gateway_echo + self.rules_echo + 2 * self.ping


def _redis_pid(url: str) -> int:
    client = redis.Redis.from_url(url)
    try:
        return int(client.info("server")["process_id"])
    finally:
        client.close()


@contextlib.contextmanager
def _layout(
    redis_url: str, gateways: int, replicas: int
) -> Iterator[tuple[list[str], list[str], dict[str, tuple[int, ...]]]]:
    """`replicas` rules processes of the title and `gateways` gateway processes dialling all of them;
    yields the gateway addresses, the rules addresses and each part's process ids."""
    rules_addresses = [f"127.0.0.1:{free_port()}" for _ in range(replicas)]
    gateway_addresses = [f"127.0.0.1:{free_port()}" for _ in range(gateways)]
    processes = [gateway.start_rules(address) for address in rules_addresses]
    processes += [
        gateway.start_gateway(address, redis_url, ",".join(rules_addresses)) for address in gateway_addresses
    ]
    pids = {
        "rules": tuple(p.pid for p in processes[:replicas]),
        "gateway": tuple(p.pid for p in processes[replicas:]),
        "redis": (_redis_pid(redis_url),),
    }
    try:
        for address in [*rules_addresses, *gateway_addresses]:
            gateway._wait_serving(address)
        yield gateway_addresses, rules_addresses, pids
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            process.wait(10)


def _throughput(
    redis_url: str, gateways: int, replicas: int, games: int, processes: int, warmup: float, seconds: float
) -> tuple[Throughput, Floor]:
    """One layout under the saturation load, and the floor measured on it."""
    with _layout(redis_url, gateways, replicas) as (gateway_addresses, rules_addresses, pids):
        floor = Floor(*gateway._floor(gateway_addresses[0], rules_addresses[0], redis_url))
        watched = tuple(pid for part in pids.values() for pid in part)
        clients = max(processes, gateways)
        results = gateway._load(gateway_addresses, games, clients, warmup, seconds, 0.0, watched)
    sampled = next((r["cpu"] for r in results if r.get("cpu")), [0.0] * len(watched))
    used = dict(zip(watched, sampled, strict=True))
    cpu = {part: sum(used[pid] for pid in part_pids) for part, part_pids in pids.items()}
    latencies = [ms for r in results for ms in r["latency"]]
    moves = sum(len(r["moves"]) for r in results)
    return Throughput(moves, seconds, statistics.median(latencies) if latencies else None, cpu), floor


def _ms(value: float | None) -> str:
    return f"{value:.2f}" if value is not None else "-"


def throughput_table(
    games: int = 20, processes: int = 2, warmup: float = 2.0, seconds: float = 8.0
) -> tuple[str, dict[tuple[int, int], Throughput], Floor]:
    """Table (h): every layout's moves per second next to the first one's, with the floor."""
    unpin()
    measured: dict[tuple[int, int], Throughput] = {}
    floors = []
    with redis_server() as redis_url:
        for gateways, replicas in LAYOUTS:
            result, floor = _throughput(redis_url, gateways, replicas, games, processes, warmup, seconds)
            measured[gateways, replicas] = result
            floors.append(floor)
    floor = Floor(*(statistics.median(values) for values in zip(*map(astuple, floors), strict=True)))
    first = measured[LAYOUTS[0]]
    rows = []
    for (gateways, replicas), result in measured.items():
        per_move = [result.cpu_ms_per_move(part) for part in ("gateway", "rules", "redis")]
        rows.append(
            [
                gateways,
                replicas,
                result.moves,
                f"{result.rate:,.0f}",
                f"{result.rate / first.rate:.2f}" if first.rate else "-",
                _ms(result.p50_ms),
                f"{result.p50_ms / floor.move_path:.1f}" if result.p50_ms else "-",
                *(_ms(ms) for ms in per_move),
                _ms(sum(ms for ms in per_move if ms is not None) or None),
            ]
        )
    headers = [
        "gateways",
        "rules",
        "moves",
        "moves/s",
        "x first",
        "p50 ms",
        "p50 / path",
        "gw CPU ms/move",
        "rules CPU ms/move",
        "redis CPU ms/move",
        "all CPU ms/move",
    ]
    floor_line = (
        f"floor p50 ms: Redis PING {floor.ping:.3f}, gateway echo {floor.gateway_echo:.3f}, rules echo "
        f"{floor.rules_echo:.3f}; a move's bare path (2 echoes + 2 PINGs) {floor.move_path:.3f}"
    )
    title = (
        f"(h) capacity: {gateway.TITLE} moves/s, {games} concurrent games without pauses, "
        f"{seconds:.0f} s per layout, every process on this machine's CPUs"
    )
    return "\n".join([table(title, headers, rows), floor_line]), measured, floor


def memory_table(titles: list[str]) -> str:
    """Table (i): Redis bytes per game live, finished before archival and after, and the bytes of its
    rows in PostgreSQL once archived, per title."""
    rows = []
    for title, sizes in memory.per_game(titles).items():
        rows.append(
            [
                title,
                sizes.moves,
                f"{sizes.live:,}",
                f"{sizes.scored:,}",
                f"{sizes.archived:,}",
                f"{sizes.scored / sizes.archived:.0f}" if sizes.archived else "-",
                f"{sizes.database:,}",
            ]
        )
    headers = [
        "game",
        "moves",
        "live max B",
        "finished B",
        "archived B",
        "finished / archived",
        "PostgreSQL B",
    ]
    title = (
        "(i) capacity: Redis bytes per game, every key (MEMORY USAGE), and its archived rows in PostgreSQL"
    )
    return table(title, headers, rows)


def measure(
    titles: list[str] | None = None,
    games: int = 20,
    processes: int = 2,
    warmup: float = 2.0,
    seconds: float = 8.0,
) -> str:
    """Tables (h) and (i): throughput per layout, and memory per game of `titles` (the first title)."""
    throughput, _, _ = throughput_table(games, processes, warmup, seconds)
    return "\n\n".join([throughput, memory_table(titles or [gateway.TITLE])])


def main() -> None:
    """Print tables (h) and (i) with the sizes given on the command line."""
    parser = argparse.ArgumentParser(prog="python -m bench.capacity", description=__doc__)
    parser.add_argument("--games", type=int, default=20, help="concurrent games (default 20)")
    parser.add_argument("--processes", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--seconds", type=float, default=8.0, help="window per layout (default 8)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds before it (default 2)")
    parser.add_argument("--game", action="append", help="memory of this game too (repeatable)")
    args = parser.parse_args()
    print(measure(args.game, args.games, args.processes, args.warmup, args.seconds))


if __name__ == "__main__":
    main()

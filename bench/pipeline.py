"""The live path against a baseline (table p of `make bench`): the same load on the gateway of a
baseline commit and on this tree's, in one run, with ratios: ROUNDS windows each, taken in turn, and
each figure the median of its windows (the same code measured twice in a row here differed by up to a
third, as the machine's other tenants come and go).

The baseline is BASELINE_COMMIT, main as it was before the live path became one pipeline (its commit
script, outbox and fan-out), checked out into a temporary git worktree; its `python -m gateway` runs
from there, with this tree's generated protos (they did not change since). Both gateways get a fresh
Redis of their own, the same rules service process and the limits a user gets, and serve from behind
a proxy that names each player's address (CLIENT_ADDRESS_HEADER, as an operator's load balancer
sets it): every guest signs up from an address of its own, as players do, instead of one address
queueing four thousand sign-ups behind its rate limit.

Figures per gateway, from `bench.gateway`'s clients: moves per second over 100 games with no pauses,
the gateway's and the rules service's CPU time per move over that window, one game alone's
submit-to-event p50, and the bare path measured in the same run (2 gRPC echoes + 2 Redis PINGs).
Beside the gateway's CPU, what the transport alone costs a move (`bench.transport`): the floor under
any change to the gateway's own code, as a share of the baseline's CPU per move; and the CPU every
process on the machine spends per move (the clients, Redis and the rules service share the cores with
the gateway), from which the moves per second the cores would allow were the gateway's own work free
(its CPU per move at the transport's floor).
Then this tree's gateway carries 1,000 concurrent games whose players pause 0 to 2 s before a move:
moves per second, games finished, latency, refusals waited out.

    python -m bench.pipeline [--games 100] [--crowd 1000] [--seconds 10] [--baseline COMMIT]
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench import gateway, table, transport, unpin, verdict
from deploy.throwaway import (
    ROOT,
    free_port,
    gateway_serving,
    redis_server,
    start_gateway_process,
    stop_worker_process,
)

BASELINE_COMMIT = "f5da1f82219007256dff26bea4442c6bbf15c11c"  # main before the pipeline (issue 26)
TARGET_CPU_RATIO = 0.5  # the gateway's CPU per move, now over the baseline's
TARGET_RATE_RATIO = 2.0  # moves per second at 100 games, now over the baseline's
TARGET_ALONE_OVER_PATH = 2.5  # one game alone's p50 over the bare path
CROWD_GAMES = 1000
# Windows per gateway, taken in turn (baseline, now, baseline, ...); each figure is their median. The
# same code measured twice in a row differs by up to a third on a shared machine.
ROUNDS = 3


@dataclass(frozen=True)
class Side:
    """What one gateway measured."""

    rate: float  # moves per second, no pauses
    gateway_cpu_ms: float  # per move
    rules_cpu_ms: float
    alone_p50_ms: float
    path_ms: float  # 2 gRPC echoes + 2 PINGs
    machine_cpu_ms: float = 0.0  # per move, every process of the machine (clients, Redis, rules, gateway)

    @property
    def alone_over_path(self) -> float:
        return self.alone_p50_ms / self.path_ms if self.path_ms else 0.0


@dataclass(frozen=True)
class Crowd:
    """What this tree's gateway did with many games at once (paced players)."""

    games: int
    rate: float
    finished: int
    p50_ms: float
    limited: int
    reconnects: int
    error: str = ""


@contextlib.contextmanager
def worktree(commit: str) -> Iterator[Path]:
    """`commit` checked out into a temporary git worktree (removed afterwards)."""
    if subprocess.run(["git", "cat-file", "-e", f"{commit}^{{commit}}"], cwd=ROOT).returncode:
        raise SystemExit(f"the baseline {commit} is not in this clone: fetch it, or pass --baseline")
    folder = Path(tempfile.mkdtemp(prefix="baseline-"))
    add = ["git", "worktree", "add", "--detach", "--quiet", str(folder), commit]
    subprocess.run(add, cwd=ROOT, check=True)
    try:
        yield folder
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(folder)], cwd=ROOT, check=False)
        shutil.rmtree(folder, ignore_errors=True)


@contextlib.contextmanager
def serving(tree: Path, rules_address: str) -> Iterator[tuple[str, str, int]]:
    """A gateway of `tree` on a fresh Redis, behind a proxy naming each client's address: (its
    address, the Redis URL, its pid)."""
    with redis_server() as redis_url:
        port = free_port()
        address = f"127.0.0.1:{port}"
        proxied = {"CLIENT_ADDRESS_HEADER": gateway.FORWARDED_HEADER}
        process = start_gateway_process(redis_url, rules_address, port, proxied, tree)
        try:
            gateway_serving(process, address)
            yield address, redis_url, process.pid
        finally:
            stop_worker_process(process)


def measure_side(
    tree: Path, rules: tuple[str, int], games: int, processes: int, warmup: float, seconds: float
) -> Side:
    """One gateway's figures (see the module docstring)."""
    rules_address, rules_pid = rules
    with serving(tree, rules_address) as (address, redis_url, pid):
        echo_ms, rules_echo_ms, ping_ms = gateway._floor(address, rules_address, redis_url)
        results = gateway._load(address, games, processes, warmup, seconds, 0.0, (pid, rules_pid))
        alone = gateway._load(address, 1, 1, 1.0, gateway.SINGLE_GAME_SECONDS, 0.0)[0]
    moves = sum(len(r["moves"]) for r in results)
    sampled = next((r for r in results if r.get("cpu")), {"cpu": [0.0, 0.0], "machine_cpu": [0.0]})
    per_move = [1000 * cpu / moves if moves else 0.0 for cpu in [*sampled["cpu"], *sampled["machine_cpu"]]]
    return Side(
        rate=moves / seconds,
        gateway_cpu_ms=per_move[0],
        rules_cpu_ms=per_move[1],
        alone_p50_ms=statistics.median(alone["latency"]) if alone["latency"] else 0.0,
        path_ms=echo_ms + rules_echo_ms + 2 * ping_ms,
        machine_cpu_ms=per_move[2],
    )


def measure_crowd(rules_address: str, games: int, processes: int, warmup: float, seconds: float) -> Crowd:
    """This tree's gateway with `games` at once, players pausing 0 to 2 s before each move."""
    with serving(ROOT, rules_address) as (address, _, _):
        try:
            results = gateway._load(address, games, processes, warmup, seconds, gateway.THINK_SECONDS)
        except Exception as error:  # what broke is the figure
            return Crowd(games, 0.0, 0, 0.0, 0, 0, error=f"{type(error).__name__}: {error}")
    latencies = [ms for r in results for ms in r["latency"]]
    return Crowd(
        games=games,
        rate=sum(len(r["moves"]) for r in results) / seconds,
        finished=sum(len(r["finished"]) for r in results),
        p50_ms=statistics.median(latencies) if latencies else 0.0,
        limited=sum(len(r["limited"]) for r in results),
        reconnects=sum(len(r["reconnects"]) for r in results),
    )


def compared(
    label: str, before: float, now: float, shown: str, target: str = "-", meets: str = "-"
) -> list[str]:
    """A row of a figure both gateways measured, with its ratio."""
    ratio = f"{now / before:.2f}x" if before else "-"
    return [label, format(before, shown), format(now, shown), ratio, target, meets]


def render(
    commit: str,
    games: int,
    seconds: float,
    rounds: int,
    before: Side,
    now: Side,
    crowd: Crowd,
    floor: transport.Floor,
) -> str:
    rate = now.rate / before.rate if before.rate else None
    cpu = now.gateway_cpu_ms / before.gateway_cpu_ms if before.gateway_cpu_ms else None
    # Were the gateway's own work free: the machine's CPU per move less the gateway's, plus the floor.
    others_ms = max(0.0, now.machine_cpu_ms - now.gateway_cpu_ms) + floor.move_ms
    ceiling = 1000 * (os.cpu_count() or 1) / others_ms
    rows = [
        compared(
            f"{games} games, no pauses: moves per second",
            before.rate,
            now.rate,
            ",.0f",
            f">= {TARGET_RATE_RATIO:.1f}x",
            verdict(rate >= TARGET_RATE_RATIO if rate is not None else None),
        ),
        compared(
            "gateway CPU ms per move",
            before.gateway_cpu_ms,
            now.gateway_cpu_ms,
            ".2f",
            f"<= {TARGET_CPU_RATIO:.1f}x",
            verdict(cpu <= TARGET_CPU_RATIO if cpu is not None else None),
        ),
        [
            "transport alone: gateway CPU ms per move (bench.transport)",
            f"{before.gateway_cpu_ms:.2f}",
            f"{floor.move_ms:.2f}",
            f"{floor.move_ms / before.gateway_cpu_ms:.2f}x" if before.gateway_cpu_ms else "-",
            "-",
            "-",
        ],
        compared("rules CPU ms per move", before.rules_cpu_ms, now.rules_cpu_ms, ".2f"),
        compared(
            "every process on the machine: CPU ms per move", before.machine_cpu_ms, now.machine_cpu_ms, ".2f"
        ),
        [
            "moves per second the cores allow were the gateway at the transport alone",
            f"{before.rate:,.0f}",
            f"{ceiling:,.0f}",
            f"{ceiling / before.rate:.2f}x" if before.rate else "-",
            "-",
            "-",
        ],
        compared("one game alone: submit-to-event p50 ms", before.alone_p50_ms, now.alone_p50_ms, ".2f"),
        ["bare path ms (2 gRPC echoes + 2 PINGs)", f"{before.path_ms:.2f}", f"{now.path_ms:.2f}"] + ["-"] * 3,
        [
            "one game alone: p50 over the bare path",
            f"{before.alone_over_path:.1f}x",
            f"{now.alone_over_path:.1f}x",
            "-",
            f"<= {TARGET_ALONE_OVER_PATH:.1f}x",
            verdict(now.alone_over_path <= TARGET_ALONE_OVER_PATH if now.path_ms else None),
        ],
    ]
    crowd_label = f"{crowd.games:,} games, 0-2 s pauses"
    rows += [
        [f"{crowd_label}: moves per second", "-", f"{crowd.rate:,.0f}", "-", "-", "-"],
        [f"{crowd_label}: submit-to-event p50 ms", "-", f"{crowd.p50_ms:.2f}", "-", "-", "-"],
        [f"{crowd_label}: games finished", "-", f"{crowd.finished:,}", "-", "-", "-"],
        [f"{crowd_label}: refusals waited out", "-", f"{crowd.limited:,}", "-", "-", "-"],
        [f"{crowd_label}: streams reopened", "-", f"{crowd.reconnects:,}", "-", "-", "-"],
        [
            f"{crowd_label}: every game played, no stall or failure",
            "-",
            crowd.error[:70] or "yes",
            "-",
            "yes",
            verdict(not crowd.error),
        ],
    ]
    against = " (main before the pipeline)" if BASELINE_COMMIT.startswith(commit) else ""
    title = (
        f"(p) the live path: this tree against {commit[:10]}{against}, "
        f"{gateway.TITLE}, medians of {rounds} {seconds:.0f} s windows each, taken in turn, same run"
    )
    return table(title, ["figure", "baseline", "now", "now/baseline", "target", "meets"], rows)


def median_side(sides: list[Side]) -> Side:
    """Each figure's median over the rounds."""
    names = [field.name for field in dataclasses.fields(Side)]
    return Side(**{name: statistics.median(getattr(side, name) for side in sides) for name in names})


def measure(
    games: int = 100,
    crowd: int = CROWD_GAMES,
    processes: int = 2,
    warmup: float = 3.0,
    seconds: float = 10.0,
    commit: str = BASELINE_COMMIT,
    rounds: int = ROUNDS,
) -> str:
    """Run both gateways and the crowd on every CPU; the table."""
    unpin()
    rules_address = f"127.0.0.1:{free_port()}"
    rules = gateway.start_rules(rules_address)
    try:
        gateway._wait_serving(rules_address)
        sides: dict[Path, list[Side]] = {}
        with worktree(commit) as tree:
            for _ in range(rounds):
                for side in (tree, ROOT):
                    measured = measure_side(
                        side, (rules_address, rules.pid), games, processes, warmup, seconds
                    )
                    sides.setdefault(side, []).append(measured)
            before, now = median_side(sides[tree]), median_side(sides[ROOT])
        many = measure_crowd(rules_address, crowd, processes, warmup, seconds)
    finally:
        rules.terminate()
        rules.wait(10)
    return render(commit, games, seconds, rounds, before, now, many, transport.measure())


def main() -> None:
    parser = argparse.ArgumentParser(description="The live path against a baseline (`make bench`'s table p).")
    parser.add_argument("--games", type=int, default=100, help="concurrent games, no pauses (default 100)")
    parser.add_argument("--crowd", type=int, default=CROWD_GAMES, help="paced games at once (default 1000)")
    parser.add_argument("--processes", type=int, default=2, help="client processes (default 2)")
    parser.add_argument("--seconds", type=float, default=10.0, help="each measuring window (default 10)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before each (default 3)")
    parser.add_argument("--baseline", default=BASELINE_COMMIT, help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help=f"windows per gateway (default {ROUNDS})")
    args = parser.parse_args()
    print(
        measure(args.games, args.crowd, args.processes, args.warmup, args.seconds, args.baseline, args.rounds)
    )


if __name__ == "__main__":
    main()

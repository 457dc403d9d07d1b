"""kill -9 at random moments, in rounds that each visit every kind of process once in a random order:
a gateway replica (each in turn, never both down at once), a worker pool process, the worker's main
process, each rules service, and redis-server. After each kill it waits until the launcher has the
process back and answering (a pool process: until the worker has replaced it) before the next pause."""

from __future__ import annotations

import random
import threading
import time
from collections import Counter
from dataclasses import dataclass, field

from chaos.suite import Suite, kill

POOL = "worker pool process"
WORKER = "worker main process"
GATEWAY = "gateway"
REDIS = "redis-server"
BACK_TIMEOUT_SECONDS = 90.0


def kinds(suite: Suite) -> list[str]:
    """Every kind of process a round kills once."""
    return [GATEWAY, POOL, WORKER, *(f"rules {name}" for name in suite.rules_rows()), REDIS]


@dataclass
class Killer:
    """Kills `total` processes of `suite` (at least), one at a time, `pause` seconds apart at random."""

    suite: Suite
    total: int
    pause: tuple[float, float]
    seed: int
    stop: threading.Event = field(default_factory=threading.Event)
    kills: Counter[str] = field(default_factory=Counter)
    survived: Counter[str] = field(default_factory=Counter)
    recovery: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)

    def run(self) -> None:
        """Kill until `total` kills are done or `stop` is set."""
        rng = random.Random(self.seed)
        gateways = self.suite.gateway_rows()
        turn = 0
        while sum(self.kills.values()) < self.total:
            order = kinds(self.suite)
            rng.shuffle(order)
            for kind in order:
                if self.stop.wait(rng.uniform(*self.pause)) or sum(self.kills.values()) >= self.total:
                    return
                if kind == GATEWAY:
                    row, turn = gateways[turn % len(gateways)], turn + 1
                    self.kill_row(kind, row)
                elif kind == WORKER:
                    self.kill_row(kind, "workers")
                elif kind == REDIS:
                    self.kill_row(kind, "redis")
                elif kind == POOL:
                    self.kill_pool(rng)
                else:
                    self.kill_row(kind, kind.removeprefix("rules "))

    def kill_row(self, kind: str, name: str) -> None:
        """Kill a row's process and wait until the launcher has it back."""
        pid = self.suite.pid(name)
        if pid is None:
            self.errors.append(f"{name} was not running when its kill was due")
            return
        killed = time.monotonic()
        kill(pid)
        self.kills[kind] += 1
        self.suite.launcher.say("chaos", f"kill -9 {name} (pid {pid})")
        while self.suite.pid(name) in (pid, None) or not self.suite.back(name):
            if time.monotonic() - killed > BACK_TIMEOUT_SECONDS:
                self.errors.append(f"{name} not back {BACK_TIMEOUT_SECONDS:.0f} s after its kill")
                return
            time.sleep(0.1)
        self.survived[kind] += 1
        self.recovery.setdefault(kind, []).append(time.monotonic() - killed)

    def kill_pool(self, rng: random.Random) -> None:
        """Kill one of the worker's pool processes and wait until the worker reports a new one."""
        pool = self.suite.pool_pids()
        if not pool:
            self.errors.append("the worker reported no pool process when a kill was due")
            return
        pid = rng.choice(pool)
        killed = time.monotonic()
        kill(pid)
        self.kills[POOL] += 1
        self.suite.launcher.say("chaos", f"kill -9 worker pool process (pid {pid})")
        while pid in (now := self.suite.pool_pids()) or len(now) < len(pool):
            if time.monotonic() - killed > BACK_TIMEOUT_SECONDS:
                self.errors.append(f"the worker did not replace pool process {pid}")
                return
            time.sleep(0.2)
        self.survived[POOL] += 1
        self.recovery.setdefault(POOL, []).append(time.monotonic() - killed)

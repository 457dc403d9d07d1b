"""Soak (`make chaos ARGS=--soak`, `python -m chaos --soak --minutes 30`): the suite under a steady load
for a long while, its resources sampled, to show that none grows without bound.

First the capacity is measured: TABLES games of every registered title (scripted clients in every
seat but the last, a bot there, so the worker works too) played as fast as they go for
CAPACITY_SECONDS, a new game whenever one ends; the figure is the clients' acknowledged moves per
second. Then the same tables play for the soak's length, paced to LOAD_SHARE of that rate, each with
the same players game after game (a steady population: what grows with new players is not a leak).
Every sample takes Redis's used memory, split by a census of its keys (`chaos.keyspace`) into the
classes of what bounds them (expiring within the hour, trimmed to a cap, expiring later, neither, of
no known family) and what Redis holds besides its keys, the resident memory of the gateways and of the
worker (its main process and pool), their open file descriptors (the gateways' split into their
connections to Redis and the rest), and the Celery queue's depth. The harness prints each series'
first, last and highest value and its growth per hour (over the samples after the first WARMUP_SHARE
of the run, the warm-up; see `growth_per_hour`) and whether it is bounded (`Bound`), then the capped
key families' fill and the fastest-growing key families, and writes a PNG plot of them all (soak.png
in the current folder unless --plot says where).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import redis

from bench import table, verdict
from chaos import games, keyspace, suite
from chaos.gateways import Auth, Gateways
from chaos.suite import Suite
from live.archive import RECENT_SECONDS
from live.queues import QUEUES
from live.settings import Settings

TABLES = 12
PLAN_CYCLE = 24  # games a table cycles over: every title, player count and config
CAPACITY_SECONDS = 20.0
LOAD_SHARE = 0.8
WARMUP_SHARE = 0.5  # the slope is taken over the second half: warm caches, steady state
SAMPLES = 60  # per run; one every 10 s at least
# Growth per hour, as a share of the series' mean after the warm-up, that still counts as bounded.
BOUNDED_SHARE_PER_HOUR = 0.10
# A steady series' trend must stand out of its noise by this many standard errors to count as growth
# (`trend`): the keys without expiry or cap are mostly the live games' logs, which come and go by the
# kilobyte as games end and start, and a mean of a few hundred kilobytes made a few kilobytes of noise
# 12% an hour.
SIGNIFICANT_ERRORS = 2.0
FAMILY_ROWS = 15  # Redis's key families the report lists, the fastest growing first


@dataclass(frozen=True)
class Bound:
    """Why a series cannot grow without end, and so how its verdict is reached. `steady` (neither
    below): its growth per hour after the warm-up is at most BOUNDED_SHARE_PER_HOUR of its mean, or
    its trend does not stand out of its noise (`trend`).
    `ceiling`: a pool that grows to the most it needed at once and keeps that (a connection pool),
    never past the ceiling, so it is bounded while below it. `window_hours`: what it holds expires
    this long after it came, so it fills for that long and stays there: bounded, its plateau the
    growth per hour times the window. `drains`: a queue, its depth in bursts, which keeps up while it
    comes back down: bounded if its lowest depth in the last third of the samples after the warm-up is
    at most its lowest in their first third (`floors`). `parts`: a sum of other series, bounded when
    they are."""

    ceiling: float | None = None
    window_hours: float | None = None
    drains: bool = False
    parts: bool = False
    # Bounds read from the samples: for keys that expire later than the window, the plateau of their
    # families, each at its own expiry; the fill of keys trimmed to a cap, bounded while none is past it.
    expires_later: Callable[[], Plateau] | None = None
    fill: Callable[[], Fullest] | None = None
    note: Callable[[], str] | None = None  # what the "by" column adds (the families of unknown keys)


@dataclass(frozen=True)
class Plateau:
    """Where keys that expire reach: the sum, over their families, of each one's growth per hour times
    its longest expiry (h); and the family that adds most to it, with its growth and expiry."""

    mb: float
    family: str = ""
    growth: float = 0.0
    hours: float = 0.0


@dataclass(frozen=True)
class Fullest:
    """What a census says of the keys trimmed to a cap: how many are past it, the fullest family (its
    longest key's entries against its cap), and the bytes they hold once every holder is full."""

    over: int
    family: str
    longest: int
    limit: int
    plateau_mb: float
    slack: int | None = 0  # how far past its cap the fullest family may go (`keyspace.Cap`)


STEADY = Bound()


@dataclass(frozen=True)
class Series:
    """One thing each sample measures, and its bound."""

    measure: Callable[[], float]
    bound: Bound = STEADY
    panel: str = ""  # series of one panel share its plot (empty: a panel of its own)


@dataclass
class Load:
    """Moves the clients saw acknowledged, and a pace: at most `rate` a second (None: no limit)."""

    rate: float | None = None
    moves: int = 0
    next_at: float = field(default_factory=time.monotonic)

    async def __call__(self) -> None:
        """Wait until the pace allows one more move (each caller takes the next free moment)."""
        if self.rate is None:
            return
        now = time.monotonic()
        moment = max(self.next_at, now)
        self.next_at = moment + 1 / self.rate
        await asyncio.sleep(moment - now)


async def keep_playing(running: Suite, load: Load, until: float, slot: int, regulars: list[Auth]) -> None:
    """One table: open a game, play it, count its acknowledged moves, and again until `until`, with
    the same players (`regulars`) each time."""
    host = Gateways(running.gateways, first=slot)
    cycle = [dataclasses.replace(plan, bot_seats=1) for plan in games.plans(0, PLAN_CYCLE)]
    try:
        for number in itertools.count(slot * 10_000):
            if time.monotonic() >= until:
                return
            plan = cycle[number % len(cycle)]
            game_id, players = await games.open_game(host, plan, number, regulars)
            played = games.Played(plan, game_id, players[0])
            task = asyncio.create_task(games.play(running.gateways, played, players, number, 0.0, load))
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(task), max(0.0, until - time.monotonic()))
            if not task.done():
                task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            load.moves += len(played.acked)
    finally:
        await host.close()


async def seat_players(running: Suite) -> list[list[Auth]]:
    """Each table's players: a guest per seat of its largest game."""
    host = Gateways(running.gateways)
    seats = max(plan.seats for plan in games.plans(0, PLAN_CYCLE))
    try:
        return [
            [await games.guest(host, f"soak table {slot} seat {seat}") for seat in range(seats)]
            for slot in range(TABLES)
        ]
    finally:
        await host.close()


async def drive(running: Suite, load: Load, seconds: float) -> None:
    """TABLES tables, their players seated first, playing under `load` for `seconds`."""
    tables = await seat_players(running)
    until = time.monotonic() + seconds
    await asyncio.gather(
        *(keep_playing(running, load, until, slot, regulars) for slot, regulars in enumerate(tables))
    )


def rss_kb(pid: int) -> int:
    """A process's resident memory (kB) from /proc; 0 once it is gone."""
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def fds(pid: int) -> int:
    """A process's open file descriptors; 0 once it is gone."""
    with contextlib.suppress(OSError):
        return len(list(Path(f"/proc/{pid}/fd").iterdir()))
    return 0


def socket_inodes(pid: int) -> set[str]:
    """The inodes of a process's open sockets; none once it is gone."""
    found = set()
    with contextlib.suppress(OSError):
        for fd in Path(f"/proc/{pid}/fd").iterdir():
            with contextlib.suppress(OSError):
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    found.add(target[len("socket:[") : -1])
    return found


def connections_to(pids: list[int], port: int) -> int:
    """How many TCP connections the processes `pids` hold to `port` (any host), from /proc/net."""
    inodes = set().union(*(socket_inodes(pid) for pid in pids))
    count = 0
    for table_name in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/net/{table_name}").read_text().splitlines()[1:]:
                fields = line.split()
                remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                count += remote_port == port and fields[9] in inodes
    return count


def tree(pid: int) -> list[int]:
    """A process and its descendants."""
    found = [pid]
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            for child in (task / "children").read_text().split():
                found += tree(int(child))
    return found


class Weighing:
    """Redis's used memory and its keys' bytes by what bounds them (`chaos.keyspace`): each sample
    takes one census (the first of its series does), which the others read, as does the table of the
    capped keys after the run."""

    def __init__(self, client: redis.Redis, settings: Settings) -> None:
        self.client = client
        self.space = keyspace.Keyspace(client, settings, RECENT_SECONDS)
        self.latest = keyspace.Census()
        self.history: list[tuple[float, keyspace.Census]] = []  # (time, s; census) of every sample
        self.used_mb = 0.0

    def take(self) -> float:
        """Redis's used memory (MB), and a census of its keys."""
        self.used_mb = int(self.client.info("memory")["used_memory"]) / 2**20
        self.latest = self.space.census()
        self.history.append((time.monotonic(), self.latest))
        return self.used_mb

    def family_growth(self) -> dict[tuple[str, str], float]:
        """The growth per hour (MB) of each (class, family) over the samples after the warm-up."""
        kept = self.history[int(len(self.history) * WARMUP_SHARE) :] or self.history
        times = [moment for moment, _ in kept]
        named = {name for _, census in kept for name in census.family_bytes}
        return {
            name: growth_per_hour(times, [census.family_bytes[name] / 2**20 for _, census in kept])
            for name in named
        }

    def later_plateau(self) -> Plateau:
        """Where the keys that expire after the window reach, each family at its own longest expiry."""
        parts = [
            (max(0.0, growth) * self.latest.longest_ttl.get(family, 0.0) / 3600, family, growth)
            for (kind, family), growth in self.family_growth().items()
            if kind == keyspace.LONG_TTL
        ]
        if not parts:
            return Plateau(0.0)
        _, family, growth = max(parts)
        return Plateau(
            sum(part for part, _, _ in parts), family, growth, self.latest.longest_ttl.get(family, 0.0) / 3600
        )

    def weighed(self, kind: str) -> Callable[[], float]:
        """The MB of one class of keys in the last census."""
        return lambda: self.latest.bytes[kind] / 2**20

    def besides(self) -> float:
        """What Redis uses besides its keys (buffers, its own tables), MB."""
        return self.used_mb - sum(self.latest.bytes.values()) / 2**20

    def fullest(self) -> Fullest:
        """The capped keys in the last census: those past their cap, the fullest family, the plateau."""
        fills = self.latest.fills
        name, fill = max(fills.items(), key=lambda item: item[1].longest / item[1].cap.limit)
        plateau = sum(each.plateau() for each in fills.values()) / 2**20
        return Fullest(self.latest.over(), name, fill.longest, fill.cap.limit, plateau, fill.cap.slack)

    def unknown(self) -> str:
        """The families of the keys of no known family (up to three)."""
        return "unknown: " + keyspace.unknown_families(self.latest.unknown.most_common(3))

    def series(self) -> dict[str, Series]:
        """The Redis series, by name: the total, then its parts."""
        panel, total = "Redis's keys by bound, MB", "Redis, MB"
        return {
            "Redis used memory, MB": Series(self.take, Bound(parts=True), total),
            "Redis: keys expiring within the hour, MB": Series(
                self.weighed(keyspace.EXPIRING), Bound(window_hours=RECENT_SECONDS / 3600), panel
            ),
            "Redis: keys trimmed to a cap, MB": Series(
                self.weighed(keyspace.CAPPED), Bound(fill=self.fullest), panel
            ),
            "Redis: keys expiring later, MB": Series(
                self.weighed(keyspace.LONG_TTL),
                Bound(expires_later=self.later_plateau),
                panel,
            ),
            "Redis: keys of no expiry or cap, MB": Series(self.weighed(keyspace.FIXED), STEADY, panel),
            "Redis: keys of no known family, MB": Series(
                self.weighed(keyspace.UNKNOWN), Bound(note=self.unknown), panel
            ),
            "Redis: besides its keys, MB": Series(self.besides, STEADY, total),
            "Redis: holders of capped keys": Series(lambda: float(self.latest.holders())),
        }

    def family_table(self, rows: int = FAMILY_ROWS) -> str:
        """Redis's key families at the last sample, the fastest growing first: class, keys, MB and
        growth per hour (after the warm-up)."""
        census, growth = self.latest, self.family_growth()
        ranked = sorted(growth.items(), key=lambda item: -item[1])[:rows]
        lines = [
            [
                family,
                kind,
                f"{census.family_keys[kind, family]:,}",
                f"{census.family_bytes[kind, family] / 2**20:,.2f}",
                f"{grown:+,.2f}",
            ]
            for (kind, family), grown in ranked
        ]
        headers = ["family", "class", "keys", "MB", "growth MB/h"]
        return table(f"Redis's key families at the last sample, the {rows} fastest growing", headers, lines)

    def capped_table(self) -> str:
        """The capped families at the last census (`keyspace.fill_lines`)."""
        headers = ["family", "holders", "longest", "cap", "MB", "MB at cap", "past cap"]
        lines = keyspace.fill_lines(self.latest.fills)
        return table("keys trimmed to a cap, at the last sample", headers, lines)


def settings_of(running: Suite) -> Settings:
    """The gateways' settings (their caps and pool), from the first replica's environment."""
    return Settings.from_env({**running.environ, **running.rows[running.gateway_rows()[0]].env})


def series(running: Suite, weighing: Weighing) -> dict[str, Series]:
    """What each sample measures, by name: Redis (`weighing`), then the processes and the queue."""
    client = weighing.client
    redis_port = int(running.environ["REDIS_PORT"])
    pool = settings_of(running).redis_max_connections + 1  # and the fan-out's pub/sub

    def gateway_pids() -> list[int]:
        return [pid for name in running.gateway_rows() if (pid := running.pid(name)) is not None]

    def worker_pids() -> list[int]:
        pid = running.pid("workers")
        return tree(pid) if pid is not None else []

    def redis_connections() -> float:
        return connections_to(gateway_pids(), redis_port)

    return {
        **weighing.series(),
        "gateways' RSS, MB": Series(lambda: sum(rss_kb(pid) for pid in gateway_pids()) / 1024),
        "worker's RSS (main and pool), MB": Series(lambda: sum(rss_kb(pid) for pid in worker_pids()) / 1024),
        "gateways' connections to Redis": Series(
            redis_connections, Bound(ceiling=pool * len(running.gateway_rows()))
        ),
        "gateways' other open fds": Series(
            lambda: sum(fds(pid) for pid in gateway_pids()) - redis_connections()
        ),
        "worker's open fds": Series(lambda: sum(fds(pid) for pid in worker_pids())),
        "Celery queue depth": Series(lambda: float(sum(client.llen(q) for q in QUEUES)), Bound(drains=True)),
    }


async def sample(measures: dict[str, Series], every: float, until: float) -> list[list[float]]:
    """Rows of (seconds since the start, each measure) every `every` seconds until `until`, each row
    measured in a thread (weighing Redis's keys takes a while) while the clients play on."""
    started, rows = time.monotonic(), []

    def row() -> list[float]:
        return [time.monotonic() - started, *(series.measure() for series in measures.values())]

    while time.monotonic() < until:
        rows.append(await asyncio.to_thread(row))
        await asyncio.sleep(min(every, max(0.0, until - time.monotonic())))
    rows.append(await asyncio.to_thread(row))
    return rows


def growth_per_hour(times: list[float], values: list[float]) -> float:
    """How much `values` grow per hour over `times` (s): the change between the medians of their first
    and last thirds, over the time between the medians of those thirds' times (robust to the spikes of
    a noisy series such as a queue's depth)."""
    third = len(times) // 3
    if third < 1 or times[-1] <= times[0]:
        return 0.0
    first, last = slice(0, third), slice(len(times) - third, len(times))
    elapsed = statistics.median(times[last]) - statistics.median(times[first])
    return (statistics.median(values[last]) - statistics.median(values[first])) / elapsed * 3600


def trend(times: list[float], values: list[float]) -> tuple[float, float]:
    """The least-squares slope of `values` over `times` (s), per hour, and its standard error."""
    count = len(times)
    if count < 3 or times[-1] <= times[0]:
        return 0.0, 0.0
    slope, intercept = statistics.linear_regression(times, values)
    mean_time = statistics.fmean(times)
    spread = sum((moment - mean_time) ** 2 for moment in times)
    fitted = (slope * moment + intercept for moment in times)
    residuals = sum((value - fit) ** 2 for value, fit in zip(values, fitted, strict=True))
    error = (residuals / (count - 2) / spread) ** 0.5
    return slope * 3600, error * 3600


def floors(values: list[float]) -> tuple[float, float]:
    """The lowest of `values` in their first third and in their last third."""
    third = max(1, len(values) // 3)
    return min(values[:third]), min(values[-third:])


def panels(measures: dict[str, Series]) -> dict[str, list[int]]:
    """The plot's panels by title, each with the indexes of its series (in `measures`' order)."""
    found: dict[str, list[int]] = {}
    for index, (name, measured) in enumerate(measures.items()):
        found.setdefault(measured.panel or name, []).append(index)
    return found


def plot(measures: dict[str, Series], rows: list[list[float]], path: Path, title: str) -> None:
    """A PNG with one panel per series, or per group of series sharing a panel (with a legend), over
    the minutes of the run."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    names = list(measures)
    grouped = panels(measures)
    minutes = [row[0] / 60 for row in rows]
    heights = [4.5 if len(indexes) > 1 else 2.0 for indexes in grouped.values()]
    figure, axes = pyplot.subplots(
        len(grouped), 1, figsize=(9, sum(heights)), sharex=True, gridspec_kw={"height_ratios": heights}
    )
    for axis, (panel, indexes) in zip(axes, grouped.items(), strict=True):
        for index in indexes:
            label = names[index].removeprefix("Redis: ").removesuffix(", MB")
            axis.plot(minutes, [row[index + 1] for row in rows], label=label)
        if len(indexes) > 1:
            axis.legend(fontsize=7, loc="upper left")
        axis.set_ylabel(panel, fontsize=8)
        axis.grid(alpha=0.3)
    axes[-1].set_xlabel("minutes")
    figure.suptitle(title, fontsize=9)
    figure.tight_layout(rect=(0.0, 0.0, 1.0, 1.0 - 0.25 / sum(heights)))  # room for the title
    figure.savefig(path, dpi=100)
    pyplot.close(figure)


def judge(
    bound: Bound, times: list[float], values: list[float], growth: float, highest: float
) -> tuple[bool | None, str]:
    """A series' verdict by its bound (None for a sum, judged by its parts) and what limits it, from
    its `values` at `times` after the warm-up, their growth per hour and the highest of the run."""
    mean = statistics.fmean(values) or 1.0
    if bound.parts:
        return None, "the sum of its parts below"
    if bound.drains:
        first, last = floors(values)
        return last <= first, f"drains: lowest {first:,.0f} then {last:,.0f}"
    if bound.ceiling is not None:
        return highest <= bound.ceiling, f"a pool: at most {bound.ceiling:,.0f}"
    if bound.window_hours is not None:
        hours = bound.window_hours
        return True, f"expires: plateau ~{max(0.0, growth) * hours:,.1f} after {hours:g} h"
    if bound.expires_later is not None:
        most = bound.expires_later()
        return True, (
            f"expires: plateau ~{most.mb:,.1f}; most {most.family}, "
            f"{most.growth:+,.2f}/h for {most.hours:,.0f} h"
        )
    if bound.fill is not None:
        full = bound.fill()
        return full.over == 0, (
            f"caps: {full.over:,} past; fullest {full.family} {full.longest:,}/{full.limit:,}"
            f"{f' (+{full.slack:,} allowed)' if full.slack else ''}; "
            f"~{full.plateau_mb:,.1f} at caps, if its holders are steady"
        )
    note = f"; {bound.note()}" if bound.note is not None else ""
    if growth <= BOUNDED_SHARE_PER_HOUR * mean:
        return True, f"growth <= {BOUNDED_SHARE_PER_HOUR:.0%}/h of mean{note}"
    slope, error = trend(times, values)
    return slope <= SIGNIFICANT_ERRORS * error, (
        f"growth > {BOUNDED_SHARE_PER_HOUR:.0%}/h of mean; trend {slope:+,.2f}/h, "
        f"noise {error:,.2f}/h (within {SIGNIFICANT_ERRORS:g}x: noise){note}"
    )


def report(
    measures: dict[str, Series], rows: list[list[float]], capacity: float, load: Load, seconds: float
) -> tuple[str, bool]:
    """The soak's table (each series' first, last and highest value, growth per hour, bounded or not,
    and by what) and whether every series stayed bounded."""
    kept = rows[int(len(rows) * WARMUP_SHARE) :] or rows
    times = [row[0] for row in kept]
    lines, every = [], True
    for index, (name, measured) in enumerate(measures.items(), start=1):
        values = [row[index] for row in kept]
        growth = growth_per_hour(times, values)
        mean = statistics.fmean(values) or 1.0
        highest = max(row[index] for row in rows)
        bounded, limit = judge(measured.bound, times, values, growth, highest)
        every = every and bounded is not False
        lines.append(
            [
                name,
                f"{rows[0][index]:,.1f}",
                f"{rows[-1][index]:,.1f}",
                f"{highest:,.1f}",
                f"{growth:+,.1f}",
                f"{100 * growth / mean:+.0f}%",
                verdict(bounded),
                limit,
            ]
        )
    title = (
        f"soak: {seconds / 60:.1f} min at {LOAD_SHARE:.0%} of {capacity:,.0f} moves/s (measured), "
        f"{load.moves:,} client moves ({load.moves / seconds:,.0f}/s), {len(rows)} samples"
    )
    headers = ["series", "first", "last", "max", "growth/h", "growth/h of mean", "bounded", "by"]
    return table(title, headers, lines), every


async def run(running: Suite, minutes: float, plot_path: Path) -> tuple[str, bool]:
    """Measure the capacity, soak at LOAD_SHARE of it, and report (see the module docstring)."""
    flat_out = Load()
    await drive(running, flat_out, CAPACITY_SECONDS)
    capacity = flat_out.moves / CAPACITY_SECONDS
    load = Load(rate=max(1.0, LOAD_SHARE * capacity))
    seconds = minutes * 60
    weighing = Weighing(redis.Redis.from_url(running.redis_url), settings_of(running))
    measures = series(running, weighing)
    sampling = asyncio.create_task(
        sample(measures, max(1.0, min(10.0, seconds / SAMPLES)), time.monotonic() + seconds)
    )
    await drive(running, load, seconds)
    rows = await sampling
    text, bounded = report(measures, rows, capacity, load, seconds)
    plot(measures, rows, plot_path, text.splitlines()[0])
    tables = [text, weighing.capped_table(), weighing.family_table(), f"plot: {plot_path}"]
    return "\n\n".join(tables), bounded


def soak(minutes: float, plot_path: Path) -> int:
    """Run a soak of `minutes` on a fresh suite and print its table; 0 if every series stayed bounded."""
    with suite.running() as running:
        text, bounded = asyncio.run(run(running, minutes, plot_path))
    print(text)
    return 0 if bounded else 1

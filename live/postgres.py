"""The PostgreSQL that keeps finished games (`live.archive`): connecting, every wait on it bounded, and
the schema's migrations.

`Database` holds a process's one connection and runs each piece of work on it within a bounded wait
(DATABASE_TIMEOUT_SECONDS, the wait for the connection's turn and connecting included): a database
that stops answering (a hung server, SIGSTOP, a network cut) makes the call UNAVAILABLE within that
time, and the connection is dropped without asking the server anything (psycopg's cancellation of a
query would wait on it too). After a failure the database is taken as down: calls are refused at once
for a pause that doubles with each failed try (RETRY_SECONDS up to RETRY_MAX_SECONDS), and the try
after a pause waits PROBE_SECONDS at most, so that a stopped database costs each process one bounded
wait and then a short one now and then, never a pool of workers held. The metric `archive_up` (0
while down) and one log line when it goes down and one when it is back say so. The migrations are
applied on the first connection a process makes.

Migrations are plain SQL files in `live/migrations`, named `<version>_<what>.sql` and applied in
version order, each in its own transaction together with its row in `schema_migrations`; a process
applies them under an advisory lock, so gateways and workers starting at once apply each one once.
A migration once released is never edited: a change is a new file.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import psycopg

from live.errors import unavailable
from live.metrics import ARCHIVE_FAILURES, ARCHIVE_UP

log = logging.getLogger(__name__)
T = TypeVar("T")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")
MIGRATION_LOCK = 4_711_017  # the advisory lock key held while migrating
CONNECT_TIMEOUT_SECONDS = 5
RETRY_SECONDS = 10.0  # after a failure, calls are refused this long before the next try, doubling
RETRY_MAX_SECONDS = 120.0
PROBE_SECONDS = 1.0  # the longest wait of a try while the database is down
UNREACHABLE_MESSAGE = "the archive of finished games is unreachable"


@dataclass(frozen=True)
class Migration:
    """One versioned SQL file."""

    version: int
    name: str
    sql: str


def migrations(folder: Path = MIGRATIONS) -> list[Migration]:
    """Every migration in `folder`, oldest first; ValueError for a misnamed file or a repeated version."""
    found: dict[int, Migration] = {}
    for path in sorted(folder.glob("*.sql")):
        match = MIGRATION_NAME.match(path.name)
        if match is None:
            raise ValueError(f"{path.name}: a migration is named <version>_<what>.sql")
        version = int(match.group(1))
        if version in found:
            raise ValueError(f"{path.name}: version {version} is also {found[version].name}")
        found[version] = Migration(version, path.name, path.read_text())
    return [found[version] for version in sorted(found)]


async def connect(url: str, timeout: float = CONNECT_TIMEOUT_SECONDS) -> psycopg.AsyncConnection[Any]:
    """A connection to the database of `url` (autocommit: each statement or `transaction()` block
    commits on its own)."""
    return await psycopg.AsyncConnection.connect(url, autocommit=True, connect_timeout=max(1, int(timeout)))


Work = Callable[[psycopg.AsyncConnection[Any]], Awaitable[T]]


class Database:
    """A process's connection to the archive's database, each wait on it bounded (see the module
    docstring)."""

    def __init__(self, url: str, timeout_seconds: float) -> None:
        self.url = url
        self.timeout = timeout_seconds
        self._conn: psycopg.AsyncConnection[Any] | None = None
        self._migrated = False
        self._lock = asyncio.Lock()
        self._down_since: float | None = None  # monotonic time of the first failure of this outage
        self._failures = 0
        self._retry_at = 0.0
        ARCHIVE_UP.set(1)

    @property
    def down(self) -> bool:
        """Whether the last try failed (and no try succeeded since)."""
        return self._down_since is not None

    async def run(self, work: Work[T]) -> T:
        """`work(connection)`'s result, one piece of work at a time; UNAVAILABLE (ARCHIVE_UNAVAILABLE)
        when the database cannot be reached, does not answer within the timeout, or is down (see the
        module docstring)."""
        if self.down and time.monotonic() < self._retry_at:
            ARCHIVE_FAILURES.labels("down").inc()
            ARCHIVE_UP.set(0)
            raise unavailable("ARCHIVE_UNAVAILABLE", f"{UNREACHABLE_MESSAGE}; trying again shortly")
        loop = asyncio.get_running_loop()
        wait = min(self.timeout, PROBE_SECONDS) if self.down else self.timeout
        deadline = loop.time() + wait
        try:
            async with asyncio.timeout_at(deadline):
                await self._lock.acquire()
        except TimeoutError:
            ARCHIVE_FAILURES.labels("busy").inc()
            message = f"{UNREACHABLE_MESSAGE}: busy past {wait:g} s"
            raise unavailable("ARCHIVE_UNAVAILABLE", message) from None
        try:
            task = asyncio.ensure_future(self._on_connection(work))
            try:
                done, _ = await asyncio.wait({task}, timeout=max(0.0, deadline - loop.time()))
            except asyncio.CancelledError:
                await self._drop()
                task.cancel()
                raise
            if not done:
                await self._drop()  # the work ends at once, its socket closed under it
                task.add_done_callback(_consume)
                raise self._failed("timeout", f"no answer within {wait:g} s")
            try:
                result = task.result()
            except psycopg.OperationalError as error:
                await self._drop()
                raise self._failed("unreachable", str(error).strip() or type(error).__name__) from error
            self._recovered()
            return result
        finally:
            self._lock.release()

    async def _on_connection(self, work: Work[T]) -> T:
        if self._conn is None or self._conn.closed:
            self._conn = await connect(self.url, self.timeout)
        if not self._migrated:
            await migrate_on(self._conn)
            self._migrated = True
        return await work(self._conn)

    async def _drop(self) -> None:
        if self._conn is not None:
            await self._conn.close()
        self._conn = None

    def _failed(self, reason: str, detail: str) -> Exception:
        """Count a failed try, take the database as down, and the error to raise."""
        ARCHIVE_FAILURES.labels(reason).inc()
        now = time.monotonic()
        ARCHIVE_UP.set(0)
        if self._down_since is None:
            self._down_since = now
            log.error("%s (%s): finished games stay in Redis until it answers", UNREACHABLE_MESSAGE, detail)
        self._failures += 1
        self._retry_at = now + min(RETRY_MAX_SECONDS, RETRY_SECONDS * 2 ** (self._failures - 1))
        return unavailable("ARCHIVE_UNAVAILABLE", f"{UNREACHABLE_MESSAGE}: {detail}")

    def _recovered(self) -> None:
        ARCHIVE_UP.set(1)
        if self._down_since is not None:
            down = time.monotonic() - self._down_since
            log.warning("the archive of finished games answers again, after %.0f s", down)
        self._down_since, self._failures = None, 0

    async def close(self) -> None:
        """Close the connection, if open."""
        await self._drop()


def _consume(task: asyncio.Future[Any]) -> None:
    """Read a left-behind task's outcome, so that asyncio does not log it as never retrieved."""
    if not task.cancelled():
        task.exception()


async def migrate(url: str, folder: Path = MIGRATIONS) -> list[int]:
    """Apply the migrations of `folder` the database lacks; the versions applied now."""
    async with await connect(url) as conn:
        return await migrate_on(conn, folder)


async def migrate_on(conn: psycopg.AsyncConnection[Any], folder: Path = MIGRATIONS) -> list[int]:
    """`migrate` on an open connection."""
    applied: list[int] = []
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        " version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"
    )
    await conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        cursor = await conn.execute("SELECT version FROM schema_migrations")
        done = {row[0] for row in await cursor.fetchall()}
        for migration in migrations(folder):
            if migration.version in done:
                continue
            async with conn.transaction():
                await conn.execute(migration.sql.encode())
                await conn.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (%s, %s)",
                    (migration.version, migration.name),
                )
            applied.append(migration.version)
    finally:
        await conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
    return applied

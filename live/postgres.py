"""The PostgreSQL that keeps finished games (`live.archive`): connecting, and the schema's migrations.

Migrations are plain SQL files in `live/migrations`, named `<version>_<what>.sql` and applied in
version order, each in its own transaction together with its row in `schema_migrations`; a process
applies them under an advisory lock, so gateways and workers starting at once apply each one once.
A migration once released is never edited: a change is a new file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import psycopg

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
MIGRATION_NAME = re.compile(r"^(\d+)_[a-z0-9_]+\.sql$")
MIGRATION_LOCK = 4_711_017  # the advisory lock key held while migrating
CONNECT_TIMEOUT_SECONDS = 5


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


async def connect(url: str) -> psycopg.AsyncConnection[tuple[object, ...]]:
    """A connection to the database of `url` (autocommit: each statement or `transaction()` block
    commits on its own)."""
    return await psycopg.AsyncConnection.connect(
        url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_SECONDS
    )


async def migrate(url: str, folder: Path = MIGRATIONS) -> list[int]:
    """Apply the migrations of `folder` the database lacks; the versions applied now."""
    applied: list[int] = []
    async with await connect(url) as conn:
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

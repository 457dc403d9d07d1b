"""Operator chores from the command line, against the Redis of REDIS_URL (REDIS_TLS_* for rediss://,
REDIS_CLUSTER for a Cluster).

python -m gateway.admin create-api-key --operator NAME   prints a new API key (shown only once)
python -m gateway.admin revoke-api-key --key=KEY         revokes one, and the tokens it issued
python -m gateway.admin migrate-keys                     renames the keys an older version wrote (on upgrade)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

from gateway.auth import create_api_key, revoke_api_key
from live.connection import async_client
from live.key_migrations import migrate_keys
from live.settings import Settings


async def _run(args: argparse.Namespace, settings: Settings) -> str:
    client = async_client(settings)
    try:
        if args.command == "create-api-key":
            return await create_api_key(client, args.operator)
        if args.command == "migrate-keys":
            migrated = await migrate_keys(client)
            return f"renamed {migrated.renamed} keys; kept {migrated.kept} whose new name was taken"
        ended = await revoke_api_key(client, args.key)
        return f"revoked; {ended} token(s) it issued signed out"
    finally:
        await client.aclose()


def main(argv: Sequence[str] | None = None) -> int:
    """Run one chore; exit status 0 on success, 2 on a usage error."""
    parser = argparse.ArgumentParser(
        prog="python -m gateway.admin", description="Operator chores against REDIS_URL."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    create = commands.add_parser("create-api-key", help="create an operator API key and print it once")
    create.add_argument("--operator", required=True, help="the operator's name (no ':')")
    revoke = commands.add_parser("revoke-api-key", help="revoke an operator API key")
    revoke.add_argument("--key", required=True, help="the key to revoke")
    commands.add_parser("migrate-keys", help="rename the keys an older version wrote (live.key_migrations)")
    args = parser.parse_args(argv)
    try:
        print(asyncio.run(_run(args, Settings.from_env(os.environ))))
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Operator chores from the command line, against the Redis of REDIS_URL (REDIS_TLS_* for rediss://).

python -m gateway.admin create-api-key --operator NAME   prints a new API key (shown only once)
python -m gateway.admin revoke-api-key --key KEY         revokes one, and the tokens it issued
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

import redis.asyncio as aioredis

from gateway.auth import create_api_key, revoke_api_key
from live.settings import DEFAULT_REDIS_URL, RedisTls


async def _run(args: argparse.Namespace, redis_url: str) -> str:
    client = aioredis.Redis.from_url(redis_url, **RedisTls.from_env().options(redis_url))
    try:
        if args.command == "create-api-key":
            return await create_api_key(client, args.operator)
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
    args = parser.parse_args(argv)
    try:
        print(asyncio.run(_run(args, os.environ.get("REDIS_URL", DEFAULT_REDIS_URL))))
    except ValueError as error:
        parser.error(str(error))
    return 0


if __name__ == "__main__":
    sys.exit(main())

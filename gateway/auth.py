"""Who is calling: bearer tokens, operator API keys, player records, password hashes, the rate limit
(counted per player, second and class of call: gateway.limits).

Secrets (tokens, API keys) are random and reach Redis only as their SHA-256, so a copy of the store
signs nobody in. A token reads `<player id>.<secret>`: the id finds the player's keys, so checking a
token, counting the call and reading the player is one script on one Cluster slot. Passwords are
hashed with scrypt and a random salt.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import hmac
import os
import secrets
import time
import uuid
from dataclasses import dataclass
from typing import cast

import grpc
import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.timestamp_pb2 import Timestamp
from redis.asyncio.client import Pipeline

from gateway import limits
from live import guests, keys, levels
from live.connection import clustered
from live.errors import not_found, unauthenticated
from live.moves import Caller
from live.replies import text
from live.table import Table

TOKEN_BYTES = 32
BEARER = "bearer "

# scrypt cost: 16 MiB of memory and ~50 ms per hash, so a stolen hash is slow to attack.
SCRYPT_N = 2**14
SCRYPT_R = 8
SCRYPT_P = 1
SCRYPT_SALT_BYTES = 16
SCRYPT_KEY_BYTES = 32
SCRYPT_MAXMEM = 64 * 1024 * 1024
# Password hashes run on threads of their own, at most half the cores at once: a flood of sign-ins
# (from many addresses, past the per-address back-off) queues there instead of starving the event
# loop that serves every other call.
HASHING = concurrent.futures.ThreadPoolExecutor(
    max_workers=max(1, (os.cpu_count() or 2) // 2), thread_name_prefix="password-hash"
)

# The bots' players are named after their level (`live.levels`): "Easy bot 1", ...
BOT_NAMES: dict[int, str] = {int(level.strength): level.display_name for level in levels.LEVELS}


@dataclass(frozen=True)
class Principal:
    """The player a call acts for, as read when the call was authenticated."""

    player: gateway_pb2.Player

    @property
    def player_id(self) -> str:
        """The player's id."""
        return self.player.player_id


def digest(secret: str) -> str:
    """The SHA-256 (hex) under which a token or API key is stored."""
    return hashlib.sha256(secret.encode()).hexdigest()


def _metadata(context: grpc.aio.ServicerContext, name: str) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key == name:
            return value if isinstance(value, str) else value.decode(errors="replace")
    return None


def bearer_token(context: grpc.aio.ServicerContext) -> str:
    """The token of the call's `authorization: Bearer <token>` metadata; UNAUTHENTICATED without one."""
    header = _metadata(context, "authorization")
    if header is None:
        raise unauthenticated("this call needs the metadata `authorization: Bearer <token>`")
    if not header.lower().startswith(BEARER) or not header[len(BEARER) :].strip():
        raise unauthenticated("the authorization metadata must read `Bearer <token>`")
    return header[len(BEARER) :].strip()


# One round trip, one Cluster slot: the session must exist, then the call is counted and the player's
# record returned. A forged token naming someone's player id counts nothing against that player.
AUTHENTICATE_SCRIPT = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {'unknown'} end
local record = redis.call('HGETALL', KEYS[2])
if #record == 0 then return {'gone'} end
local calls = redis.call('INCR', KEYS[3])
if calls == 1 then redis.call('EXPIRE', KEYS[3], 2) end
return {'ok', calls, record}
"""


def token_player(token: str) -> str:
    """The player id a token names (`<player id>.<secret>`); UNAUTHENTICATED for any other shape."""
    player_id, dot, secret = token.partition(".")
    if not dot or not player_id or not secret:
        raise unauthenticated("the token is unknown, expired or signed out")
    return player_id


@dataclass(frozen=True)
class Credentials:
    """A call's bearer token, well formed but not checked yet: the player it names, its digest, and
    the rate class and second (Unix time) the call is counted in."""

    player_id: str
    token_digest: str
    rate_class: str
    second: int

    def keys(self) -> list[str]:
        """The keys the authentication script reads (all on the player's Cluster slot)."""
        return [
            keys.session(self.player_id, self.token_digest),
            keys.player(self.player_id),
            keys.rate(self.player_id, self.rate_class, self.second),
        ]


def credentials(context: grpc.aio.ServicerContext) -> Credentials:
    """The credentials the call presents, counted in the call's rate class and in this second;
    UNAUTHENTICATED for a missing or malformed token."""
    token = bearer_token(context)
    return Credentials(token_player(token), digest(token), limits.call_class(), int(time.time()))


def queue_check(caller: Credentials, pipe: Pipeline) -> None:
    """Queue the authentication script on a pipeline (its reply goes to `principal`).

    EVAL rather than EVALSHA: a pipeline holding a registered script asks Redis whether it knows the
    script before every execution, an extra round trip; Redis caches the compiled script anyway.
    """
    keys = caller.keys()
    pipe.eval(AUTHENTICATE_SCRIPT, len(keys), *keys)


def principal(app: Table, caller: Credentials, reply: list[object]) -> Principal:
    """The signed-in caller, from the authentication script's reply; UNAUTHENTICATED for an unknown
    session or player, RESOURCE_EXHAUSTED past the rate limit."""
    if reply[0] == b"unknown":
        raise unauthenticated("the token is unknown, expired or signed out")
    if reply[0] == b"gone":
        raise unauthenticated("the token's player no longer exists (a guest expires once it idles)")
    calls, flat = cast(int, reply[1]), cast(list[bytes], reply[2])
    limit = app.settings.rate_limit(caller.rate_class)
    if calls > limit:
        raise limits.RateLimited(caller.rate_class, limit, limits.retry_after_ms(caller.second))
    return Principal(player_from_record(caller.player_id, dict(zip(flat[::2], flat[1::2], strict=True))))


def checked_caller(app: Table, caller: Credentials) -> Caller:
    """`caller` as the write path checks it, in the round trip of its read of the game: the
    authentication script queued on that read's pipeline, its reply read by `principal`."""
    return Caller(
        caller.player_id,
        lambda pipe: queue_check(caller, pipe),
        lambda replies: principal(app, caller, replies[0]),
    )


async def authenticate(app: Table, context: grpc.aio.ServicerContext) -> Principal:
    """The caller signed in by the call's bearer token, after counting the call against its rate limit
    (a guest's keys renewed: `live.guests`)."""
    caller = credentials(context)
    signed_in = principal(app, caller, await app.script(AUTHENTICATE_SCRIPT)(keys=caller.keys()))
    await guests.seen(app, signed_in.player)
    return signed_in


@dataclass(frozen=True)
class Operator:
    """The operator an API key names, and the key's digest (its tokens die with it)."""

    name: str
    key_hash: str


async def authenticate_operator(app: Table, context: grpc.aio.ServicerContext) -> Operator:
    """The operator named by the call's `x-api-key` metadata; UNAUTHENTICATED for a missing or bad key."""
    key = _metadata(context, "x-api-key")
    if not key:
        raise unauthenticated("this call needs the metadata `x-api-key: <key>`")
    key_hash = digest(key.strip())
    operator = await app.redis.get(keys.api_key(key_hash))
    if operator is None:
        raise unauthenticated("the API key is unknown or revoked")
    return Operator(text(operator), key_hash)


async def new_session(app: Table, player_id: str, minted_by: Operator | None = None) -> gateway_pb2.Session:
    """A fresh token for the player, stored hashed with the configured lifetime. A token an operator's
    key mints is listed under the key first and the key checked again after, so revoking the key,
    however the two interleave, signs the token out (`revoke_api_key`)."""
    player = await get_player(app, player_id)
    token = f"{player_id}.{secrets.token_urlsafe(TOKEN_BYTES)}"
    ttl = app.settings.token_ttl_seconds
    expires = int(time.time()) + ttl
    session = keys.session(player_id, digest(token))
    if minted_by is not None:
        minted = keys.minted_sessions(minted_by.key_hash)
        async with app.redis.pipeline(transaction=False) as pipe:
            pipe.zremrangebyscore(minted, "-inf", time.time())
            pipe.zadd(minted, {session: expires})
            await pipe.execute()
    await app.redis.set(session, player_id, ex=ttl)
    if minted_by is not None and not await app.redis.exists(keys.api_key(minted_by.key_hash)):
        await app.redis.delete(session)
        raise unauthenticated("the API key is unknown or revoked")
    expires_at = Timestamp()
    expires_at.FromSeconds(expires)
    return gateway_pb2.Session(token=token, expires_at=expires_at, player=player)


async def end_sessions(redis: aioredis.Redis, sessions: list[str]) -> None:
    """Delete these session keys and tell every gateway replica, whose watch streams of them end."""
    if not sessions:
        return
    async with redis.pipeline(transaction=False) as pipe:
        for session in sessions:
            pipe.delete(session)
            if clustered(redis):  # sharded, as the fan-out subscribes on a Cluster
                pipe.spublish(keys.revoked_sessions(), session)
            else:
                pipe.publish(keys.revoked_sessions(), session)
        await pipe.execute()


async def revoke(app: Table, token: str) -> None:
    """Sign a token out; it stops working at once, its watch streams included."""
    await end_sessions(app.redis, [keys.session(token_player(token), digest(token))])


def player_from_record(player_id: str, record: dict[bytes | str, bytes | str]) -> gateway_pb2.Player:
    """The public Player of a stored player hash."""
    fields = {text(name): text(value) for name, value in record.items()}
    return gateway_pb2.Player(
        player_id=player_id,
        display_name=fields.get("display_name", ""),
        guest=fields.get("guest") == "1",
        bot=fields.get("bot") == "1",
    )


async def get_player(app: Table, player_id: str) -> gateway_pb2.Player:
    """The player's public record; NOT_FOUND if there is none."""
    record = await app.redis.hgetall(keys.player(player_id))
    if not record:
        raise not_found("player", player_id)
    return player_from_record(player_id, record)


def new_player_id() -> str:
    """A fresh, unguessable player id."""
    return uuid.uuid4().hex


async def create_player(
    app: Table,
    display_name: str,
    *,
    guest: bool,
    bot: bool = False,
    username: str = "",
) -> gateway_pb2.Player:
    """Store a new player record and return it."""
    player = gateway_pb2.Player(player_id=new_player_id(), display_name=display_name, guest=guest, bot=bot)
    await app.redis.hset(
        keys.player(player.player_id),
        mapping={
            "display_name": display_name,
            "guest": "1" if guest else "0",
            "bot": "1" if bot else "0",
            "username": username,
            "created_at": str(int(time.time())),
        },
    )
    return player


async def delete_player(app: Table, player_id: str) -> None:
    """Remove a player record that was never used (a refused request must leave nothing behind)."""
    await app.redis.delete(keys.player(player_id), keys.password(player_id))


def _scrypt_now(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode(), salt=salt, n=n, r=r, p=p, maxmem=SCRYPT_MAXMEM, dklen=SCRYPT_KEY_BYTES
    )


async def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    """The scrypt hash, computed on the HASHING threads."""
    return await asyncio.get_running_loop().run_in_executor(HASHING, _scrypt_now, password, salt, n, r, p)


async def hash_password(password: str) -> str:
    """The password's scrypt hash with a fresh salt, as `scrypt$n$r$p$salt$hash` (hex)."""
    salt = secrets.token_bytes(SCRYPT_SALT_BYTES)
    derived = await _scrypt(password, salt, SCRYPT_N, SCRYPT_R, SCRYPT_P)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${derived.hex()}"


async def check_password(password: str, stored: str | None) -> bool:
    """Whether the password matches the stored hash; hashes anyway when there is none, to take as long."""
    try:
        scheme, n, r, p, salt, expected = (stored or "").split("$")
        if scheme != "scrypt":
            raise ValueError(scheme)
        params = (int(n), int(r), int(p))
        salt_bytes, expected_bytes = bytes.fromhex(salt), bytes.fromhex(expected)
    except ValueError:
        await _scrypt(password, b"\0" * SCRYPT_SALT_BYTES, SCRYPT_N, SCRYPT_R, SCRYPT_P)
        return False
    derived = await _scrypt(password, salt_bytes, *params)
    return hmac.compare_digest(derived, expected_bytes)


def command_line_secret(nbytes: int) -> str:
    """`secrets.token_urlsafe(nbytes)` that never begins with '-', which a command line reads as an
    option (`revoke-api-key --key -Xy...`, `bg join --code -Xy...`): such a draw is drawn again, so
    the secret is uniform over the rest, one character in 64 fewer at its first place."""
    while (secret := secrets.token_urlsafe(nbytes)).startswith("-"):
        pass
    return secret


async def create_api_key(redis: aioredis.Redis, operator: str) -> str:
    """A new API key for the operator; only its SHA-256 is stored, so the key is shown this once."""
    # ':' separates the operator from its user's id in keys.external_player; a name holding one
    # could claim another operator's users.
    if not operator.strip() or ":" in operator:
        raise ValueError("an operator name must be non-empty and have no ':'")
    key = command_line_secret(TOKEN_BYTES)
    await redis.set(keys.api_key(digest(key)), operator.strip())
    return key


REVOKE_BATCH = 500


async def revoke_api_key(redis: aioredis.Redis, key: str) -> int:
    """Revoke an operator's API key and sign out every token it minted; how many were signed out."""
    key_hash = digest(key.strip())
    await redis.delete(keys.api_key(key_hash))
    minted, ended = keys.minted_sessions(key_hash), 0
    while sessions := [text(s) for s in cast(list[bytes], await redis.zrange(minted, 0, REVOKE_BATCH - 1))]:
        await end_sessions(redis, sessions)
        await redis.zrem(minted, *sessions)
        ended += len(sessions)
    return ended

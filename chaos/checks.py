"""What a chaos run must leave behind, checked game by game once the games are over: the game
finished and was scored; its log holds exactly one entry per version; replaying the log from the
revealed seed (by the rules service, through ReplayGame) gives the stored final state and scores bit
for bit; no request id applied twice (`check_requests`); no clock entry lacks its
deadline; and every move a client saw acknowledged is in the log, at its version, as sent."""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass, field
from typing import cast

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from chaos.games import Played
from chaos.gateways import Gateways
from live import keys
from live.replies import blob, text
from live.store import REQUEST_DIGEST_BYTES, STATUS_FINISHED, StreamEntries

Games = gateway_pb2_grpc.GameServiceStub


@dataclass
class Findings:
    """Counts over every game of a run, and a line for each fault found."""

    counts: Counter[str] = field(default_factory=Counter)
    faults: list[str] = field(default_factory=list)

    def fault(self, game_id: str, what: str) -> None:
        """Note a fault of one game."""
        self.faults.append(f"{game_id}: {what}")


async def check_game(redis: aioredis.Redis, gateways: Gateways, played: Played, found: Findings) -> None:
    """Check one game (see the module docstring) into `found`."""
    game_id = played.game_id
    counts = found.counts
    counts["games"] += 1
    status = text(await redis.hget(keys.game_meta(game_id), "status") or b"")
    if status != STATUS_FINISHED:
        found.fault(game_id, f"not finished (status {status!r})")
        return
    counts["games finished"] += 1
    if await redis.exists(keys.game_result(game_id)):
        counts["games scored"] += 1
    else:
        found.fault(game_id, "finished but not scored")
    version = int(await redis.get(keys.game_version(game_id)) or 0)
    entries = cast(StreamEntries, await redis.xrange(keys.game_log(game_id)))
    logged = {}
    for entry_id, fields in entries:
        number = int(text(entry_id).split("-")[0])
        if number in logged:
            found.fault(game_id, f"version {number} logged twice")
        logged[number] = (int(fields[b"s"]), blob(fields[b"a"]))
    counts["log entries"] += len(entries)
    if sorted(logged) == list(range(1, version + 1)) and len(entries) == version:
        counts["games with one log entry per version"] += 1
    else:
        found.fault(game_id, f"{len(entries)} log entries for versions 1 to {version}")
    await check_requests(redis, played, version, found)
    record = (
        await gateways.call(
            Games, "GetGameRecord", gateway_pb2.GetGameRecordRequest(game_id=game_id), played.host
        )
    ).record
    replay = await gateways.call(
        Games, "ReplayGame", gateway_pb2.ReplayGameRequest(game_id=game_id), played.host
    )
    if hashlib.sha256(record.seed).hexdigest() != record.seed_sha256:
        found.fault(game_id, "the revealed seed does not match its published SHA-256")
    elif replay.consistent and replay.actions_replayed == version:
        counts["games replayed bit for bit"] += 1
    else:
        found.fault(
            game_id, f"replay: {replay.mismatch or 'incomplete'} ({replay.actions_replayed} of {version})"
        )
    if await redis.exists(keys.game_clock(game_id)) and await redis.zscore(keys.deadlines(), game_id) is None:
        found.fault(game_id, "a clock entry without its deadline")
        counts["clocks without a deadline"] += 1
    for move in played.acked:
        counts["moves acknowledged"] += 1
        if logged.get(move.version) != (move.seat, move.action):
            counts["acknowledged moves lost"] += 1
            found.fault(
                game_id, f"acknowledged move {move.request_id} is not the log's version {move.version}"
            )


async def check_requests(redis: aioredis.Redis, played: Played, version: int, found: Findings) -> None:
    """No request id applied twice: the ids the game still keeps (those of its last commits) each name
    another version, the last ones; no id was acknowledged to a client at two versions; and in a game
    of clients only, every commit is a move acknowledged to one of them (a retry applied again would be
    a commit nobody saw acknowledged)."""
    game_id = played.game_id
    stored = await redis.hgetall(keys.game_requests(game_id))
    kept = Counter(int(blob(value)[REQUEST_DIGEST_BYTES:]) for value in stored.values())
    twice = sum(ids - 1 for ids in kept.values())
    if sorted(kept) != list(range(version - len(kept) + 1, version + 1)):
        found.fault(game_id, f"the kept request ids name versions {sorted(kept)}, not the last {len(kept)}")
    acknowledged: dict[str, set[int]] = {}
    for move in played.acked:
        acknowledged.setdefault(move.request_id, set()).add(move.version)
    twice += sum(len(versions) - 1 for versions in acknowledged.values())
    found.counts["request ids applied twice"] += twice
    if twice:
        found.fault(game_id, f"{twice} request ids applied twice")
    if played.plan.humans and not played.plan.bot_seats:
        missing = version - len({move.version for move in played.acked})
        found.counts["commits no client saw acknowledged"] += missing
        if missing:
            found.fault(game_id, f"{missing} of {version} commits were acknowledged to no client")


async def check_all(redis_url: str, gateways: Gateways, games: list[Played]) -> Findings:
    """Check every game of a run, and that no clock entry anywhere lacks its deadline."""
    found = Findings()
    redis = aioredis.Redis.from_url(redis_url)
    try:
        for played in games:
            await check_game(redis, gateways, played, found)
    finally:
        await redis.aclose()
    return found

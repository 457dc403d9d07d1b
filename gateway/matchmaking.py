"""MatchService: FindMatch queues a player and streams the search; CancelMatch withdraws it.

Grouping is the match script's (`live.matchmaking`); every gateway replica runs a `Matcher` that runs
it over the active queues every MATCH_TICK_SECONDS and starts the games it forms, so a search is
matched whichever replica holds its stream, and nobody twice. A group whose matcher died or stalled
before its game was started is taken over by any matcher once its lease runs out, and its game is
created under the id the script gave it, once. A search's stream reads its ticket's
status hash each tick.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import statistics
import uuid
from collections.abc import AsyncGenerator
from typing import cast

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from gateway import auth, bots
from gateway.errors import rpc, stream_rpc
from live import clocks, games, keys, levels, matchmaking
from live.connection import UNREACHABLE
from live.errors import invalid, precondition
from live.replies import blob, text
from live.table import Table

log = logging.getLogger(__name__)

MOST_BOTS_AFTER_SECONDS = 600
BAND_NOTICE_SECONDS = 1.0  # a searching stream tells of a wider band at most this often
STATUSES: dict[str, gateway_pb2.MatchStatus] = {
    matchmaking.MATCH_SEARCHING: gateway_pb2.MATCH_STATUS_SEARCHING,
    matchmaking.MATCH_FORMING: gateway_pb2.MATCH_STATUS_SEARCHING,
    matchmaking.MATCH_MATCHED: gateway_pb2.MATCH_STATUS_MATCHED,
    matchmaking.MATCH_CANCELLED: gateway_pb2.MATCH_STATUS_CANCELLED,
}


def bands(app: Table) -> matchmaking.Bands:
    """The rating bands of the gateway's settings."""
    settings = app.settings
    return matchmaking.Bands(
        settings.match_band_start, settings.match_band_growth_per_second, settings.match_band_max
    )


class Matcher:
    """Runs the match script over every active queue each tick and starts the games it forms."""

    def __init__(self, app: Table) -> None:
        self.app = app
        self.task: asyncio.Task[None] | None = None
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"  # of its leases
        self.lost = False  # Redis was out of reach on the last pass

    def start(self) -> None:
        """Start the loop on the running event loop (once)."""
        if self.task is None:
            self.task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        """Stop the loop."""
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def _loop(self) -> None:
        while True:
            try:
                await self.run_once()
            except UNREACHABLE as error:
                if not self.lost:  # once per outage, not every tick
                    log.warning("matcher: Redis is out of reach; trying again every tick: %s", error)
                self.lost = True
            except Exception:
                log.exception("matcher run failed")
            else:
                if self.lost:
                    log.warning("matcher: Redis answers again")
                self.lost = False
            await asyncio.sleep(self.app.settings.match_tick_seconds)

    async def run_once(self) -> int:
        """One pass over the active queues; the number of games started."""
        redis = self.app.redis
        started = 0
        for member in cast(set[bytes], await redis.smembers(keys.match_queues())):
            queue = text(member)
            raw = await redis.get(keys.match_kind(queue))
            if raw is None:
                await redis.srem(keys.match_queues(), queue)
                continue
            kind = gateway_pb2.FindMatchRequest.FromString(blob(raw))
            now = clocks.now_ms()
            formed = await matchmaking.take_over(redis, queue, self.holder, now)
            formed += await matchmaking.match(
                redis, queue, kind.seat_count, bands(self.app), now, self.holder
            )
            await asyncio.gather(
                *(self._start(queue, kind, group) for group in formed)
            )  # each handles its failure
            started += len(formed)
            if await matchmaking.idle(redis, queue):
                await redis.srem(keys.match_queues(), queue)  # a stream still searching lists it again
        return started

    async def _start(self, queue: str, kind: gateway_pb2.FindMatchRequest, group: matchmaking.Group) -> None:
        """Create the game of a group leased to this matcher (unless it exists) and mark its tickets
        matched (cancelled if the game could not start and the lease is still ours), then end its
        players' claims on a search. Dying on the way leaves the group to the next lease."""
        redis = self.app.redis
        async with redis.pipeline(transaction=False) as pipe:
            for ticket in group.tickets:
                pipe.hget(keys.match_ticket(ticket), "who")
            players = [gateway_pb2.Player.FromString(blob(raw or b"")) for raw in await pipe.execute()]
        try:
            await games.start_game(
                self.app,
                title=kind.title,
                player_count=kind.seat_count,
                options=list(kind.options),
                seats=await self._seats(kind, players, group.bot_strength),
                clock=kind.clock,
                lobby_id="",
                game_id=group.game_id,
            )
        except Exception:
            log.exception("a matched game could not start", extra={"game_id": group.game_id})
            ended = await matchmaking.finish(
                redis, queue, group.game_id, matchmaking.MATCH_CANCELLED, self.holder
            )
        else:
            ended = await matchmaking.finish(redis, queue, group.game_id, matchmaking.MATCH_MATCHED)
        if ended:
            for player, ticket in zip(players, group.tickets, strict=True):
                await matchmaking.release(redis, player.player_id, ticket)

    async def _seats(
        self, kind: gateway_pb2.FindMatchRequest, players: list[gateway_pb2.Player], bot_strength: int
    ) -> list[gateway_pb2.GameSeat]:
        """The players and the bots of `bot_strength` (`gateway.bots`) on the game's seats, shuffled;
        with no strength asked for, bots of the level nearest the players' ratings."""
        seat_count = kind.seat_count
        if bot_strength:
            strength = cast(gateway_pb2.BotStrength, bot_strength)
        else:
            strength = (await self._nearest_level(kind.title, players)).strength
        seated_bots = bots.lineup(strength, seat_count - len(players))
        await bots.create(self.app, seated_bots)
        occupants: list[tuple[gateway_pb2.Player, gateway_pb2.BotStrength]] = [
            (player, gateway_pb2.BOT_STRENGTH_UNSPECIFIED) for player in players
        ]
        occupants += [(player, strength) for player in seated_bots]
        secrets.SystemRandom().shuffle(occupants)
        return [
            gateway_pb2.GameSeat(seat=index, player=player, bot_strength=bot)
            for index, (player, bot) in enumerate(occupants)
        ]

    async def _nearest_level(self, title: str, players: list[gateway_pb2.Player]) -> levels.Level:
        """The bot level whose measured rating is nearest the mean of the players' displayed ratings
        (as their searches read them, `matchmaking.rating`)."""
        ratings = [await matchmaking.rating(self.app.redis, title, player.player_id) for player in players]
        return levels.nearest(title, statistics.fmean(ratings)) if ratings else levels.RANDOM


def _check(app: Table, request: gateway_pb2.FindMatchRequest) -> None:
    """Refuse a search for a game that could not start."""
    if not request.title:
        raise invalid("MISSING_TITLE", "title is required", field="title")
    games.validate_options(app, request.title, request.seat_count, list(request.options))
    clocks.check_clock(request.clock)
    if request.bots_after_seconds > MOST_BOTS_AFTER_SECONDS:
        raise invalid(
            "INVALID_BOTS_AFTER_SECONDS",
            f"bots_after_seconds must be 0 to {MOST_BOTS_AFTER_SECONDS}, not {request.bots_after_seconds}",
            field="bots_after_seconds",
        )


class MatchServicer(gateway_pb2_grpc.MatchServiceServicer):
    """Queues searches and streams them until matched."""

    def __init__(self, app: Table, matcher: Matcher) -> None:
        self.app = app
        self.matcher = matcher

    @stream_rpc
    async def FindMatch(
        self, request: gateway_pb2.FindMatchRequest, context: grpc.aio.ServicerContext
    ) -> AsyncGenerator[gateway_pb2.FindMatchResponse, None]:
        """Queue the caller and stream the search until it is matched or withdrawn."""
        principal = await auth.authenticate(self.app, context)
        _check(self.app, request)
        self.matcher.start()
        redis, player_id = self.app.redis, principal.player_id
        kind = matchmaking.kind_of(request)
        queue = matchmaking.queue_id(kind)
        ticket = matchmaking.new_ticket(queue)
        claimed = await redis.set(
            keys.match_player(player_id), ticket, nx=True, ex=matchmaking.CLAIM_TTL_SECONDS
        )
        if not claimed:
            raise precondition("ALREADY_SEARCHING", "you are searching for a match already; cancel it first")
        after_ms = 1000 * (request.bots_after_seconds or self.app.settings.match_bots_after_seconds)
        done = queued = False
        try:
            rating = await matchmaking.rating(redis, request.title, player_id)
            joined = clocks.now_ms()
            facts = matchmaking.facts(player_id, rating, after_ms, request.bot_strength)
            queued = True  # from here the ticket may be queued: only its withdrawal ends the claim
            await matchmaking.join(redis, kind, ticket, facts, joined, principal.player.SerializeToString())
            search = gateway_pb2.FindMatchResponse(
                status=gateway_pb2.MATCH_STATUS_SEARCHING, ticket_id=ticket, rating=rating
            )
            told = -BAND_NOTICE_SECONDS * 1000
            while True:
                fields = await matchmaking.look(redis, player_id, ticket, clocks.now_ms())
                status = STATUSES.get(text(fields.get(b"status", b"")), gateway_pb2.MATCH_STATUS_CANCELLED)
                waited = clocks.now_ms() - joined
                if status != gateway_pb2.MATCH_STATUS_SEARCHING:
                    done = True
                    # Its end ends the claim before the player hears of it (whoever else ends it too:
                    # the matcher may die between marking the ticket matched and ending the claim).
                    await matchmaking.release(redis, player_id, ticket)
                    search.status = status
                    search.waited_ms = int(fields.get(b"waited", waited))
                    search.band = float(fields.get(b"band", bands(self.app).band(waited)))
                    if status == gateway_pb2.MATCH_STATUS_MATCHED:
                        search.game_id = text(fields[b"game_id"])
                        search.bots = int(fields.get(b"bots", 0))
                    yield search
                    return
                band = bands(self.app).band(waited)
                if waited - told >= BAND_NOTICE_SECONDS * 1000 and band > search.band:
                    search.band, search.waited_ms, told = band, waited, waited
                    yield search
                    await redis.sadd(keys.match_queues(), queue)
                await asyncio.sleep(self.app.settings.match_tick_seconds)
        finally:
            if not done:
                await asyncio.shield(self._withdraw(player_id, ticket, queued))

    async def _withdraw(self, player_id: str, ticket: str, queued: bool) -> None:
        """End a search its stream left: the claim of a ticket never queued at once, a queued one's
        once the ticket is withdrawn (a matched one's claim is the matcher's to end)."""
        if not queued or await matchmaking.cancel(self.app.redis, ticket):
            await matchmaking.release(self.app.redis, player_id, ticket)

    @rpc
    async def CancelMatch(
        self, request: gateway_pb2.CancelMatchRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.CancelMatchResponse:
        """Withdraw the caller's search."""
        principal = await auth.authenticate(self.app, context)
        raw = await self.app.redis.get(keys.match_player(principal.player_id))
        ticket = text(raw) if raw is not None else ""
        if not ticket or not await matchmaking.cancel(self.app.redis, ticket):
            raise precondition("NOT_SEARCHING", "you have no search to cancel (or it has just matched)")
        await matchmaking.release(self.app.redis, principal.player_id, ticket)
        return gateway_pb2.CancelMatchResponse(ticket_id=ticket)


def add_to_server(app: Table, server: grpc.aio.Server, matcher: Matcher) -> None:
    """Serve MatchService on `server`."""
    gateway_pb2_grpc.add_MatchServiceServicer_to_server(MatchServicer(app, matcher), server)

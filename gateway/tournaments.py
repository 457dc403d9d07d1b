"""TournamentService: tournaments created, listed, filled with players and bots, started and shown.

A tournament is one `Tournament` message in Redis (`live.tournaments.store`), changed by optimistic
transactions on its one key; starting it and everything after (pairing, tables, results) is
`live.tournaments.rounds`, shared with the workers, who take it on from there.
"""

from __future__ import annotations

import time
import uuid
from typing import cast

import grpc
from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2, tournaments_pb2_grpc
from google.protobuf.timestamp_pb2 import Timestamp

from gateway import auth, bots, paging, quotas
from gateway.auth import Principal
from gateway.errors import rpc
from live import clocks, games, keys
from live.errors import invalid, not_found, permission_denied, precondition
from live.replies import text
from live.table import Table
from live.tournaments import archive, progress, rounds, store
from live.tournaments.store import Tournament

MAX_SWISS_ROUNDS = 20
MAX_CAPACITY = 256
LEAST_ROUND_SECONDS = 60
MOST_ROUND_SECONDS = 30 * 24 * 3600
MOST_REGISTRATION_AHEAD_SECONDS = 30 * 24 * 3600
FORMAT_NAMES = {
    tournaments_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN: "round robin",
    tournaments_pb2.TOURNAMENT_FORMAT_SWISS: "Swiss",
    tournaments_pb2.TOURNAMENT_FORMAT_SINGLE_ELIMINATION: "single elimination",
}
SCAN_BATCH = 50  # index entries read at a time by a listing
CANCELLED_BY_ORGANISER = "called off by its organiser"
OVER = (tournaments_pb2.TOURNAMENT_STATUS_FINISHED, tournaments_pb2.TOURNAMENT_STATUS_CANCELLED)
# How long a player's set of organised tournaments is kept after they last created one: longer than a
# tournament's registration may stay open and its rounds run.
ORGANISED_TTL_SECONDS = 90 * 24 * 3600


def _check_id(tournament_id: str) -> str:
    if not tournament_id:
        raise invalid("MISSING_TOURNAMENT_ID", "tournament_id is required", field="tournament_id")
    return tournament_id


def _require_organiser(tournament: Tournament, principal: Principal, what: str) -> None:
    if tournament.organiser_player_id != principal.player_id:
        raise permission_denied(f"only the tournament's organiser may {what}")


def _require_registration_open(tournament: Tournament, now_ms: int) -> None:
    """FAILED_PRECONDITION (REGISTRATION_CLOSED) once it started, ended or its registration closed."""
    closes = tournament.registration_closes_at
    closed = tournament.HasField("registration_closes_at") and now_ms >= closes.ToMilliseconds()
    if tournament.status != tournaments_pb2.TOURNAMENT_STATUS_REGISTRATION or closed:
        raise precondition("REGISTRATION_CLOSED", "the tournament's registration is closed")


def _require_room(tournament: Tournament) -> None:
    if len(tournament.entrants) >= tournament.capacity:
        raise precondition("TOURNAMENT_FULL", f"the tournament is full ({tournament.capacity} entrants)")


def _entrant(tournament: Tournament, player_id: str) -> tournaments_pb2.TournamentEntrant | None:
    for entrant in tournament.entrants:
        if entrant.player.player_id == player_id:
            return entrant
    return None


def _enter(tournament: Tournament, player: gateway_pb2.Player, strength: int, now_ms: int) -> None:
    tournament.entrants.add(player=player, bot_strength=strength, registered_at=progress.stamp(now_ms))
    tournament.entrant_count = len(tournament.entrants)
    _restand(tournament)


def _restand(tournament: Tournament) -> None:
    del tournament.standings[:]
    tournament.standings.extend(progress.current_standings(tournament))


def summary(tournament: Tournament) -> Tournament:
    """A tournament as listings show it: without entrants, rounds and standings."""
    shown = Tournament()
    shown.CopyFrom(tournament)
    for name in ("entrants", "rounds", "standings"):
        shown.ClearField(name)
    return shown


def check_settings(app: Table, request: tournaments_pb2.CreateTournamentRequest, now_ms: int) -> None:
    """Refuse a tournament whose settings do not fit together (INVALID_ARGUMENT, metadata `field`)."""
    if not request.title:
        raise invalid("MISSING_TITLE", "title is required", field="title")
    info = app.rules.get(request.title).info
    if not info.min_players <= request.seats_per_table <= info.max_players:
        raise invalid(
            "INVALID_SEATS_PER_TABLE",
            f"{info.display_name} seats {info.min_players} to {info.max_players} at a table, "
            f"not {request.seats_per_table}",
            field="seats_per_table",
        )
    games.build_config(info, list(request.options))
    if request.format not in FORMAT_NAMES:
        formats = "ROUND_ROBIN, SWISS or SINGLE_ELIMINATION"
        raise invalid("MISSING_FORMAT", f"format must be {formats}", field="format")
    swiss = request.format == tournaments_pb2.TOURNAMENT_FORMAT_SWISS
    if swiss and not 1 <= request.swiss_rounds <= MAX_SWISS_ROUNDS:
        raise invalid(
            "INVALID_SWISS_ROUNDS",
            f"a Swiss plays 1 to {MAX_SWISS_ROUNDS} rounds, not {request.swiss_rounds}",
            field="swiss_rounds",
        )
    if not swiss and request.swiss_rounds:
        raise invalid(
            "INVALID_SWISS_ROUNDS",
            "swiss_rounds is for a Swiss only; the other formats play the rounds their field needs",
            field="swiss_rounds",
        )
    if request.round_seconds and not LEAST_ROUND_SECONDS <= request.round_seconds <= MOST_ROUND_SECONDS:
        raise invalid(
            "INVALID_ROUND_SECONDS",
            f"round_seconds must be 0 (no limit) or {LEAST_ROUND_SECONDS} to {MOST_ROUND_SECONDS}, "
            f"not {request.round_seconds}",
            field="round_seconds",
        )
    clocks.check_clock(request.clock)
    if request.HasField("registration_closes_at"):
        closes = request.registration_closes_at.ToMilliseconds()
        if not now_ms < closes <= now_ms + MOST_REGISTRATION_AHEAD_SECONDS * 1000:
            raise invalid(
                "INVALID_REGISTRATION_CLOSES_AT",
                "registration_closes_at must be in the future, at most 30 days ahead",
                field="registration_closes_at",
            )
    if not request.seats_per_table <= request.capacity <= MAX_CAPACITY:
        raise invalid(
            "INVALID_CAPACITY",
            f"capacity must be {request.seats_per_table} (a table) to {MAX_CAPACITY}, not {request.capacity}",
            field="capacity",
        )


class TournamentService(tournaments_pb2_grpc.TournamentServiceServicer):
    """Creates, lists, fills, starts and shows tournaments."""

    def __init__(self, app: Table) -> None:
        self.app = app

    async def _organise(self, player_id: str, tournament: Tournament) -> None:
        """Count a new tournament among those its organiser runs; QUOTA_EXCEEDED past
        OPEN_TOURNAMENTS_PER_PLAYER (finished and cancelled ones no longer count)."""
        quota = self.app.settings.open_tournaments_per_player

        async def over(ids: list[str]) -> list[str]:
            loaded = [await store.load(self.app.redis, tournament_id) for tournament_id in ids]
            return [
                tournament_id
                for tournament_id, found in zip(ids, loaded, strict=True)
                if found is None or found.status in OVER
            ]

        await quotas.take(
            self.app,
            keys.organised_tournaments(player_id),
            quota,
            tournament.tournament_id,
            store.created_score(tournament),
            ORGANISED_TTL_SECONDS,
            over,
            "open_tournaments",
            f"you organise {quota} tournaments not yet over, the most a player may",
        )

    async def _load(self, tournament_id: str) -> Tournament:
        tournament = await store.load(self.app.redis, _check_id(tournament_id))
        if tournament is None:
            raise not_found("tournament", tournament_id)
        return tournament

    @rpc
    async def CreateTournament(
        self, request: tournaments_pb2.CreateTournamentRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.CreateTournamentResponse:
        """A new tournament taking entrants, the caller its organiser."""
        principal = await auth.authenticate(self.app, context)
        now = clocks.now_ms()
        check_settings(self.app, request, now)
        display = self.app.rules.get(request.title).info.display_name
        created_at = Timestamp()
        created_at.FromNanoseconds(time.time_ns())
        tournament = Tournament(
            tournament_id=uuid.uuid4().hex,
            name=request.name or f"{display} {FORMAT_NAMES[request.format]}",
            title=request.title,
            options=request.options,
            seats_per_table=request.seats_per_table,
            format=request.format,
            round_count=request.swiss_rounds,
            round_seconds=request.round_seconds,
            clock=request.clock,
            rated=request.rated,
            capacity=request.capacity,
            organiser_player_id=principal.player_id,
            status=tournaments_pb2.TOURNAMENT_STATUS_REGISTRATION,
            created_at=created_at,
        )
        if request.HasField("registration_closes_at"):
            tournament.registration_closes_at.CopyFrom(request.registration_closes_at)
        await self._organise(principal.player_id, tournament)
        await store.create(self.app.redis, tournament)
        await rounds.schedule(self.app, tournament, now)
        return tournaments_pb2.CreateTournamentResponse(tournament=tournament)

    @rpc
    async def ListTournaments(
        self, request: tournaments_pb2.ListTournamentsRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.ListTournamentsResponse:
        """One page of tournaments (of a title, in a status), newest first."""
        await auth.authenticate(self.app, context)
        size = paging.page_size(request.page_size)
        if request.title:
            self.app.rules.get(request.title)
        index = keys.listed_tournaments_of(request.title) if request.title else keys.listed_tournaments()
        listing = f"tournaments/{request.title}/{request.status}"
        cursor = paging.after(listing, request.page_token)
        found = await self._scan(index, cursor, size + 1, request.status)
        page = found[:size]
        token = ""
        if len(found) > size:
            last = page[-1]
            token = paging.encode(listing, {"s": store.created_score(last), "i": last.tournament_id})
        return tournaments_pb2.ListTournamentsResponse(
            tournaments=[summary(tournament) for tournament in page], next_page_token=token
        )

    async def _scan(
        self, index: str, cursor: tuple[float, str] | None, wanted: int, status: int
    ) -> list[Tournament]:
        """Up to `wanted` listed tournaments after `cursor` (newest first) in `status` (any if 0);
        entries whose tournament is gone are dropped from the index."""
        found: list[Tournament] = []
        gone: list[str] = []
        offset = 0
        top: float | str = cursor[0] if cursor else "+inf"
        while len(found) < wanted:
            entries = cast(
                list[tuple[bytes, float]],
                await self.app.redis.zrevrangebyscore(
                    index, top, "-inf", start=offset, num=SCAN_BATCH, withscores=True
                ),
            )
            if not entries:
                break
            offset += len(entries)
            ids = [
                text(member)
                for member, score in entries
                if cursor is None or score < cursor[0] or text(member) < cursor[1]
            ]
            for tournament_id in ids:
                tournament = await store.load(self.app.redis, tournament_id)
                if tournament is None:
                    gone.append(tournament_id)
                elif not status or tournament.status == status:
                    found.append(tournament)
                if len(found) == wanted:
                    break
        for tournament_id in gone:  # only now: removing entries mid-scan would shift the offsets
            await self.app.redis.zrem(index, tournament_id)
            await self.app.redis.zrem(keys.listed_tournaments(), tournament_id)
        return found

    @rpc
    async def GetTournament(
        self, request: tournaments_pb2.GetTournamentRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.GetTournamentResponse:
        """One tournament, whole; from the archive once it left Redis."""
        await auth.authenticate(self.app, context)
        tournament = await store.load(self.app.redis, _check_id(request.tournament_id))
        if tournament is None:
            tournament = await archive.archived(self.app, request.tournament_id)
        if tournament is None:
            raise not_found("tournament", request.tournament_id)
        return tournaments_pb2.GetTournamentResponse(tournament=tournament)

    @rpc
    async def JoinTournament(
        self, request: tournaments_pb2.JoinTournamentRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.JoinTournamentResponse:
        """Register the caller."""
        principal = await auth.authenticate(self.app, context)
        now = clocks.now_ms()

        def join(tournament: Tournament) -> None:
            _require_registration_open(tournament, now)
            if _entrant(tournament, principal.player_id) is not None:
                raise precondition("ALREADY_REGISTERED", "you are registered already")
            _require_room(tournament)
            _enter(tournament, principal.player, gateway_pb2.BOT_STRENGTH_UNSPECIFIED, now)

        tournament, _ = await store.update(self.app.redis, _check_id(request.tournament_id), join)
        return tournaments_pb2.JoinTournamentResponse(tournament=tournament)

    @rpc
    async def LeaveTournament(
        self, request: tournaments_pb2.LeaveTournamentRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.LeaveTournamentResponse:
        """Withdraw the caller, or (organiser) a bot entrant: removed before the start, withdrawn after."""
        principal = await auth.authenticate(self.app, context)
        target = request.player_id or principal.player_id

        def leave(tournament: Tournament) -> bool:
            entrant = _entrant(tournament, target)
            if target != principal.player_id:
                _require_organiser(tournament, principal, "withdraw another entrant")
                if entrant is not None and not entrant.player.bot:
                    raise permission_denied("a player withdraws themselves; the organiser withdraws bots")
            if tournament.status in (
                tournaments_pb2.TOURNAMENT_STATUS_FINISHED,
                tournaments_pb2.TOURNAMENT_STATUS_CANCELLED,
            ):
                raise precondition("TOURNAMENT_OVER", "the tournament is over")
            if entrant is None or entrant.withdrawn:
                raise precondition("NOT_REGISTERED", "no such entrant in the tournament", player_id=target)
            if tournament.status == tournaments_pb2.TOURNAMENT_STATUS_REGISTRATION:
                tournament.entrants.remove(entrant)
                tournament.entrant_count = len(tournament.entrants)
                _restand(tournament)
                return False
            return True  # running: withdrawn below, through the live part

        tournament, running = await store.update(self.app.redis, _check_id(request.tournament_id), leave)
        if running:
            tournament = await rounds.withdraw(self.app, tournament.tournament_id, target)
        return tournaments_pb2.LeaveTournamentResponse(tournament=tournament)

    @rpc
    async def AddTournamentBot(
        self, request: tournaments_pb2.AddTournamentBotRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.AddTournamentBotResponse:
        """Register the lowest-numbered bot of the strength not entered yet (organiser only)."""
        principal = await auth.authenticate(self.app, context)
        strength = request.strength or gateway_pb2.BOT_STRENGTH_RANDOM
        now = clocks.now_ms()

        def check(tournament: Tournament) -> None:
            _require_organiser(tournament, principal, "add a bot")
            _require_registration_open(tournament, now)
            _require_room(tournament)

        def next_bot(tournament: Tournament) -> gateway_pb2.Player:
            return bots.lineup(strength, 1, (e.player.player_id for e in tournament.entrants))[0]

        # Refused before anything is stored; the bot's record stored before it is entered.
        loaded = await self._load(request.tournament_id)
        check(loaded)
        await bots.create(self.app, [next_bot(loaded)])
        entered: list[gateway_pb2.Player] = []

        def add(tournament: Tournament) -> None:
            check(tournament)
            entered[:] = [next_bot(tournament)]  # another call may have entered that bot meanwhile
            _enter(tournament, entered[0], strength, now)

        tournament, _ = await store.update(self.app.redis, request.tournament_id, add)
        await bots.create(self.app, entered)
        return tournaments_pb2.AddTournamentBotResponse(tournament=tournament, bot=entered[0])

    @rpc
    async def StartTournament(
        self, request: tournaments_pb2.StartTournamentRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.StartTournamentResponse:
        """Seed the entrants and create round 1's tables (organiser only)."""
        principal = await auth.authenticate(self.app, context)
        tournament = await rounds.start(
            self.app, _check_id(request.tournament_id), organiser=principal.player_id, now_ms=clocks.now_ms()
        )
        return tournaments_pb2.StartTournamentResponse(tournament=tournament)

    @rpc
    async def CancelTournament(
        self, request: tournaments_pb2.CancelTournamentRequest, context: grpc.aio.ServicerContext
    ) -> tournaments_pb2.CancelTournamentResponse:
        """Call off a tournament still taking entrants (organiser only); its entrants are told."""
        principal = await auth.authenticate(self.app, context)
        tournament_id = _check_id(request.tournament_id)
        tournament = await rounds.cancel(
            self.app, tournament_id, CANCELLED_BY_ORGANISER, organiser=principal.player_id
        )
        await self.app.redis.zrem(keys.organised_tournaments(principal.player_id), tournament_id)
        return tournaments_pb2.CancelTournamentResponse(tournament=tournament)


def add_to_server(app: Table, server: grpc.aio.Server) -> None:
    """Serve TournamentService on `server`."""
    tournaments_pb2_grpc.add_TournamentServiceServicer_to_server(TournamentService(app), server)

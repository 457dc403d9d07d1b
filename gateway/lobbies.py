"""LobbyService: players and bots gather in a lobby until its host starts the game.

A lobby is one serialized `Lobby` message at `keys.lobby(id)`, the single source of truth. Every change
is an optimistic transaction on that one key (WATCH, check, MULTI/EXEC, retry on conflict), so two
players racing for the last seat cannot both get it. The sorted sets of public open lobbies are an
index kept beside it: updated after each change and cleaned lazily when a listing meets a stale entry,
which keeps every transaction on one Cluster slot.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from typing import cast

import grpc
import redis.exceptions
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from google.protobuf.timestamp_pb2 import Timestamp

from gateway import auth, bots, paging, quotas, spectators
from gateway.auth import Principal
from gateway.errors import rpc
from live import clocks, games, inbox, keys
from live.errors import GatewayError, invalid, not_found, permission_denied, precondition
from live.replies import blob, text
from live.table import Table

log = logging.getLogger(__name__)

LOBBY_TTL_SECONDS = 24 * 3600  # an untouched lobby is forgotten after a day
MAX_ATTEMPTS = 100
# KEYS: the host's lobbies; ARGV: quota, the new lobby's score and id, expiry (s).
INVITE_CODE_BYTES = 9

Lobby = gateway_pb2.Lobby


def _score(lobby: Lobby) -> float:
    """The index score of a lobby: its creation time in microseconds."""
    return float(lobby.created_at.seconds * 1_000_000 + lobby.created_at.nanos // 1000)


def member(lobby: Lobby, player_id: str) -> bool:
    """Whether the player is the lobby's host or sits in it."""
    return lobby.host_player_id == player_id or _seat_of(lobby, player_id) is not None


def human_members(lobby: Lobby) -> list[str]:
    """The ids of the lobby's host and of the humans seated in it, each once."""
    players = {lobby.host_player_id: None}
    for seat in lobby.seats:
        if seat.HasField("player") and not seat.player.bot:
            players.setdefault(seat.player.player_id)
    return list(players)


def _seat_of(lobby: Lobby, player_id: str) -> gateway_pb2.LobbySeat | None:
    for seat in lobby.seats:
        if seat.HasField("player") and seat.player.player_id == player_id:
            return seat
    return None


def readable(lobby: Lobby, viewer: str, invite_code: str = "") -> bool:
    """Whether `viewer` may read the lobby: anyone a public one, a private one its members, the
    spectators invited to its game and whoever gives its invite code."""
    return (
        lobby.visibility != gateway_pb2.VISIBILITY_PRIVATE
        or member(lobby, viewer)
        or viewer in lobby.invited_spectator_ids
        or hmac.compare_digest(invite_code.encode(), lobby.invite_code.encode())
    )


def shown(lobby: Lobby, viewer: str) -> Lobby:
    """The lobby as `viewer` may see it: the invite code and the invited spectators only for its
    members."""
    if member(lobby, viewer) or not (lobby.invite_code or lobby.invited_spectator_ids):
        return lobby
    seen = Lobby.FromString(lobby.SerializeToString())
    seen.invite_code = ""
    del seen.invited_spectator_ids[:]
    return seen


def _require_open(lobby: Lobby) -> None:
    if lobby.status != gateway_pb2.LOBBY_STATUS_OPEN:
        state = "has started" if lobby.status == gateway_pb2.LOBBY_STATUS_STARTED else "is closed"
        raise precondition("LOBBY_NOT_OPEN", f"the lobby {state}", lobby_id=lobby.lobby_id)


def _require_host(lobby: Lobby, principal: Principal, what: str) -> None:
    if lobby.host_player_id != principal.player_id:
        raise permission_denied(f"only the lobby's host may {what}")


def _open_seat(lobby: Lobby, wanted: int | None) -> gateway_pb2.LobbySeat:
    """The wanted seat, or the first open one; refused if out of range, taken, or none is open."""
    if wanted is not None:
        if not 0 <= wanted < lobby.seat_count:
            raise invalid(
                "INVALID_SEAT", f"seat must be 0 to {lobby.seat_count - 1}, not {wanted}", field="seat"
            )
        seat = lobby.seats[wanted]
        if seat.HasField("player"):
            raise precondition("SEAT_TAKEN", f"seat {wanted} is taken", seat=str(wanted))
        return seat
    for seat in lobby.seats:
        if not seat.HasField("player"):
            return seat
    raise precondition("LOBBY_FULL", "every seat of the lobby is taken", lobby_id=lobby.lobby_id)


# Lengths, ranges and enum values of every request field are checked before a call runs
# (`gateway.validation`); what is left here depends on the lobby.


def _check_lobby_id(lobby_id: str) -> str:
    if not lobby_id:
        raise invalid("MISSING_LOBBY_ID", "lobby_id is required", field="lobby_id")
    return lobby_id


class LobbyService(gateway_pb2_grpc.LobbyServiceServicer):
    """Creates, lists, fills and starts lobbies."""

    def __init__(self, app: Table) -> None:
        self.app = app

    async def _load(self, lobby_id: str) -> Lobby:
        raw = await self.app.redis.get(keys.lobby(_check_lobby_id(lobby_id)))
        if raw is None:
            raise not_found("lobby", lobby_id)
        return Lobby.FromString(blob(raw))

    async def _update(self, lobby_id: str, change: Callable[[Lobby], None]) -> Lobby:
        """Apply `change` to the stored lobby atomically; `change` raises to refuse and nothing is written."""
        key = keys.lobby(_check_lobby_id(lobby_id))
        for attempt in range(MAX_ATTEMPTS):
            async with self.app.redis.pipeline(transaction=True) as pipe:
                try:
                    await pipe.watch(key)
                    raw = await pipe.get(key)
                    if raw is None:
                        raise not_found("lobby", lobby_id)
                    lobby = Lobby.FromString(blob(raw))
                    change(lobby)
                    pipe.multi()
                    pipe.set(key, lobby.SerializeToString(), ex=LOBBY_TTL_SECONDS)
                    await pipe.execute()
                except redis.exceptions.WatchError:
                    await asyncio.sleep(secrets.randbelow(1000) * 1e-6 * min(attempt, 10))
                    continue
            await self._reindex(lobby)
            return lobby
        raise GatewayError(
            grpc.StatusCode.ABORTED, "LOBBY_BUSY", "the lobby changed too often meanwhile; retry"
        )

    async def _reindex(self, lobby: Lobby) -> None:
        """List the lobby while it is public and open; drop it from the listings otherwise."""
        indexes = (keys.open_lobbies(), keys.open_lobbies_of(lobby.title))
        async with self.app.redis.pipeline(transaction=False) as pipe:
            listed = (
                lobby.visibility == gateway_pb2.VISIBILITY_PUBLIC
                and lobby.status == gateway_pb2.LOBBY_STATUS_OPEN
            )
            for index in indexes:
                if listed:
                    pipe.zadd(index, {lobby.lobby_id: _score(lobby)})
                else:
                    pipe.zrem(index, lobby.lobby_id)
            await pipe.execute()

    @rpc
    async def CreateLobby(
        self, request: gateway_pb2.CreateLobbyRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.CreateLobbyResponse:
        """A new lobby with the caller as host in seat 0."""
        principal = await auth.authenticate(self.app, context)
        if not request.title:
            raise invalid("MISSING_TITLE", "title is required", field="title")
        games.validate_options(self.app, request.title, request.seat_count, list(request.options))
        clocks.check_clock(request.clock)
        created_at = Timestamp()
        created_at.FromNanoseconds(time.time_ns())
        lobby = Lobby(
            lobby_id=uuid.uuid4().hex,
            title=request.title,
            seat_count=request.seat_count,
            options=request.options,
            visibility=request.visibility or gateway_pb2.VISIBILITY_PUBLIC,
            clock=request.clock,
            seating=request.seating or gateway_pb2.SEATING_SHUFFLED,
            host_player_id=principal.player_id,
            seats=[gateway_pb2.LobbySeat(seat=index) for index in range(request.seat_count)],
            status=gateway_pb2.LOBBY_STATUS_OPEN,
            created_at=created_at,
        )
        lobby.spectators = spectators.chosen(lobby.visibility, request.spectators)
        lobby.undo = request.undo or gateway_pb2.UNDO_POLICY_ALLOWED
        lobby.unrated = request.unrated
        lobby.bot_takebacks = request.bot_takebacks or gateway_pb2.BOT_TAKEBACKS_ACCEPT
        if lobby.visibility == gateway_pb2.VISIBILITY_PRIVATE:
            lobby.invite_code = auth.command_line_secret(INVITE_CODE_BYTES)
        lobby.seats[0].player.CopyFrom(principal.player)
        await self.open(lobby)
        return gateway_pb2.CreateLobbyResponse(lobby=lobby)

    async def open(self, lobby: Lobby) -> None:
        """Store a new lobby, counted among those its host has open (QUOTA_EXCEEDED past the quota)."""
        await self._host(lobby.host_player_id, lobby)
        await self.app.redis.set(keys.lobby(lobby.lobby_id), lobby.SerializeToString(), ex=LOBBY_TTL_SECONDS)
        await self._reindex(lobby)

    async def _host(self, player_id: str, lobby: Lobby) -> None:
        """Count a new lobby among those its host has open; QUOTA_EXCEEDED at OPEN_LOBBIES_PER_PLAYER.
        The lobbies that started or closed since are dropped from the count only when it is full."""
        quota = self.app.settings.open_lobbies_per_player

        async def closed(ids: list[str]) -> list[str]:
            async with self.app.redis.pipeline(transaction=False) as pipe:
                for lobby_id in ids:
                    pipe.get(keys.lobby(lobby_id))
                blobs = await pipe.execute()
            return [
                lobby_id
                for lobby_id, raw in zip(ids, blobs, strict=True)
                if raw is None or Lobby.FromString(blob(raw)).status != gateway_pb2.LOBBY_STATUS_OPEN
            ]

        await quotas.take(
            self.app,
            keys.hosted_lobbies(player_id),
            quota,
            lobby.lobby_id,
            _score(lobby),
            LOBBY_TTL_SECONDS,
            closed,
            "open_lobbies",
            f"you host {quota} open lobbies, the most a player may; start or leave one first",
        )

    @rpc
    async def ListLobbies(
        self, request: gateway_pb2.ListLobbiesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListLobbiesResponse:
        """Public open lobbies, newest first, one page."""
        await auth.authenticate(self.app, context)
        size = paging.page_size(request.page_size)
        if request.title:
            self.app.rules.get(request.title)
        index = keys.open_lobbies_of(request.title) if request.title else keys.open_lobbies()
        listing = f"lobbies/{request.title}"
        cursor = paging.after(listing, request.page_token)
        found = await self._scan(index, cursor, size + 1)
        page = found[:size]
        token = ""
        if len(found) > size:
            last = page[-1]
            token = paging.encode(listing, {"s": _score(last), "i": last.lobby_id})
        return gateway_pb2.ListLobbiesResponse(lobbies=page, next_page_token=token)

    async def _scan(self, index: str, cursor: tuple[float, str] | None, wanted: int) -> list[Lobby]:
        """Up to `wanted` listed lobbies after `cursor` (newest first); stale index entries are dropped."""
        found: list[Lobby] = []
        stale: list[Lobby | str] = []
        offset = 0
        while len(found) < wanted:
            batch = wanted - len(found)
            entries = cast(
                list[tuple[bytes, float]],
                await self.app.redis.zrevrangebyscore(
                    index, cursor[0] if cursor else "+inf", "-inf", start=offset, num=batch, withscores=True
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
            async with self.app.redis.pipeline(transaction=False) as pipe:
                for lobby_id in ids:
                    pipe.get(keys.lobby(lobby_id))
                blobs = await pipe.execute()
            for lobby_id, raw in zip(ids, blobs, strict=True):
                lobby = Lobby.FromString(blob(raw)) if raw is not None else None
                if lobby is None:
                    stale.append(lobby_id)
                elif lobby.status != gateway_pb2.LOBBY_STATUS_OPEN:
                    stale.append(lobby)
                else:
                    found.append(lobby)
        # Cleaned only now: removing entries mid-scan would shift the offsets being read.
        for entry in stale:
            if isinstance(entry, str):
                await self.app.redis.zrem(index, entry)
                await self.app.redis.zrem(keys.open_lobbies(), entry)
            else:
                await self._reindex(entry)
        return found[:wanted]

    @rpc
    async def GetLobby(
        self, request: gateway_pb2.GetLobbyRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetLobbyResponse:
        """One lobby; a private one for its members, the spectators invited and whoever gives its code
        (PERMISSION_DENIED, PRIVATE_LOBBY, for anyone else); its invite code only for its members."""
        principal = await auth.authenticate(self.app, context)
        lobby = await self._load(request.lobby_id)
        if not readable(lobby, principal.player_id, request.invite_code):
            raise GatewayError(
                grpc.StatusCode.PERMISSION_DENIED,
                "PRIVATE_LOBBY",
                "this private lobby is for its members and those they invite; give its invite code",
            )
        return gateway_pb2.GetLobbyResponse(lobby=shown(lobby, principal.player_id))

    @rpc
    async def JoinLobby(
        self, request: gateway_pb2.JoinLobbyRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.JoinLobbyResponse:
        """Seat the caller (the wanted seat or the first open one)."""
        principal = await auth.authenticate(self.app, context)
        player = principal.player
        wanted = request.seat if request.HasField("seat") else None

        def join(lobby: Lobby) -> None:
            _require_open(lobby)
            if _seat_of(lobby, principal.player_id) is not None:
                raise precondition("ALREADY_SEATED", "you already have a seat in this lobby")
            if lobby.invite_code and not hmac.compare_digest(
                request.invite_code.encode(), lobby.invite_code.encode()
            ):
                raise permission_denied("this private lobby needs its invite code")
            _open_seat(lobby, wanted).player.CopyFrom(player)

        lobby = await self._update(request.lobby_id, join)
        return gateway_pb2.JoinLobbyResponse(lobby=lobby)

    @rpc
    async def LeaveLobby(
        self, request: gateway_pb2.LeaveLobbyRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.LeaveLobbyResponse:
        """Free the caller's seat; the host leaving (seated or not) closes the lobby."""
        principal = await auth.authenticate(self.app, context)

        def leave(lobby: Lobby) -> None:
            _require_open(lobby)
            seat = _seat_of(lobby, principal.player_id)
            hosting = lobby.host_player_id == principal.player_id
            if seat is None and not hosting:
                raise precondition("NOT_SEATED", "you have no seat in this lobby")
            if seat is not None:
                seat.ClearField("player")
                seat.bot_strength = gateway_pb2.BOT_STRENGTH_UNSPECIFIED
            if hosting:
                lobby.status = gateway_pb2.LOBBY_STATUS_CLOSED

        lobby = await self._update(request.lobby_id, leave)
        return gateway_pb2.LeaveLobbyResponse(lobby=shown(lobby, principal.player_id))

    @rpc
    async def AddBot(
        self, request: gateway_pb2.AddBotRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.AddBotResponse:
        """Seat a bot of the asked strength (host only), the lowest-numbered one not seated yet
        (`gateway.bots`): on an open seat, or on the host's own seat when asked for it by number, so a
        host may fill every seat with bots and watch."""
        principal = await auth.authenticate(self.app, context)
        strength = request.strength or gateway_pb2.BOT_STRENGTH_RANDOM
        wanted = request.seat if request.HasField("seat") else None

        def check(lobby: Lobby) -> gateway_pb2.LobbySeat:
            _require_host(lobby, principal, "add a bot")
            _require_open(lobby)
            own = _seat_of(lobby, principal.player_id)
            if own is not None and wanted == own.seat:
                return own  # the host hands its own seat to the bot and stays host, as a spectator
            return _open_seat(lobby, wanted)

        def free_bot(lobby: Lobby) -> gateway_pb2.Player:
            return bots.lineup(strength, 1, (seat.player.player_id for seat in lobby.seats))[0]

        # Refused before anything is stored; the bot's record stored before it is seated.
        loaded = await self._load(request.lobby_id)
        check(loaded)
        expected = free_bot(loaded)
        await bots.create(self.app, [expected])
        seated: list[gateway_pb2.Player] = []

        def seat_bot(lobby: Lobby) -> None:
            seat = check(lobby)
            seated[:] = [free_bot(lobby)]  # another call may have seated the expected bot meanwhile
            seat.player.CopyFrom(seated[0])
            seat.bot_strength = strength

        lobby = await self._update(request.lobby_id, seat_bot)
        if seated[0] != expected:
            await bots.create(self.app, seated)
        return gateway_pb2.AddBotResponse(lobby=lobby)

    @rpc
    async def StartGame(
        self, request: gateway_pb2.StartGameRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.StartGameResponse:
        """Start the lobby's game once every seat is taken (host only). The host asking again once it
        started (a retry whose answer was lost) gets the same game, created now if the first call
        stopped before it was."""
        principal = await auth.authenticate(self.app, context)

        def claim(lobby: Lobby) -> None:
            _require_host(lobby, principal, "start the game")
            if lobby.status == gateway_pb2.LOBBY_STATUS_STARTED and lobby.game_id:
                return  # started already: the game is created again, which leaves an existing one be
            _require_open(lobby)
            open_seats = [seat.seat for seat in lobby.seats if not seat.HasField("player")]
            if open_seats:
                raise precondition(
                    "SEATS_OPEN", f"{len(open_seats)} seat(s) are still open; fill them or add bots"
                )
            lobby.status = gateway_pb2.LOBBY_STATUS_STARTED
            lobby.game_id = uuid.uuid4().hex  # named with the claim: the lobby never loses its game

        # Marking the lobby started first shuts out joins and leaves while the game is created;
        # shielding the rest keeps a client that hangs up from leaving a game without its lobby.
        lobby = await self._update(request.lobby_id, claim)
        await asyncio.shield(self._start(lobby))
        return gateway_pb2.StartGameResponse(lobby=shown(lobby, principal.player_id), game_id=lobby.game_id)

    async def invite(self, principal: Principal, lobby_id: str, player_id: str) -> list[str]:
        """Invite a player to watch a lobby's game: its invited spectators. PERMISSION_DENIED for someone
        not a member, NOT_FOUND for an unknown player, LOBBY_NOT_OPEN once it started (invite to its
        game then) or closed."""
        invitee = await auth.get_player(self.app, player_id)
        added = False

        def add(lobby: Lobby) -> None:
            nonlocal added
            if not member(lobby, principal.player_id):
                raise permission_denied("only the lobby's members invite spectators to it")
            _require_open(lobby)
            spectators.may_invite(lobby.spectators)
            added = player_id not in lobby.invited_spectator_ids
            if added and len(lobby.invited_spectator_ids) >= spectators.MOST_INVITED:
                raise spectators.full()
            if added:
                lobby.invited_spectator_ids.append(invitee.player_id)

        lobby = await self._update(lobby_id, add)
        if added:
            event = spectators.invitation(principal.player, lobby.title, lobby_id=lobby.lobby_id)
            await inbox.post(self.app.redis, [(player_id, event)])
        return list(lobby.invited_spectator_ids)

    async def _start(self, lobby: Lobby) -> None:
        """Create the game a lobby marked started names (a game of that id that exists already is left
        as it is: `live.games.start_game`); reopen the lobby if it fails before the game exists."""
        occupants = [(seat.player, seat.bot_strength) for seat in lobby.seats]
        if lobby.seating == gateway_pb2.SEATING_SHUFFLED:
            secrets.SystemRandom().shuffle(occupants)
        seats = [
            gateway_pb2.GameSeat(seat=index, player=player, bot_strength=strength)
            for index, (player, strength) in enumerate(occupants)
        ]
        try:
            await games.start_game(
                self.app,
                title=lobby.title,
                player_count=lobby.seat_count,
                options=list(lobby.options),
                seats=seats,
                clock=lobby.clock,
                lobby_id=lobby.lobby_id,
                game_id=lobby.game_id,
                spectators=lobby.spectators,
                invited_spectators=_watching(lobby),
                undo=lobby.undo,
                rated=not lobby.unrated,
                bot_takebacks=lobby.bot_takebacks,
            )
        except BaseException:
            if await self.app.store.meta(lobby.game_id) is None:  # nothing was created: open again
                await self._update(lobby.lobby_id, functools.partial(_reopen, lobby.game_id))
            raise


def _watching(lobby: Lobby) -> list[str]:
    """The spectators a lobby's game starts with: those invited, and its host if no longer seated."""
    watching = list(lobby.invited_spectator_ids)
    if _seat_of(lobby, lobby.host_player_id) is None and lobby.host_player_id not in watching:
        watching.append(lobby.host_player_id)
    return watching


def _reopen(game_id: str, lobby: Lobby) -> None:
    """Open a lobby again whose start of `game_id` failed before the game existed."""
    if lobby.status == gateway_pb2.LOBBY_STATUS_STARTED and lobby.game_id == game_id:
        lobby.status = gateway_pb2.LOBBY_STATUS_OPEN
        lobby.game_id = ""


def add_to_server(app: Table, server: grpc.aio.Server) -> None:
    """Serve LobbyService on `server`."""
    gateway_pb2_grpc.add_LobbyServiceServicer_to_server(LobbyService(app), server)

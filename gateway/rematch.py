"""Rematch: a finished game's players meet again in a new private lobby of the same title, options,
clock, seating, spectators (the invited, for a game that had no choice), undo policy and rating. The
caller hosts it in the seat(s) they had; each bot sits again in its seat, at the strength it played; the
other humans' seats stay open for them, and each gets an invitation with the invite code in their
inbox. The options come from the game's own Config (`live.games.options_of`), so a rematch works
however long ago the game was played, its lobby and keys long gone.
"""

from __future__ import annotations

import time
import uuid

from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from gateway import auth, lobbies, spectators
from gateway.auth import Principal
from live import games, inbox, keys, moves
from live.errors import permission_denied, precondition
from live.replies import blob
from live.store import STATUS_FINISHED
from live.table import Table


async def _seating(app: Table, lobby_id: str) -> gateway_pb2.Seating:
    """The seating of the game's lobby while it is kept; shuffled otherwise."""
    raw = await app.redis.get(keys.lobby(lobby_id)) if lobby_id else None
    if raw is None:
        return gateway_pb2.SEATING_SHUFFLED
    return gateway_pb2.Lobby.FromString(blob(raw)).seating or gateway_pb2.SEATING_SHUFFLED


def invitation(lobby: gateway_pb2.Lobby, host: gateway_pb2.Player, game_id: str) -> gateway_pb2.InboxEvent:
    """The INVITED event of a rematch's lobby."""
    event = gateway_pb2.InboxEvent(
        kind=gateway_pb2.INBOX_EVENT_KIND_INVITED,
        lobby_id=lobby.lobby_id,
        game_id=game_id,
        title=lobby.title,
        invite_code=lobby.invite_code,
    )
    event.at.CopyFrom(lobby.created_at)
    event.sender.CopyFrom(host)
    return event


async def rematch(
    app: Table, hosts: lobbies.LobbyService, principal: Principal, game_id: str
) -> gateway_pb2.Lobby:
    """Open the rematch lobby of a finished game (see the module docstring); PERMISSION_DENIED for
    someone who did not play it, GAME_NOT_FINISHED before its end, QUOTA_EXCEEDED past the open
    lobbies a player may host."""
    meta = await moves.load_meta(app.store, game_id)
    record = meta.record
    if not spectators.is_player(record, principal.player_id):
        raise permission_denied("only the game's players may ask for its rematch")
    if meta.status != STATUS_FINISHED:
        raise precondition("GAME_NOT_FINISHED", "a rematch can be asked for once the game is over")
    info = app.rules.get(record.title).info
    created_at = Timestamp()
    created_at.FromNanoseconds(time.time_ns())
    lobby = gateway_pb2.Lobby(
        lobby_id=uuid.uuid4().hex,
        title=record.title,
        seat_count=record.player_count,
        options=games.options_of(info, record.config),
        visibility=gateway_pb2.VISIBILITY_PRIVATE,
        invite_code=auth.command_line_secret(lobbies.INVITE_CODE_BYTES),
        clock=meta.clock,
        seating=await _seating(app, meta.lobby_id),
        host_player_id=principal.player_id,
        status=gateway_pb2.LOBBY_STATUS_OPEN,
        created_at=created_at,
        spectators=spectators.chosen(gateway_pb2.VISIBILITY_PRIVATE, record.spectators),
        undo=record.undo or gateway_pb2.UNDO_POLICY_ALLOWED,
        unrated=record.unrated and not record.tournament_id,  # a tournament's table: rated again
        bot_takebacks=record.bot_takebacks or gateway_pb2.BOT_TAKEBACKS_ACCEPT,
    )
    invited: dict[str, None] = {}
    for played in sorted(record.seats, key=lambda seat: seat.seat):
        seat = lobby.seats.add(seat=played.seat)
        if played.player.player_id == principal.player_id:
            seat.player.CopyFrom(principal.player)
        elif played.player.bot:
            seat.player.CopyFrom(played.player)
            seat.bot_strength = played.bot_strength or gateway_pb2.BOT_STRENGTH_RANDOM
        else:
            invited.setdefault(played.player.player_id)
    await hosts.open(lobby)
    await inbox.post(
        app.redis, [(player_id, invitation(lobby, principal.player, game_id)) for player_id in invited]
    )
    return lobby

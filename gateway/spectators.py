"""Who may watch a game besides its players: what its lobby's host chose (`Spectators`), anyone by
default for a public lobby, the invited for a private one (a game not started from a lobby, such as a
matched one, anyone). Watching is reading the game (GetGame, WatchGame), its record and its replay, and
writing on its spectators' chat channel; a game's players (resigned ones included) always may.

The invited are those its players, or its lobby's members, invited (`InviteSpectator`), and a host who
gave their seat to a bot. Invitations to a lobby are kept in it and go into the game's record when it
starts; those to a game go into its meta's "invited" field, which the meta adds to its record's
(`live.store.meta_of`), so the archive keeps them with the rest. Once a game is over nobody is invited
to it any more (the archive took its list).
"""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2

from gateway import auth
from gateway.auth import Principal
from live import inbox, keys, moves
from live.errors import GatewayError, permission_denied, precondition, quota_exceeded
from live.store import INVITED_SEPARATOR, STATUS_ACTIVE, Meta
from live.table import Table

ANYONE, INVITED, NOBODY = (
    gateway_pb2.SPECTATORS_ANYONE,
    gateway_pb2.SPECTATORS_INVITED,
    gateway_pb2.SPECTATORS_NONE,
)
DEFAULT_OF_VISIBILITY = {gateway_pb2.VISIBILITY_PUBLIC: ANYONE, gateway_pb2.VISIBILITY_PRIVATE: INVITED}
MOST_INVITED = 50  # spectators invited to one game or lobby

# KEYS: the game's meta. ARGV: 1 the invited player, 2 status of a game still played, 3 most invited,
# 4 separator. Adds the player to the game's invited spectators: 1 (or 0: invited already), -1 for a
# game no longer played (over, or its keys gone), -2 past the most.
INVITE_SCRIPT = """
local status, invited = unpack(redis.call('HMGET', KEYS[1], 'status', 'invited'))
if status ~= ARGV[2] then return -1 end
local count = 0
if invited then
  for id in string.gmatch(invited, '[^' .. ARGV[4] .. ']+') do
    if id == ARGV[1] then return 0 end
    count = count + 1
  end
end
if count >= tonumber(ARGV[3]) then return -2 end
redis.call('HSET', KEYS[1], 'invited', invited and (invited .. ARGV[4] .. ARGV[1]) or ARGV[1])
return 1
"""


def chosen(visibility: int, requested: int) -> gateway_pb2.Spectators:
    """A new lobby's policy: the one requested, or its visibility's default."""
    if requested:
        return requested  # type: ignore[return-value]
    return DEFAULT_OF_VISIBILITY.get(visibility, ANYONE)  # type: ignore[call-overload]


def is_player(record: gateway_pb2.GameRecord, player_id: str) -> bool:
    """Whether the player holds a seat of the game, resigned or not (and is no spectator)."""
    return any(seat.player.player_id == player_id for seat in record.seats)


def may_watch(record: gateway_pb2.GameRecord, player_id: str) -> bool:
    """Whether the player may watch the game (see the module docstring)."""
    if is_player(record, player_id) or player_id in record.invited_spectator_ids:
        return True  # under NOBODY the invited are a host who gave their seat up, alone
    return record.spectators not in (INVITED, NOBODY)


def admit(meta: Meta, player_id: str) -> None:
    """PERMISSION_DENIED (NOT_A_SPECTATOR) unless the player may watch the game."""
    if may_watch(meta.record, player_id):
        return
    who = "only its players" if meta.record.spectators == NOBODY else "only its players and those they invite"
    raise GatewayError(grpc.StatusCode.PERMISSION_DENIED, "NOT_A_SPECTATOR", f"{who} may watch this game")


def may_invite(policy: int) -> None:
    """FAILED_PRECONDITION (NO_SPECTATORS) where nobody may watch."""
    if policy == NOBODY:
        raise precondition("NO_SPECTATORS", "nobody but its players may watch this game")


def full(limit: int = MOST_INVITED) -> GatewayError:
    """RESOURCE_EXHAUSTED: as many spectators invited as one game or lobby may have."""
    return quota_exceeded("invited_spectators", limit, f"{limit} spectators are invited already, the most")


def invitation(
    sender: gateway_pb2.Player, title: str, game_id: str = "", lobby_id: str = ""
) -> gateway_pb2.InboxEvent:
    """The INVITED_TO_WATCH event of an invitation."""
    event = gateway_pb2.InboxEvent(
        kind=gateway_pb2.INBOX_EVENT_KIND_INVITED_TO_WATCH, game_id=game_id, lobby_id=lobby_id, title=title
    )
    event.at.GetCurrentTime()
    event.sender.CopyFrom(sender)
    return event


async def invite_to_game(app: Table, principal: Principal, game_id: str, player_id: str) -> list[str]:
    """Invite the player to watch a game of the caller's; the game's invited spectators. PERMISSION_DENIED
    for someone who does not play it, NOT_FOUND for an unknown player, GAME_OVER once it is over."""
    meta = await moves.load_meta(app.store, game_id)
    if not is_player(meta.record, principal.player_id):
        raise permission_denied("only the game's players invite spectators to it")
    may_invite(meta.record.spectators)
    await auth.get_player(app, player_id)
    args: list[str | int] = [player_id, STATUS_ACTIVE, MOST_INVITED, INVITED_SEPARATOR]
    added = await app.script(INVITE_SCRIPT)(keys=[keys.game_meta(game_id)], args=args)
    if added == -1:
        raise moves.game_over()
    if added == -2:
        raise full()
    invited = [*meta.record.invited_spectator_ids]
    if added == 1:
        invited.append(player_id)
        event = invitation(principal.player, meta.record.title, game_id=game_id)
        await inbox.post(app.redis, [(player_id, event)])
    return invited

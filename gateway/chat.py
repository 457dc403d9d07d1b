"""In-game and lobby chat: short messages, checked, kept and delivered.

A game's message goes on the players' channel (its players only) or the spectators' (everyone watching,
players included); a spectator writes and reads only the spectators'. It is kept in the game's capped
list (`keys.game_chat`, part of its record: `live.games.full_record`) and published on the game's chat
channel in one script, so every gateway replica's WatchGame streams get it. A lobby's message goes to
the inbox of each of its human members (the inbox keeps it). The text is 1 to 280 characters
(`gateway.validation`) without control characters; SendChatMessage has its own rate class (`chat`).
"""

from __future__ import annotations

from boardgame.gateway.v1 import gateway_pb2

from gateway import lobbies, spectators, written
from gateway.auth import Principal
from live import inbox, keys, moves
from live.errors import invalid, not_found, permission_denied
from live.replies import blob
from live.table import Table

CHAT_KEPT = 100  # messages kept per game

# KEYS: the game's chat list. ARGV: 1 the message, 2 messages kept, 3 the channel.
POST_SCRIPT = """
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('LTRIM', KEYS[1], -tonumber(ARGV[2]), -1)
redis.call('PUBLISH', ARGV[3], ARGV[1])
return 1
"""


def checked_text(text: str) -> str:
    """The message's text; INVALID_ARGUMENT for one of blanks only or with a character that does not
    show (`gateway.written`, the rule of display names too)."""
    if (found := written.hidden(text)) is not None:
        raise invalid(
            "CHAT_CONTROL_CHARACTER",
            f"text {written.described(*found)}; send one line of visible text",
            field="text",
        )
    if not text.strip():
        raise invalid("EMPTY_CHAT_MESSAGE", "text has no visible character", field="text")
    return text


def readable(message: gateway_pb2.ChatMessage, player: bool) -> bool:
    """Whether a game's message is for a reader who is one of its players (`player`) or not."""
    return player or message.channel != gateway_pb2.CHAT_CHANNEL_PLAYERS


def _message(principal: Principal, text: str, channel: int) -> gateway_pb2.ChatMessage:
    message = gateway_pb2.ChatMessage(text=text, channel=channel)  # type: ignore[arg-type]
    message.at.GetCurrentTime()
    message.sender.CopyFrom(principal.player)
    return message


async def post_in_game(
    app: Table, principal: Principal, game_id: str, text: str, channel: int
) -> gateway_pb2.ChatMessage:
    """Post in a game's chat; PERMISSION_DENIED for a spectator on the players' channel or for someone
    who may not watch the game (`gateway.spectators`), GAME_OVER for a game archived already."""
    meta = await moves.load_meta(app.store, game_id)
    spectators.admit(meta, principal.player_id)
    player = spectators.is_player(meta.record, principal.player_id)
    chosen = channel or (gateway_pb2.CHAT_CHANNEL_PLAYERS if player else gateway_pb2.CHAT_CHANNEL_SPECTATORS)
    if chosen == gateway_pb2.CHAT_CHANNEL_PLAYERS and not player:
        raise permission_denied("only the game's players write on the players' channel; use the spectators'")
    if await app.store.archived(game_id) is not None:
        raise moves.game_over()
    message = _message(principal, checked_text(text), chosen)
    await app.script(POST_SCRIPT)(
        keys=[keys.game_chat(game_id)],
        args=[message.SerializeToString(), CHAT_KEPT, keys.game_chat_channel(game_id)],
    )
    return message


async def post_in_lobby(
    app: Table, principal: Principal, lobby_id: str, text: str
) -> gateway_pb2.ChatMessage:
    """Post in a lobby's chat (its members only: PERMISSION_DENIED otherwise); each human member gets it
    in their inbox."""
    raw = await app.redis.get(keys.lobby(lobby_id))
    if raw is None:
        raise not_found("lobby", lobby_id)
    lobby = gateway_pb2.Lobby.FromString(blob(raw))
    if not lobbies.member(lobby, principal.player_id):
        raise permission_denied("only the lobby's members write in its chat")
    message = _message(principal, checked_text(text), gateway_pb2.CHAT_CHANNEL_UNSPECIFIED)
    event = gateway_pb2.InboxEvent(
        kind=gateway_pb2.INBOX_EVENT_KIND_LOBBY_CHAT, lobby_id=lobby_id, title=lobby.title, chat=message
    )
    event.at.CopyFrom(message.at)
    await inbox.post(app.redis, [(player_id, event) for player_id in lobbies.human_members(lobby)])
    return message


async def post(
    app: Table, principal: Principal, request: gateway_pb2.SendChatMessageRequest
) -> gateway_pb2.ChatMessage:
    """Post the request's message where it names (a game or a lobby)."""
    place = request.WhichOneof("place")
    if place == "game_id":
        return await post_in_game(app, principal, request.game_id, request.text, request.channel)
    if place == "lobby_id":
        return await post_in_lobby(app, principal, request.lobby_id, request.text)
    raise invalid("MISSING_CHAT_PLACE", "name the game_id or the lobby_id the message is for", field="place")


async def kept(app: Table, game_id: str, player: bool) -> list[gateway_pb2.ChatMessage]:
    """A game's kept messages, oldest first, as a reader who is a player (or not) may read them."""
    stored = await app.redis.lrange(keys.game_chat(game_id), 0, -1)
    messages = [gateway_pb2.ChatMessage.FromString(blob(raw)) for raw in stored]
    return [message for message in messages if readable(message, player)]

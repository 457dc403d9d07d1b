"""`bg games`, `bg inbox`, `bg rematch`, `bg chat`: the player's games, their live inbox, a rematch of
a finished game and chat in a game or a lobby."""

from __future__ import annotations

import argparse
import datetime

import grpc
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.timestamp_pb2 import Timestamp

from cli.client import Client

KIND_TEXT = {
    gateway_pb2.INBOX_EVENT_KIND_YOUR_TURN: "your turn",
    gateway_pb2.INBOX_EVENT_KIND_DEADLINE_NEAR: "deadline near",
    gateway_pb2.INBOX_EVENT_KIND_INVITED: "invited",
    gateway_pb2.INBOX_EVENT_KIND_LOBBY_STARTED: "lobby started",
    gateway_pb2.INBOX_EVENT_KIND_GAME_ENDED: "game ended",
    gateway_pb2.INBOX_EVENT_KIND_RATING_CHANGED: "rating changed",
    gateway_pb2.INBOX_EVENT_KIND_LOBBY_CHAT: "lobby chat",
    gateway_pb2.INBOX_EVENT_KIND_INVITED_TO_WATCH: "invited to watch",
    gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_TABLE_READY: "tournament table ready",
    gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_BYE: "tournament bye",
    gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_FINISHED: "tournament finished",
    gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_CANCELLED: "tournament cancelled",
    gateway_pb2.INBOX_EVENT_KIND_TAKEBACK_REQUESTED: "takeback requested",
}
CHANNEL_TEXT = {
    gateway_pb2.CHAT_CHANNEL_PLAYERS: "players",
    gateway_pb2.CHAT_CHANNEL_SPECTATORS: "spectators",
}


def when(stamp: Timestamp) -> str:
    """A time as a person reads it (UTC, to the second)."""
    return datetime.datetime.fromtimestamp(stamp.seconds, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")


def chat_line(message: gateway_pb2.ChatMessage) -> str:
    """One chat message as a line."""
    channel = CHANNEL_TEXT.get(message.channel)
    place = f" [{channel}]" if channel else ""
    return f"chat{place} {message.sender.display_name}: {message.text}"


def game_line(game: gateway_pb2.MyGame) -> str:
    """One of the player's games as a line."""
    names = ", ".join(seat.player.display_name for seat in game.seats)
    head = f"{game.game_id}  {game.title:<11} {names}"
    if game.status == gateway_pb2.GAME_STATUS_FINISHED:
        result = f"rank {game.my_rank}" if game.my_rank else "being scored"
        if game.rating_before or game.rating_after:
            result += f", rating {game.rating_before:.1f} -> {game.rating_after:.1f}"
        return f"{head}  finished: {result}"
    turn = "YOUR TURN" if game.my_turn else "waiting"
    due = f", due {when(game.my_deadline)}" if game.HasField("my_deadline") else ""
    return f"{head}  {turn}{due}, last move {when(game.last_move_at)}"


def cmd_games(client: Client, args: argparse.Namespace) -> int:
    """List the player's games: live ones (their turn first), then finished ones with results."""
    token, shown = "", 0
    while shown < args.limit:
        request = gateway_pb2.ListMyGamesRequest(page_size=min(100, args.limit - shown), page_token=token)
        page = client.call(client.games.ListMyGames, request)
        for game in page.games:
            client.say(game_line(game))
        shown += len(page.games)
        token = page.next_page_token
        if not token:
            break
    if not shown:
        client.say("no games yet: `bg new TITLE` opens a lobby")
    return 0


def event_line(event: gateway_pb2.InboxEvent) -> str:
    """One inbox event as a line."""
    parts = [when(event.at), KIND_TEXT.get(event.kind, "event"), event.title]
    if event.game_id:
        parts.append(f"game {event.game_id}")
    if event.lobby_id:
        parts.append(f"lobby {event.lobby_id}")
    if event.tournament_id:
        round_ = f" round {event.tournament_round}" if event.tournament_round else ""
        place = (
            f", place {event.my_rank}"
            if event.kind == gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_FINISHED
            else ""
        )
        parts.append(f"tournament {event.tournament_id}{round_}{place}")
    if event.HasField("deadline"):
        parts.append(f"due {when(event.deadline)}")
    if event.invite_code:
        parts.append(f"from {event.sender.display_name}, code {event.invite_code}")
    if event.kind == gateway_pb2.INBOX_EVENT_KIND_RATING_CHANGED:
        parts.append(f"rank {event.my_rank}, rating {event.rating_before:.1f} -> {event.rating_after:.1f}")
    if event.HasField("chat"):
        parts.append(chat_line(event.chat))
    return "  ".join(part for part in parts if part) + f"  [{event.event_id}]"


def cmd_inbox(client: Client, args: argparse.Namespace) -> int:
    """Follow the player's inbox live (from an event id to catch up); stop after --count events or
    --seconds."""
    request = gateway_pb2.WatchInboxRequest(from_event_id=args.from_event or "")
    stream = client.games.WatchInbox(request, metadata=client.auth, timeout=args.seconds or None)
    try:
        events = (response for response in stream if response.HasField("event"))
        for seen, response in enumerate(events, start=1):
            if response.resync:
                client.say("(some earlier events are no longer kept)")
            client.say(event_line(response.event))
            if args.count and seen >= args.count:
                stream.cancel()
                break
    except grpc.RpcError as error:
        if error.code() != grpc.StatusCode.DEADLINE_EXCEEDED:
            raise
    return 0


def cmd_rematch(client: Client, args: argparse.Namespace) -> int:
    """Open a rematch lobby of a finished game; the other players are invited."""
    lobby = client.call(client.games.Rematch, gateway_pb2.RematchRequest(game_id=args.game_id)).lobby
    waiting = sum(1 for seat in lobby.seats if not seat.HasField("player"))
    client.say(f"rematch lobby {lobby.lobby_id} ({lobby.title}), invite code {lobby.invite_code}")
    client.say(f"{waiting} player(s) invited; `bg start {lobby.lobby_id}` once they joined")
    return 0


def cmd_chat(client: Client, args: argparse.Namespace) -> int:
    """Post a chat message in a game (players' channel, or --spectators) or in a lobby (--lobby)."""
    request = gateway_pb2.SendChatMessageRequest(text=args.text)
    if args.lobby:
        request.lobby_id = args.place
    else:
        request.game_id = args.place
        if args.spectators:
            request.channel = gateway_pb2.CHAT_CHANNEL_SPECTATORS
    message = client.call(client.games.SendChatMessage, request).message
    client.say(chat_line(message))
    return 0

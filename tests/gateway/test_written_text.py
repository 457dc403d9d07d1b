"""One rule for what people write for others to read: a display name and a chat message refuse the
same characters (controls, bidirectional controls that turn the text over, zero-width ones that hide
in it) and take the same ones (letters of any script, emoji, their joined sequences), through the
real gateway."""

from __future__ import annotations

import time

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from tests.gateway._support_accounts import guest, refused
from tests.gateway.support import Client
from tests.titles import TITLE

INVALID = grpc.StatusCode.INVALID_ARGUMENT
HIDDEN = {
    "bell": "\a",
    "line break": "\n",
    "tab": "\t",
    "right-to-left override": "\u202e",
    "right-to-left isolate": "\u2067",
    "right-to-left mark": "\u200f",
    "zero-width space": "\u200b",
    "line separator": "\u2028",
}
SHOWN = {
    "accents": "Zoë Ñúñez",
    "another script": "Алёна",
    "emoji": "🎲 ♟",
    "a joined emoji": "👩\u200d👩\u200d👧",  # one drawing, joined by zero-width joiners
    "a no-break space": "Jo\u00a0Ann",
}
CHAT_PACE_SECONDS = 0.5  # the chat rate class allows 2 messages a second, refused ones counted


@pytest.fixture
def lobby(new_client) -> tuple[Client, str]:  # type: ignore[no-untyped-def]
    """A player in a lobby of their own, where they may chat."""
    host = guest(new_client, "writer")
    lobby = host.lobbies.CreateLobby(
        gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2), metadata=host.auth
    ).lobby
    return host, lobby.lobby_id


def _chat(host: Client, lobby_id: str, text: str) -> None:
    time.sleep(CHAT_PACE_SECONDS)
    request = gateway_pb2.SendChatMessageRequest(lobby_id=lobby_id, text=text)
    host.games.SendChatMessage(request, metadata=host.auth, timeout=10)


@pytest.mark.parametrize("character", HIDDEN.values(), ids=HIDDEN.keys())
def test_a_name_and_a_chat_message_refuse_the_same_hidden_characters(
    new_client, lobby: tuple[Client, str], character: str
) -> None:  # type: ignore[no-untyped-def]
    written = f"Ann{character}a"
    code, info = refused(
        new_client().accounts.CreateGuest, gateway_pb2.CreateGuestRequest(display_name=written)
    )
    assert (code, info.reason, info.metadata["field"]) == (INVALID, "INVALID_DISPLAY_NAME", "display_name")
    host, lobby_id = lobby
    time.sleep(CHAT_PACE_SECONDS)
    code, info = refused(
        host.games.SendChatMessage,
        gateway_pb2.SendChatMessageRequest(lobby_id=lobby_id, text=written),
        host.auth,
    )
    assert (code, info.reason, info.metadata["field"]) == (INVALID, "CHAT_CONTROL_CHARACTER", "text")


def test_a_name_and_a_chat_message_take_the_same_written_text(new_client, lobby: tuple[Client, str]) -> None:  # type: ignore[no-untyped-def]
    host, lobby_id = lobby
    for written in SHOWN.values():
        assert guest(new_client, written).token
        _chat(host, lobby_id, written)

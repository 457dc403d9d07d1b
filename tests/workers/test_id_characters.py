"""Ids never hold a control character: a game id (or any other id a request carries) with a NUL, an
escape or a bidirectional control is INVALID_ARGUMENT naming the field, over gRPC and over Connect,
before any store is asked; the gateway here archives finished games in a real PostgreSQL, whose text
type cannot hold a NUL at all (the archive lookup answered INTERNAL)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from connectrpc.errors import ConnectError
from google.protobuf import message

from gateway import api, auth
from gateway.browser import WebSettings
from live.settings import Settings
from services.common.status import error_info
from tests.gateway.browser_client import BrowserClient
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_request_validation import request_with, string_fields
from tests.titles import TITLE
from tests.workers.support import new_game

# Text people write for others to read, with its own rule (`gateway.written`), and a password, any text.
WRITTEN = frozenset({"display_name", "text", "password"})
CONTROLS = {"NUL": "\x00", "escape": "\x1b", "right-to-left override": "\u202e", "line break": "\n"}
# The calls the report saw answer INTERNAL for a game id with a NUL, each with the rest it needs.
GAME_ID_CALLS: dict[str, tuple[str, Any]] = {
    "GetGame": ("GameService", gateway_pb2.GetGameRequest),
    "WatchGame": ("GameService", gateway_pb2.WatchGameRequest),
    "GetGameRecord": ("GameService", gateway_pb2.GetGameRecordRequest),
    "ReplayGame": ("GameService", gateway_pb2.ReplayGameRequest),
    "Rematch": ("GameService", gateway_pb2.RematchRequest),
    "Resign": ("GameService", gateway_pb2.ResignRequest),
    "SendChatMessage": (
        "GameService",
        lambda **fields: gateway_pb2.SendChatMessageRequest(text="hi", **fields),
    ),
}


ID_FIELDS = sorted(string_fields(but=WRITTEN))


@pytest.fixture(scope="module")
def web_gateway(settings: Settings, tmp_path_factory: pytest.TempPathFactory) -> Iterator[GatewayProcess]:
    """A gateway with the archive and the browser listener, as `make run` starts it."""
    web = WebSettings(address="127.0.0.1:0", client_dir=tmp_path_factory.mktemp("web"))
    with GatewayProcess(settings, web=web) as process:
        yield process


@pytest.fixture(scope="module")
def player(web_gateway: GatewayProcess) -> Iterator[Client]:
    with grpc.insecure_channel(web_gateway.address) as channel:
        client = Client(channel)
        client.sign_in_as_guest("id tester")
        yield client


@pytest.fixture(scope="module")
def browser(web_gateway: GatewayProcess, player: Client) -> BrowserClient:
    client = BrowserClient(web_gateway.web_url)
    client.token = player.token
    return client


@pytest.fixture(scope="module")
def game_id(web_gateway: GatewayProcess, player: Client) -> str:
    """A real game of the player's, so that the id with a control character is one character off."""
    me = player.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=player.auth).player
    other = web_gateway.run(auth.create_player(web_gateway.app, "other", guest=True))  # type: ignore[arg-type]
    seats = [gateway_pb2.GameSeat(seat=0, player=me), gateway_pb2.GameSeat(seat=1, player=other)]
    return new_game(web_gateway, TITLE, seats)


def _grpc(player: Client, service: str, method: str, request: message.Message) -> grpc.RpcError:
    """The refusal of a call (a stream's, at its first reply)."""
    stub = getattr(api.stub(service, player.channel), method)
    with pytest.raises(grpc.RpcError) as refused:
        answer = stub(request, metadata=player.auth, timeout=10)
        if isinstance(answer, Iterator):
            next(answer)
    return refused.value


@pytest.mark.parametrize("method", GAME_ID_CALLS)
@pytest.mark.parametrize("control", CONTROLS.values(), ids=CONTROLS.keys())
def test_a_game_id_with_a_control_character_is_invalid_over_grpc(
    player: Client, game_id: str, method: str, control: str
) -> None:
    service, request = GAME_ID_CALLS[method]
    error = _grpc(player, service, method, request(game_id=game_id[:8] + control + game_id[8:]))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    info = error_info(error)
    assert info is not None and (info.reason, info.metadata["field"]) == ("INVALID_GAME_ID", "game_id")
    assert f"U+{ord(control):04X}" in error.details() and "position 8" in error.details()


@pytest.mark.parametrize("method", GAME_ID_CALLS)
def test_a_game_id_with_a_nul_is_invalid_over_connect(
    browser: BrowserClient, game_id: str, method: str
) -> None:
    service, request = GAME_ID_CALLS[method]
    bad = request(game_id=game_id + "\x00")
    with pytest.raises(ConnectError) as refused:
        if method == "WatchGame":
            next(browser.stream(service, method, bad))
        else:
            browser.call(service, method, bad)
    assert refused.value.code.value == "invalid_argument", refused.value.message
    assert "game_id" in refused.value.message and "U+0000" in refused.value.message


@pytest.mark.parametrize(("service", "method", "field"), ID_FIELDS, ids=[".".join(f) for f in ID_FIELDS])
def test_every_id_a_request_carries_refuses_a_nul(
    player: Client, service: str, method: str, field: str
) -> None:
    request = request_with(service, method, field, "x\x00")
    error = _grpc(player, service, method, request)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    info = error_info(error)
    assert info is not None and info.metadata["field"] == field, error.details()

"""Malformed requests on the browser listener, by real HTTP against a real gateway: JSON that does not
parse, names an unknown field or gives a field a wrong value, and bytes that do not decode, unary or in
the WatchGame stream's envelope, are refused as native gRPC refuses bytes that do not decode
(INVALID_ARGUMENT, a readable message, ErrorInfo MALFORMED_REQUEST), counted as such, and change
nothing; never connect-python's `unknown`."""

from __future__ import annotations

import base64
import json
import struct
from collections.abc import Iterator
from typing import Any

import grpc
import prometheus_client
import pytest
from google.rpc import error_details_pb2

from gateway.browser import WebSettings
from live import keys
from live.connection import sync_client
from services.common.status import error_info
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_browser import browser_guest, post
from tests.gateway.test_play import new_game, signed_in
from tests.titles import TITLE

CREATE_GUEST = "/boardgame.gateway.v1.AccountService/CreateGuest"
CREATE_LOBBY = "/boardgame.gateway.v1.LobbyService/CreateLobby"
SUBMIT_ACTION = "/boardgame.gateway.v1.GameService/SubmitAction"
WATCH_GAME = "/boardgame.gateway.v1.GameService/WatchGame"
END_STREAM = 0x02  # the Connect envelope flag of the stream's last message
MALFORMED_JSON = {
    "a number for a string": b'{"displayName": 5}',
    "not JSON": b"{not json",
    "an unknown field": b'{"displayName": "Jo", "nickname": "J"}',
    "not UTF-8": b'{"displayName": "\xff\xfe"}',
    "not an object": b"5",
    "an empty body": b"",
}


@pytest.fixture(scope="module")
def web_gateway(redis_url: str, rules: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator:  # type: ignore[type-arg]
    web = WebSettings(address="127.0.0.1:0", client_dir=tmp_path_factory.mktemp("web"))
    with GatewayProcess(gateway_settings(redis_url, rules), web=web) as process:
        yield process


def every_key(redis_url: str) -> set[bytes]:
    """Every key of the Redis but the per-second rate counters (`keys.rate`), which any caller of
    the shared test Redis adds, expiring a second later, and which hold no state."""
    return {key for key in sync_client(redis_url).scan_iter(count=1000) if not key.startswith(b"rate:")}


def handled(method: str, code: str) -> float:
    service, _, name = method.lstrip("/").partition("/")
    labels = {"grpc_service": service, "grpc_method": name, "grpc_code": code}
    return prometheus_client.REGISTRY.get_sample_value("grpc_server_handled_total", labels) or 0.0


def error_info_of(refusal: dict[str, Any]) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo of a Connect error in its JSON form (details as type and base64 value)."""
    detail = refusal["details"][0]
    assert detail["type"] == "google.rpc.ErrorInfo", refusal
    return error_details_pb2.ErrorInfo.FromString(base64.b64decode(detail["value"] + "=="))


def native_refusal(gateway: GatewayProcess, method: str, data: bytes) -> error_details_pb2.ErrorInfo:
    """The ErrorInfo native gRPC gives `data` that does not decode as the request of `method`."""
    with grpc.insecure_channel(gateway.address) as channel, pytest.raises(grpc.RpcError) as raised:
        channel.unary_unary(method)(data, timeout=10)
    assert raised.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    info = error_info(raised.value)
    assert info is not None
    return info


def post_json(
    gateway: GatewayProcess, method: str, body: bytes, token: str = ""
) -> tuple[int, dict[str, Any]]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    status, answer = post(gateway, method, body, "application/json", headers)
    return status, json.loads(answer)


def assert_malformed(status: int, refusal: dict[str, Any], message_type: str) -> None:
    assert (status, refusal["code"]) == (400, "invalid_argument"), refusal
    assert refusal["message"].startswith(f"the request does not decode: its JSON is not a {message_type}: ")
    info = error_info_of(refusal)
    assert (info.domain, info.reason) == ("boardgame", "MALFORMED_REQUEST")


@pytest.mark.parametrize("body", MALFORMED_JSON.values(), ids=MALFORMED_JSON.keys())
def test_json_that_does_not_decode_is_malformed_and_makes_no_guest(
    web_gateway: GatewayProcess, redis_url: str, body: bytes
) -> None:
    before, counted = every_key(redis_url), handled(CREATE_GUEST, "INVALID_ARGUMENT")
    status, refusal = post_json(web_gateway, CREATE_GUEST, body)
    assert_malformed(status, refusal, "CreateGuestRequest")
    assert error_info_of(refusal) == native_refusal(web_gateway, CREATE_GUEST, b"\xff\xff")
    assert handled(CREATE_GUEST, "INVALID_ARGUMENT") == counted + 1
    assert every_key(redis_url) == before


def test_json_with_charset_is_refused_the_same(web_gateway: GatewayProcess) -> None:
    status, answer = post(web_gateway, CREATE_GUEST, b"{not json", "application/json; charset=utf-8")
    assert_malformed(status, json.loads(answer), "CreateGuestRequest")


def test_an_enum_value_the_api_has_not_is_malformed_and_opens_no_lobby(
    web_gateway: GatewayProcess, redis_url: str
) -> None:
    host = browser_guest(web_gateway, "host")
    before = every_key(redis_url)
    body = json.dumps({"title": TITLE, "visibility": "VISIBILITY_EVERYWHERE"}).encode()
    status, refusal = post_json(web_gateway, CREATE_LOBBY, body, host.token)
    assert_malformed(status, refusal, "CreateLobbyRequest")
    assert "VISIBILITY_EVERYWHERE" in refusal["message"]
    assert every_key(redis_url) == before


def test_a_malformed_move_changes_no_game(web_gateway: GatewayProcess, new_client, redis_url: str) -> None:  # type: ignore[no-untyped-def]
    players: list[Client] = signed_in(new_client, 3)
    game_id = new_game(web_gateway, TITLE, players)
    store = sync_client(redis_url)
    before = (store.get(keys.game_version(game_id)), store.hlen(keys.game_requests(game_id)))
    body = json.dumps({"gameId": game_id, "expectedVersion": "the latest", "requestId": "r1"}).encode()
    status, refusal = post_json(web_gateway, SUBMIT_ACTION, body, players[0].token)
    assert_malformed(status, refusal, "SubmitActionRequest")
    assert (store.get(keys.game_version(game_id)), store.hlen(keys.game_requests(game_id))) == before


def stream_end(body: bytes) -> dict[str, Any]:
    """The end-of-stream message of a Connect streaming response (envelopes: flags, length, data)."""
    while body:
        flags, length = struct.unpack(">BI", body[:5])
        data, body = body[5 : 5 + length], body[5 + length :]
        if flags & END_STREAM:
            return dict(json.loads(data))
    raise AssertionError("the stream has no end message")


@pytest.mark.parametrize(
    ("codec", "message", "problem"),
    [
        ("json", b"{not json", "its JSON is not a WatchGameRequest: "),
        ("json", b'{"gameId": "g", "fromVersion": "soon"}', "its JSON is not a WatchGameRequest: "),
        ("proto", b"\xff\xff", "Error parsing message"),
    ],
    ids=["not JSON", "a word for a version", "bytes"],
)
def test_a_watch_request_that_does_not_decode_ends_the_stream_as_malformed(
    web_gateway: GatewayProcess, codec: str, message: bytes, problem: str
) -> None:
    watcher = browser_guest(web_gateway, "watcher")
    envelope = struct.pack(">BI", 0, len(message)) + message
    status, body = post(web_gateway, WATCH_GAME, envelope, f"application/connect+{codec}", watcher.headers())
    end = stream_end(body)
    assert status == 200 and end["error"]["code"] == "invalid_argument", end
    assert end["error"]["message"].startswith("the request does not decode: ")
    assert problem in end["error"]["message"]
    assert error_info_of(end["error"]) == native_refusal(web_gateway, CREATE_GUEST, b"\xff\xff")

"""The browser listener (Connect protocol on uvicorn) against a real gateway, Redis and rules services:
the same servicers as native gRPC, so the same answers, codes, ErrorInfo, auth, metrics; a live watch
stream; CORS only for allowed origins; the web client's files on the same port."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Mapping
from pathlib import Path

import grpc
import prometheus_client
import pytest
from boardgame.gateway.v1 import gateway_pb2
from connectrpc.code import Code
from connectrpc.errors import ConnectError
from connectrpc.protocol import ProtocolType
from connectrpc.request import Headers, RequestContext
from google.rpc import error_details_pb2

from gateway.browser import BrowserCallContext, WebSettings, method_info
from tests.gateway._support_accounts import refused
from tests.gateway.browser_client import BrowserClient
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game, signed_in
from tests.titles import GAME, TITLE

ALLOWED = "http://games.example"
INDEX = "<!doctype html><title>board games</title>"
STREAM_END_SECONDS = 5.0


@pytest.fixture(scope="module")
def web_gateway(redis_url: str, rules: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator:  # type: ignore[type-arg]
    client_dir = tmp_path_factory.mktemp("web")
    (client_dir / "index.html").write_text(INDEX)
    web = WebSettings(address="127.0.0.1:0", allowed_origins=(ALLOWED,), client_dir=Path(client_dir))
    with GatewayProcess(gateway_settings(redis_url, rules), web=web) as process:
        yield process


def browser_guest(gateway: GatewayProcess, name: str = "web guest") -> BrowserClient:
    client = BrowserClient(gateway.web_url)
    reply = client.call("AccountService", "CreateGuest", gateway_pb2.CreateGuestRequest(display_name=name))
    client.token = reply.session.token
    return client


def error_info_of(error: ConnectError) -> error_details_pb2.ErrorInfo:
    info = error_details_pb2.ErrorInfo()
    assert error.details, f"{error.code} without details: {error.message}"
    assert error.details[0].Unpack(info)
    return info


def test_a_guest_signs_in_and_the_token_is_its_bearer_metadata(web_gateway: GatewayProcess) -> None:
    client = browser_guest(web_gateway, "Ada")
    me = client.call("AccountService", "GetMe", gateway_pb2.GetMeRequest()).player
    assert me.display_name == "Ada" and me.guest
    titles = client.call("CatalogService", "ListTitles", gateway_pb2.ListTitlesRequest()).titles
    assert TITLE in {title.name for title in titles}


def test_a_refusal_has_the_native_code_message_and_error_info(web_gateway: GatewayProcess) -> None:
    client = browser_guest(web_gateway)
    request = gateway_pb2.GetGameRequest(game_id="no-such-game")
    with pytest.raises(ConnectError) as raised:
        client.call("GameService", "GetGame", request)
    native = Client(grpc.insecure_channel(web_gateway.address), token=client.token)
    code, native_info = refused(native.games.GetGame, request, native.auth)
    assert code is grpc.StatusCode.NOT_FOUND and raised.value.code is Code.NOT_FOUND
    assert error_info_of(raised.value) == native_info
    assert "no-such-game" in raised.value.message


def test_grpc_web_gets_the_same_answers_and_refusals(web_gateway: GatewayProcess) -> None:
    client = BrowserClient(web_gateway.web_url, ProtocolType.GRPC_WEB)
    reply = client.call("AccountService", "CreateGuest", gateway_pb2.CreateGuestRequest(display_name="Grace"))
    client.token = reply.session.token
    assert client.call("AccountService", "GetMe", gateway_pb2.GetMeRequest()).player.display_name == "Grace"
    with pytest.raises(ConnectError) as raised:
        client.call("GameService", "GetGame", gateway_pb2.GetGameRequest(game_id="no-such-game"))
    assert raised.value.code is Code.NOT_FOUND
    assert error_info_of(raised.value).reason == "GAME_NOT_FOUND"


def post(
    gateway: GatewayProcess, method: str, body: bytes, content_type: str, headers: Mapping[str, str] = {}
) -> tuple[int, bytes]:
    """The HTTP status and body of a POST of `body` to `method`."""
    request = urllib.request.Request(
        gateway.web_url + method, data=body, headers={"content-type": content_type, **headers}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def test_bytes_that_do_not_decode_are_malformed_as_over_grpc(web_gateway: GatewayProcess) -> None:
    status, body = post(
        web_gateway, "/boardgame.gateway.v1.AccountService/CreateGuest", b"\xff\xff", "application/proto"
    )
    refusal = json.loads(body)
    assert status == 400 and refusal["code"] == "invalid_argument"
    assert refusal["details"][0]["debug"]["reason"] == "MALFORMED_REQUEST"


def test_the_json_form_of_connect_works_too(web_gateway: GatewayProcess) -> None:
    status, body = post(
        web_gateway,
        "/boardgame.gateway.v1.AccountService/CreateGuest",
        b'{"displayName": "Jay"}',
        "application/json",
    )
    assert status == 200 and json.loads(body)["session"]["player"]["displayName"] == "Jay"


def test_a_call_without_a_token_is_unauthenticated(web_gateway: GatewayProcess) -> None:
    with pytest.raises(ConnectError) as raised:
        BrowserClient(web_gateway.web_url).call("AccountService", "GetMe", gateway_pb2.GetMeRequest())
    assert raised.value.code is Code.UNAUTHENTICATED
    assert error_info_of(raised.value).reason == "UNAUTHENTICATED"


def test_a_bad_field_is_refused_with_its_bad_request_detail(web_gateway: GatewayProcess) -> None:
    client = BrowserClient(web_gateway.web_url)
    with pytest.raises(ConnectError) as raised:
        client.call(
            "AccountService", "CreateGuest", gateway_pb2.CreateGuestRequest(display_name="x" * 10_000)
        )
    assert raised.value.code is Code.INVALID_ARGUMENT
    bad = error_details_pb2.BadRequest()
    assert any(detail.Unpack(bad) for detail in raised.value.details[1:])
    assert bad.field_violations[0].field == "display_name"


def test_the_watch_stream_sends_the_view_then_each_move(web_gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    players = signed_in(new_client, GAME.info.min_players)
    game_id = new_game(web_gateway, TITLE, players)
    watcher = browser_guest(web_gateway, "spectator")
    replies = watcher.stream("GameService", "WatchGame", gateway_pb2.WatchGameRequest(game_id=game_id))
    first = next(replies)
    assert first.game.game_id == game_id and first.game.version >= 0
    moved = threading.Event()

    def move() -> None:
        for player in players:
            view = player.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=player.auth)
            if view.game.legal_actions:
                player.games.SubmitAction(
                    gateway_pb2.SubmitActionRequest(
                        game_id=game_id,
                        action=view.game.legal_actions[0].action,
                        expected_version=view.game.version,
                        request_id=uuid.uuid4().hex,
                    ),
                    metadata=player.auth,
                )
                moved.set()
                return

    mover = threading.Thread(target=move)
    mover.start()
    after = next(reply for reply in replies if reply.HasField("game"))
    mover.join(10)
    assert moved.is_set() and after.game.version > first.game.version and after.events


def open_watch_streams() -> float:
    return prometheus_client.REGISTRY.get_sample_value("gateway_watch_streams") or 0.0


def test_a_watch_stream_ends_when_its_browser_goes_away(web_gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    """Even on a game where nothing happens: the stream's handler is not left waiting for a change."""
    game_id = new_game(web_gateway, TITLE, signed_in(new_client, GAME.info.min_players))
    before = open_watch_streams()
    watcher = browser_guest(web_gateway, "leaving spectator")
    replies = watcher.client.execute_server_stream(
        request=gateway_pb2.WatchGameRequest(game_id=game_id),
        method=method_info("/boardgame.gateway.v1.GameService/WatchGame"),
        headers=watcher.headers(),
    )
    assert next(replies).game.game_id == game_id
    assert open_watch_streams() == before + 1
    replies.close()  # type: ignore[attr-defined]
    watcher.client.close()
    deadline = time.monotonic() + STREAM_END_SECONDS
    while open_watch_streams() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert open_watch_streams() == before


def test_calls_are_counted_in_the_gateway_metrics(web_gateway: GatewayProcess) -> None:
    labels = {"grpc_service": "boardgame.gateway.v1.AccountService", "grpc_method": "GetMe"}

    def handled(code: str) -> float:
        value = prometheus_client.REGISTRY.get_sample_value(
            "grpc_server_handled_total", {**labels, "grpc_code": code}
        )
        return value or 0.0

    ok, refused_before = handled("OK"), handled("UNAUTHENTICATED")
    browser_guest(web_gateway).call("AccountService", "GetMe", gateway_pb2.GetMeRequest())
    with pytest.raises(ConnectError):
        BrowserClient(web_gateway.web_url).call("AccountService", "GetMe", gateway_pb2.GetMeRequest())
    assert handled("OK") == ok + 1
    assert handled("UNAUTHENTICATED") == refused_before + 1


def preflight(gateway: GatewayProcess, origin: str) -> dict[str, str]:
    request = urllib.request.Request(
        gateway.web_url + "/boardgame.gateway.v1.GameService/GetGame",
        method="OPTIONS",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,content-type,connect-protocol-version",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return {name.lower(): value for name, value in response.headers.items()}
    except urllib.error.HTTPError as error:
        return {name.lower(): value for name, value in error.headers.items()}


def test_cors_admits_only_the_allowed_origins(web_gateway: GatewayProcess) -> None:
    allowed = preflight(web_gateway, ALLOWED)
    assert allowed["access-control-allow-origin"] == ALLOWED
    assert "authorization" in allowed["access-control-allow-headers"].lower()
    assert "access-control-allow-origin" not in preflight(web_gateway, "http://elsewhere.example")


def test_the_web_client_is_served_on_the_same_port(web_gateway: GatewayProcess) -> None:
    with urllib.request.urlopen(web_gateway.web_url + "/", timeout=10) as response:
        assert response.read().decode() == INDEX


@pytest.mark.parametrize(
    ("address", "peer"),
    [("127.0.0.1:5000", "ipv4:127.0.0.1:5000"), ("::1:5000", "ipv6:[::1]:5000"), (None, "")],
)
def test_a_browser_call_names_its_peer_as_grpc_does(address: str | None, peer: str) -> None:
    ctx = RequestContext(
        method=method_info("/boardgame.gateway.v1.AccountService/GetMe"),
        http_method="POST",
        request_headers=Headers(),
        client_address=address,
    )
    assert BrowserCallContext(ctx).peer() == peer


def test_web_settings_come_from_the_environment() -> None:
    settings = WebSettings.from_env(
        {"WEB_ADDRESS": "127.0.0.1:9", "WEB_ALLOWED_ORIGINS": "https://a.example, https://b.example"}
    )
    assert settings.address == "127.0.0.1:9"
    assert settings.allowed_origins == ("https://a.example", "https://b.example")
    assert WebSettings.from_env({}).allowed_origins == ()

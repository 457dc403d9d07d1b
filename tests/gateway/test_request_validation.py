"""Every request field within its limits, through the real gateway: an oversize string or an
out-of-range number is INVALID_ARGUMENT naming the field (never RESOURCE_EXHAUSTED from a trailer that
echoed it, never INTERNAL from Redis), and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import descriptor, message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gateway import api
from live import keys
from live.connection import sync_client
from live.errors import GatewayError, not_found
from services.common.status import error_info
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import new_game, signed_in
from tests.titles import TITLE

LONG = 10_000


def string_fields(but: frozenset[str] = frozenset()) -> Iterator[tuple[str, str, str]]:
    """(service, method, field) of every string field (not named in `but`) of every request of the
    gateway's API."""
    for service in api.services():
        for method in service.methods:
            for field in method.input_type.fields:
                if field.type == descriptor.FieldDescriptor.TYPE_STRING and field.name not in but:
                    yield service.name, method.name, field.name


STRING_FIELDS = sorted(string_fields())


def request_with(service: str, method: str, field: str, value: str) -> message.Message:
    """A request of the method with `value` in its string `field` and "x" in every other string (but
    the other members of the field's oneof: setting one clears the others)."""
    request_class = api.request_class(service, method)
    request_type = request_class.DESCRIPTOR
    chosen = request_type.fields_by_name[field].containing_oneof
    strings = [
        f.name
        for f in request_type.fields
        if f.type == descriptor.FieldDescriptor.TYPE_STRING
        and (f.name == field or chosen is None or f.containing_oneof is not chosen)
    ]
    return request_class(**{**dict.fromkeys(strings, "x"), field: value})


def _call(client: Client, service: str, method: str, request: message.Message) -> Any:
    """Call a method of the API by name; a stream is read up to its first message."""
    stub_method = getattr(api.stub(service, client.channel), method)
    answer = stub_method(request, metadata=client.auth, timeout=10)
    return next(answer) if isinstance(answer, Iterator) else answer


def _refusal(call: Any) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def _bad_request(error: grpc.RpcError) -> error_details_pb2.BadRequest | None:
    status = rpc_status.from_call(error)
    for detail in status.details if status is not None else ():
        if detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            found = error_details_pb2.BadRequest()
            detail.Unpack(found)
            return found
    return None


def test_a_10000_character_game_id_is_invalid_argument_with_a_short_message(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(new_client, 1)[0]
    for character in ("g", "é", "🎲"):
        error = _refusal(
            lambda c=character: client.games.GetGame(
                gateway_pb2.GetGameRequest(game_id=c * LONG), metadata=client.auth
            )
        )
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
        info = error_info(error)
        assert info is not None and info.reason == "INVALID_GAME_ID"
        assert info.metadata["field"] == "game_id"
        assert "game_id" in error.details() and len(error.details()) < 200
        bad = _bad_request(error)
        assert bad is not None and [v.field for v in bad.field_violations] == ["game_id"]


@pytest.mark.parametrize(
    ("service", "method", "field"), STRING_FIELDS, ids=[".".join(f) for f in STRING_FIELDS]
)
def test_every_string_a_request_carries_has_a_limit(
    gateway: GatewayProcess, new_client, service: str, method: str, field: str
) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(new_client, 1)[0]
    request = request_with(service, method, field, "x" * LONG)
    error = _refusal(lambda: _call(client, service, method, request))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    info = error_info(error)
    assert info is not None and info.metadata["field"] == field
    assert len(error.details()) < 200


@pytest.mark.parametrize(
    ("service", "method", "request_message", "field"),
    [
        (
            "GameService",
            "WatchGame",
            gateway_pb2.WatchGameRequest(game_id="g", from_version=-5),
            "from_version",
        ),
        (
            "GameService",
            "WatchGame",
            gateway_pb2.WatchGameRequest(game_id="g", from_version=2**40),
            "from_version",
        ),
        (
            "GameService",
            "SubmitAction",
            gateway_pb2.SubmitActionRequest(game_id="g", expected_version=-1, request_id="r"),
            "expected_version",
        ),
        (
            "LobbyService",
            "CreateLobby",
            gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=-3),
            "seat_count",
        ),
        (
            "LobbyService",
            "CreateLobby",
            gateway_pb2.CreateLobbyRequest(
                title=TITLE, seat_count=3, clock=gateway_pb2.TurnClock(total_seconds=-1)
            ),
            "clock.total_seconds",
        ),
        (
            "LobbyService",
            "CreateLobby",
            gateway_pb2.CreateLobbyRequest(
                title=TITLE, seat_count=3, options=[gateway_pb2.GameOptionValue(name="n" * LONG)]
            ),
            "options[0].name",
        ),
        ("LobbyService", "JoinLobby", gateway_pb2.JoinLobbyRequest(lobby_id="l", seat=-1), "seat"),
        ("LobbyService", "ListLobbies", gateway_pb2.ListLobbiesRequest(page_size=-1), "page_size"),
        (
            "LeaderboardService",
            "GetLeaderboard",
            gateway_pb2.GetLeaderboardRequest(page_size=-20),
            "page_size",
        ),
        (
            "GameService",
            "SubmitAction",
            gateway_pb2.SubmitActionRequest(game_id="g", expected_version=0, request_id=""),
            "request_id",
        ),
        (
            "GameService",
            "SubmitAction",
            gateway_pb2.SubmitActionRequest(game_id="g", expected_version=0, request_id="r" * 65),
            "request_id",
        ),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_every_number_is_range_checked_and_required_fields_are_required(
    gateway: GatewayProcess,
    new_client,
    service: str,
    method: str,
    request_message: message.Message,
    field: str,
) -> None:  # type: ignore[no-untyped-def]
    client = signed_in(new_client, 1)[0]
    error = _refusal(lambda: _call(client, service, method, request_message))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    info = error_info(error)
    assert info is not None and info.metadata["field"] == field, error.details()
    assert field in error.details()


def test_a_bad_watch_or_move_changes_nothing(gateway: GatewayProcess, new_client, redis_url: str) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLE, clients)
    store = sync_client(redis_url)
    before = (store.get(keys.game_version(game_id)), store.hlen(keys.game_requests(game_id)))
    view = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    actor = clients[view.acting_seats[0]]
    legal = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    stream = actor.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=-5), metadata=actor.auth
    )
    assert _refusal(lambda: next(stream)).code() == grpc.StatusCode.INVALID_ARGUMENT
    unnamed = gateway_pb2.SubmitActionRequest(
        game_id=game_id, action=legal.legal_actions[0].action, expected_version=0, request_id=""
    )
    error = _refusal(lambda: actor.games.SubmitAction(unnamed, metadata=actor.auth))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert (store.get(keys.game_version(game_id)), store.hlen(keys.game_requests(game_id))) == before


def test_no_refusal_outgrows_the_trailers_whatever_it_echoes() -> None:
    """Whatever a refusal quotes, its message and metadata are clipped, so the trailers stay small."""
    huge = "é" * LONG
    for error in (
        not_found("game", huge),
        GatewayError(grpc.StatusCode.INVALID_ARGUMENT, "ANY", huge, option=huge, other=huge),
    ):
        status = error.status()
        size = len(status.details.encode()) * 3 + sum(len(k) + len(v) for k, v in status.trailing_metadata)
        assert size < 4096, size

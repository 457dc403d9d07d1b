"""The per-player rate limit: one count per class of call, refusals that say when to retry, a class for
every call that needs a token, and limits documented where clients read them."""

from __future__ import annotations

import re
import time
from pathlib import Path

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gateway import api, limits
from live.settings import DEFAULT_RATE_LIMITS, Settings, rate_limit_variable
from services.common.status import error_info
from tests.gateway._support_accounts import RPC_TIMEOUT, at_a_second_start, guest, me, own_gateway, refused
from tests.titles import TITLE

ROOT = Path(__file__).resolve().parents[2]
SIGNED_OUT_CALLS = {"CreateGuest", "Register", "SignIn", "IssuePlayerToken"}  # no player to count


def retry_info(error: grpc.RpcError) -> error_details_pb2.RetryInfo | None:
    """The RetryInfo detail of a failed call, if it carries one."""
    status = rpc_status.from_call(error)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return info
    return None


def test_each_class_of_call_is_counted_apart(redis_url: str, rules: dict[str, str]) -> None:
    """Reads over their limit leave the same player's lobby calls, moves and watch streams alone."""
    with own_gateway(redis_url, rules, rate_limits={"read": 3, "watch": 1}) as own:
        player = guest(own.make_client)
        at_a_second_start()
        for _ in range(3):
            me(player)
        code, info = refused(player.accounts.GetMe, gateway_pb2.GetMeRequest(), player.auth)
        assert (code, info.reason, info.metadata["rate_class"]) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "RATE_LIMITED",
            "read",
        )
        lobby = player.lobbies.CreateLobby(
            gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2), metadata=player.auth
        ).lobby
        empty = gateway_pb2.SubmitActionRequest(game_id="no-such-game", request_id="e")
        assert refused(player.games.SubmitAction, empty, player.auth)[1].reason == "MISSING_ACTION"
        watch = gateway_pb2.WatchGameRequest(game_id="no-such-game")
        first = player.games.WatchGame(watch, metadata=player.auth, timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as unknown:
            next(first)
        assert unknown.value.code() == grpc.StatusCode.NOT_FOUND, "one watch stream a second"
        second = player.games.WatchGame(watch, metadata=player.auth, timeout=RPC_TIMEOUT)
        with pytest.raises(grpc.RpcError) as limited:
            next(second)
        info = error_info(limited.value)
        assert limited.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
        assert info is not None and info.metadata["rate_class"] == "watch"
        assert lobby.lobby_id


def test_a_refused_call_says_when_to_retry_and_succeeds_then(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules, rate_limits={"read": 2}) as own:
        player = guest(own.make_client)
        at_a_second_start()
        me(player), me(player)
        with pytest.raises(grpc.RpcError) as raised:
            player.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=player.auth, timeout=RPC_TIMEOUT)
        _, info = refused(player.accounts.GetMe, gateway_pb2.GetMeRequest(), player.auth)
        delay_ms = int(info.metadata["retry_after_ms"])
        assert 0 < delay_ms <= 1000 and info.metadata["limit"] == "2"
        assert "retry in" in raised.value.details()
        retry = retry_info(raised.value)
        assert retry is not None, "a RetryInfo detail beside the ErrorInfo"
        assert 0 < retry.retry_delay.ToMilliseconds() <= 1000
        time.sleep(delay_ms / 1000)
        assert me(player).display_name == "guest", "the delay given is enough"


def test_every_call_has_a_rate_class_and_the_signed_out_ones_count_no_player() -> None:
    methods = {method.name for service in api.services() for method in service.methods}
    assert set(limits.CLASS_OF_METHOD) == methods
    counted = {rate.name: rate.counted_per for rate in limits.CLASSES}
    for method in methods:
        per = counted[limits.CLASS_OF_METHOD[method]]
        assert (per != limits.PER_PLAYER) == (method in SIGNED_OUT_CALLS), method


def test_every_class_with_a_default_limit_has_its_methods() -> None:
    assert set(limits.METHODS_OF_CLASS) == set(DEFAULT_RATE_LIMITS)


def test_each_class_limit_is_read_from_its_environment_variable() -> None:
    settings = Settings.from_env({"RATE_LIMIT_MOVE_PER_SECOND": "7", "MAX_PENDING_CALLS": "123"})
    assert settings.rate_limit("move") == 7 and settings.max_pending_calls == 123
    assert settings.rate_limit("read") == DEFAULT_RATE_LIMITS["read"]


def test_every_class_and_its_default_limit_is_documented() -> None:
    text = (ROOT / "docs/clients.md").read_text()
    for rate in limits.CLASSES:
        row = re.search(rf"^\|[^\n]*`{rate_limit_variable(rate.name)}`[^\n]*$", text, re.MULTILINE)
        assert row is not None, f"docs/clients.md has no row for {rate.name}"
        cells = f"| {rate.counted_per} | {rate.per_second} |"
        assert cells in row.group(0), f"another default for {rate.name}"
        assert all(method in row.group(0) for method in rate.methods), rate.name
    readme = (ROOT / "README.md").read_text()
    assert "retry_after_ms" in readme and "docs/clients.md#rate-limits" in readme


def test_the_proto_documents_the_limits() -> None:
    proto = (ROOT / "protos/boardgame/gateway/v1/gateway.proto").read_text()
    assert "RATE_LIMITED" in proto and "retry_after_ms" in proto and "google.rpc.RetryInfo" in proto
    for rate in limits.CLASSES:
        assert rate_limit_variable(rate.name) in proto, rate.name

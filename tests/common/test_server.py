"""Every registered game's rules server, for real: health, reflection, game info, malformed requests,
metrics, and the entry point started as a process and stopped by SIGTERM.
"""

from __future__ import annotations

import ctypes
import importlib
import os
import signal
import threading
from collections.abc import Iterator

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from services.common import registry
from services.common.game import Game
from services.common.server import DEFAULT_GRACE_SECONDS, create_server
from services.common.servicer import SERVICE_NAME, pack
from tests.common.support import (
    RPC_TIMEOUT,
    handled,
    read_json_line,
    refused,
    scrape,
    service_process,
    serving,
    stub,
)

SYS_TGKILL = 234  # tgkill(2) on x86-64: a signal to one thread of a process


@pytest.fixture(scope="module", params=registry.GAME_MODULES)
def game_module(request: pytest.FixtureRequest) -> str:
    """The module name of one registered game."""
    return str(request.param)


@pytest.fixture(scope="module")
def game(game_module: str) -> Game:
    """One registered game."""
    game: Game = importlib.import_module(game_module).GAME
    return game


@pytest.fixture(scope="module")
def channel(game: Game) -> Iterator[grpc.Channel]:
    """A channel to a started rules server for `game`."""
    with serving(game) as channel:
        yield channel


@pytest.fixture(scope="module")
def initial_state(game: Game, channel: grpc.Channel) -> any_pb2.Any:
    """A fresh game's packed state, set up over the channel with every option at its default."""
    request = rules_pb2.NewGameRequest(player_count=game.info.min_players, seed=b"server test")
    state: any_pb2.Any = stub(channel).NewGame(request, timeout=RPC_TIMEOUT).state
    return state


def test_registry_names_every_module(game: Game) -> None:
    assert registry.get(game.info.name) is game


@pytest.mark.parametrize("service", ["", SERVICE_NAME])
def test_health_is_serving(channel: grpc.Channel, service: str) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    response = health.Check(health_pb2.HealthCheckRequest(service=service), timeout=RPC_TIMEOUT)
    assert response.status == health_pb2.HealthCheckResponse.SERVING


def test_health_of_an_unknown_service_is_not_found(channel: grpc.Channel) -> None:
    health = health_pb2_grpc.HealthStub(channel)
    with pytest.raises(grpc.RpcError) as raised:
        health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=RPC_TIMEOUT)
    assert raised.value.code() == grpc.StatusCode.NOT_FOUND


def test_reflection_lists_and_describes_the_rules_service(game: Game, channel: grpc.Channel) -> None:
    database = ProtoReflectionDescriptorDatabase(channel)
    assert SERVICE_NAME in database.get_services()
    assert "grpc.health.v1.Health" in database.get_services()
    described = database.FindFileContainingSymbol(SERVICE_NAME)
    assert [service.name for service in described.service] == ["RulesService"]


def test_game_info_matches_the_engine(game: Game, channel: grpc.Channel) -> None:
    info = stub(channel).GetGameInfo(rules_pb2.GetGameInfoRequest(), timeout=RPC_TIMEOUT).info
    facts = game.info
    assert (info.name, info.display_name) == (facts.name, facts.display_name)
    assert (info.min_players, info.max_players) == (facts.min_players, facts.max_players)
    assert (info.has_chance, info.has_hidden_information) == (facts.has_chance, facts.has_hidden_information)
    assert (info.max_game_length, info.min_score, info.max_score) == (
        facts.max_game_length,
        facts.min_score,
        facts.max_score,
    )
    assert [(o.name, o.description, tuple(o.choices), o.default_value) for o in info.options] == [
        (o.name, o.description, o.choices, o.default) for o in facts.options
    ]
    messages = game.messages
    assert [info.config_type, info.state_type, info.action_type, info.view_type, info.event_type] == [
        message.DESCRIPTOR.full_name
        for message in (messages.config, messages.state, messages.action, messages.view, messages.event)
    ]


def test_a_new_game_has_a_seat_to_act(game: Game, channel: grpc.Channel, initial_state: any_pb2.Any) -> None:
    assert initial_state.TypeName() == game.messages.state.DESCRIPTOR.full_name
    view = stub(channel).GetView(rules_pb2.GetViewRequest(state=initial_state), timeout=RPC_TIMEOUT)
    assert view.view.TypeName() == game.messages.view.DESCRIPTOR.full_name
    assert list(view.acting_seats) and not view.game_over


def malformed_actions(game: Game) -> dict[str, any_pb2.Any]:
    """Packed actions that no game can decode: missing, of another type, or garbage bytes."""
    wrong_type = pack(game.messages.config())
    garbage = pack(game.messages.action())
    garbage.value = b"\xff\xff\xff\xff"
    foreign = any_pb2.Any(type_url="type.googleapis.com/no.such.v1.Action", value=b"")
    return {"missing": any_pb2.Any(), "wrong-type": wrong_type, "unknown-type": foreign, "garbage": garbage}


@pytest.mark.parametrize("kind", ["missing", "wrong-type", "unknown-type", "garbage"])
def test_malformed_actions_are_invalid_argument(
    game: Game, channel: grpc.Channel, initial_state: any_pb2.Any, kind: str
) -> None:
    acting = stub(channel).GetView(rules_pb2.GetViewRequest(state=initial_state), timeout=RPC_TIMEOUT)
    request = rules_pb2.ApplyActionRequest(
        state=initial_state, seat=acting.acting_seats[0], action=malformed_actions(game)[kind]
    )
    code, info = refused(stub(channel).ApplyAction, request)
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")


@pytest.mark.parametrize("kind", ["missing", "wrong-type", "garbage"])
def test_malformed_states_are_invalid_argument(game: Game, channel: grpc.Channel, kind: str) -> None:
    state = {
        "missing": any_pb2.Any(),
        "wrong-type": pack(game.messages.action()),
        "garbage": any_pb2.Any(type_url=pack(game.messages.state()).type_url, value=b"\x0a\xff\xff"),
    }[kind]
    code, info = refused(stub(channel).GetScores, rules_pb2.GetScoresRequest(state=state))
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")


def test_metrics_count_rpcs_by_method_and_code(
    game: Game, channel: grpc.Channel, initial_state: any_pb2.Any, metrics_port: int
) -> None:
    before = scrape(metrics_port)
    rules = stub(channel)
    for _ in range(3):
        rules.GetGameInfo(rules_pb2.GetGameInfoRequest(), timeout=RPC_TIMEOUT)
    rules.GetScores(rules_pb2.GetScoresRequest(state=initial_state), timeout=RPC_TIMEOUT)
    for _ in range(2):
        refused(rules.GetScores, rules_pb2.GetScoresRequest(state=any_pb2.Any()))
    after = scrape(metrics_port)

    def delta(method: str, code: str) -> float:
        return handled(after, method, code) - handled(before, method, code)

    assert delta("GetGameInfo", "OK") == 3
    assert delta("GetScores", "OK") == 1
    assert delta("GetScores", "INVALID_ARGUMENT") == 2
    assert delta("GetGameInfo", "INVALID_ARGUMENT") == 0
    timing_key = (
        "grpc_server_handling_seconds_count",
        frozenset(
            {("grpc_service", SERVICE_NAME), ("grpc_method", "GetScores"), ("grpc_code", "INVALID_ARGUMENT")}
        ),
    )
    assert after[timing_key] - before.get(timing_key, 0.0) == 2


def test_entry_point_serves_and_stops_on_sigterm(game_module: str, game: Game) -> None:
    variables = {
        "RULES_ADDRESS": "127.0.0.1:0",
        "METRICS_PORT": "0",
        "SHUTDOWN_GRACE_SECONDS": "1",
        "RULES_STATE_CACHE": "64",
        "RULES_MAX_CONNECTION_AGE_SECONDS": "120",
    }
    with service_process(game_module, variables) as (process, started):
        assert started["game"] == game.info.name and started["metrics_port"] > 0
        assert started["state_cache"] == 64
        assert started["max_connection_age_seconds"] == 120
        with grpc.insecure_channel(f"127.0.0.1:{started['port']}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            response = health.Check(health_pb2.HealthCheckRequest(service=SERVICE_NAME), timeout=RPC_TIMEOUT)
            assert response.status == health_pb2.HealthCheckResponse.SERVING
        assert handled(scrape(started["metrics_port"]), "GetGameInfo", "OK") == 0
        process.send_signal(signal.SIGTERM)
        read_json_line(process.stderr, "rules service stopped")
        assert process.wait(timeout=RPC_TIMEOUT) == 0


def test_a_sigterm_that_one_of_grpcs_threads_receives_still_stops_the_service(game_module: str) -> None:
    """The kernel may hand a process's SIGTERM to any of its threads (the launcher's dying parent's
    signal, a kubelet's): sent to a thread other than the main one, it stops the service all the same
    (before, the main thread slept on in its wait and the service outlived the launcher)."""
    with service_process(game_module, {"RULES_ADDRESS": "127.0.0.1:0"}) as (process, _):
        threads = [int(task) for task in os.listdir(f"/proc/{process.pid}/task") if int(task) != process.pid]
        assert threads, "gRPC runs threads of its own"
        libc = ctypes.CDLL(None, use_errno=True)
        assert libc.syscall(SYS_TGKILL, process.pid, threads[-1], signal.SIGTERM) == 0, ctypes.get_errno()
        assert process.wait(timeout=RPC_TIMEOUT) == 0
        assert process.stderr is not None
        read_json_line(process.stderr, "rules service stopped")


def test_a_client_connection_is_closed_once_it_reaches_its_age_and_the_client_connects_again(
    game: Game,
) -> None:
    """A connection older than the server's maximum age gets GOAWAY: the channel goes IDLE (so a
    dns:/// client resolves the name again, reaching replicas started since) and its next call
    connects again."""
    server, port = create_server("127.0.0.1:0", game, max_workers=2, max_connection_age=1.0)
    server.start()
    states: list[grpc.ChannelConnectivity] = []
    idle = threading.Event()

    def changed(state: grpc.ChannelConnectivity) -> None:
        states.append(state)
        if state == grpc.ChannelConnectivity.IDLE and grpc.ChannelConnectivity.READY in states:
            idle.set()

    channel = grpc.insecure_channel(f"127.0.0.1:{port}")
    try:
        channel.subscribe(changed)
        request = rules_pb2.GetGameInfoRequest()
        assert stub(channel).GetGameInfo(request, timeout=RPC_TIMEOUT).info.name == game.info.name
        assert idle.wait(1.0 * 1.2 + DEFAULT_GRACE_SECONDS + RPC_TIMEOUT), states
        assert stub(channel).GetGameInfo(request, timeout=RPC_TIMEOUT).info.name == game.info.name
    finally:
        channel.unsubscribe(changed)
        channel.close()
        server.stop(None).wait()

"""Random bytes as the whole request of every method of the gateway and of every rules service: a
request that does not decode is refused as INVALID_ARGUMENT (MALFORMED_REQUEST), one that happens to
decode gets what its fields ask for; never gRPC's own UNKNOWN (grpc.aio) or INTERNAL (the thread-pool
server), as both answered before."""

from __future__ import annotations

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf import descriptor, descriptor_pool, message_factory
from google.protobuf.message import DecodeError
from hypothesis import given
from hypothesis import strategies as st

from gateway import api
from services.common import registry
from tests.fuzz.outcomes import TALLY, Outcome, call, check_refusal, outcome_of
from tests.fuzz.players import RPC_TIMEOUT, Player
from tests.fuzz.volume import fuzz
from tests.gateway.support import GatewayProcess

TITLES = list(registry.games())
SIGNS_OUT = "/boardgame.gateway.v1.AccountService/SignOut"  # sent without a token: it would end the fuzz's
# sessions
# Corrupt wire bytes, a field cut short, a string of bad UTF-8, a group never closed.
CANDIDATES = (b"\xff\xff\xff", b"\n\x05ab", b"\n\x01\xff", b"\x0b")


def methods(file: descriptor.FileDescriptor) -> list[tuple[str, bool]]:
    """(path, server-streaming) of every method of every service of a proto file."""
    return [
        (f"/{service.full_name}/{method.name}", method.server_streaming)
        for service in file.services_by_name.values()
        for method in service.methods
    ]


def undecodable(path: str) -> list[bytes]:
    """The candidates that protobuf itself cannot parse as the method's request message."""
    service_name, method_name = path.strip("/").split("/")
    pool = descriptor_pool.Default()
    request_class = message_factory.GetMessageClass(
        pool.FindServiceByName(service_name).methods_by_name[method_name].input_type
    )
    found = []
    for data in CANDIDATES:
        try:
            request_class.FromString(data)
        except DecodeError:
            found.append(data)
    assert found, f"every candidate decodes as the request of {path}"
    return found


GATEWAY_METHODS = [found for file, _ in api.FILES for found in methods(file)]
RULES_METHODS = methods(rules_pb2.DESCRIPTOR)


def send_raw(
    channel: grpc.Channel, kind: str, path: str, streaming: bool, data: bytes, auth: tuple
) -> Outcome:
    """Send `data` as the request of `path`; a stream is read for one message, then dropped."""
    if not streaming:
        outcome, _ = call(kind, channel.unary_unary(path), data, metadata=auth, timeout=RPC_TIMEOUT)
        return outcome
    stream = channel.unary_stream(path)(data, metadata=auth, timeout=RPC_TIMEOUT)
    try:
        next(stream, None)
        outcome = Outcome(grpc.StatusCode.OK)
    except grpc.RpcError as error:
        outcome = outcome_of(error)
    finally:
        stream.cancel()
    TALLY.add(kind, outcome)
    if not outcome.ok:
        check_refusal(outcome)
    return outcome


@pytest.mark.parametrize(("path", "streaming"), GATEWAY_METHODS, ids=[p for p, _ in GATEWAY_METHODS])
def test_gateway_raw_bytes(
    fuzz_gateway: GatewayProcess, fuzz_players: list[Player], path: str, streaming: bool
) -> None:
    player = fuzz_players[-1]
    auth = () if path == SIGNS_OUT else player.client.auth
    with grpc.insecure_channel(fuzz_gateway.address) as channel:
        for data in undecodable(path):
            outcome = send_raw(channel, "raw gateway request", path, streaming, data, auth)
            assert not outcome.ok, f"{data!r} does not decode, yet {path} answered"
            check_refusal(outcome, ("MALFORMED_REQUEST",))

        @fuzz(0.1)
        @given(data=st.binary(max_size=200))
        def run(data: bytes) -> None:
            send_raw(channel, "raw gateway request", path, streaming, data, auth)

        run()


@pytest.mark.parametrize(("path", "streaming"), RULES_METHODS, ids=[p for p, _ in RULES_METHODS])
@pytest.mark.parametrize("title", TITLES)
def test_rules_raw_bytes(
    fuzz_rules_channels: dict[str, grpc.Channel], title: str, path: str, streaming: bool
) -> None:
    channel = fuzz_rules_channels[title]
    for data in undecodable(path):
        outcome = send_raw(channel, "raw rules request", path, streaming, data, ())
        assert not outcome.ok, f"{data!r} does not decode, yet {path} answered"
        check_refusal(outcome, ("MALFORMED_REQUEST",))

    @fuzz(0.2)
    @given(data=st.binary(max_size=300))
    def run(data: bytes) -> None:
        send_raw(channel, "raw rules request", path, streaming, data, ())

    run()

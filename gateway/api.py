"""The gateway's client API as its proto files declare it: every service of the package
`boardgame.gateway.v1`, whichever file declares it. What walks the API (the servers' registration
checks and health names, the browser transport, the tests of every RPC) reads it here, so a service
added in a new file is walked too."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc, tournaments_pb2, tournaments_pb2_grpc
from google.protobuf import descriptor, message_factory
from google.protobuf.message import Message

PACKAGE = "boardgame.gateway.v1"
# Each proto file of the package: its descriptor and its generated gRPC module.
FILES: tuple[tuple[descriptor.FileDescriptor, ModuleType], ...] = (
    (gateway_pb2.DESCRIPTOR, gateway_pb2_grpc),
    (tournaments_pb2.DESCRIPTOR, tournaments_pb2_grpc),
)


def services() -> list[descriptor.ServiceDescriptor]:
    """Every service of the API, in file order."""
    return [service for file, _ in FILES for service in file.services_by_name.values()]


def service(name: str) -> descriptor.ServiceDescriptor:
    """A service by its short name ("GameService") or full name; KeyError if the API has none."""
    for found in services():
        if name in (found.name, found.full_name):
            return found
    raise KeyError(name)


def stub(name: str, channel: grpc.Channel) -> Any:
    """A client stub of the service `name` on `channel`."""
    for file, grpc_module in FILES:
        if name in file.services_by_name:
            return getattr(grpc_module, f"{name}Stub")(channel)
    raise KeyError(name)


def request_class(service_name: str, method: str) -> type[Message]:
    """The request message class of one method."""
    return message_factory.GetMessageClass(service(service_name).methods_by_name[method].input_type)

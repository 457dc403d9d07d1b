"""The Glen More rules service: the shared gRPC bootstrap serving the registry's "glenmore" game."""

from __future__ import annotations

import os
from collections.abc import Mapping

import grpc

from services.common import logs, registry
from services.common import server as common_server

GAME_NAME = "glenmore"


def create_server(address: str) -> tuple[grpc.Server, int]:
    """A Glen More rules server (not started) bound to `address`, and its bound port."""
    return common_server.create_server(address, registry.get(GAME_NAME))


def serve(environ: Mapping[str, str] = os.environ) -> None:
    """Serve Glen More as configured by the environment until SIGTERM or SIGINT."""
    common_server.serve(registry.get(GAME_NAME), environ)


def main() -> None:
    """Configure logging and serve Glen More (see services.common.server for the environment)."""
    logs.configure_logging()
    serve()

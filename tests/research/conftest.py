"""A real rules service process for the research environments' gRPC backend."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from deploy.throwaway import free_port
from services.common import registry


def _serving(address: str) -> bool:
    with grpc.insecure_channel(address) as channel:
        try:
            reply = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=1)
        except grpc.RpcError:
            return False
    return reply.status == health_pb2.HealthCheckResponse.SERVING


@pytest.fixture(scope="session")
def rules_address() -> Iterator[tuple[str, str]]:
    """(title, address) of the first registered title's rules service, run as `python -m services.<title>`."""
    title = next(iter(registry.games()))
    address = f"127.0.0.1:{free_port()}"
    env = {"RULES_ADDRESS": address, "METRICS_PORT": "off", "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen([sys.executable, "-m", f"services.{title}"], env=env)
    try:
        deadline = time.monotonic() + 60
        while not _serving(address):
            assert process.poll() is None, f"the {title} rules service exited with {process.returncode}"
            assert time.monotonic() < deadline, f"the {title} rules service never served"
            time.sleep(0.2)
        yield title, address
    finally:
        process.terminate()
        process.wait(30)

"""A gRPC health probe for container health checks: exit 0 when the server reports SERVING.

Usage: python -m deploy.probe HOST:PORT [SERVICE]  (SERVICE defaults to "", the whole server)

Kubernetes probes gRPC health natively; compose has no such probe, so its health checks run this
inside the container with the image's own Python and grpcio.
"""

from __future__ import annotations

import sys

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

TIMEOUT_SECONDS = 2.0


def serving(address: str, service: str = "", timeout: float = TIMEOUT_SECONDS) -> bool:
    """Whether the gRPC server at `address` reports `service` as SERVING."""
    with grpc.insecure_channel(address) as channel:
        try:
            response = health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=service), timeout=timeout
            )
        except grpc.RpcError:
            return False
    return bool(response.status == health_pb2.HealthCheckResponse.SERVING)


def main(argv: list[str]) -> int:
    """Probe the address of argv; the exit code (0 serving, 1 not serving, 2 usage)."""
    if len(argv) not in (2, 3):
        print("usage: python -m deploy.probe HOST:PORT [SERVICE]", file=sys.stderr)
        return 2
    return 0 if serving(argv[1], argv[2] if len(argv) == 3 else "") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

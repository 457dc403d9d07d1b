"""The throwaway processes: a gateway that cannot start fails its waiter at once, saying why; a Redis
Cluster whose node lost its port to another process starts on other ports."""

from __future__ import annotations

import socket

import pytest

from deploy import throwaway
from deploy.throwaway import free_port, gateway_serving, start_gateway_process, stop_worker_process


def test_a_gateway_that_exits_fails_its_wait_at_once_with_what_it_logged() -> None:
    port = free_port()
    process = start_gateway_process("nonsense://nowhere", "127.0.0.1:1", port)
    try:
        # "exited", not "is not serving": it failed on the exit, not after the whole allowance
        with pytest.raises(
            RuntimeError, match=r"(?s)exited with 2.*the gateway cannot start: Redis URL must specify"
        ):
            gateway_serving(process, f"127.0.0.1:{port}")
    finally:
        stop_worker_process(process)


def test_a_cluster_node_whose_port_was_taken_first_is_started_again_on_other_ports(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Another process binds a port between its choice and the node's start (as another test's server
    did once under load): the node exits, and the whole set of nodes starts again on fresh ports."""
    real = throwaway.cluster_port
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        picks = iter([taken])  # the first node's port: the squatter's
        monkeypatch.setattr(throwaway, "cluster_port", lambda: next(picks, None) or real())
        with throwaway.redis_cluster() as cluster:
            assert taken not in cluster.nodes and len(cluster.nodes) == 6
            assert cluster.healthy()

"""The throwaway gateway process: a gateway that cannot start fails its waiter at once, saying why."""

from __future__ import annotations

import pytest

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

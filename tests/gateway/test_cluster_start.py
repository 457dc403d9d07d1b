"""A gateway just started on a Redis Cluster, meeting a burst of calls at once: each call's commands run
once. redis-py learns a Cluster's nodes on its first command, and first commands racing that had
connections closed under them and were sent again: a rate-limit counter counted a call twice (a
guest refused below the limit), or a call failed STORE_UNAVAILABLE. The gateway now learns the nodes
as it starts (`live.connection.learn_nodes`)."""

from __future__ import annotations

import grpc
from boardgame.gateway.v1 import gateway_pb2

from live.settings import DEFAULT_RATE_LIMITS
from services.common.status import error_info
from tests.gateway._support_accounts import RPC_TIMEOUT, own_gateway
from tests.redis_modes import ON_A_CLUSTER

pytestmark = ON_A_CLUSTER

STARTS = 20  # a gateway started this often; before, about one in eight of them miscounted


def test_each_call_of_a_burst_on_a_gateway_just_started_is_counted_once(
    redis_url: str, rules: dict[str, str]
) -> None:
    calls = DEFAULT_RATE_LIMITS["guest"] + 1
    miscounted = []
    for start in range(STARTS):
        address = f"198.51.100.{start}"
        with own_gateway(redis_url, rules, client_address_header="x-forwarded-for") as own:
            client = own.make_client()
            request = gateway_pb2.CreateGuestRequest(display_name="g")
            metadata = (("x-forwarded-for", address),)
            futures = [
                client.accounts.CreateGuest.future(request, metadata=metadata, timeout=RPC_TIMEOUT)
                for _ in range(calls)
            ]
            outcomes = []
            for future in futures:
                error = future.exception()
                info = error_info(error) if error is not None else None
                outcomes.append(
                    "OK" if error is None else f"{error.code().name} {info.reason if info else ''}"
                )
            # The burst may straddle two seconds: each second's counter counts its own calls.
            counted = sum(
                int(own.store.get(key)) for key in own.store.scan_iter(match=f"rate:{{*{address}}}:*")
            )
        assert set(outcomes) <= {"OK", f"{grpc.StatusCode.RESOURCE_EXHAUSTED.name} RATE_LIMITED"}, outcomes
        if counted != calls:
            miscounted.append((start, counted))
    assert miscounted == [], f"(start, calls counted) of {calls} calls each"

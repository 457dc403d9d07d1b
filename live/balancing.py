"""How the gateway and the workers spread calls over the replicas of a title's rules service: one
channel per title over every address that serves it, balanced per call (`round_robin`), skipping
replicas whose gRPC health is not SERVING, and retrying calls a replica could not take.

Every RulesService method is a pure function of its request, so retrying one is always safe.
"""

from __future__ import annotations

import ipaddress
import json

from boardgame.rules.v1 import rules_pb2

RULES_SERVICE = rules_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name

# A call refused as UNAVAILABLE (its replica went away, or none was ready yet) or CANCELLED by its
# replica (a server stopped without grace cancels the calls it holds) is tried again, on another
# replica when there is one, up to MAX_ATTEMPTS times in all, within the call's deadline. A call the
# gateway itself cancels is never retried.
MAX_ATTEMPTS = 4
RETRY_POLICY = {
    "maxAttempts": MAX_ATTEMPTS,
    "initialBackoff": "0.05s",
    "maxBackoff": "0.5s",
    "backoffMultiplier": 2,
    "retryableStatusCodes": ["UNAVAILABLE", "CANCELLED"],
}

SERVICE_CONFIG = {
    "loadBalancingConfig": [{"round_robin": {}}],
    # The rules servers report this name SERVING while they take calls (services/common/server.py).
    "healthCheckConfig": {"serviceName": RULES_SERVICE},
    "methodConfig": [{"name": [{"service": RULES_SERVICE}], "retryPolicy": RETRY_POLICY}],
}

CHANNEL_OPTIONS = (("grpc.service_config", json.dumps(SERVICE_CONFIG)),)

# gRPC's target scheme for a list of IP addresses of each family.
SCHEMES = {4: "ipv4", 6: "ipv6"}


def target(title: str, addresses: list[str]) -> str:
    """The channel target reaching every address of `title`: an address alone as it is (host:port,
    or dns:///NAME:PORT for every address NAME resolves to), several as one ipv4:/ipv6: list.

    ValueError when several addresses are not all IP host:port of one family."""
    unique = list(dict.fromkeys(addresses))
    if len(unique) == 1:
        return unique[0]
    families = {_ip_family(address) for address in unique}
    family = families.pop() if len(families) == 1 else None
    if family is None:
        raise ValueError(
            f"the {title} rules service is listed at {', '.join(unique)}: several addresses of one "
            "title must all be IP host:port of one family; give one dns:///NAME:PORT instead for a "
            "name that resolves to every replica"
        )
    return f"{SCHEMES[family]}:{','.join(unique)}"


def _ip_family(address: str) -> int | None:
    """4 or 6 for an IP host:port ("[::1]:50051" for IPv6), None for anything else."""
    host, _, port = address.rpartition(":")
    if not port.isdigit():
        return None
    try:
        return ipaddress.ip_address(host.removeprefix("[").removesuffix("]")).version
    except ValueError:
        return None

"""What the write path counts, in whichever process commits (the gateway for clients' moves, the workers
for bots' and timeouts'): moves committed and moves refused for a stale version, by title. The names
keep the gateway's prefix, so a dashboard sums them over both."""

from __future__ import annotations

import prometheus_client

MOVES_APPLIED = prometheus_client.Counter(
    "gateway_moves_applied_total", "Moves committed, by title.", ["title"]
)
WRITE_CONFLICTS = prometheus_client.Counter(
    "gateway_write_conflicts_total", "Moves refused for a stale version, by title.", ["title"]
)
REPLICA_ACK_SHORTFALLS = prometheus_client.Counter(
    "gateway_replica_ack_shortfalls_total",
    "Commits acknowledged although fewer replicas than REDIS_WAIT_REPLICAS had them within "
    "REDIS_WAIT_TIMEOUT_MS (a failover then may lose them).",
)

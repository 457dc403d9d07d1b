"""What the write path counts, in whichever process commits (the gateway for clients' moves, the workers
for bots' and timeouts'): moves committed and moves refused for a stale version, by title. The names
keep the gateway's prefix, so a dashboard sums them over both. Also whether the archive's database
answers, in every process that asks it."""

from __future__ import annotations

import prometheus_client

MOVES_APPLIED = prometheus_client.Counter(
    "gateway_moves_applied_total", "Moves committed, by title.", ["title"]
)
UNDOS = prometheus_client.Counter(
    "gateway_undos_total", "Undos and takebacks committed, by title.", ["title"]
)
WRITE_CONFLICTS = prometheus_client.Counter(
    "gateway_write_conflicts_total", "Moves refused for a stale version, by title.", ["title"]
)
REPLICA_ACK_SHORTFALLS = prometheus_client.Counter(
    "gateway_replica_ack_shortfalls_total",
    "Commits acknowledged although fewer replicas than REDIS_WAIT_REPLICAS had them within "
    "REDIS_WAIT_TIMEOUT_MS (a failover then may lose them).",
)
# The archive's database (`live.postgres.Database`), in every process that uses it.
ARCHIVE_UP = prometheus_client.Gauge(
    "archive_up",
    "Whether the archive's PostgreSQL answered the last call made to it (1; also before any call) or "
    "not (0); over a worker's processes, the one that called last.",
    multiprocess_mode="livemostrecent",
)
ARCHIVE_FAILURES = prometheus_client.Counter(
    "archive_failures_total",
    "Calls to the archive's PostgreSQL that failed, by reason: timeout (no answer in "
    "DATABASE_TIMEOUT_SECONDS), unreachable (refused or broken), busy (waited past the timeout for "
    "the connection), down (refused at once while the database is taken as down).",
    ["reason"],
)
# The outbox (`live.outbox`): follow-ups a committer left and the workers' sweep performed.
FOLLOWUPS_SWEPT = prometheus_client.Counter(
    "outbox_followups_swept_total",
    "Commits' follow-ups (game lists, tasks, due times) performed by the outbox sweep because their "
    "committer did not acknowledge them (it died or failed after its commit).",
)

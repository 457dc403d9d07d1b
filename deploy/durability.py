"""How durable an acknowledged move is: the Redis append-only file's fsync policy, one setting shared by
the local launcher (`make run`) and the throwaway servers of the tests and benchmarks.

- `always` (the default): Redis fsyncs the AOF before it answers a write, so an acknowledged move
  survives a crash of redis-server and a power loss of its machine;
- `everysec`: fsync once a second in the background; faster (`make bench` measures both), and a
  crash of redis-server alone still loses nothing (the file's data is in the kernel already), but a
  power loss may take the last second of moves.

Environment: REDIS_APPENDFSYNC (always or everysec).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

APPENDFSYNC_CHOICES = ("always", "everysec")
DEFAULT_APPENDFSYNC = APPENDFSYNC_CHOICES[0]


def appendfsync(environ: Mapping[str, str] = os.environ) -> str:
    """The AOF fsync policy REDIS_APPENDFSYNC asks for; ValueError naming the choices for another."""
    policy = environ.get("REDIS_APPENDFSYNC", DEFAULT_APPENDFSYNC).strip().lower() or DEFAULT_APPENDFSYNC
    if policy not in APPENDFSYNC_CHOICES:
        raise ValueError(f"REDIS_APPENDFSYNC must be one of {', '.join(APPENDFSYNC_CHOICES)}, not {policy!r}")
    return policy


def persistence_args(policy: str) -> list[str]:
    """redis-server's options for AOF persistence with fsync `policy` (and no RDB snapshots)."""
    return ["--appendonly", "yes", "--appendfsync", policy, "--save", ""]

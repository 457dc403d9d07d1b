"""Worker configuration from environment variables (Redis and rules addresses come from the settings the
workers share with the gateway, `live.settings`: REDIS_URL, RULES_ADDRESSES, CELERY_BROKER_URL)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from workers.bots import Budget


@dataclass(frozen=True)
class WorkerSettings:
    """The most a search bot may think a move (each bot level's budget, `live.levels`, is kept within
    it), and the broker's visibility timeout."""

    search_seconds: float = 1.0
    search_iterations: int = 0
    visibility_timeout_seconds: int = 600

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> WorkerSettings:
        """Settings from BOT_SEARCH_SECONDS, BOT_SEARCH_ITERATIONS (0: the levels' own) and
        VISIBILITY_TIMEOUT_SECONDS (how long an unacknowledged task waits before redelivery)."""
        return cls(
            search_seconds=float(environ.get("BOT_SEARCH_SECONDS", cls.search_seconds)),
            search_iterations=int(environ.get("BOT_SEARCH_ITERATIONS", cls.search_iterations)),
            visibility_timeout_seconds=int(
                environ.get("VISIBILITY_TIMEOUT_SECONDS", cls.visibility_timeout_seconds)
            ),
        )

    @property
    def budget(self) -> Budget:
        """The cap on the search levels' budgets a move."""
        return Budget(seconds=self.search_seconds, iterations=self.search_iterations)

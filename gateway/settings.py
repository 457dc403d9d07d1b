"""Gateway configuration, read once from environment variables."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from gateway.limits import DEFAULT_LIMITS, env_variable

DEFAULT_ADDRESS = "[::]:50050"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Calls gRPC core holds for the gateway before its event loop takes them: core's own default (1,000,
# refusing more and more of the calls beyond it up to 3,000) drops part of a reconnect storm.
DEFAULT_MAX_PENDING_CALLS = 20_000


@dataclass(frozen=True)
class Settings:
    """Every knob of the gateway; `from_env` documents the variable of each."""

    address: str = DEFAULT_ADDRESS
    redis_url: str = DEFAULT_REDIS_URL
    rules_addresses: tuple[str, ...] = ()
    token_ttl_seconds: int = 30 * 24 * 3600
    rate_limits: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_LIMITS))  # per class
    max_pending_calls: int = DEFAULT_MAX_PENDING_CALLS
    redis_max_connections: int = 256
    redis_pool_timeout_seconds: float = 10.0
    max_message_bytes: int = 64 * 1024
    rules_timeout_seconds: float = 5.0
    event_history: int = 512  # live events kept per game for resuming watchers
    celery_broker_url: str = ""  # empty: the Redis of redis_url

    @property
    def broker_url(self) -> str:
        """Where Celery tasks are queued: CELERY_BROKER_URL, else the Redis of REDIS_URL."""
        return self.celery_broker_url or self.redis_url

    def rate_limit(self, rate_class: str) -> int:
        """Calls of a class (gateway.limits.CLASSES) a player may make per second."""
        return self.rate_limits.get(rate_class, DEFAULT_LIMITS[rate_class])

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """Settings from GATEWAY_ADDRESS, REDIS_URL, RULES_ADDRESSES (comma-separated host:port),
        TOKEN_TTL_SECONDS, RATE_LIMIT_<CLASS>_PER_SECOND (one per class of gateway.limits.CLASSES:
        READ, MOVE, WATCH, LOBBY, ACCOUNT, REPLAY), MAX_PENDING_CALLS (calls gRPC core may hold
        before the gateway takes them; beyond it core refuses a growing share of new calls, and every
        one at twice as many), REDIS_MAX_CONNECTIONS and REDIS_POOL_TIMEOUT_SECONDS (how long a
        command waits for a free one), MAX_MESSAGE_BYTES, RULES_TIMEOUT_SECONDS, CELERY_BROKER_URL."""
        rules = tuple(a.strip() for a in environ.get("RULES_ADDRESSES", "").split(",") if a.strip())
        return cls(
            address=environ.get("GATEWAY_ADDRESS", DEFAULT_ADDRESS),
            redis_url=environ.get("REDIS_URL", DEFAULT_REDIS_URL),
            rules_addresses=rules,
            token_ttl_seconds=int(environ.get("TOKEN_TTL_SECONDS", cls.token_ttl_seconds)),
            rate_limits={name: int(environ.get(env_variable(name), n)) for name, n in DEFAULT_LIMITS.items()},
            max_pending_calls=int(environ.get("MAX_PENDING_CALLS", DEFAULT_MAX_PENDING_CALLS)),
            redis_max_connections=int(environ.get("REDIS_MAX_CONNECTIONS", cls.redis_max_connections)),
            redis_pool_timeout_seconds=float(
                environ.get("REDIS_POOL_TIMEOUT_SECONDS", cls.redis_pool_timeout_seconds)
            ),
            max_message_bytes=int(environ.get("MAX_MESSAGE_BYTES", cls.max_message_bytes)),
            rules_timeout_seconds=float(environ.get("RULES_TIMEOUT_SECONDS", cls.rules_timeout_seconds)),
            celery_broker_url=environ.get("CELERY_BROKER_URL", ""),
        )

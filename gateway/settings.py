"""Gateway configuration, read once from environment variables."""

from __future__ import annotations

import os
import ssl
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

DEFAULT_ADDRESS = "[::]:50050"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
CERT_REQS = {"required": ssl.CERT_REQUIRED, "optional": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}
TLS_FILES = {"ssl_ca_certs": "ca_file", "ssl_certfile": "cert_file", "ssl_keyfile": "key_file"}


@dataclass(frozen=True)
class RedisTls:
    """How a rediss:// URL's server is checked, and the client certificate shown to it, if any."""

    cert_reqs: str = "required"
    ca_file: str = ""  # empty: the system's certificate authorities
    cert_file: str = ""
    key_file: str = ""

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> RedisTls:
        """From REDIS_TLS_CERT_REQS (required, optional or none), REDIS_TLS_CA_FILE,
        REDIS_TLS_CERT_FILE and REDIS_TLS_KEY_FILE."""
        cert_reqs = environ.get("REDIS_TLS_CERT_REQS", cls.cert_reqs).strip().lower()
        if cert_reqs not in CERT_REQS:
            raise ValueError(f"REDIS_TLS_CERT_REQS must be one of {', '.join(CERT_REQS)}, not {cert_reqs!r}")
        return cls(
            cert_reqs=cert_reqs,
            ca_file=environ.get("REDIS_TLS_CA_FILE", ""),
            cert_file=environ.get("REDIS_TLS_CERT_FILE", ""),
            key_file=environ.get("REDIS_TLS_KEY_FILE", ""),
        )

    def options(self, url: str) -> dict[str, Any]:
        """redis-py's TLS options for `url` (also the keys of Celery's broker_use_ssl and
        redis_backend_use_ssl); none for a URL that is not rediss://."""
        if not url.startswith("rediss://"):
            return {}
        files = {key: getattr(self, name) for key, name in TLS_FILES.items() if getattr(self, name)}
        return {"ssl_cert_reqs": CERT_REQS[self.cert_reqs], **files}


@dataclass(frozen=True)
class Settings:
    """Every knob of the gateway; `from_env` documents the variable of each."""

    address: str = DEFAULT_ADDRESS
    redis_url: str = DEFAULT_REDIS_URL
    rules_addresses: tuple[str, ...] = ()
    token_ttl_seconds: int = 30 * 24 * 3600
    rate_limit_per_second: int = 20
    max_message_bytes: int = 64 * 1024
    rules_timeout_seconds: float = 5.0
    event_history: int = 512  # live events kept per game for resuming watchers
    celery_broker_url: str = ""  # empty: the Redis of redis_url
    redis_tls: RedisTls = RedisTls()

    @property
    def broker_url(self) -> str:
        """Where Celery tasks are queued: CELERY_BROKER_URL, else the Redis of REDIS_URL."""
        return self.celery_broker_url or self.redis_url

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """Settings from GATEWAY_ADDRESS, REDIS_URL, RULES_ADDRESSES (comma-separated host:port),
        TOKEN_TTL_SECONDS, RATE_LIMIT_PER_SECOND, MAX_MESSAGE_BYTES, RULES_TIMEOUT_SECONDS,
        CELERY_BROKER_URL, and the REDIS_TLS_* of `RedisTls` for rediss:// URLs."""
        rules = tuple(a.strip() for a in environ.get("RULES_ADDRESSES", "").split(",") if a.strip())
        return cls(
            address=environ.get("GATEWAY_ADDRESS", DEFAULT_ADDRESS),
            redis_url=environ.get("REDIS_URL", DEFAULT_REDIS_URL),
            rules_addresses=rules,
            token_ttl_seconds=int(environ.get("TOKEN_TTL_SECONDS", cls.token_ttl_seconds)),
            rate_limit_per_second=int(environ.get("RATE_LIMIT_PER_SECOND", cls.rate_limit_per_second)),
            max_message_bytes=int(environ.get("MAX_MESSAGE_BYTES", cls.max_message_bytes)),
            rules_timeout_seconds=float(environ.get("RULES_TIMEOUT_SECONDS", cls.rules_timeout_seconds)),
            celery_broker_url=environ.get("CELERY_BROKER_URL", ""),
            redis_tls=RedisTls.from_env(environ),
        )

"""The configuration of the gateway and the workers, read once from environment variables."""

from __future__ import annotations

import os
import ssl
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

DEFAULT_ADDRESS = "[::]:50050"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# Calls gRPC core holds for the gateway before its event loop takes them: core's own default (1,000,
# refusing more and more of the calls beyond it up to 3,000) drops part of a reconnect storm.
DEFAULT_MAX_PENDING_CALLS = 20_000
TOKEN_TTL_SECONDS = 30 * 24 * 3600
CERT_REQS = {"required": ssl.CERT_REQUIRED, "optional": ssl.CERT_OPTIONAL, "none": ssl.CERT_NONE}
CLUSTER_SCHEMES = ("redis+cluster://", "rediss+cluster://")
TLS_FILES = {"ssl_ca_certs": "ca_file", "ssl_certfile": "cert_file", "ssl_keyfile": "key_file"}
# Calls allowed per second, per class of gateway call (`gateway.limits` says which methods each class
# holds and what it counts them per: a signed-in player, a client address or an operator's API key).
DEFAULT_RATE_LIMITS: Mapping[str, int] = {
    "read": 50,
    "move": 50,
    "watch": 10,
    "lobby": 20,
    "account": 5,
    "replay": 2,
    "guest": 10,
    "sign_in": 5,
    "operator": 50,
    "chat": 2,
}
# Names no player may take, besides the bots' (`gateway.names`); RESERVED_NAMES adds to them.
DEFAULT_RESERVED_NAMES: tuple[str, ...] = ("admin", "administrator", "moderator", "operator", "system")


def rate_limit_variable(rate_class: str) -> str:
    """The environment variable setting a class's limit, such as RATE_LIMIT_MOVE_PER_SECOND."""
    return f"RATE_LIMIT_{rate_class.upper()}_PER_SECOND"


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
        redis_backend_use_ssl); none for a URL that is not rediss:// (or rediss+cluster://)."""
        if not url.startswith(("rediss://", "rediss+cluster://")):
            return {}
        files = {key: getattr(self, name) for key, name in TLS_FILES.items() if getattr(self, name)}
        return {"ssl_cert_reqs": CERT_REQS[self.cert_reqs], **files}


@dataclass(frozen=True)
class ReplicaAcks:
    """The replica-acknowledgement policy of the write path: after each commit, wait (Redis `WAIT`) up
    to `timeout_ms` for `replicas` replicas to have it, so that a failover loses no acknowledged move.
    0 replicas: do not wait (Redis replicates asynchronously)."""

    replicas: int = 0
    timeout_ms: int = 100

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> ReplicaAcks:
        """From REDIS_WAIT_REPLICAS and REDIS_WAIT_TIMEOUT_MS."""
        replicas = int(environ.get("REDIS_WAIT_REPLICAS", cls.replicas))
        timeout_ms = int(environ.get("REDIS_WAIT_TIMEOUT_MS", cls.timeout_ms))
        if replicas < 0 or timeout_ms <= 0:
            raise ValueError("REDIS_WAIT_REPLICAS must be 0 or more and REDIS_WAIT_TIMEOUT_MS more than 0")
        return cls(replicas, timeout_ms)


def cluster_url(url: str) -> bool:
    """Whether a Redis URL names a Redis Cluster by its scheme (redis+cluster://, rediss+cluster://)."""
    return url.startswith(CLUSTER_SCHEMES)


@dataclass(frozen=True)
class Settings:
    """Every knob of the gateway and of the workers' connections; `from_env` documents the variable of
    each."""

    address: str = DEFAULT_ADDRESS
    redis_url: str = DEFAULT_REDIS_URL
    rules_addresses: tuple[str, ...] = ()
    token_ttl_seconds: int = TOKEN_TTL_SECONDS
    # A guest's keys expire this long after its last activity, unless it sits in a live game
    # (`live.guests`); registered accounts are kept.
    guest_idle_seconds: int = TOKEN_TTL_SECONDS
    rate_limits: Mapping[str, int] = field(default_factory=lambda: dict(DEFAULT_RATE_LIMITS))  # per class
    max_pending_calls: int = DEFAULT_MAX_PENDING_CALLS
    redis_max_connections: int = 256
    redis_pool_timeout_seconds: float = 10.0
    max_message_bytes: int = 64 * 1024
    rules_timeout_seconds: float = 5.0
    # Changes kept per game (and their request ids): what a watcher resumes from without a resync, and
    # how long a retried move gets its first result (`live.store`).
    event_history: int = 16
    celery_broker_url: str = ""  # empty: the Redis of redis_url
    database_url: str = ""  # PostgreSQL of finished games (`live.archive`); empty: they stay in Redis
    # The longest wait for an answer of PostgreSQL (connecting included): past it, the call is
    # UNAVAILABLE and the database is taken as down for a while (`live.postgres.Database`).
    database_timeout_seconds: float = 5.0
    # The newest finished games each history sorted set keeps once games are archived (`live.history`);
    # older ones are listed from PostgreSQL.
    history_per_player: int = 100
    history_per_title: int = 10_000
    redis_tls: RedisTls = RedisTls()
    watch_streams_per_player: int = 10  # open at once, over every gateway replica
    open_lobbies_per_player: int = 5  # open lobbies a player hosts at once
    open_tournaments_per_player: int = 5  # tournaments a player organises at once, not yet over
    match_band_start: float = 2.0  # rating points apart a match may be at once (`live.matchmaking`)
    match_band_growth_per_second: float = 0.5  # how fast that band widens while a ticket waits
    match_band_max: float = 50.0  # the widest band
    match_bots_after_seconds: int = 60  # a search's wait before bots fill the open seats, if it names none
    match_tick_seconds: float = 0.25  # how often each gateway runs the match script over its queues
    sign_in_failures_per_account: int = (
        5  # wrong passwords before an account's sign-ins from an address back off
    )
    sign_in_failures_per_address: int = 30  # failed sign-ins before an address's sign-ins back off
    sign_in_lockout_seconds: int = 900  # the longest back-off, and how long failures are remembered
    reserved_names: tuple[str, ...] = DEFAULT_RESERVED_NAMES
    client_address_header: str = ""  # empty: the peer's address; else a header a trusted proxy sets
    redis_cluster: bool = False  # REDIS_CLUSTER=1; a redis+cluster:// URL says so too
    replica_acks: ReplicaAcks = ReplicaAcks()
    # How long the seats asked have to answer a takeback request (`live.takebacks`); a correspondence
    # game gives its time a move if that is longer.
    takeback_seconds: int = 120

    @property
    def cluster(self) -> bool:
        """Whether game state is on a Redis Cluster (REDIS_CLUSTER=1 or a redis+cluster:// URL)."""
        return self.redis_cluster or cluster_url(self.redis_url)

    @property
    def broker_url(self) -> str:
        """Where Celery tasks are queued: CELERY_BROKER_URL, else the Redis of REDIS_URL (which Celery
        cannot use when it is a Cluster: ValueError then)."""
        if self.celery_broker_url:
            return self.celery_broker_url
        if self.cluster:
            raise ValueError(
                "Celery's broker cannot be a Redis Cluster: set CELERY_BROKER_URL to a plain Redis "
                "(or RabbitMQ) when REDIS_URL is a Cluster"
            )
        return self.redis_url

    def rate_limit(self, rate_class: str) -> int:
        """Calls of a class (DEFAULT_RATE_LIMITS) a player may make per second."""
        return self.rate_limits.get(rate_class, DEFAULT_RATE_LIMITS[rate_class])

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """Settings from the environment: each plain field from the variable of its name in capitals
        (TOKEN_TTL_SECONDS, MAX_MESSAGE_BYTES, MATCH_TICK_SECONDS, ...: `python -m live.settings`
        lists them with their defaults), and besides: GATEWAY_ADDRESS, RULES_ADDRESSES
        (comma-separated host:port or dns:///NAME:PORT; a title listed several times is balanced over
        them, see `live.balancing`), RATE_LIMIT_<CLASS>_PER_SECOND (one per class of
        DEFAULT_RATE_LIMITS), RESERVED_NAMES (comma-separated, replacing the defaults),
        CLIENT_ADDRESS_HEADER (such as x-forwarded-for behind a proxy that sets it; its last value is
        taken), REDIS_CLUSTER (1: REDIS_URL is a node of a Redis Cluster; a redis+cluster:// URL says
        so too), the REDIS_TLS_* of `RedisTls` and the REDIS_WAIT_* of `ReplicaAcks`. A value that
        does not parse is a ValueError naming its variable."""
        plain = {
            option.name: _read(environ, option.name.upper(), str(option.type))
            for option in fields(cls)
            if option.type in _PARSERS and option.name not in _NOT_PLAIN and option.name.upper() in environ
        }
        rules = tuple(a.strip() for a in environ.get("RULES_ADDRESSES", "").split(",") if a.strip())
        settings = cls(
            **plain,
            address=environ.get("GATEWAY_ADDRESS", DEFAULT_ADDRESS),
            rules_addresses=rules,
            rate_limits={
                name: _read(environ, rate_limit_variable(name), "int", n)
                for name, n in DEFAULT_RATE_LIMITS.items()
            },
            reserved_names=_names(environ.get("RESERVED_NAMES"), cls.reserved_names),
            client_address_header=environ.get("CLIENT_ADDRESS_HEADER", "").strip().lower(),
            redis_cluster=environ.get("REDIS_CLUSTER", "0").strip().lower() in TRUE_WORDS,
            redis_tls=RedisTls.from_env(environ),
            replica_acks=ReplicaAcks.from_env(environ),
        )
        for name in GAMES_KEPT:
            if getattr(settings, name) < 1:
                raise ValueError(f"{name.upper()} must be 1 or more, not {getattr(settings, name)}")
        return settings


# How a plain field's variable is read, by the field's type (as `from __future__` annotations name it).
_PARSERS: Mapping[str, Callable[[str], Any]] = {"int": int, "float": float, "str": str}
# The fields set by variables of other names or forms (`Settings.from_env`).
_NOT_PLAIN = ("address", "client_address_header")
TRUE_WORDS = ("1", "true", "yes")
GAMES_KEPT = ("history_per_player", "history_per_title")  # each 1 or more


def _read(environ: Mapping[str, str], name: str, kind: str, default: Any = None) -> Any:
    """Variable `name` parsed as `kind` (int, float or str), or `default` when it is not set."""
    if name not in environ:
        return default
    try:
        return _PARSERS[kind](environ[name].strip() if kind != "str" else environ[name])
    except ValueError:
        raise ValueError(
            f"{name} must be a{'n' if kind == 'int' else ''} {kind}, not {environ[name]!r}"
        ) from None


def _names(listed: str | None, default: tuple[str, ...]) -> tuple[str, ...]:
    """The comma-separated names of a variable, or `default` when it is not set."""
    if listed is None:
        return default
    return tuple(name.strip() for name in listed.split(",") if name.strip())


def variables() -> list[tuple[str, str]]:
    """Each plain setting's variable and its default, for operators (`python -m live.settings`)."""
    defaults = Settings()
    return [
        (option.name.upper(), str(getattr(defaults, option.name)))
        for option in fields(Settings)
        if option.type in _PARSERS and option.name not in _NOT_PLAIN
    ]


if __name__ == "__main__":
    for name, default in variables():
        print(f"{name:32} {default}")

"""The rate limits: each call is counted per second and per class of call, so that reading a game,
moving in it and opening watch streams do not eat into each other. A signed-in player's calls are
counted per player; the calls that sign in are counted per client address (`client_address`), and an
operator's per API key.

The class of a call comes from its method (`CLASSES`); the interceptor here records it for the call's
task, where `gateway.auth` reads it when it counts the call. A call over its class's limit is refused
with RESOURCE_EXHAUSTED, reason RATE_LIMITED, and the time until the counting second ends: as the
ErrorInfo metadata `retry_after_ms` and as a `google.rpc.RetryInfo` detail.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

import grpc
from google.protobuf import duration_pb2
from google.protobuf.message import Message
from google.rpc import error_details_pb2

from live import keys
from live.errors import GatewayError
from live.settings import DEFAULT_RATE_LIMITS, Settings
from live.table import Table

PER_PLAYER, PER_ADDRESS, PER_API_KEY = "player", "client address", "API key"


@dataclass(frozen=True)
class RateClass:
    """A class of calls sharing one counter per player (or per address, or API key: `counted_per`):
    its name, calls allowed per second by default (`live.settings.DEFAULT_RATE_LIMITS`), and its
    methods (names are unique across the gateway's services)."""

    name: str
    per_second: int
    methods: tuple[str, ...]
    counted_per: str = PER_PLAYER


METHODS_OF_CLASS: Mapping[str, tuple[str, ...]] = {
    "read": (
        "GetMe",
        "ListTitles",
        "GetTitleData",
        "GetCatalog",
        "ListLobbies",
        "GetLobby",
        "GetGame",
        "GetGameRecord",
        "GetReplayStep",
        "GetLeaderboard",
        "ListMyGames",
        "ListTournaments",
        "GetTournament",
    ),
    "move": ("SubmitAction", "Resign", "Undo", "RequestTakeback", "AnswerTakeback"),
    "watch": ("WatchGame", "WatchInbox"),
    "lobby": (
        "CreateLobby",
        "JoinLobby",
        "LeaveLobby",
        "AddBot",
        "StartGame",
        "Rematch",
        "InviteSpectator",
        "FindMatch",
        "CancelMatch",
        "CreateTournament",
        "JoinTournament",
        "LeaveTournament",
        "AddTournamentBot",
        "StartTournament",
        "CancelTournament",
    ),
    "account": ("SignOut", "SetLocale"),
    "replay": ("ReplayGame",),
    "guest": ("CreateGuest",),
    "sign_in": ("SignIn", "Register"),
    "operator": ("IssuePlayerToken",),
    "chat": ("SendChatMessage",),
}
COUNTED_PER: Mapping[str, str] = {"guest": PER_ADDRESS, "sign_in": PER_ADDRESS, "operator": PER_API_KEY}
CLASSES: tuple[RateClass, ...] = tuple(
    RateClass(name, per_second, METHODS_OF_CLASS[name], COUNTED_PER.get(name, PER_PLAYER))
    for name, per_second in DEFAULT_RATE_LIMITS.items()
)
DEFAULT_CLASS = "read"  # a call whose method is in no class (none of the public API's)
CLASS_OF_METHOD: Mapping[str, str] = {method: rate.name for rate in CLASSES for method in rate.methods}

_call_class: contextvars.ContextVar[str] = contextvars.ContextVar("rate_class", default=DEFAULT_CLASS)


def note_call(full_method: str) -> None:
    """Record the rate class of the call being served, by its full method name, for its task."""
    _call_class.set(CLASS_OF_METHOD.get(full_method.rpartition("/")[2], DEFAULT_CLASS))


def call_class() -> str:
    """The rate class of the call being served (the default class outside a call)."""
    return _call_class.get()


class RateClassInterceptor(grpc.aio.ServerInterceptor):
    """Records each call's rate class for the task that serves it (grpc.aio finds a call's handler and
    runs it in one task, so what is set here is what the handler sees)."""

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        """The call's handler, unchanged, after noting the call's class."""
        note_call(details.method)
        return await continuation(details)


def retry_after_ms(second: int, now: float | None = None) -> int:
    """Milliseconds until the counting second `second` (Unix time) is over; at least 1."""
    now = time.time() if now is None else now
    return max(1, int((second + 1 - now) * 1000) + 1)


class RetryLater(GatewayError):
    """RESOURCE_EXHAUSTED for a while: the delay after which the call may succeed comes as the
    ErrorInfo metadata `retry_after_ms` and as a RetryInfo detail."""

    def __init__(self, reason: str, message: str, retry_ms: int, **metadata: str) -> None:
        super().__init__(
            grpc.StatusCode.RESOURCE_EXHAUSTED, reason, message, retry_after_ms=str(retry_ms), **metadata
        )
        self.retry_ms = retry_ms

    def details(self) -> list[Message]:
        """A RetryInfo with the delay, after the ErrorInfo."""
        delay = duration_pb2.Duration()
        delay.FromMilliseconds(self.retry_ms)
        return [error_details_pb2.RetryInfo(retry_delay=delay)]


class RateLimited(RetryLater):
    """RESOURCE_EXHAUSTED: the calls of one class went over its limit this second."""

    def __init__(self, rate_class: str, limit: int, retry_ms: int) -> None:
        super().__init__(
            "RATE_LIMITED",
            f"more than {limit} {rate_class} calls in one second; retry in {retry_ms} ms",
            retry_ms,
            rate_class=rate_class,
            limit=str(limit),
        )


def client_address(context: grpc.aio.ServicerContext, settings: Settings) -> str:
    """The address the call comes from: the peer's host (without its port), or the last value of the
    CLIENT_ADDRESS_HEADER a trusted proxy in front of the gateway sets."""
    if settings.client_address_header:
        for name, value in context.invocation_metadata() or ():
            if name == settings.client_address_header:
                forwarded = value if isinstance(value, str) else value.decode(errors="replace")
                if forwarded.strip():
                    return forwarded.rsplit(",", 1)[-1].strip()
    peer = context.peer() or ""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        return rest.rsplit(":", 1)[0].strip("[]")
    return peer


COUNT_SCRIPT = """
local calls = redis.call('INCR', KEYS[1])
if calls == 1 then redis.call('EXPIRE', KEYS[1], 2) end
return calls
"""


async def count(app: Table, subject: str) -> None:
    """Count a call made without a player's token against its class's limit for `subject` (an address
    or an API key, see `keys.rate`); RateLimited past the limit."""
    rate_class, second = call_class(), int(time.time())
    calls = await app.script(COUNT_SCRIPT)(keys=[keys.rate(subject, rate_class, second)])
    limit = app.settings.rate_limit(rate_class)
    if int(calls) > limit:
        raise RateLimited(rate_class, limit, retry_after_ms(second))

"""Errors a rules engine raises, each carrying its gRPC status code name and an ErrorInfo reason.

Engines raise these without importing gRPC; `services.common.status` maps them onto the wire.
"""

from __future__ import annotations

ECHOED_CHARACTERS = 64  # of a request's value that a refusal's message or metadata quotes


def echoed(value: str) -> str:
    """A value of the request as a refusal quotes it: its first ECHOED_CHARACTERS characters, as a
    Python literal (so control characters show escaped)."""
    return repr(value if len(value) <= ECHOED_CHARACTERS else value[:ECHOED_CHARACTERS] + "...")


class RulesError(Exception):
    """Base class: a request the rules refuse. `code` is a grpc.StatusCode name."""

    code = "INVALID_ARGUMENT"
    reason = "INVALID_REQUEST"

    def __init__(self, message: str, **metadata: str) -> None:
        super().__init__(message)
        self.message = message
        self.metadata = {key: str(value) for key, value in metadata.items()}


class MalformedRequest(RulesError):
    """The request cannot be decoded: garbage bytes, wrong message type, out-of-range fields."""

    reason = "MALFORMED_REQUEST"


class InvalidConfig(RulesError):
    """The player count or an option is not one the game supports."""

    reason = "INVALID_CONFIG"


class IllegalAction(RulesError):
    """The action is well formed but the rules do not allow it now."""

    reason = "ILLEGAL_ACTION"


class NotYourTurn(RulesError):
    """The seat is valid but does not act now."""

    code = "FAILED_PRECONDITION"
    reason = "NOT_YOUR_TURN"


class GameOver(RulesError):
    """The game has ended; nothing more can be played."""

    code = "FAILED_PRECONDITION"
    reason = "GAME_OVER"


class NoCatalog(RulesError):
    """The game has no message catalogs (its texts are English only so far)."""

    code = "NOT_FOUND"
    reason = "NO_CATALOG"

"""Page sizes and opaque page tokens shared by the listing calls.

A token is URL-safe base64 of a small JSON object that also names the listing it belongs to, so a
token from another listing (or another title's) is refused rather than misread.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from live.errors import GatewayError, invalid

DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


def page_size(requested: int) -> int:
    """The page size to use: 20 for 0; INVALID_ARGUMENT outside 1 to 100."""
    if requested == 0:
        return DEFAULT_PAGE_SIZE
    if not 1 <= requested <= MAX_PAGE_SIZE:
        raise invalid(
            "INVALID_PAGE_SIZE", f"page_size must be 1 to {MAX_PAGE_SIZE} (0 for {DEFAULT_PAGE_SIZE})"
        )
    return requested


def encode(listing: str, position: dict[str, Any]) -> str:
    """A page token for `position` within `listing`."""
    payload = json.dumps({"l": listing, **position}, separators=(",", ":"), sort_keys=True)
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def decode(listing: str, token: str) -> dict[str, Any]:
    """The position a page token of `listing` points at; INVALID_ARGUMENT for any other token."""
    try:
        payload = json.loads(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError) as error:
        raise bad_token() from error
    if not isinstance(payload, dict) or payload.pop("l", None) != listing:
        raise bad_token()
    return payload


def after(listing: str, token: str) -> tuple[float, str] | None:
    """The (score, id) a token of a listing ordered by score then id resumes after (`encode`'s "s" and
    "i"); None for no token (the first page); INVALID_ARGUMENT for any other token."""
    if not token:
        return None
    position = decode(listing, token)
    score, last = position.get("s"), position.get("i")
    if not isinstance(score, int | float) or not isinstance(last, str):
        raise bad_token()
    return float(score), last


def bad_token() -> GatewayError:
    """INVALID_ARGUMENT for a page token that this listing never gave out."""
    return invalid("INVALID_PAGE_TOKEN", "page_token is not a next_page_token of this listing")

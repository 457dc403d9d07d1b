"""Redis replies as the Python values the gateway works with.

The client's type hints admit `str` or `bytes` for every reply; the gateway's clients never decode
responses, so a reply is bytes, and these helpers say so once instead of at every read.
"""

from __future__ import annotations


def blob(reply: bytes | str) -> bytes:
    """A reply as bytes."""
    return reply if isinstance(reply, bytes) else reply.encode()


def text(reply: bytes | str) -> str:
    """A reply as text (UTF-8)."""
    return reply.decode() if isinstance(reply, bytes) else reply

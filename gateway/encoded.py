"""Replies encoded once: a reply every watcher of a seat gets alike travels as the bytes made for the
first of them, on the native server and the browser transport alike.

A handler may yield an `Encoded` instead of a message. The native server's replies go through
`serializer` (`gateway.metrics.written` wraps every streaming handler's), which sends its bytes as
they are; connect-python's binary codec calls `SerializeToString`, which gives them too, and the JSON
codec (`gateway.browser`) decodes them into the method's message first (`message`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from google.protobuf import message as protobuf


class Encoded:
    """A reply message's wire form, made once and sent as is."""

    __slots__ = ("data", "message_class")

    def __init__(self, reply: protobuf.Message) -> None:
        self.data = reply.SerializeToString()
        self.message_class = type(reply)

    def SerializeToString(self) -> bytes:  # the name protobuf's messages answer to
        """The reply's bytes."""
        return self.data

    def message(self) -> protobuf.Message:
        """The reply decoded again (for a codec that does not send the binary form)."""
        return self.message_class.FromString(self.data)


def serializer(serialize: Callable[[Any], bytes] | None) -> Callable[[Any], bytes] | None:
    """A method's reply serializer that sends an `Encoded` reply's bytes as they are."""
    if serialize is None:
        return None
    encode = serialize

    def serialized(reply: Any) -> bytes:
        return reply.data if isinstance(reply, Encoded) else encode(reply)

    return serialized

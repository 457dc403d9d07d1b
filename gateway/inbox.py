"""WatchInbox: a player's inbox stream (`live.inbox`), served by any gateway replica.

The stream subscribes to the player's channel first, then sends its opening message (the newest kept
event's id), the events kept after the id the client resumes from, then each new one; an event
published while the kept ones were read is sent once, as ids only grow. A stream that falls behind
reads the kept events again from the last one it sent.
"""

from __future__ import annotations

import re
from collections.abc import AsyncGenerator
from typing import cast

from boardgame.gateway.v1 import gateway_pb2

from gateway.fanout import Fanout, SignedOut
from gateway.watch_leases import WatchLeases
from live import inbox, keys
from live.errors import invalid, unauthenticated
from live.replies import text
from live.table import Table

EVENT_ID = re.compile(r"^\d{1,20}-\d{1,20}$")


def _id(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq)


async def _newest(app: Table, player_id: str) -> str:
    """The id of the player's newest kept event ('0-0' for none)."""
    newest = cast(list[tuple[bytes, object]], await app.redis.xrevrange(keys.inbox(player_id), count=1))
    return text(newest[0][0]) if newest else "0-0"


async def watch(
    app: Table, fanout: Fanout, leases: WatchLeases, player_id: str, session: str, from_event_id: str
) -> AsyncGenerator[gateway_pb2.WatchInboxResponse, None]:
    """The responses of one WatchInbox stream (see the module docstring); INVALID_ARGUMENT for a
    from_event_id that is no event id, QUOTA_EXCEEDED past the player's watch streams, UNAUTHENTICATED
    once the token is signed out."""
    if from_event_id and not EVENT_ID.match(from_event_id):
        raise invalid(
            "INVALID_FROM_EVENT_ID",
            "from_event_id must be an event_id received from WatchInbox, or empty",
            field="from_event_id",
        )
    async with fanout.subscribe_inbox(player_id, session) as queue, leases.hold(player_id, session):
        newest = await _newest(app, player_id)
        yield gateway_pb2.WatchInboxResponse(newest_event_id=newest)
        sent = from_event_id or newest
        catch_up = bool(from_event_id)
        while True:
            if catch_up:
                events, lost = await inbox.kept_after(app.redis, player_id, sent)
                for index, event in enumerate(events):
                    yield gateway_pb2.WatchInboxResponse(event=event, resync=lost and index == 0)
                    sent = event.event_id
                catch_up = False
            item = await queue.get()
            if isinstance(item, SignedOut):
                raise unauthenticated("the token was signed out or revoked; sign in again")
            if item is None:
                catch_up = True
            elif isinstance(item, gateway_pb2.InboxEvent) and _id(item.event_id) > _id(sent):
                yield gateway_pb2.WatchInboxResponse(event=item)
                sent = item.event_id

"""The match script on a real Redis, on its own: a ticket whose stream stopped looking at it (its
gateway died) is dropped rather than matched into a game nobody follows."""

from __future__ import annotations

import asyncio

from boardgame.gateway.v1 import gateway_pb2

from live import keys, matchmaking
from live.connection import async_client
from live.replies import text
from live.settings import Settings

BANDS = matchmaking.Bands(2.0, 0.5, 50.0)
JOINED = 1_000_000


async def queued(
    url: str, looked: dict[str, int], now: int
) -> tuple[list[matchmaking.Group], dict[str, str]]:
    """Queue a ticket per player (rated 0) whose stream last looked at `looked[player]`; match at
    `now`; the groups and each player's ticket status."""
    client = async_client(Settings(redis_url=url))
    kind = gateway_pb2.FindMatchRequest(title="script", seat_count=2)
    queue = matchmaking.queue_id(kind)
    tickets = {}
    try:
        for player, at in looked.items():
            ticket = tickets[player] = matchmaking.new_ticket(queue)
            await matchmaking.join(
                client, kind, ticket, matchmaking.facts(player, 0.0, 600_000, 0), JOINED, b""
            )
            await matchmaking.look(client, player, ticket, at)
        groups = await matchmaking.match(client, queue, 2, BANDS, now)
        statuses = {
            p: text(await client.hget(keys.match_ticket(t), "status") or b"") for p, t in tickets.items()
        }
    finally:
        await client.aclose()
    return groups, statuses


def test_a_ticket_its_stream_stopped_looking_at_is_dropped_not_matched(redis_url: str) -> None:
    now = JOINED + matchmaking.UNSEEN_MS + 1
    groups, statuses = asyncio.run(
        queued(redis_url, {"alive": now, "gone": JOINED, "also alive": now - 1}, now)
    )
    assert statuses["gone"] == matchmaking.MATCH_CANCELLED
    assert [len(group.tickets) for group in groups] == [2]
    assert statuses["alive"] == statuses["also alive"] == matchmaking.MATCH_FORMING

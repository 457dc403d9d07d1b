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


RELEASES = 200


async def released_while_looked_at(url: str) -> list[str]:
    """RELEASES times: a player's claim released while the searching stream renews it (its `look`):
    what went wrong, if anything."""
    client = async_client(Settings(redis_url=url))
    kind = gateway_pb2.FindMatchRequest(title="script", seat_count=2)
    queue = matchmaking.queue_id(kind)
    failures: list[str] = []
    try:
        for n in range(RELEASES):
            player, ticket = f"released {n}", matchmaking.new_ticket(queue)
            await client.set(keys.match_player(player), ticket, ex=matchmaking.CLAIM_TTL_SECONDS)
            outcomes = await asyncio.gather(
                *(matchmaking.look(client, player, ticket, JOINED) for _ in range(3)),
                matchmaking.release(client, player, ticket),
                *(matchmaking.look(client, player, ticket, JOINED) for _ in range(3)),
                return_exceptions=True,
            )
            failures += [repr(outcome) for outcome in outcomes if isinstance(outcome, BaseException)]
            if await client.exists(keys.match_player(player)):
                failures.append(f"{player}'s claim is kept")
    finally:
        await client.aclose()
    return failures


def test_a_claim_is_released_while_its_stream_renews_it(redis_url: str) -> None:
    """A claim's release and its stream's renewal at once: the release neither fails nor misses."""
    assert asyncio.run(released_while_looked_at(redis_url)) == []

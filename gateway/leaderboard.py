"""LeaderboardService: a title's players by displayed rating, as the scoring worker recorded them.

Ranks are competition ranks: equal ratings share a rank and the next rank skips ("1, 2, 2, 4"). Pages
are addressed by position, as ratings move between pages anyway.
"""

from __future__ import annotations

from typing import cast

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from gateway import auth, paging
from gateway.errors import rpc
from live import keys
from live.errors import invalid
from live.replies import text
from live.table import Table


def _count(value: bytes | str | None) -> int:
    try:
        return int(text(value)) if value is not None else 0
    except ValueError:
        return 0


class LeaderboardService(gateway_pb2_grpc.LeaderboardServiceServicer):
    """Reads the rating tables the scoring worker keeps."""

    def __init__(self, app: Table) -> None:
        self.app = app

    @rpc
    async def GetLeaderboard(
        self, request: gateway_pb2.GetLeaderboardRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetLeaderboardResponse:
        """One page of the title's players, best first; NOT_FOUND for an unknown title."""
        await auth.authenticate(self.app, context)
        title = request.title
        if not title:
            raise invalid("MISSING_TITLE", "title is required", field="title")
        self.app.rules.get(title)
        size = paging.page_size(request.page_size)
        listing = f"leaderboard/{title}"
        offset = 0
        if request.page_token:
            offset = paging.decode(listing, request.page_token).get("o", -1)
            if not isinstance(offset, int) or offset < 0:
                raise paging.bad_token()
        board = keys.leaderboard(title)
        ranked = cast(
            list[tuple[bytes, float]],
            await self.app.redis.zrevrange(board, offset, offset + size, withscores=True),
        )
        page = ranked[:size]
        async with self.app.redis.pipeline(transaction=False) as pipe:
            for member, rating in page:
                player_id = text(member)
                pipe.zcount(board, f"({rating}", "+inf")
                pipe.hmget(keys.rating(title, player_id), ["games", "wins"])
                pipe.hgetall(keys.player(player_id))
            replies = await pipe.execute()
        entries = []
        for index, (member, rating) in enumerate(page):
            better, (games, wins), record = replies[3 * index : 3 * index + 3]
            player = auth.player_from_record(text(member), record)
            entries.append(
                gateway_pb2.LeaderboardEntry(
                    rank=better + 1, player=player, rating=rating, games=_count(games), wins=_count(wins)
                )
            )
        token = paging.encode(listing, {"o": offset + size}) if len(ranked) > size else ""
        return gateway_pb2.GetLeaderboardResponse(entries=entries, next_page_token=token)


def add_to_server(app: Table, server: grpc.aio.Server) -> None:
    """Serve LeaderboardService on `server`."""
    gateway_pb2_grpc.add_LeaderboardServiceServicer_to_server(LeaderboardService(app), server)

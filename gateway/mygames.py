"""ListMyGames: one page of a player's games from their own lists (`live.mygames`): the live ones first,
the player's turn first, then the finished ones, newest first."""

from __future__ import annotations

from boardgame.gateway.v1 import gateway_pb2

from gateway import paging
from live import mygames
from live.table import Table

LISTING = "mygames"
START_OF_FINISHED = 2**53  # a cursor score above every finish time: the first finished game


async def page(app: Table, player_id: str, size: int, token: str) -> gateway_pb2.ListMyGamesResponse:
    """The page of the player's games at `token` (empty: the first); INVALID_ARGUMENT for a token of
    another listing."""
    position = paging.decode(LISTING, token) if token else {"o": 0}
    cursor: tuple[float, str] | None = None
    offset = position.get("o")
    if offset is not None:
        if not isinstance(offset, int) or offset < 0:
            raise paging.bad_token()
    else:
        score, after = position.get("s"), position.get("i")
        if not isinstance(score, int | float) or not isinstance(after, str):
            raise paging.bad_token()
        cursor = (float(score), after)
    live, finished = await mygames.listing(app.redis, player_id, offset is not None, cursor, size + 1)
    shown = live[offset or 0 : (offset or 0) + size]
    if offset is not None and offset + size < len(live):
        return gateway_pb2.ListMyGamesResponse(
            games=shown, next_page_token=paging.encode(LISTING, {"o": offset + size})
        )
    wanted = size - len(shown)
    shown.extend(game for game, _ in finished[:wanted])
    token = ""
    if len(finished) > wanted:
        last = finished[wanted - 1] if wanted else None
        mark = {"s": last[1], "i": last[0].game_id} if last else {"s": START_OF_FINISHED, "i": ""}
        token = paging.encode(LISTING, mark)
    return gateway_pb2.ListMyGamesResponse(games=shown, next_page_token=token)

"""A scored game's result as its tournament counts it: each seat's rank as the scoring worker ranked
it (the rules' rank, a resigned or forfeited seat after every other: `workers.scoring`), its final
score and the title's tie-break value. Read from the game's result in Redis (`keys.game_result`) or,
once the game has left Redis, from the archive."""

from __future__ import annotations

import json
from typing import Any

from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.table import Table
from live.tournaments.standings import Placing

SELECT_RANKS = "SELECT ranks, record FROM archived_games WHERE game_id = %s"


def placings(record: gateway_pb2.GameRecord, ranks: dict[int, int]) -> dict[int, Placing]:
    """Each seat's Placing: its player, rank, final score and tie-break value, and whether it resigned
    or forfeited."""
    scores = {score.seat: score for score in record.scores.scores}
    return {
        seat.seat: Placing(
            seat.player.player_id,
            ranks[seat.seat],
            scores[seat.seat].total if seat.seat in scores else 0,
            scores[seat.seat].tiebreak if seat.seat in scores else 0,
            seat.resigned,
        )
        for seat in record.seats
    }


async def of_game(app: Table, game_id: str) -> dict[int, Placing] | None:
    """The game's result by seat, once it has been scored; None before."""
    fields: dict[bytes, bytes] = await app.redis.hgetall(keys.game_result(game_id))  # type: ignore[assignment]
    if fields:
        ranks = {int(seat): rank for seat, rank in json.loads(fields[b"ranks"]).items()}
        return placings(gateway_pb2.GameRecord.FromString(fields[b"record"]), ranks)
    if app.archive is None or await app.redis.exists(keys.game_meta(game_id)):
        return None
    rows: list[tuple[Any, ...]] = await app.archive.rows(SELECT_RANKS, (game_id,))
    if not rows:
        return None
    stored_ranks, record = rows[0]
    ranks = {int(seat): rank for seat, rank in stored_ranks.items()}
    return placings(gateway_pb2.GameRecord.FromString(bytes(record)), ranks)

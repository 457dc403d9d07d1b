"""End-game scoring: final scores and ranks, ratings, the leaderboard and the stored game record.

`finalize(app, game_id)` runs once per finished game however often it is called: everything it writes
goes in one MULTI/EXEC that is aborted if the game's result appeared meanwhile (WATCH), and it does
nothing once the result exists.

Ratings are openskill's Plackett-Luce model, per title, multiplayer with ties. Ranks come from the
rules service's scores (tied seats share a rank); players who resigned or forfeited rank last, tied
among themselves. A player holding several seats is rated once, on their best seat. Bots are players
too and are rated like anyone. The leaderboard shows openskill's ordinal (mu - 3 sigma), a conservative
estimate that only rises with evidence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from openskill.models import PlackettLuce
from redis.exceptions import WatchError

from live import keys, mygames
from live.games import full_record
from live.store import STATUS_FINISHED
from live.table import Table
from workers import metrics

MODEL = PlackettLuce()
FINALIZE_ATTEMPTS = 5


@dataclass(frozen=True)
class Rating:
    """One player's rating on a title."""

    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The displayed rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def _float(value: bytes | str | None, default: float) -> float:
    return float(value) if value is not None else default


async def read_rating(redis: aioredis.Redis, title: str, player_id: str) -> Rating:
    """A player's rating on a title (openskill's prior for a new player)."""
    mu, sigma, games, wins = await redis.hmget(
        keys.rating(title, player_id), ["mu", "sigma", "games", "wins"]
    )
    prior = MODEL.rating()
    return Rating(_float(mu, prior.mu), _float(sigma, prior.sigma), int(games or 0), int(wins or 0))


def final_ranks(scores: rules_pb2.GetScoresResponse, seats: list[gateway_pb2.GameSeat]) -> dict[int, int]:
    """Rank per seat: the rules' rank, resigned seats after everyone else (tied among themselves)."""
    resigned = {seat.seat for seat in seats if seat.resigned}
    playing = [(s.rank, s.seat) for s in scores.scores if s.seat not in resigned]
    ranks = {seat: 1 + sum(1 for other, _ in playing if other < rank) for rank, seat in playing}
    for seat in sorted(resigned):
        ranks[seat] = len(playing) + 1
    return ranks


def best_ranks(seats: list[gateway_pb2.GameSeat], ranks: dict[int, int]) -> dict[str, int]:
    """Rank per player, in the order of their first seat: a player holding several seats gets the best
    (lowest) rank among them."""
    player_ranks: dict[str, int] = {}
    for seat in seats:
        pid = seat.player.player_id
        player_ranks[pid] = min(player_ranks.get(pid, ranks[seat.seat]), ranks[seat.seat])
    return player_ranks


def rate(ratings: dict[str, Rating], player_ranks: dict[str, int]) -> dict[str, Rating]:
    """New ratings after one game: `player_ranks` maps each player to their rank (1 is best)."""
    players = sorted(player_ranks)
    if len(players) < 2:
        return {p: ratings[p] for p in players}
    teams = [[MODEL.rating(mu=ratings[p].mu, sigma=ratings[p].sigma, name=p)] for p in players]
    rated = MODEL.rate(teams, ranks=[float(player_ranks[p]) for p in players])
    return {
        p: Rating(
            team[0].mu,
            team[0].sigma,
            ratings[p].games + 1,
            ratings[p].wins + (1 if player_ranks[p] == 1 else 0),
        )
        for p, team in zip(players, rated, strict=True)
    }


def without_actions(record: gateway_pb2.GameRecord) -> bytes:
    """A record as the result keeps it: the actions are the game's log already (`full_record` has
    them), so they are not stored twice."""
    kept = gateway_pb2.GameRecord()
    kept.CopyFrom(record)
    kept.ClearField("actions")
    return kept.SerializeToString()


async def finalize(app: Table, game_id: str) -> bool:
    """Record a finished game's result, ratings, leaderboard and record once; False if already done."""
    redis = app.redis
    meta = await app.store.meta(game_id)
    if meta is None or meta.status != STATUS_FINISHED:
        return False
    if await redis.exists(keys.game_result(game_id)):
        return False
    record, version = await full_record(app, meta)
    scores = record.scores
    ranks = final_ranks(scores, list(record.seats))
    player_ranks = best_ranks(list(record.seats), ranks)
    finished_ms = record.finished_at.ToMilliseconds() if record.HasField("finished_at") else 0
    for _ in range(FINALIZE_ATTEMPTS):
        async with redis.pipeline(transaction=True) as pipe:
            rating_keys = [keys.rating(record.title, p) for p in player_ranks]
            await pipe.watch(keys.game_result(game_id), *rating_keys)
            if await pipe.exists(keys.game_result(game_id)):
                return False
            before = {p: await read_rating(pipe, record.title, p) for p in player_ranks}
            after = rate(before, player_ranks)
            pipe.multi()
            for player_id, rating in after.items():
                pipe.hset(
                    keys.rating(record.title, player_id),
                    mapping={
                        "mu": rating.mu,
                        "sigma": rating.sigma,
                        "games": rating.games,
                        "wins": rating.wins,
                    },
                )
                pipe.zadd(keys.leaderboard(record.title), {player_id: rating.ordinal})
                pipe.zadd(keys.player_games(player_id), {game_id: finished_ms})
            pipe.zadd(keys.title_games(record.title), {game_id: finished_ms})
            pipe.hset(
                keys.game_result(game_id),
                mapping={
                    "record": without_actions(record),
                    "version": version,
                    "ranks": json.dumps({str(seat): rank for seat, rank in sorted(ranks.items())}),
                    "ratings": json.dumps(
                        {
                            p: {
                                "before": [before[p].mu, before[p].sigma, before[p].ordinal],
                                "after": [after[p].mu, after[p].sigma, after[p].ordinal],
                            }
                            for p in sorted(after)
                        }
                    ),
                },
            )
            try:
                await pipe.execute()
            except WatchError:
                continue
        metrics.GAMES_FINALIZED.labels(record.title).inc()
        ratings = {p: (before[p].ordinal, after[p].ordinal) for p in after}
        await mygames.scored(redis, record, version, player_ranks, ratings)
        return True
    raise RuntimeError(f"could not finalize game {game_id}: its ratings kept changing")


async def result(redis: aioredis.Redis, game_id: str) -> dict[str, object] | None:
    """A finalized game's result: record (GameRecord without its actions), ranks per seat, ratings
    before/after; or None."""
    fields: dict[bytes, bytes] = await redis.hgetall(keys.game_result(game_id))  # type: ignore[assignment]
    if not fields:
        return None
    return {
        "record": gateway_pb2.GameRecord.FromString(fields[b"record"]),
        "ranks": {int(k): v for k, v in json.loads(fields[b"ranks"]).items()},
        "ratings": json.loads(fields[b"ratings"]),
    }

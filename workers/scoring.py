"""End-game scoring: final scores and ranks, ratings, the leaderboard and the stored game record.

`finalize(app, game_id)` runs once per finished game however often it is called, in steps of one Redis
Cluster slot each, every one idempotent, so that a run stopped between any two (a crash, a lost
connection) is finished by the next, and leaves nothing half-done once it has:

1. the plan (the game's slot): ranks and every player's rating before and after, stored once (SET NX),
   so a resumed run carries on with the numbers the first one computed;
2. each player (the player's slot): the new rating and the game in the player's history, in one
   script that does nothing if the history holds the game already. If the rating changed since the
   plan was made (another game of the player was scored meanwhile), that player's update is computed
   again from the rating now and the opponents' as planned, and the plan rewritten, so no update is
   lost;
3. the leaderboard (the title's slot): each player's displayed rating, unless it already shows a
   later one (it keeps the games count of what it shows); guests, who are temporary, are not shown;
4. the title's history;
5. the result (the game's slot), written last and once, which marks the game finalized and drops the
   plan: a run that finds it does nothing.

Ratings are openskill's Plackett-Luce model, per title, multiplayer with ties. Ranks come from the
rules service's scores (tied seats share a rank); players who resigned or forfeited rank last, tied
among themselves. A player holding several seats is rated once, on their best seat. Bots are players
too and are rated like anyone: each of the few bots (`gateway.bots`) keeps one rating per title over
all its games. An unrated game (`GameRecord.unrated`: an unrated lobby's, or an unrated tournament's
table) is scored and listed in the histories, but leaves every rating as it was. The leaderboard shows
openskill's ordinal (mu - 3 sigma), a conservative estimate that only rises with evidence.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from openskill.models import PlackettLuce

from live import guests, keys, matchmaking, mygames
from live.games import full_record
from live.store import STATUS_FINISHED
from live.table import Table
from workers import metrics

MODEL = PlackettLuce()
RATING_FIELDS = ["mu", "sigma", "games", "wins"]

# KEYS: rating, player history. ARGV: game id, finished ms, games before, mu, sigma, games, wins.
APPLY_RATING = """
if redis.call('ZSCORE', KEYS[2], ARGV[1]) then return {'applied'} end
if tonumber(redis.call('HGET', KEYS[1], 'games') or '0') ~= tonumber(ARGV[3]) then return {'moved'} end
redis.call('HSET', KEYS[1], 'mu', ARGV[4], 'sigma', ARGV[5], 'games', ARGV[6], 'wins', ARGV[7])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return {'ok'}
"""
# KEYS: leaderboard, its games counts. ARGV: (player id, games, displayed rating) per player.
SHOW_RATINGS = """
for i = 1, #ARGV, 3 do
  if tonumber(redis.call('HGET', KEYS[2], ARGV[i]) or '-1') < tonumber(ARGV[i + 1]) then
    redis.call('ZADD', KEYS[1], ARGV[i + 2], ARGV[i])
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 1])
  end
end
return 0
"""
# KEYS: result, plan. ARGV: the result's field/value pairs. 1 if this call wrote it.
RECORD_RESULT = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV))
redis.call('DEL', KEYS[2])
return 1
"""


@dataclass(frozen=True)
class Rating:
    """One player's rating on a title."""

    mu: float
    sigma: float
    games: int
    wins: int

    @property
    def ordinal(self) -> float:
        """The displayed rating (`live.matchmaking.displayed`)."""
        return matchmaking.displayed(self.mu, self.sigma)


def _float(value: bytes | str | None, default: float) -> float:
    return float(value) if value is not None else default


async def read_rating(redis: aioredis.Redis, title: str, player_id: str) -> Rating:
    """A player's rating on a title (openskill's prior for a new player)."""
    mu, sigma, games, wins = await redis.hmget(keys.rating(title, player_id), RATING_FIELDS)
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


def rated(game: Finished, ratings: dict[str, Rating], player_ranks: dict[str, int]) -> dict[str, Rating]:
    """The ratings after the game: `rate`'s, or the same ones for an unrated game (`GameRecord.unrated`),
    which still counts in the players' histories."""
    if game.record.unrated:
        return {p: ratings[p] for p in player_ranks}
    return rate(ratings, player_ranks)


def without_actions(record: gateway_pb2.GameRecord) -> bytes:
    """A record as the result keeps it: the actions are the game's log already (`full_record` has
    them), so they are not stored twice."""
    kept = gateway_pb2.GameRecord()
    kept.CopyFrom(record)
    kept.ClearField("actions")
    return kept.SerializeToString()


@dataclass(frozen=True)
class Plan:
    """What scoring a game writes, fixed by its first step: rank per seat and per player, and each
    player's rating before and after."""

    ranks: dict[int, int]
    player_ranks: dict[str, int]
    before: dict[str, Rating]
    after: dict[str, Rating]

    def dumps(self) -> str:
        """The plan as stored (JSON)."""
        return json.dumps(
            {
                "ranks": {str(seat): rank for seat, rank in sorted(self.ranks.items())},
                "players": {
                    p: [self.player_ranks[p], _fields(self.before[p]), _fields(self.after[p])]
                    for p in self.player_ranks
                },
            }
        )

    @classmethod
    def loads(cls, stored: bytes | str) -> Plan:
        """The plan of its stored JSON."""
        data = json.loads(stored)
        players: dict[str, Any] = data["players"]
        return cls(
            {int(seat): rank for seat, rank in data["ranks"].items()},
            {p: rank for p, (rank, _, _) in players.items()},
            {p: Rating(*before) for p, (_, before, _) in players.items()},
            {p: Rating(*after) for p, (_, _, after) in players.items()},
        )


def _fields(rating: Rating) -> list[float | int]:
    return [rating.mu, rating.sigma, rating.games, rating.wins]


@dataclass(frozen=True)
class Finished:
    """A finished game being scored: its whole record, the version it ended at and its finish time."""

    game_id: str
    record: gateway_pb2.GameRecord
    version: int
    finished_ms: int

    @property
    def title(self) -> str:
        """The game's title."""
        return self.record.title


async def make_plan(app: Table, game: Finished) -> Plan:
    """Step 1: the game's plan, made now from the players' ratings, or the one a run before stored."""
    stored_key = keys.game_scoring(game.game_id)
    stored = await app.redis.get(stored_key)
    if stored is not None:
        return Plan.loads(stored)
    ranks = final_ranks(game.record.scores, list(game.record.seats))
    player_ranks = best_ranks(list(game.record.seats), ranks)
    before = {p: await read_rating(app.redis, game.title, p) for p in player_ranks}
    plan = Plan(ranks, player_ranks, before, rated(game, before, player_ranks))
    if await app.redis.set(stored_key, plan.dumps(), nx=True):
        return plan
    return Plan.loads(await app.redis.get(stored_key) or b"")  # another run stored its plan first


async def rate_player(app: Table, game: Finished, plan: Plan, player_id: str) -> Plan:
    """Step 2, for one player: their new rating and the game in their history (once); the plan, made
    again for that player if their rating moved since it was made."""
    while True:
        after = plan.after[player_id]
        reply = await app.script(APPLY_RATING)(
            keys=[keys.rating(game.title, player_id), keys.player_games(player_id)],
            args=[game.game_id, game.finished_ms, plan.before[player_id].games, *_fields(after)],
        )
        if reply[0] != b"moved":
            return plan
        now = await read_rating(app.redis, game.title, player_id)
        ratings = {**plan.before, player_id: now}
        plan = replace(
            plan,
            before=ratings,
            after={**plan.after, player_id: rated(game, ratings, plan.player_ranks)[player_id]},
        )
        await app.redis.set(keys.game_scoring(game.game_id), plan.dumps())


async def show_ratings(app: Table, game: Finished, plan: Plan) -> None:
    """Step 3: the players' displayed ratings on the title's leaderboard (never over a later one). A
    guest is rated but not shown: it is temporary (`live.guests`), and the board would outlive it."""
    passing = set(guests.guests_of(game.record))
    shown = [item for p, r in plan.after.items() if p not in passing for item in (p, r.games, r.ordinal)]
    await app.script(SHOW_RATINGS)(
        keys=[keys.leaderboard(game.title), keys.leaderboard_games(game.title)], args=shown
    )


async def file_history(app: Table, game: Finished) -> None:
    """Step 4: the game in its title's history."""
    await app.redis.zadd(keys.title_games(game.title), {game.game_id: game.finished_ms})


async def record_result(app: Table, game: Finished, plan: Plan) -> bool:
    """Step 5: the result, once (False if it was there already), dropping the plan."""
    ratings = {
        p: {
            "before": [plan.before[p].mu, plan.before[p].sigma, plan.before[p].ordinal],
            "after": [plan.after[p].mu, plan.after[p].sigma, plan.after[p].ordinal],
        }
        for p in sorted(plan.after)
    }
    fields: Sequence[str | bytes | int] = (
        "record",
        without_actions(game.record),
        "version",
        game.version,
        "ranks",
        json.dumps({str(seat): rank for seat, rank in sorted(plan.ranks.items())}),
        "ratings",
        json.dumps(ratings),
    )
    written = await app.script(RECORD_RESULT)(
        keys=[keys.game_result(game.game_id), keys.game_scoring(game.game_id)], args=list(fields)
    )
    return bool(written)


async def finalize(app: Table, game_id: str) -> bool:
    """Record a finished game's result, ratings, leaderboard and record once, in the steps of the
    module docstring; False if it was done already (or the game is not finished)."""
    meta = await app.store.meta(game_id)
    if meta is None or meta.status != STATUS_FINISHED:
        return False
    if await app.redis.exists(keys.game_result(game_id)):
        return False
    record, version = await full_record(app, meta)
    finished_ms = record.finished_at.ToMilliseconds() if record.HasField("finished_at") else 0
    game = Finished(game_id, record, version, finished_ms)
    plan = await make_plan(app, game)
    for player_id in plan.player_ranks:
        plan = await rate_player(app, game, plan, player_id)
    await show_ratings(app, game, plan)
    await file_history(app, game)
    # The players' lists of games (versioned, so a run again changes nothing) before the result, which
    # marks the scoring done.
    ratings = {p: (plan.before[p].ordinal, plan.after[p].ordinal) for p in plan.after}
    await mygames.scored(app.redis, record, version, plan.player_ranks, ratings)
    await guests.game_changed(app, record)  # its guests expire again once idle, new ratings too
    if not await record_result(app, game, plan):
        return False
    metrics.GAMES_FINALIZED.labels(record.title).inc()
    return True


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

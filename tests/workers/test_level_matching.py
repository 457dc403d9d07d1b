"""The matchmaker fills a search's open seats with the bot level nearest the matched players' rating
when the search names none, and with the level it names otherwise; through a real gateway, whose
matcher forms the game, and the real worker, whose bots of that level then play it to the end (the
player resigns at once)."""

from __future__ import annotations

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys, levels
from live.matchmaking import displayed
from tests.gateway.support import Client, GatewayProcess
from tests.titles import TITLE
from tests.workers.support import finalized, wait_for

BOTS_AFTER_SECONDS = 1
SEARCH_TIMEOUT_SECONDS = 60


def matched_bots(
    gateway: GatewayProcess,
    redis_client: redis.Redis,
    name: str,
    rating: tuple[float, float] | None = None,
    strength: int = gateway_pb2.BOT_STRENGTH_UNSPECIFIED,
) -> tuple[float, list[gateway_pb2.GameSeat]]:
    """A new guest (with a stored rating of (mu, sigma) on TITLE if given) searches a 2-seat game of
    TITLE alone; the rating its search used and the bot seats of its game, which it then resigns and
    the bots play to the end."""
    with grpc.insecure_channel(gateway.address) as channel:
        player = Client(channel)
        session = player.sign_in_as_guest(name)
        if rating is not None:
            mu, sigma = rating
            stored = {"mu": mu, "sigma": sigma, "games": 40, "wins": 20}
            redis_client.hset(keys.rating(TITLE, session.player.player_id), mapping=stored)
        search = gateway_pb2.FindMatchRequest(
            title=TITLE, seat_count=2, bots_after_seconds=BOTS_AFTER_SECONDS, bot_strength=strength
        )
        replies = list(player.matches.FindMatch(search, metadata=player.auth, timeout=SEARCH_TIMEOUT_SECONDS))
        last = replies[-1]
        assert last.status == gateway_pb2.MATCH_STATUS_MATCHED and last.bots == 1, last
        game = player.games.GetGame(
            gateway_pb2.GetGameRequest(game_id=last.game_id), metadata=player.auth
        ).game
        player.games.Resign(gateway_pb2.ResignRequest(game_id=last.game_id), metadata=player.auth)
        wait_for(lambda: finalized(redis_client, last.game_id), 240, f"game {last.game_id} to be finalized")
    bots = [seat for seat in game.seats if seat.player.bot]
    assert [seat.player.player_id for seat in game.seats if not seat.player.bot] == [session.player.player_id]
    return replies[0].rating, bots


def level_of(seats: list[gateway_pb2.GameSeat]) -> levels.Level:
    """The one level the bot seats share, checked against their names."""
    assert len({seat.bot_strength for seat in seats}) == 1, seats
    level = levels.of(seats[0].bot_strength)
    assert level.strength == seats[0].bot_strength
    assert [seat.player.display_name for seat in seats] == [f"{level.display_name} 1"]
    return level


def test_a_new_player_gets_the_level_nearest_the_prior_rating(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    rating, bots = matched_bots(gateway, redis_client, "newcomer")
    assert rating == 0.0, "a new player searches at the prior's displayed rating"
    measured = levels.ratings(TITLE)
    nearest = min(levels.LEVELS, key=lambda level: abs(measured[level.name].rating - rating))
    assert level_of(bots) == nearest == levels.nearest(TITLE, 0.0)


def test_a_strong_player_gets_a_harder_level_and_the_hard_level_at_its_rating(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    hard = levels.ratings(TITLE)["hard"]
    rating, bots = matched_bots(gateway, redis_client, "strong", (hard.rating + 6.0, 2.0))
    assert rating == displayed(hard.rating + 6.0, 2.0) == pytest.approx(hard.rating)
    level = level_of(bots)
    assert level == levels.HARD
    assert levels.LEVELS.index(level) > levels.LEVELS.index(levels.nearest(TITLE, 0.0))


def test_a_level_asked_for_is_kept_whatever_the_rating(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    asked = next(level for level in levels.LEVELS if level != levels.nearest(TITLE, 0.0))
    _, bots = matched_bots(gateway, redis_client, "chooser", strength=asked.strength)
    assert level_of(bots) == asked
    hard = levels.ratings(TITLE)["hard"]
    _, bots = matched_bots(
        gateway, redis_client, "strong chooser", (hard.rating + 6.0, 2.0), gateway_pb2.BOT_STRENGTH_RANDOM
    )
    assert level_of(bots) == levels.RANDOM

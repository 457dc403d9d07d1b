"""End-game scoring: ranks with resignations, openskill ratings with ties, finalize applied once even
when two deliveries race, finished by the next run when one stops between any two of its steps, and
losing no rating update when another game of a player is scored in the middle of it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from gateway import bots
from live import keys
from live.games import full_record
from live.moves import load_meta
from live.settings import Settings
from live.table import NoDispatch
from tests.gateway.support import GatewayProcess
from tests.titles import TITLE
from tests.workers.support import bot_seat, finalized, new_game, wait_for
from workers import scoring, turns
from workers.bots import Budget


def scores(*ranks: int) -> rules_pb2.GetScoresResponse:
    return rules_pb2.GetScoresResponse(
        scores=[rules_pb2.SeatScore(seat=s, rank=r) for s, r in enumerate(ranks)], final=True
    )


def seats(count: int, resigned: tuple[int, ...] = ()) -> list[gateway_pb2.GameSeat]:
    return [gateway_pb2.GameSeat(seat=s, resigned=s in resigned) for s in range(count)]


def test_ranks_keep_ties_and_put_resigned_players_last() -> None:
    assert scoring.final_ranks(scores(1, 2, 2, 4), seats(4)) == {0: 1, 1: 2, 2: 2, 3: 4}
    assert scoring.final_ranks(scores(1, 2, 2, 4), seats(4, resigned=(0,))) == {1: 1, 2: 1, 3: 3, 0: 4}
    assert scoring.final_ranks(scores(1, 1, 3), seats(3, resigned=(0, 1))) == {2: 1, 0: 2, 1: 2}


def test_a_player_holding_two_seats_gets_the_better_rank() -> None:
    def seat(number: int, player_id: str) -> gateway_pb2.GameSeat:
        return gateway_pb2.GameSeat(seat=number, player=gateway_pb2.Player(player_id=player_id))

    table = [seat(0, "ann"), seat(1, "bob"), seat(2, "ann"), seat(3, "cy")]
    assert scoring.best_ranks(table, {0: 4, 1: 1, 2: 2, 3: 3}) == {"ann": 2, "bob": 1, "cy": 3}
    assert scoring.best_ranks(table, {0: 1, 1: 3, 2: 4, 3: 2}) == {"ann": 1, "bob": 3, "cy": 2}
    assert list(scoring.best_ranks(table, {0: 4, 1: 1, 2: 2, 3: 3})) == ["ann", "bob", "cy"]


def test_ratings_move_by_rank_and_ties_move_alike() -> None:
    prior = scoring.Rating(25.0, 25 / 3, 0, 0)
    after = scoring.rate({p: prior for p in "abcd"}, {"a": 1, "b": 2, "c": 2, "d": 4})
    assert after["a"].mu > after["b"].mu > after["d"].mu
    assert after["b"].mu == pytest.approx(after["c"].mu)
    assert after["a"].mu > prior.mu > after["d"].mu
    assert all(r.sigma < prior.sigma and r.games == 1 for r in after.values())
    assert [after[p].wins for p in "abcd"] == [1, 0, 0, 0]
    assert after["a"].ordinal == pytest.approx(after["a"].mu - 3 * after["a"].sigma)


@pytest.fixture
def quiet_gateway(settings: Settings) -> Iterator[GatewayProcess]:
    """A gateway that queues nothing, so this test plays and scores the game itself."""
    with GatewayProcess(settings, dispatcher=NoDispatch()) as process:
        yield process


def played_out(gateway: GatewayProcess, players: list[gateway_pb2.GameSeat]) -> str:
    """A game of these seats, played to its end by random bots in this test (nothing scored yet)."""
    game_id = new_game(gateway, TITLE, players)
    app = gateway.app
    assert app is not None

    async def play_out() -> None:
        version = 0
        while await turns.take_turn(app, game_id, version, Budget()):
            version += 1

    gateway.run(play_out())
    return game_id


def test_racing_finalizes_apply_once(quiet_gateway: GatewayProcess, redis_client: redis.Redis) -> None:
    players = [bot_seat(quiet_gateway, s, "random") for s in range(3)]
    game_id = played_out(quiet_gateway, players)
    app = quiet_gateway.app
    assert app is not None
    assert redis_client.hget(keys.game_meta(game_id), "status") == b"finished"

    async def race() -> list[bool]:
        return list(await asyncio.gather(*(scoring.finalize(app, game_id) for _ in range(4))))

    assert sorted(quiet_gateway.run(race())) == [False, False, False, True]
    for seat in players:
        assert redis_client.hget(keys.rating(TITLE, seat.player.player_id), "games") == b"1"
        assert redis_client.zscore(keys.player_games(seat.player.player_id), game_id) is not None


class Crash(Exception):
    """A run of finalize stopped between two steps."""


STEPS = ("make_plan", "rate_player", "show_ratings", "file_history")  # each but the last, record_result


def stored_rating(client: redis.Redis, player_id: str) -> scoring.Rating:
    mu, sigma, games, wins = client.hmget(keys.rating(TITLE, player_id), scoring.RATING_FIELDS)
    return scoring.Rating(float(mu or 0), float(sigma or 0), int(games or 0), int(wins or 0))


@pytest.mark.parametrize("step", STEPS)
def test_a_finalize_stopped_after_any_step_is_finished_once_by_the_next_run(
    quiet_gateway: GatewayProcess, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    players = [bot_seat(quiet_gateway, s, "random") for s in range(3)]
    game_id = played_out(quiet_gateway, players)
    app = quiet_gateway.app
    assert app is not None
    original = getattr(scoring, step)

    async def then_crash(*args: object) -> object:
        await original(*args)
        raise Crash(step)

    monkeypatch.setattr(scoring, step, then_crash)
    with pytest.raises(Crash):
        quiet_gateway.run(scoring.finalize(app, game_id))
    assert not redis_client.exists(keys.game_result(game_id))  # not done: the next run must finish it
    monkeypatch.undo()

    assert quiet_gateway.run(scoring.finalize(app, game_id)) is True
    assert quiet_gateway.run(scoring.finalize(app, game_id)) is False
    result = quiet_gateway.run(scoring.result(app.redis, game_id))
    assert result is not None
    assert not redis_client.exists(keys.game_scoring(game_id))
    for seat in players:
        player_id = seat.player.player_id
        rating = stored_rating(redis_client, player_id)
        assert rating.games == 1  # applied once, whatever ran twice
        assert [rating.mu, rating.sigma, rating.ordinal] == pytest.approx(
            result["ratings"][player_id]["after"]
        )
        assert redis_client.zscore(keys.leaderboard(TITLE), player_id) == pytest.approx(rating.ordinal)
        assert redis_client.zscore(keys.player_games(player_id), game_id) is not None
    assert redis_client.zscore(keys.title_games(TITLE), game_id) is not None


def test_a_rating_that_moved_since_the_plan_is_rated_again_from_where_it_stands(
    quiet_gateway: GatewayProcess, redis_client: redis.Redis
) -> None:
    shared = bot_seat(quiet_gateway, 0, "random")
    first = played_out(quiet_gateway, [shared] + [bot_seat(quiet_gateway, s, "random") for s in (1, 2)])
    second = played_out(quiet_gateway, [shared] + [bot_seat(quiet_gateway, s, "random") for s in (1, 2)])
    app = quiet_gateway.app
    assert app is not None
    player_id = shared.player.player_id

    async def plan_of(game_id: str) -> scoring.Plan:
        record, version = await full_record(app, await load_meta(app.store, game_id))
        finished = scoring.Finished(game_id, record, version, record.finished_at.ToMilliseconds())
        return await scoring.make_plan(app, finished)

    plan = quiet_gateway.run(plan_of(first))  # the first game's run stops after its plan...
    assert quiet_gateway.run(scoring.finalize(app, second)) is True  # ...the second is scored meanwhile
    between = stored_rating(redis_client, player_id)
    assert between.games == 1

    assert quiet_gateway.run(scoring.finalize(app, first)) is True
    rating = stored_rating(redis_client, player_id)
    expected = scoring.rate({**plan.before, player_id: between}, plan.player_ranks)[player_id]
    assert rating.games == 2  # both games count: the second's update is not overwritten
    assert [rating.mu, rating.sigma, rating.wins] == pytest.approx(
        [expected.mu, expected.sigma, expected.wins]
    )
    assert redis_client.zscore(keys.leaderboard(TITLE), player_id) == pytest.approx(rating.ordinal)


def test_the_shared_bots_keep_one_rating_each_over_their_games(
    quiet_gateway: GatewayProcess, redis_client: redis.Redis
) -> None:
    """The few bots seated game after game (`gateway.bots`) are rated on every game, each on one rating
    and one leaderboard entry of the title."""
    app = quiet_gateway.app
    assert app is not None
    random = gateway_pb2.BOT_STRENGTH_RANDOM
    lineup = bots.lineup(random, 3)
    quiet_gateway.run(bots.create(app, lineup))
    before = {player.player_id: stored_rating(redis_client, player.player_id).games for player in lineup}
    board = set(redis_client.zrange(keys.leaderboard(TITLE), 0, -1))
    for _ in range(2):
        seated = [gateway_pb2.GameSeat(seat=s, player=p, bot_strength=random) for s, p in enumerate(lineup)]
        assert quiet_gateway.run(scoring.finalize(app, played_out(quiet_gateway, seated))) is True
    for player_id, games in before.items():
        rating = stored_rating(redis_client, player_id)
        assert rating.games == games + 2
        assert redis_client.zscore(keys.leaderboard(TITLE), player_id) == pytest.approx(rating.ordinal)
    board_after = set(redis_client.zrange(keys.leaderboard(TITLE), 0, -1))
    assert board_after - board <= {player.player_id.encode() for player in lineup}


def test_a_finalize_that_lost_redis_midway_is_run_again_by_the_worker_and_finishes(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing else queues a finished game's scoring again, so the task itself retries while Redis is
    out of reach (a Cluster failing over), and its steps resume where the lost run stopped."""
    original = scoring.show_ratings
    failures: list[str] = []

    async def lose_redis_once(*args: object) -> None:
        if not failures:
            failures.append("lost")
            raise redis.exceptions.ConnectionError("Connection closed by server.")
        await original(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(scoring, "show_ratings", lose_redis_once)
    players = [bot_seat(gateway, s, "random") for s in range(3)]
    game_id = new_game(gateway, TITLE, players)
    wait_for(lambda: finalized(redis_client, game_id), 60, f"game {game_id} to be finalized")
    assert failures == ["lost"]
    for seat in players:
        assert stored_rating(redis_client, seat.player.player_id).games == 1

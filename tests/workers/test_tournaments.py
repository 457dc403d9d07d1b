"""A 16-entrant Swiss of bots played to its end by a real worker, on one Redis node and on a Cluster:
each round paired by the worker that scored the round's last game, every round's tables valid (every
entrant once, full tables, the byes to the lowest-ranked without one), nobody meeting twice, the
standings recomputed here from the games' results as PostgreSQL archived them, and the tournament
archived beside its games.

The title is the registry's with the shortest games (the least `max_game_length`), at the fewest seats
it takes that leave someone over from 16 (so that there are byes); the bots are random ones. A round
of five or six games of random bots takes a few seconds on two cores (the test prints its time)."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations

import grpc
import psycopg
import redis
from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2, tournaments_pb2_grpc

from live import keys
from live.tournaments import rounds, store
from services.common import registry
from tests.gateway.support import Client, GatewayProcess
from tests.workers.support import wait_for

ENTRANTS = 16
ROUNDS = 4
TITLE = min(registry.games(), key=lambda name: (registry.get(name).info.max_game_length, name))
INFO = registry.get(TITLE).info
# The fewest seats the title takes that leave entrants over (byes), else its fewest.
SEATS = next(
    (k for k in range(INFO.min_players, INFO.max_players + 1) if ENTRANTS % k),
    INFO.min_players,
)
FINISH_SECONDS = 900


def points_at(ranks: dict[str, int], player: str) -> float:
    """An entrant's points at a finished table: 1 per opponent ranked below, 1/2 per one level."""
    mine = ranks[player]
    return sum(1.0 if mine < r else 0.5 if mine == r else 0.0 for p, r in ranks.items() if p != player)


def test_a_swiss_of_sixteen_bots_is_played_to_its_end_and_archived(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, database_url: str
) -> None:
    began = time.monotonic()
    with grpc.insecure_channel(gateway.address) as channel:
        organiser = Client(channel)
        organiser.sign_in_as_guest("organiser")
        stub = tournaments_pb2_grpc.TournamentServiceStub(channel)
        auth = organiser.auth
        request = tournaments_pb2.CreateTournamentRequest(
            title=TITLE,
            seats_per_table=SEATS,
            format=tournaments_pb2.TOURNAMENT_FORMAT_SWISS,
            swiss_rounds=ROUNDS,
            capacity=ENTRANTS,
            rated=True,
            round_seconds=3600,
        )
        tid = stub.CreateTournament(request, metadata=auth).tournament.tournament_id
        bot = tournaments_pb2.AddTournamentBotRequest(
            tournament_id=tid, strength=gateway_pb2.BOT_STRENGTH_RANDOM
        )
        for _ in range(ENTRANTS):
            stub.AddTournamentBot(bot, metadata=auth)
        stub.StartTournament(tournaments_pb2.StartTournamentRequest(tournament_id=tid), metadata=auth)

        def finished() -> tournaments_pb2.Tournament | None:
            got = stub.GetTournament(tournaments_pb2.GetTournamentRequest(tournament_id=tid), metadata=auth)
            done = got.tournament.status == tournaments_pb2.TOURNAMENT_STATUS_FINISHED
            return got.tournament if done else None

        tournament = wait_for(finished, FINISH_SECONDS, "the tournament to finish")
        played = time.monotonic() - began
        game_ids = [table.game_id for round_ in tournament.rounds for table in round_.tables]
        for game_id in game_ids:
            record = organiser.games.GetGameRecord(
                gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=auth
            )
            assert record.record.tournament_id == tid
        wait_for(lambda: redis_client.exists(keys.tournament_archived(tid)), 120, "the tournament archived")
        wait_for(
            lambda: all(redis_client.exists(keys.game_archived(game_id)) for game_id in game_ids),
            120,
            "every game archived",
        )
    print(
        f"\n{ENTRANTS}-entrant Swiss of {TITLE} at {SEATS} seats, {ROUNDS} rounds: played in {played:.1f} s"
    )

    with psycopg.connect(database_url) as conn:
        archived_ranks: dict[str, dict[str, int]] = {}
        for game_id, player_id, rank in conn.execute(
            "SELECT game_id, player_id, rank FROM game_players WHERE game_id = ANY(%s)", (game_ids,)
        ):
            archived_ranks.setdefault(game_id, {})[player_id] = rank
        record = conn.execute("SELECT record FROM tournaments WHERE tournament_id = %s", (tid,)).fetchone()
        standings_rows = conn.execute(
            "SELECT place, player_id, points FROM tournament_standings WHERE tournament_id = %s"
            " ORDER BY place",
            (tid,),
        ).fetchall()
        tables_archived = conn.execute(
            "SELECT count(*) FROM tournament_tables WHERE tournament_id = %s", (tid,)
        ).fetchone()
    assert set(archived_ranks) == set(game_ids), "every game of the tournament archived"
    assert record is not None and tournaments_pb2.Tournament.FromString(bytes(record[0])) == tournament
    assert tables_archived == (len(game_ids),)
    redis_client.delete(keys.tournament(tid))  # as when its week in Redis is over
    with grpc.insecure_channel(gateway.address) as channel:
        read = tournaments_pb2.GetTournamentRequest(tournament_id=tid)
        served = tournaments_pb2_grpc.TournamentServiceStub(channel).GetTournament(read, metadata=auth)
    assert served.tournament == tournament, "read from the archive once gone from Redis"

    entrants = [e.player.player_id for e in sorted(tournament.entrants, key=lambda e: e.seed)]
    assert len(entrants) == ENTRANTS and tournament.round_count == ROUNDS and len(tournament.rounds) == ROUNDS
    seed = {player: number for number, player in enumerate(entrants, start=1)}
    points = dict.fromkeys(entrants, 0.0)
    met: Counter[frozenset[str]] = Counter()
    had_bye: set[str] = set()
    win = SEATS - 1
    for round_ in tournament.rounds:
        seated = [seat.player_id for table in round_.tables for seat in table.seats]
        assert sorted([*seated, *round_.bye_player_ids]) == sorted(entrants), f"round {round_.number}"
        assert all(len(table.seats) == SEATS for table in round_.tables)
        assert len(round_.bye_player_ids) == ENTRANTS % SEATS
        # The byes: the lowest-ranked (points, then seed) of those who had none.
        ranking = sorted(entrants, key=lambda p: (-points[p], seed[p]))
        without = [p for p in ranking if p not in had_bye]
        assert list(round_.bye_player_ids) == without[::-1][: len(round_.bye_player_ids)]
        for table in round_.tables:
            assert table.finished
            players = [seat.player_id for seat in table.seats]
            for pair in combinations(players, 2):
                assert met[frozenset(pair)] == 0, f"{pair} met twice"
                met[frozenset(pair)] += 1
            ranks = archived_ranks[table.game_id]
            assert {seat.player_id: seat.rank for seat in table.seats} == ranks
            for player in players:
                points[player] += points_at(ranks, player)
        for player in round_.bye_player_ids:
            points[player] += win
        had_bye.update(round_.bye_player_ids)
    assert len(had_bye) == ROUNDS * (ENTRANTS % SEATS), "nobody had two byes"

    standings = list(tournament.standings)
    assert [s.place for s in standings] == list(range(1, ENTRANTS + 1))
    assert {s.player_id: s.points for s in standings} == dict(points)
    assert [s.points for s in standings] == sorted((s.points for s in standings), reverse=True)
    assert all(s.games + s.byes == ROUNDS for s in standings)
    assert [(place, player, pts) for place, player, pts in standings_rows] == [
        (s.place, s.player_id, s.points) for s in standings
    ]
    assert played < FINISH_SECONDS


def two_seat_tournament(
    stub: tournaments_pb2_grpc.TournamentServiceStub,
    auth: tuple[tuple[str, str], ...],
    bots: int,
    **fields: object,
) -> str:
    """A round robin of TITLE at two seats with `bots` random bots (and whoever joined), not started."""
    request = tournaments_pb2.CreateTournamentRequest(
        title=TITLE,
        seats_per_table=2,
        format=tournaments_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN,
        capacity=8,
        **fields,  # type: ignore[arg-type]
    )
    tid: str = stub.CreateTournament(request, metadata=auth).tournament.tournament_id
    bot = tournaments_pb2.AddTournamentBotRequest(tournament_id=tid, strength=gateway_pb2.BOT_STRENGTH_RANDOM)
    for _ in range(bots):
        stub.AddTournamentBot(bot, metadata=auth)
    return tid


def test_a_round_whose_end_went_unheard_is_paired_by_the_workers_check(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis
) -> None:
    with grpc.insecure_channel(gateway.address) as channel:
        organiser = Client(channel)
        organiser.sign_in_as_guest("organiser")
        stub = tournaments_pb2_grpc.TournamentServiceStub(channel)
        auth = organiser.auth
        tid = two_seat_tournament(stub, auth, 3)  # 3 rounds of one game and a bye
        stub.StartTournament(tournaments_pb2.StartTournamentRequest(tournament_id=tid), metadata=auth)
        get = tournaments_pb2.GetTournamentRequest(tournament_id=tid)

        def paired_twice() -> tournaments_pb2.Tournament | None:
            tournament = stub.GetTournament(get, metadata=auth).tournament
            return tournament if len(tournament.rounds) >= 2 else None

        first = wait_for(paired_twice, 240, "round 2 to be paired")
        lost_game = first.rounds[1].tables[0].game_id

        def forget(tournament: tournaments_pb2.Tournament) -> None:
            """As if round 1's last game had never been counted: its result and round 2 gone."""
            del tournament.rounds[1:]
            for table in tournament.rounds[0].tables:
                table.finished = False
                for seat in table.seats:
                    seat.rank, seat.points, seat.score, seat.tiebreak, seat.forfeited = 0, 0.0, 0, 0, False
            tournament.rounds[0].finished = False

        gateway.run(store.update(gateway.app.redis, tid, forget))  # type: ignore[union-attr]
        gateway.run(store.check_at(gateway.app.redis, tid, 0))  # type: ignore[union-attr]

        def finished() -> tournaments_pb2.Tournament | None:
            tournament = stub.GetTournament(get, metadata=auth).tournament
            return tournament if tournament.status == tournaments_pb2.TOURNAMENT_STATUS_FINISHED else None

        tournament = wait_for(finished, 240, "the tournament to finish")
    assert len(tournament.rounds) == 3 and all(r.finished for r in tournament.rounds)
    assert tournament.rounds[0].tables[0].seats[0].rank > 0, "round 1's result counted again"
    assert tournament.rounds[1].tables[0].game_id != lost_game, "round 2 paired anew"
    pairs = [frozenset(s.player_id for s in r.tables[0].seats) for r in tournament.rounds]
    assert len(set(pairs)) == 3, "a round robin: every pair once"


def test_a_player_still_seated_at_the_rounds_deadline_forfeits_and_bots_finish_the_round(
    gateway: GatewayProcess, celery_worker: None
) -> None:
    with grpc.insecure_channel(gateway.address) as channel:
        organiser = Client(channel)
        organiser.sign_in_as_guest("organiser")
        stub = tournaments_pb2_grpc.TournamentServiceStub(channel)
        auth = organiser.auth
        tid = two_seat_tournament(stub, auth, 1, round_seconds=60)
        stub.JoinTournament(tournaments_pb2.JoinTournamentRequest(tournament_id=tid), metadata=auth)
        started = stub.StartTournament(
            tournaments_pb2.StartTournamentRequest(tournament_id=tid), metadata=auth
        )
        deadline = started.tournament.rounds[0].deadline.ToMilliseconds()
        assert gateway.run(rounds.advance(gateway.app, tid, deadline)) == "forfeited"  # type: ignore[arg-type]
        get = tournaments_pb2.GetTournamentRequest(tournament_id=tid)

        def finished() -> tournaments_pb2.Tournament | None:
            tournament = stub.GetTournament(get, metadata=auth).tournament
            return tournament if tournament.status == tournaments_pb2.TOURNAMENT_STATUS_FINISHED else None

        tournament = wait_for(finished, 240, "the bots to finish the round")
    me = next(e.player.player_id for e in tournament.entrants if not e.player.bot)
    seats = {seat.player_id: seat for seat in tournament.rounds[0].tables[0].seats}
    assert seats[me].forfeited and seats[me].rank == 2 and seats[me].points == 0.0
    assert [s.player_id for s in tournament.standings] == [p for p in seats if p != me] + [me]

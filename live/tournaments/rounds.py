"""A tournament driven from round to round with ordinary games, by whoever gets there first: the
organiser's StartTournament (the gateway), the end of a table's game and the workers' checks.

Every step is idempotent and safe to run twice at once:
- `start` seeds the entrants, pairs round 1 and names each table's game in one transaction on the
  tournament (`live.tournaments.store.update`), then creates the games (`create_tables`);
- a table's game is created with `live.games.start_game` under the id its round named, so bots,
  clocks, watching, records, archiving and ratings apply as to any game; a game of that id that exists
  already is left be, and the table is marked started (its players told: the inbox) once;
- when a game has been scored (`workers.finalize` calls `game_scored`), its result is counted at its
  table, once; the game that finishes its round queues `advance` (ADVANCE_TOURNAMENT);
- `advance` counts the results whose signal was lost, pairs the next round once the last is finished
  (or finishes the tournament, queueing its archival, ARCHIVE_TOURNAMENT), creates the tables not
  created yet, starts a tournament whose registration has closed (or cancels it, too few entrants),
  and enforces the round's time limit (AT_ROUND_DEADLINE). The workers run it whenever the
  tournament's check falls due (`keys.tournament_checks`: registration closing, the round's deadline,
  and every CHECK_MS while it runs, for lost signals).
"""

from __future__ import annotations

import functools
import uuid

import grpc
from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2

from live import clocks, games, inbox, keys, matchmaking, resignations
from live.errors import GatewayError, not_found, permission_denied, precondition
from live.queues import ADVANCE_TOURNAMENT, ARCHIVE_TOURNAMENT
from live.store import Meta
from live.table import Table
from live.tournaments import elimination, progress, results, store
from live.tournaments.store import Tournament

REGISTRATION = tournaments_pb2.TOURNAMENT_STATUS_REGISTRATION
RUNNING = tournaments_pb2.TOURNAMENT_STATUS_RUNNING
FINISHED = tournaments_pb2.TOURNAMENT_STATUS_FINISHED
CANCELLED = tournaments_pb2.TOURNAMENT_STATUS_CANCELLED

CHECK_MS = 30_000  # a running tournament is looked at this often, for a signal lost on the way
ARCHIVE_CHECK_MS = 60_000  # a finished tournament not archived yet is queued again this often
# What a game still running when its round's time runs out comes to: every player still seated in it
# forfeits (the event says so), a bot of DEADLINE_BOT_STRENGTH plays each seat to the end, and a
# forfeited seat ranks after every seat that did not forfeit (`workers.scoring`). So the round ends as
# soon as the bots have played the games out, and every result counted is one a game gave: replayable,
# archived and rated like any other. (Adjudicating by the score at the deadline was the alternative;
# it would count a result no game reached.)
AT_ROUND_DEADLINE = resignations.ROUND_DEADLINE
DEADLINE_BOT_STRENGTH = gateway_pb2.BOT_STRENGTH_HEURISTIC
WITHDREW = resignations.WITHDREW


def ms(stamp: object) -> int:
    """Milliseconds since the epoch of a Timestamp."""
    return int(stamp.ToMilliseconds())  # type: ignore[attr-defined]


def fewest_seats(app: Table, tournament: Tournament) -> int:
    """The fewest players the tournament's title takes."""
    return int(app.rules.get(tournament.title).info.min_players)


def humans(tournament: Tournament, players: list[str]) -> list[str]:
    """Those of `players` who are people still in the tournament (not bots, not withdrawn)."""
    people = {e.player.player_id for e in tournament.entrants if not e.player.bot and not e.withdrawn}
    return [player for player in players if player in people]


def require_registration(tournament: Tournament) -> None:
    """FAILED_PRECONDITION unless the tournament is still taking entrants."""
    if tournament.status == CANCELLED:
        why = tournament.cancel_reason
        raise precondition("TOURNAMENT_CANCELLED", f"the tournament was cancelled: {why}")
    if tournament.status != REGISTRATION:
        raise precondition("ALREADY_STARTED", "the tournament has started already")


async def start(app: Table, tournament_id: str, *, organiser: str | None, now_ms: int) -> Tournament:
    """Start a tournament: seed its entrants by rating, pair and store round 1, then create its tables.
    `organiser`: the caller, who must be the organiser (None: registration closed). Refused with
    PERMISSION_DENIED, ALREADY_STARTED, TOURNAMENT_CANCELLED, TOO_FEW_ENTRANTS or NO_BRACKET, and then
    nothing is written."""
    loaded = await store.load(app.redis, tournament_id)
    if loaded is None:
        raise not_found("tournament", tournament_id)
    ratings = {
        entrant.player.player_id: await matchmaking.rating(app.redis, loaded.title, entrant.player.player_id)
        for entrant in loaded.entrants
    }
    fewest = fewest_seats(app, loaded)

    def begin(tournament: Tournament) -> None:
        if organiser is not None and tournament.organiser_player_id != organiser:
            raise permission_denied("only the tournament's organiser may start it")
        require_registration(tournament)
        least = tournament.seats_per_table
        if len(tournament.entrants) < least:
            raise precondition(
                "TOO_FEW_ENTRANTS",
                f"the tournament has {len(tournament.entrants)} entrant(s); a table needs {least}",
            )
        progress.seed(tournament, ratings)
        try:
            tournament.round_count = progress.round_count(tournament, fewest)
            pairing = progress.next_pairing(tournament, fewest)
        except elimination.NoBracket as error:
            raise precondition("NO_BRACKET", f"no single elimination bracket fits: {error}") from error
        assert pairing is not None
        for size in {len(table) for table in pairing.tables}:
            try:
                games.validate_options(app, tournament.title, size, list(tournament.options))
            except GatewayError as error:
                raise precondition("NO_BRACKET", f"a table of {size}: {error.message}") from error
        tournament.status = RUNNING
        tournament.started_at.CopyFrom(progress.stamp(now_ms))
        progress.add_round(tournament, pairing, [uuid.uuid4().hex for _ in pairing.tables], now_ms)
        _restand(tournament)

    tournament, _ = await store.update(app.redis, tournament_id, begin)
    return await _paired(app, tournament)


def _restand(tournament: Tournament) -> None:
    del tournament.standings[:]
    tournament.standings.extend(progress.current_standings(tournament))


async def _paired(app: Table, tournament: Tournament) -> Tournament:
    """What follows the pairing of a round: its byes told, its tables created, the next check filed;
    the tournament after."""
    round_ = tournament.rounds[-1]
    events = [
        (
            player,
            gateway_pb2.InboxEvent(
                kind=gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_BYE,
                title=tournament.title,
                tournament_id=tournament.tournament_id,
                tournament_round=round_.number,
                at=progress.stamp(clocks.now_ms()),
            ),
        )
        for player in humans(tournament, list(round_.bye_player_ids))
    ]
    await inbox.post(app.redis, events)
    tournament = await create_tables(app, tournament)
    await schedule(app, tournament, clocks.now_ms())
    return tournament


async def create_tables(app: Table, tournament: Tournament) -> Tournament:
    """Create the games of the current round's tables not created yet, each marked started (and its
    players told) once; the tournament after."""
    if not tournament.rounds:
        return tournament
    round_ = tournament.rounds[-1]
    for table in round_.tables:
        if table.game_started:
            continue
        await games.start_game(
            app,
            title=tournament.title,
            player_count=len(table.seats),
            options=list(tournament.options),
            seats=progress.game_seats(tournament, table),
            clock=tournament.clock,
            lobby_id="",
            game_id=table.game_id,
            spectators=gateway_pb2.SPECTATORS_ANYONE,
            tournament_id=tournament.tournament_id,
            tournament_round=round_.number,
            rated=tournament.rated,
        )
        tournament, told = await store.update(
            app.redis, tournament.tournament_id, functools.partial(_mark_started, game_id=table.game_id)
        )
        if told:
            event = gateway_pb2.InboxEvent(
                kind=gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_TABLE_READY,
                game_id=table.game_id,
                title=tournament.title,
                tournament_id=tournament.tournament_id,
                tournament_round=round_.number,
                at=progress.stamp(clocks.now_ms()),
            )
            players = humans(tournament, [seat.player_id for seat in table.seats])
            await inbox.post(app.redis, [(player, event) for player in players])
    return tournament


def _mark_started(tournament: Tournament, *, game_id: str) -> bool:
    table = progress.table_of(tournament, game_id)
    if table is None or table.game_started:
        return False
    table.game_started = True
    return True


async def count_result(app: Table, tournament_id: str, game_id: str) -> bool:
    """Count a scored game's result at its table (once); whether it finished its round."""
    placings = await results.of_game(app, game_id)
    if placings is None:
        return False

    def count(tournament: Tournament) -> bool:
        finished = progress.record_result(tournament, game_id, placings)
        _restand(tournament)
        return finished

    _, finished = await store.update(app.redis, tournament_id, count)
    return finished


async def game_scored(app: Table, game_id: str) -> str:
    """A scored game's part in its tournament, if it is a tournament's table: its result counted, and
    the tournament's next step queued if it finished the round. The tournament's id ('' for none)."""
    meta = await app.store.meta(game_id)
    tournament_id = meta.record.tournament_id if meta is not None else ""
    if tournament_id and await count_result(app, tournament_id, game_id):
        await app.dispatcher.queue(ADVANCE_TOURNAMENT, [tournament_id])
    return tournament_id


async def advance(app: Table, tournament_id: str, now_ms: int | None = None) -> str:
    """Take the tournament as far as it can go now (see the module docstring); what was done."""
    now = clocks.now_ms() if now_ms is None else now_ms
    tournament = await store.load(app.redis, tournament_id)
    if tournament is None:
        await store.check_at(app.redis, tournament_id, None)
        return "gone"
    done = "waited"
    if tournament.status == REGISTRATION:
        closes = tournament.registration_closes_at
        if tournament.HasField("registration_closes_at") and now >= ms(closes):
            try:
                await start(app, tournament_id, organiser=None, now_ms=now)
                return "started"
            except GatewayError as refusal:
                if refusal.code != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
                tournament = await cancel(app, tournament_id, refusal.message)
                done = "cancelled"
    elif tournament.status == RUNNING:
        round_ = tournament.rounds[-1]
        for table in round_.tables:
            if table.game_started and not table.finished:
                await count_result(app, tournament_id, table.game_id)
        tournament, done = await next_round(app, tournament_id, now)
        if done == "paired":
            await _paired(app, tournament)
            return done
        if done == "finished":
            await _finished(app, tournament)
        else:
            tournament = await create_tables(app, tournament)
            if await enforce_deadline(app, tournament, now):
                done = "forfeited"
    elif tournament.status == FINISHED and not await archived(app, tournament_id):
        await app.dispatcher.queue(ARCHIVE_TOURNAMENT, [tournament_id])
        done = "archiving"
    await schedule(app, tournament, now)
    return done


async def next_round(app: Table, tournament_id: str, now_ms: int) -> tuple[Tournament, str]:
    """Pair the next round once the last is finished ("paired"), or finish the tournament when there is
    none ("finished"); "playing" while the round goes on."""
    fewest = fewest_seats(app, (await store.load(app.redis, tournament_id)) or Tournament())

    def pair(tournament: Tournament) -> str:
        if tournament.status != RUNNING or not tournament.rounds[-1].finished:
            return "playing"
        try:
            pairing = progress.next_pairing(tournament, fewest)
        except elimination.NoBracket:
            pairing = None  # withdrawals left a field no table fits: the standings stand
        if pairing is None:
            tournament.status = FINISHED
            tournament.finished_at.CopyFrom(progress.stamp(now_ms))
            _restand(tournament)
            return "finished"
        progress.add_round(tournament, pairing, [uuid.uuid4().hex for _ in pairing.tables], now_ms)
        _restand(tournament)
        return "paired"

    return await store.update(app.redis, tournament_id, pair)


async def _finished(app: Table, tournament: Tournament) -> None:
    """Tell the entrants their final places, and queue the archival."""
    events = []
    for standing in tournament.standings:
        if humans(tournament, [standing.player_id]):
            event = gateway_pb2.InboxEvent(
                kind=gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_FINISHED,
                title=tournament.title,
                tournament_id=tournament.tournament_id,
                my_rank=standing.place,
                at=progress.stamp(clocks.now_ms()),
            )
            events.append((standing.player_id, event))
    await inbox.post(app.redis, events)
    await app.dispatcher.queue(ARCHIVE_TOURNAMENT, [tournament.tournament_id])


async def cancel(app: Table, tournament_id: str, reason: str, *, organiser: str | None = None) -> Tournament:
    """Call off a tournament still in registration, and tell its entrants in their inbox.
    `organiser`: the caller, who must be the organiser (PERMISSION_DENIED; then ALREADY_STARTED or
    TOURNAMENT_CANCELLED unless it still takes entrants); None: its registration closed without a field,
    and a tournament no longer in registration is left as it is."""

    def call_off(tournament: Tournament) -> bool:
        if organiser is not None:
            if tournament.organiser_player_id != organiser:
                raise permission_denied("only the tournament's organiser may cancel it")
            require_registration(tournament)
        if tournament.status != REGISTRATION:
            return False
        tournament.status = CANCELLED
        tournament.cancel_reason = reason
        return True

    tournament, cancelled = await store.update(app.redis, tournament_id, call_off)
    if cancelled:
        people = humans(tournament, [entrant.player.player_id for entrant in tournament.entrants])
        kind = gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_CANCELLED
        at = progress.stamp(clocks.now_ms())
        await inbox.post(
            app.redis,
            [
                (
                    player,
                    gateway_pb2.InboxEvent(
                        kind=kind, title=tournament.title, tournament_id=tournament_id, at=at
                    ),
                )
                for player in people
            ],
        )
    return tournament


def _seated_people(meta: Meta) -> list[int]:
    """The seats of a game that people still play."""
    return [seat.seat for seat in meta.record.seats if not seat.resigned and not clocks.is_bot_seat(seat)]


async def enforce_deadline(app: Table, tournament: Tournament, now_ms: int) -> int:
    """Past its round's deadline, have every player still seated in a game of the round forfeit
    (AT_ROUND_DEADLINE); the games that had some."""
    round_ = tournament.rounds[-1] if tournament.rounds else None
    if round_ is None or round_.finished or not round_.HasField("deadline") or now_ms < ms(round_.deadline):
        return 0
    forfeited = 0
    for table in round_.tables:
        if not table.game_started or table.finished:
            continue
        try:
            handed = await resignations.hand_over(
                app, table.game_id, _seated_people, DEADLINE_BOT_STRENGTH, AT_ROUND_DEADLINE
            )
        except GatewayError as error:
            if error.code in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND):
                continue  # over meanwhile
            raise
        forfeited += handed.change is not None
    return forfeited


async def withdraw(app: Table, tournament_id: str, player_id: str) -> Tournament:
    """Withdraw an entrant from a running tournament: marked withdrawn (paired no more), its game of
    the current round resigned to a bot."""

    def mark(tournament: Tournament) -> None:
        for entrant in tournament.entrants:
            if entrant.player.player_id == player_id:
                entrant.withdrawn = True
        _restand(tournament)

    tournament, _ = await store.update(app.redis, tournament_id, mark)
    for table in tournament.rounds[-1].tables if tournament.rounds else ():
        if table.game_started and not table.finished and player_id in {s.player_id for s in table.seats}:
            seats = lambda meta: [  # noqa: E731
                s.seat for s in meta.record.seats if s.player.player_id == player_id and not s.resigned
            ]
            try:
                await resignations.hand_over(app, table.game_id, seats, DEADLINE_BOT_STRENGTH, WITHDREW)
            except GatewayError as error:
                if error.code not in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND):
                    raise
    return tournament


async def archived(app: Table, tournament_id: str) -> bool:
    """Whether the tournament is in PostgreSQL (always, without an archive: nothing is to be done)."""
    return app.archive is None or bool(await app.redis.exists(keys.tournament_archived(tournament_id)))


async def schedule(app: Table, tournament: Tournament, now_ms: int) -> None:
    """File the tournament's next check: its registration's close, its round's deadline or CHECK_MS
    from now, whichever first, while it runs; ARCHIVE_CHECK_MS while it waits for its archival."""
    due: int | None = None
    if tournament.status == REGISTRATION and tournament.HasField("registration_closes_at"):
        due = ms(tournament.registration_closes_at)
    elif tournament.status == RUNNING:
        due = now_ms + CHECK_MS
        round_ = tournament.rounds[-1]
        if round_.HasField("deadline") and not round_.finished and ms(round_.deadline) > now_ms:
            due = min(due, ms(round_.deadline))
    elif tournament.status == FINISHED and not await archived(app, tournament.tournament_id):
        due = now_ms + ARCHIVE_CHECK_MS
    await store.check_at(app.redis, tournament.tournament_id, due)

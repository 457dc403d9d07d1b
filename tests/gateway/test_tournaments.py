"""TournamentService through a real gateway, real Redis and real rules services: each call's happy
path and its refusals (code and ErrorInfo reason, nothing written), starting (seeding by rating,
round 1's tables as ordinary games naming the tournament, byes, the inbox's notices), withdrawing,
the registration's close, and the round's time limit (forfeits), driven here by the live part the
workers run (`live.tournaments.rounds.advance`) at a given time."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2, tournaments_pb2, tournaments_pb2_grpc
from google.protobuf.timestamp_pb2 import Timestamp

from gateway.browser import WebSettings
from live.settings import Settings
from live.tournaments import rounds
from services.common import registry
from services.common.status import error_info
from tests.gateway._support_accounts import RPC_TIMEOUT, guest, me, refused
from tests.gateway.browser_client import BrowserClient
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.titles import GAME, TITLE

INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
DENIED = grpc.StatusCode.PERMISSION_DENIED
NOT_FOUND = grpc.StatusCode.NOT_FOUND
SWISS = tournaments_pb2.TOURNAMENT_FORMAT_SWISS
ROUND_ROBIN = tournaments_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN
ELIMINATION = tournaments_pb2.TOURNAMENT_FORMAT_SINGLE_ELIMINATION
REGISTRATION = tournaments_pb2.TOURNAMENT_STATUS_REGISTRATION
RUNNING = tournaments_pb2.TOURNAMENT_STATUS_RUNNING
CANCELLED = tournaments_pb2.TOURNAMENT_STATUS_CANCELLED
SEATS = GAME.info.min_players  # the fewest seats the title plays with
RANDOM = gateway_pb2.BOT_STRENGTH_RANDOM
# A title played at tables of two, for the two-seat cases.
PAIRS = next(
    name for name, game in registry.games().items() if game.info.min_players <= 2 <= game.info.max_players
)

Stub = tournaments_pb2_grpc.TournamentServiceStub


def service(client: Client) -> Stub:
    """The client's TournamentService stub."""
    return Stub(client.channel)


def settings(**fields: object) -> tournaments_pb2.CreateTournamentRequest:
    """A valid request (a Swiss of 3 rounds of TITLE at its fewest seats for 16), changed by `fields`."""
    request = tournaments_pb2.CreateTournamentRequest(
        title=TITLE, seats_per_table=SEATS, format=SWISS, swiss_rounds=3, capacity=16
    )
    for name, value in fields.items():
        if isinstance(value, Timestamp | gateway_pb2.TurnClock):
            getattr(request, name).CopyFrom(value)
        else:
            setattr(request, name, value)
    return request


def create(client: Client, **fields: object) -> tournaments_pb2.Tournament:
    """A new tournament organised by the client."""
    return (
        service(client)
        .CreateTournament(settings(**fields), metadata=client.auth, timeout=RPC_TIMEOUT)
        .tournament
    )


def get(client: Client, tournament_id: str) -> tournaments_pb2.Tournament:
    """The tournament as the client reads it."""
    request = tournaments_pb2.GetTournamentRequest(tournament_id=tournament_id)
    return service(client).GetTournament(request, metadata=client.auth, timeout=RPC_TIMEOUT).tournament


def join(client: Client, tournament_id: str) -> tournaments_pb2.Tournament:
    """Register the client."""
    request = tournaments_pb2.JoinTournamentRequest(tournament_id=tournament_id)
    return service(client).JoinTournament(request, metadata=client.auth, timeout=RPC_TIMEOUT).tournament


def add_bots(
    client: Client, tournament_id: str, count: int, strength: int = RANDOM
) -> list[gateway_pb2.Player]:
    """Enter `count` bots as the client."""
    request = tournaments_pb2.AddTournamentBotRequest(tournament_id=tournament_id, strength=strength)  # type: ignore[arg-type]
    return [
        service(client).AddTournamentBot(request, metadata=client.auth, timeout=RPC_TIMEOUT).bot
        for _ in range(count)
    ]


def start(client: Client, tournament_id: str) -> tournaments_pb2.Tournament:
    """Start the tournament as the client."""
    request = tournaments_pb2.StartTournamentRequest(tournament_id=tournament_id)
    return service(client).StartTournament(request, metadata=client.auth, timeout=RPC_TIMEOUT).tournament


def game_view(client: Client, game_id: str) -> gateway_pb2.GameView:
    """The client's view of a game."""
    request = gateway_pb2.GetGameRequest(game_id=game_id)
    return client.games.GetGame(request, metadata=client.auth, timeout=RPC_TIMEOUT).game


def stamp_in(seconds: float) -> Timestamp:
    """A Timestamp `seconds` from now."""
    at = Timestamp()
    at.FromMilliseconds(int((time.time() + seconds) * 1000))
    return at


def test_a_tournament_is_created_listed_and_read(new_client: Callable[[], Client]) -> None:
    organiser = guest(new_client, "Olga")
    created = create(organiser, name="Spring open", rated=True, round_seconds=3600)
    assert (created.status, created.name, created.organiser_player_id) == (
        REGISTRATION,
        "Spring open",
        me(organiser).player_id,
    )
    assert (created.round_count, created.round_seconds, created.rated, created.capacity) == (
        3,
        3600,
        True,
        16,
    )
    assert get(organiser, created.tournament_id) == created
    unnamed = create(organiser, format=ROUND_ROBIN, swiss_rounds=0)
    assert unnamed.name == f"{GAME.info.display_name} round robin"
    listed = (
        service(organiser)
        .ListTournaments(
            tournaments_pb2.ListTournamentsRequest(title=TITLE, status=REGISTRATION, page_size=100),
            metadata=organiser.auth,
            timeout=RPC_TIMEOUT,
        )
        .tournaments
    )
    ids = [t.tournament_id for t in listed]
    assert ids.index(unnamed.tournament_id) < ids.index(created.tournament_id), "newest first"
    assert all(not t.entrants and not t.rounds and t.status == REGISTRATION for t in listed)


def test_listing_pages_through_every_tournament_once(new_client: Callable[[], Client]) -> None:
    organiser = guest(new_client, "Pia")
    mine = {create(organiser).tournament_id for _ in range(3)}
    seen: list[str] = []
    token = ""
    while True:
        request = tournaments_pb2.ListTournamentsRequest(page_size=2, page_token=token)
        page = service(organiser).ListTournaments(request, metadata=organiser.auth, timeout=RPC_TIMEOUT)
        assert len(page.tournaments) <= 2
        seen.extend(t.tournament_id for t in page.tournaments)
        token = page.next_page_token
        if not token:
            break
    assert mine <= set(seen) and len(seen) == len(set(seen))
    code, info = refused(
        service(organiser).ListTournaments,
        tournaments_pb2.ListTournamentsRequest(page_token="bogus"),
        organiser.auth,
    )
    assert (code, info.reason) == (INVALID, "INVALID_PAGE_TOKEN")


TOO_MANY = GAME.info.max_players + 1
BAD_SETTINGS = [
    ({"title": ""}, INVALID, "MISSING_TITLE", "title"),
    ({"title": "nogame"}, NOT_FOUND, "TITLE_NOT_FOUND", ""),
    ({"seats_per_table": TOO_MANY}, INVALID, "INVALID_SEATS_PER_TABLE", "seats_per_table"),
    ({"format": 0}, INVALID, "MISSING_FORMAT", "format"),
    ({"swiss_rounds": 0}, INVALID, "INVALID_SWISS_ROUNDS", "swiss_rounds"),
    ({"swiss_rounds": 21}, INVALID, "INVALID_SWISS_ROUNDS", "swiss_rounds"),
    ({"format": ROUND_ROBIN}, INVALID, "INVALID_SWISS_ROUNDS", "swiss_rounds"),
    ({"round_seconds": 59}, INVALID, "INVALID_ROUND_SECONDS", "round_seconds"),
    (
        {"clock": gateway_pb2.TurnClock(increment_seconds=5)},
        INVALID,
        "INVALID_CLOCK",
        "clock.increment_seconds",
    ),
    (
        {"registration_closes_at": stamp_in(-5)},
        INVALID,
        "INVALID_REGISTRATION_CLOSES_AT",
        "registration_closes_at",
    ),
    (
        {"registration_closes_at": stamp_in(31 * 86400)},
        INVALID,
        "INVALID_REGISTRATION_CLOSES_AT",
        "registration_closes_at",
    ),
    ({"capacity": SEATS - 1}, INVALID, "INVALID_CAPACITY", "capacity"),
    ({"capacity": 257}, INVALID, "INVALID_CAPACITY", "capacity"),
    ({"options": [gateway_pb2.GameOptionValue(name="nosuch", value="x")]}, INVALID, "UNKNOWN_OPTION", ""),
]


@pytest.mark.parametrize(
    ("fields", "code", "reason", "field"), BAD_SETTINGS, ids=[r for _, _, r, _ in BAD_SETTINGS]
)
def test_bad_settings_are_refused_naming_the_field(
    client: Client, fields: dict[str, object], code: grpc.StatusCode, reason: str, field: str
) -> None:
    client.sign_in_as_guest("Quinn")
    request = settings()
    for name, value in fields.items():
        if isinstance(value, Timestamp | gateway_pb2.TurnClock):
            getattr(request, name).CopyFrom(value)
        elif name == "options":
            request.options.extend(value)  # type: ignore[arg-type]
        else:
            setattr(request, name, value)
    got, info = refused(service(client).CreateTournament, request, client.auth)
    assert (got, info.reason) == (code, reason)
    if field:
        assert info.metadata["field"] == field


def test_a_name_holding_a_control_character_is_refused(client: Client) -> None:
    client.sign_in_as_guest("Jo")
    code, info = refused(service(client).CreateTournament, settings(name="Cup\x1b[31m"), client.auth)
    assert (code, info.reason, info.metadata["field"]) == (INVALID, "INVALID_NAME", "name")


def test_unknown_and_missing_tournaments(client: Client) -> None:
    client.sign_in_as_guest("Rui")
    stub = service(client)
    for call, request in [
        (stub.GetTournament, tournaments_pb2.GetTournamentRequest(tournament_id="nosuch")),
        (stub.JoinTournament, tournaments_pb2.JoinTournamentRequest(tournament_id="nosuch")),
        (stub.StartTournament, tournaments_pb2.StartTournamentRequest(tournament_id="nosuch")),
        (stub.LeaveTournament, tournaments_pb2.LeaveTournamentRequest(tournament_id="nosuch")),
        (stub.AddTournamentBot, tournaments_pb2.AddTournamentBotRequest(tournament_id="nosuch")),
    ]:
        assert refused(call, request, client.auth)[1].reason == "TOURNAMENT_NOT_FOUND"
    code, info = refused(stub.GetTournament, tournaments_pb2.GetTournamentRequest(), client.auth)
    assert (code, info.reason) == (INVALID, "MISSING_TOURNAMENT_ID")
    with pytest.raises(grpc.RpcError) as raised:
        stub.GetTournament(tournaments_pb2.GetTournamentRequest(tournament_id="x"), timeout=RPC_TIMEOUT)
    assert raised.value.code() == grpc.StatusCode.UNAUTHENTICATED


def test_registration_joining_leaving_and_bots(new_client: Callable[[], Client]) -> None:
    organiser, player, other = guest(new_client, "Sam"), guest(new_client, "Tia"), guest(new_client, "Uma")
    tid = create(organiser, capacity=SEATS + 1).tournament_id
    joined = join(player, tid)
    assert [e.player.player_id for e in joined.entrants] == [me(player).player_id]
    assert joined.entrant_count == 1 and joined.standings[0].player_id == me(player).player_id
    stub = service(player)
    code, info = refused(
        stub.JoinTournament, tournaments_pb2.JoinTournamentRequest(tournament_id=tid), player.auth
    )
    assert (code, info.reason) == (PRECONDITION, "ALREADY_REGISTERED")
    code, info = refused(
        stub.AddTournamentBot, tournaments_pb2.AddTournamentBotRequest(tournament_id=tid), player.auth
    )
    assert code == DENIED, "only the organiser adds bots"
    bots = add_bots(organiser, tid, SEATS)
    assert len({bot.player_id for bot in bots}) == SEATS and all(bot.bot for bot in bots)
    entrants = get(organiser, tid).entrants
    assert [e.bot_strength for e in entrants if e.player.bot] == [RANDOM] * SEATS
    code, info = refused(
        stub.JoinTournament, tournaments_pb2.JoinTournamentRequest(tournament_id=tid), other.auth
    )
    assert (code, info.reason) == (PRECONDITION, "TOURNAMENT_FULL")
    leave_bot = tournaments_pb2.LeaveTournamentRequest(tournament_id=tid, player_id=bots[0].player_id)
    assert refused(stub.LeaveTournament, leave_bot, player.auth)[0] == DENIED, "not the organiser's"
    leave_player = tournaments_pb2.LeaveTournamentRequest(tournament_id=tid, player_id=me(player).player_id)
    assert refused(stub.LeaveTournament, leave_player, organiser.auth)[0] == DENIED, (
        "players leave themselves"
    )
    left = stub.LeaveTournament(leave_bot, metadata=organiser.auth, timeout=RPC_TIMEOUT).tournament
    assert (
        bots[0].player_id not in {e.player.player_id for e in left.entrants} and left.entrant_count == SEATS
    )
    assert join(other, tid).entrant_count == SEATS + 1, "the bot's place is free again"
    mine = tournaments_pb2.LeaveTournamentRequest(tournament_id=tid)
    stub.LeaveTournament(mine, metadata=other.auth, timeout=RPC_TIMEOUT)
    code, info = refused(stub.LeaveTournament, mine, other.auth)
    assert (code, info.reason) == (PRECONDITION, "NOT_REGISTERED")


def test_only_the_organiser_starts_and_a_table_must_be_filled(new_client: Callable[[], Client]) -> None:
    organiser, player = guest(new_client, "Vic"), guest(new_client, "Wes")
    tid = create(organiser).tournament_id
    join(player, tid)
    stub = service(player)
    request = tournaments_pb2.StartTournamentRequest(tournament_id=tid)
    assert refused(stub.StartTournament, request, player.auth)[0] == DENIED
    if SEATS > 1:
        code, info = refused(stub.StartTournament, request, organiser.auth)
        assert (code, info.reason) == (PRECONDITION, "TOO_FEW_ENTRANTS")
    assert get(organiser, tid).status == REGISTRATION, "nothing written"


def test_a_swiss_starts_with_seeds_tables_as_games_byes_and_notices(
    new_client: Callable[[], Client], gateway: GatewayProcess
) -> None:
    organiser, player = guest(new_client, "Xia"), guest(new_client, "Yan")
    entrants = 2 * SEATS + 1  # two tables and one bye
    tid = create(organiser, rated=False, round_seconds=3600).tournament_id
    join(player, tid)
    add_bots(organiser, tid, entrants - 1)
    started = start(organiser, tid)
    assert started.status == RUNNING and started.HasField("started_at")
    seeds = sorted(started.entrants, key=lambda e: e.seed)
    assert [e.seed for e in seeds] == list(range(1, entrants + 1))
    assert [e.rating for e in seeds] == sorted((e.rating for e in seeds), reverse=True)
    (first,) = started.rounds
    assert first.number == 1 and len(first.tables) == 2 and len(first.bye_player_ids) == 1
    assert first.bye_points == SEATS - 1, "a Swiss bye scores a win"
    assert first.deadline.ToMilliseconds() - first.started_at.ToMilliseconds() == 3_600_000
    assert first.bye_player_ids[0] == seeds[-1].player.player_id, "the lowest seed sits out"
    seated = [seat.player_id for table in first.tables for seat in table.seats]
    assert sorted([*seated, *first.bye_player_ids]) == sorted(e.player.player_id for e in started.entrants)
    for table in first.tables:
        assert table.game_started and not table.finished
        view = game_view(organiser, table.game_id)
        assert [s.player.player_id for s in view.seats] == [s.player_id for s in table.seats]
        meta = gateway.run(gateway.app.store.meta(table.game_id))  # type: ignore[union-attr]
        record = meta.record
        assert (record.tournament_id, record.tournament_round, record.unrated) == (tid, 1, True)
    stub = service(organiser)
    request = tournaments_pb2.StartTournamentRequest(tournament_id=tid)
    code, info = refused(stub.StartTournament, request, organiser.auth)
    assert (code, info.reason) == (PRECONDITION, "ALREADY_STARTED")
    late = guest(new_client, "Zed")
    code, info = refused(
        stub.JoinTournament, tournaments_pb2.JoinTournamentRequest(tournament_id=tid), late.auth
    )
    assert (code, info.reason) == (PRECONDITION, "REGISTRATION_CLOSED")
    assert (
        refused(
            stub.AddTournamentBot, tournaments_pb2.AddTournamentBotRequest(tournament_id=tid), organiser.auth
        )[1].reason
        == "REGISTRATION_CLOSED"
    )
    notices = inbox_kinds(player, tid)
    mine = me(player).player_id
    expected = (
        gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_BYE
        if mine in first.bye_player_ids
        else gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_TABLE_READY
    )
    assert notices == [expected]


def inbox_kinds(client: Client, tournament_id: str) -> list[int]:
    """The kinds of the client's inbox events about the tournament, all kept up to the stream's
    opening (its first message names the newest then; the kept ones follow it)."""
    request = gateway_pb2.WatchInboxRequest(from_event_id="0-0")
    stream = client.games.WatchInbox(request, metadata=client.auth, timeout=RPC_TIMEOUT)
    kinds = []
    try:
        newest = next(stream).newest_event_id
        for response in stream:
            if response.event.tournament_id == tournament_id:
                kinds.append(response.event.kind)
            if response.event.event_id == newest:
                break
    finally:
        stream.cancel()
    return kinds


def test_a_player_withdrawing_mid_round_resigns_their_game(
    new_client: Callable[[], Client], gateway: GatewayProcess
) -> None:
    organiser, player = guest(new_client, "Abe"), guest(new_client, "Bea")
    tid = create(organiser, format=ROUND_ROBIN, swiss_rounds=0).tournament_id
    join(player, tid)
    add_bots(organiser, tid, SEATS - 1)
    started = start(organiser, tid)
    (table,) = started.rounds[0].tables
    withdrawn = (
        service(player)
        .LeaveTournament(
            tournaments_pb2.LeaveTournamentRequest(tournament_id=tid),
            metadata=player.auth,
            timeout=RPC_TIMEOUT,
        )
        .tournament
    )
    assert [e.withdrawn for e in withdrawn.entrants if e.player.player_id == me(player).player_id] == [True]
    seats = game_view(organiser, table.game_id).seats
    assert [s.resigned for s in seats if s.player.player_id == me(player).player_id] == [True]
    code, info = refused(
        service(player).LeaveTournament,
        tournaments_pb2.LeaveTournamentRequest(tournament_id=tid),
        player.auth,
    )
    assert (code, info.reason) == (PRECONDITION, "NOT_REGISTERED")


def test_at_the_rounds_deadline_the_players_still_seated_forfeit(
    new_client: Callable[[], Client], gateway: GatewayProcess
) -> None:
    organiser, player = guest(new_client, "Cai"), guest(new_client, "Dev")
    tid = create(organiser, format=ROUND_ROBIN, swiss_rounds=0, round_seconds=60).tournament_id
    join(player, tid)
    add_bots(organiser, tid, SEATS - 1)
    started = start(organiser, tid)
    round_ = started.rounds[0]
    (table,) = round_.tables
    app = gateway.app
    assert gateway.run(rounds.advance(app, tid, round_.deadline.ToMilliseconds() - 1)) == "playing"  # type: ignore[arg-type]
    assert not any(s.resigned for s in game_view(organiser, table.game_id).seats), "not before the deadline"
    assert gateway.run(rounds.advance(app, tid, round_.deadline.ToMilliseconds())) == "forfeited"  # type: ignore[arg-type]
    seats = game_view(organiser, table.game_id).seats
    assert [s.resigned for s in seats] == [not s.player.bot for s in seats], "people forfeit, bots play on"
    assert gateway.run(rounds.advance(app, tid, round_.deadline.ToMilliseconds() + 1)) == "playing"  # type: ignore[arg-type]


def test_registration_closing_starts_the_tournament_or_cancels_it(
    new_client: Callable[[], Client], gateway: GatewayProcess
) -> None:
    organiser = guest(new_client, "Eli")
    closing = stamp_in(3600)
    full = create(organiser, registration_closes_at=closing).tournament_id
    add_bots(organiser, full, SEATS)
    empty = create(organiser, registration_closes_at=closing).tournament_id
    app = gateway.app
    at = closing.ToMilliseconds()
    assert gateway.run(rounds.advance(app, full, at - 1)) == "waited"  # type: ignore[arg-type]
    assert gateway.run(rounds.advance(app, full, at)) == "started"  # type: ignore[arg-type]
    assert get(organiser, full).status == RUNNING
    assert gateway.run(rounds.advance(app, empty, at)) == "cancelled"  # type: ignore[arg-type]
    cancelled = get(organiser, empty)
    assert cancelled.status == CANCELLED and "entrant" in cancelled.cancel_reason
    code, info = refused(
        service(organiser).StartTournament,
        tournaments_pb2.StartTournamentRequest(tournament_id=empty),
        organiser.auth,
    )
    assert (code, info.reason) == (PRECONDITION, "TOURNAMENT_CANCELLED")


def cancel(client: Client, tournament_id: str) -> tournaments_pb2.Tournament:
    """Call the tournament off as the client."""
    request = tournaments_pb2.CancelTournamentRequest(tournament_id=tournament_id)
    return service(client).CancelTournament(request, metadata=client.auth, timeout=RPC_TIMEOUT).tournament


def test_the_organiser_calls_off_a_tournament_taking_entrants_and_its_entrants_are_told(
    new_client: Callable[[], Client],
) -> None:
    organiser, player = guest(new_client, "Ola"), guest(new_client, "Pia")
    tid = create(organiser).tournament_id
    join(player, tid)
    request = tournaments_pb2.CancelTournamentRequest(tournament_id=tid)
    assert refused(service(player).CancelTournament, request, player.auth)[0] == DENIED
    assert get(organiser, tid).status == REGISTRATION, "nothing written"
    cancelled = cancel(organiser, tid)
    assert cancelled.status == CANCELLED and "organiser" in cancelled.cancel_reason
    assert get(player, tid) == cancelled
    assert inbox_kinds(player, tid) == [gateway_pb2.INBOX_EVENT_KIND_TOURNAMENT_CANCELLED]
    code, info = refused(service(organiser).CancelTournament, request, organiser.auth)
    assert (code, info.reason) == (PRECONDITION, "TOURNAMENT_CANCELLED")
    join_again = tournaments_pb2.JoinTournamentRequest(tournament_id=tid)
    assert refused(service(player).JoinTournament, join_again, player.auth)[0] == PRECONDITION
    started = create(organiser).tournament_id
    add_bots(organiser, started, SEATS)
    start(organiser, started)
    code, info = refused(
        service(organiser).CancelTournament,
        tournaments_pb2.CancelTournamentRequest(tournament_id=started),
        organiser.auth,
    )
    assert (code, info.reason) == (PRECONDITION, "ALREADY_STARTED")
    assert get(organiser, started).status == RUNNING


def test_an_organiser_runs_at_most_a_quota_of_tournaments(new_client: Callable[[], Client]) -> None:
    organiser = guest(new_client, "Quin")
    quota = Settings().open_tournaments_per_player
    running = [create(organiser).tournament_id for _ in range(quota)]
    with pytest.raises(grpc.RpcError) as raised:
        create(organiser)
    info = error_info(raised.value)
    assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert info is not None and (info.reason, info.metadata["quota"], info.metadata["limit"]) == (
        "QUOTA_EXCEEDED",
        "open_tournaments",
        str(quota),
    )
    cancel(organiser, running[0])
    assert create(organiser).status == REGISTRATION, "a cancelled tournament frees its place"


def test_a_single_elimination_gives_the_top_seeds_byes(new_client: Callable[[], Client]) -> None:
    organiser = guest(new_client, "Fay")
    tid = create(organiser, title=PAIRS, format=ELIMINATION, swiss_rounds=0, seats_per_table=2).tournament_id
    add_bots(organiser, tid, 5)
    started = start(organiser, tid)
    seeds = [e.player.player_id for e in sorted(started.entrants, key=lambda e: e.seed)]
    (first,) = started.rounds
    assert started.round_count == 3  # 5 -> 4 -> 2 -> 1
    assert list(first.bye_player_ids) == seeds[:3]
    assert [sorted(s.player_id for s in t.seats) for t in first.tables] == [sorted(seeds[3:])]


def test_a_round_robin_plays_every_pairing(new_client: Callable[[], Client]) -> None:
    organiser = guest(new_client, "Gus")
    tid = create(organiser, title=PAIRS, format=ROUND_ROBIN, swiss_rounds=0, seats_per_table=2).tournament_id
    add_bots(organiser, tid, 4)
    started = start(organiser, tid)
    assert started.round_count == 3 and len(started.rounds[0].tables) == 2


@pytest.fixture(scope="module")
def web_gateway(
    redis_url: str, rules: dict[str, str], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[GatewayProcess]:
    client_dir = tmp_path_factory.mktemp("web")
    (client_dir / "index.html").write_text("<!doctype html>")
    web = WebSettings(address="127.0.0.1:0", client_dir=Path(client_dir))
    with GatewayProcess(gateway_settings(redis_url, rules), web=web) as process:
        yield process


def test_browsers_reach_tournaments_over_connect(web_gateway: GatewayProcess) -> None:
    browser = BrowserClient(web_gateway.web_url)
    request = gateway_pb2.CreateGuestRequest(display_name="Hal")
    browser.token = browser.call("AccountService", "CreateGuest", request).session.token
    created = browser.call("TournamentService", "CreateTournament", settings()).tournament
    read = browser.call(
        "TournamentService",
        "GetTournament",
        tournaments_pb2.GetTournamentRequest(tournament_id=created.tournament_id),
    ).tournament
    assert read == created and read.status == REGISTRATION

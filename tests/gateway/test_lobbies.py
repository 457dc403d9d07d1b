"""Lobbies through a real gateway, real Redis and a real rules service: creating, listing page by
page, joining (private lobbies, full lobbies, races for the last seat), leaving, bots, starting."""

from __future__ import annotations

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.connection import sync_client
from services.common.server import create_server as create_rules_server
from tests.gateway._support_accounts import RPC_TIMEOUT, guest, me, own_gateway, refused
from tests.gateway.support import Client
from tests.redis_modes import ONE_NODE
from tests.titles import GAME, TITLE

INVALID = grpc.StatusCode.INVALID_ARGUMENT
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION
DENIED = grpc.StatusCode.PERMISSION_DENIED
NOT_FOUND = grpc.StatusCode.NOT_FOUND
# An option of TITLE with a list of choices (a value outside it is refused).
CHOSEN_OPTION = next(option.name for option in GAME.info.options if option.choices)
OPEN, STARTED, CLOSED = (
    gateway_pb2.LOBBY_STATUS_OPEN,
    gateway_pb2.LOBBY_STATUS_STARTED,
    gateway_pb2.LOBBY_STATUS_CLOSED,
)


def create(client: Client, seat_count: int = 3, **fields: object) -> gateway_pb2.Lobby:
    """A new lobby of TITLE hosted by the client."""
    request = gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=seat_count, **fields)  # type: ignore[arg-type]
    return client.lobbies.CreateLobby(request, metadata=client.auth, timeout=RPC_TIMEOUT).lobby


def join(client: Client, lobby_id: str, **fields: object) -> gateway_pb2.Lobby:
    """Join the lobby as the client."""
    request = gateway_pb2.JoinLobbyRequest(lobby_id=lobby_id, **fields)  # type: ignore[arg-type]
    return client.lobbies.JoinLobby(request, metadata=client.auth, timeout=RPC_TIMEOUT).lobby


def get(client: Client, lobby_id: str) -> gateway_pb2.Lobby:
    """The lobby as the client sees it."""
    request = gateway_pb2.GetLobbyRequest(lobby_id=lobby_id)
    return client.lobbies.GetLobby(request, metadata=client.auth, timeout=RPC_TIMEOUT).lobby


def add_bot(client: Client, lobby_id: str, **fields: object) -> gateway_pb2.Lobby:
    """Seat a bot as the client."""
    request = gateway_pb2.AddBotRequest(lobby_id=lobby_id, **fields)  # type: ignore[arg-type]
    return client.lobbies.AddBot(request, metadata=client.auth, timeout=RPC_TIMEOUT).lobby


def start_request(lobby: gateway_pb2.Lobby) -> gateway_pb2.StartGameRequest:
    """A request to start the lobby's game."""
    return gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id)


def join_request(lobby: gateway_pb2.Lobby) -> gateway_pb2.JoinLobbyRequest:
    """A request to join the lobby at its first open seat."""
    return gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id)


def start(client: Client, lobby: gateway_pb2.Lobby) -> gateway_pb2.StartGameResponse:
    """Start the lobby's game as the client."""
    request = gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id)
    return client.lobbies.StartGame(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def game_view(client: Client, game_id: str) -> gateway_pb2.GameView:
    """The client's view of a game."""
    request = gateway_pb2.GetGameRequest(game_id=game_id)
    return client.games.GetGame(request, metadata=client.auth, timeout=RPC_TIMEOUT).game


def seated(lobby: gateway_pb2.Lobby) -> list[str]:
    """The player id of each seat ('' while open)."""
    return [seat.player.player_id for seat in lobby.seats]


def listed(client: Client, **fields: object) -> gateway_pb2.ListLobbiesResponse:
    """One page of ListLobbies."""
    request = gateway_pb2.ListLobbiesRequest(**fields)  # type: ignore[arg-type]
    return client.lobbies.ListLobbies(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def test_a_new_lobby_seats_its_host_and_takes_defaults(new_client) -> None:  # type: ignore[no-untyped-def]
    host = guest(new_client, "host")
    lobby = create(host, 4)
    assert lobby.lobby_id and lobby.title == TITLE
    assert seated(lobby) == [me(host).player_id, "", "", ""]
    assert [seat.seat for seat in lobby.seats] == [0, 1, 2, 3]
    assert lobby.seats[0].player.display_name == "host"
    assert lobby.host_player_id == me(host).player_id
    assert (lobby.status, lobby.visibility, lobby.seating) == (
        OPEN,
        gateway_pb2.VISIBILITY_PUBLIC,
        gateway_pb2.SEATING_SHUFFLED,
    )
    assert lobby.invite_code == "" and lobby.created_at.seconds > 0
    assert get(guest(new_client), lobby.lobby_id) == lobby


@pytest.mark.parametrize(
    ("fields", "code", "reason"),
    [
        ({"title": "nosuchgame", "seat_count": 3}, NOT_FOUND, "TITLE_NOT_FOUND"),
        ({"title": "", "seat_count": 3}, INVALID, "MISSING_TITLE"),
        ({"title": TITLE, "seat_count": GAME.info.min_players - 1}, INVALID, "INVALID_SEAT_COUNT"),
        ({"title": TITLE, "seat_count": GAME.info.max_players + 1}, INVALID, "INVALID_SEAT_COUNT"),
        (
            {"title": TITLE, "seat_count": 3, "options": [{"name": "no_such_option", "value": "1"}]},
            INVALID,
            "UNKNOWN_OPTION",
        ),
        (
            {"title": TITLE, "seat_count": 3, "options": [{"name": CHOSEN_OPTION, "value": "maybe"}]},
            INVALID,
            "INVALID_OPTION_VALUE",
        ),
        (
            {"title": TITLE, "seat_count": 3, "clock": {"per_move_seconds": -1}},
            INVALID,
            "INVALID_CLOCK",
        ),
        ({"title": TITLE, "seat_count": 3, "visibility": 7}, INVALID, "INVALID_ENUM_VALUE"),
    ],
    ids=["unknown title", "no title", "too few", "too many", "unknown option", "bad value", "clock", "enum"],
)
def test_a_lobby_needs_a_known_title_and_valid_settings(
    client: Client,
    redis_url: str,
    fields: dict,
    code: grpc.StatusCode,
    reason: str,  # type: ignore[type-arg]
) -> None:
    client.sign_in_as_guest("host")
    store = sync_client(redis_url)
    before = store.zcard(keys.open_lobbies())
    refusal = refused(client.lobbies.CreateLobby, gateway_pb2.CreateLobbyRequest(**fields), client.auth)
    assert (refusal[0], refusal[1].reason) == (code, reason)
    assert store.zcard(keys.open_lobbies()) == before, "a refused lobby is not stored"
    store.close()


def test_options_are_kept_on_the_lobby(client: Client) -> None:
    client.sign_in_as_guest("host")
    options = [gateway_pb2.GameOptionValue(name="public_vp", value="true")]
    clock = gateway_pb2.TurnClock(per_move_seconds=60, on_timeout=gateway_pb2.TIMEOUT_POLICY_FORFEIT)
    lobby = create(client, 2, options=options, clock=clock, seating=gateway_pb2.SEATING_FIXED)
    assert list(lobby.options) == options and lobby.clock == clock
    assert lobby.seating == gateway_pb2.SEATING_FIXED


def test_a_private_lobby_is_for_its_members_and_whoever_gives_its_code_which_it_shows_members_only(
    new_client,
) -> None:  # type: ignore[no-untyped-def]
    host, friend, stranger = guest(new_client, "host"), guest(new_client, "friend"), guest(new_client)
    lobby = create(host, 3, visibility=gateway_pb2.VISIBILITY_PRIVATE)
    code = lobby.invite_code
    assert len(code) >= 12
    assert get(host, lobby.lobby_id).invite_code == code
    code_seen, info = refused(
        stranger.lobbies.GetLobby, gateway_pb2.GetLobbyRequest(lobby_id=lobby.lobby_id), stranger.auth
    )
    assert (code_seen, info.reason) == (DENIED, "PRIVATE_LOBBY"), "a private lobby is not for strangers"
    with_code = stranger.lobbies.GetLobby(
        gateway_pb2.GetLobbyRequest(lobby_id=lobby.lobby_id, invite_code=code), metadata=stranger.auth
    ).lobby
    assert (with_code.lobby_id, with_code.invite_code) == (lobby.lobby_id, ""), "with its code, but not shown"
    assert lobby.lobby_id not in [found.lobby_id for found in listed(stranger, page_size=100).lobbies]

    for wrong in ["", code[:-1] + ("A" if code[-1] != "A" else "B")]:
        refusal = refused(
            stranger.lobbies.JoinLobby,
            gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id, invite_code=wrong),
            stranger.auth,
        )
        assert (refusal[0], refusal[1].reason) == (DENIED, "PERMISSION_DENIED")
    assert seated(get(host, lobby.lobby_id))[1:] == ["", ""], "a refused join takes no seat"

    joined = join(friend, lobby.lobby_id, invite_code=code)
    assert joined.invite_code == code
    assert seated(joined) == [me(host).player_id, me(friend).player_id, ""]


def test_join_takes_the_first_open_seat_or_the_one_asked_for(new_client) -> None:  # type: ignore[no-untyped-def]
    host, first, second = guest(new_client), guest(new_client), guest(new_client)
    lobby = create(host, 4)
    join(first, lobby.lobby_id, seat=3)
    after = join(second, lobby.lobby_id)
    assert seated(after) == [me(host).player_id, me(second).player_id, "", me(first).player_id]
    assert after.seats[1].player.display_name == "guest"


def test_join_refusals(new_client) -> None:  # type: ignore[no-untyped-def]
    host, first, late = guest(new_client), guest(new_client), guest(new_client)
    lobby = create(host, 2)
    join(first, lobby.lobby_id)

    def refusal(client: Client, **fields: object) -> tuple[grpc.StatusCode, str]:
        request = gateway_pb2.JoinLobbyRequest(**fields)  # type: ignore[arg-type]
        code, info = refused(client.lobbies.JoinLobby, request, client.auth)
        return code, info.reason

    assert refusal(late, lobby_id=lobby.lobby_id) == (PRECONDITION, "LOBBY_FULL")
    assert refusal(first, lobby_id=lobby.lobby_id) == (PRECONDITION, "ALREADY_SEATED")
    assert refusal(late, lobby_id="0" * 32) == (NOT_FOUND, "LOBBY_NOT_FOUND")
    assert refusal(late, lobby_id="") == (INVALID, "MISSING_LOBBY_ID")
    roomy = create(host, 3)
    join(first, roomy.lobby_id, seat=2)
    assert refusal(late, lobby_id=roomy.lobby_id, seat=2) == (PRECONDITION, "SEAT_TAKEN")
    assert refusal(late, lobby_id=roomy.lobby_id, seat=3) == (INVALID, "INVALID_SEAT")
    assert refusal(late, lobby_id=roomy.lobby_id, seat=-1) == (INVALID, "INVALID_SEAT")
    assert seated(get(late, roomy.lobby_id)) == [me(host).player_id, "", me(first).player_id]


def test_many_players_racing_for_the_last_seat_one_wins(new_client) -> None:  # type: ignore[no-untyped-def]
    host = guest(new_client, "host")
    racers = [guest(new_client, f"racer {i}") for i in range(16)]
    for _ in range(3):
        lobby = create(host, 3)
        join(guest(new_client), lobby.lobby_id)
        request = gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id)
        calls = [r.lobbies.JoinLobby.future(request, metadata=r.auth, timeout=RPC_TIMEOUT) for r in racers]
        codes = [call.code() for call in calls]
        assert codes.count(grpc.StatusCode.OK) == 1, codes
        assert codes.count(PRECONDITION) == len(racers) - 1, codes
        winner = racers[codes.index(grpc.StatusCode.OK)]
        final = get(host, lobby.lobby_id)
        assert seated(final)[2] == me(winner).player_id
        assert all(player for player in seated(final))


def test_racers_for_several_seats_each_get_a_different_one(new_client) -> None:  # type: ignore[no-untyped-def]
    host = guest(new_client, "host")
    lobby = create(host, 5)
    racers = [guest(new_client, f"racer {i}") for i in range(10)]
    request = gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id)
    calls = [r.lobbies.JoinLobby.future(request, metadata=r.auth, timeout=RPC_TIMEOUT) for r in racers]
    winners = {me(r).player_id for r, c in zip(racers, calls, strict=True) if c.code() == grpc.StatusCode.OK}
    assert len(winners) == 4
    assert set(seated(get(host, lobby.lobby_id))[1:]) == winners


def test_leaving_frees_the_seat_and_the_host_leaving_closes_the_lobby(new_client) -> None:  # type: ignore[no-untyped-def]
    host, player, other = guest(new_client), guest(new_client), guest(new_client)
    lobby = create(host, 3)
    join(player, lobby.lobby_id)
    leave = gateway_pb2.LeaveLobbyRequest(lobby_id=lobby.lobby_id)
    after = player.lobbies.LeaveLobby(leave, metadata=player.auth).lobby
    assert seated(after) == [me(host).player_id, "", ""]
    code, info = refused(other.lobbies.LeaveLobby, leave, other.auth)
    assert (code, info.reason) == (PRECONDITION, "NOT_SEATED")

    closed = host.lobbies.LeaveLobby(leave, metadata=host.auth).lobby
    assert closed.status == CLOSED
    code, info = refused(other.lobbies.JoinLobby, join_request(lobby), other.auth)
    assert (code, info.reason) == (PRECONDITION, "LOBBY_NOT_OPEN")
    assert lobby.lobby_id not in [found.lobby_id for found in listed(other, page_size=100).lobbies]


def test_only_the_host_adds_bots_and_a_refusal_leaves_no_bot_behind(
    redis_url: str, rules: dict[str, str]
) -> None:
    with own_gateway(redis_url, rules) as own:
        host, player = guest(own.make_client, "host"), guest(own.make_client, "player")
        lobby = create(host, 3)
        join(player, lobby.lobby_id)
        players_before = sorted(own.store.scan_iter(match="player:*"))
        bot = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id)
        code, info = refused(player.lobbies.AddBot, bot, player.auth)
        assert (code, info.reason) == (DENIED, "PERMISSION_DENIED")
        unknown_strength = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=9)  # type: ignore[arg-type]
        code, info = refused(host.lobbies.AddBot, unknown_strength, host.auth)
        assert (code, info.reason) == (INVALID, "INVALID_ENUM_VALUE")
        assert sorted(own.store.scan_iter(match="player:*")) == players_before

        after = add_bot(host, lobby.lobby_id, strength=gateway_pb2.BOT_STRENGTH_HEURISTIC)
        seat = after.seats[2]
        assert seat.player.bot and not seat.player.guest
        assert seat.player.display_name.startswith("Easy bot ")
        assert seat.bot_strength == gateway_pb2.BOT_STRENGTH_HEURISTIC
        assert own.store.hget(keys.player(seat.player.player_id), "bot") == b"1"

        code, info = refused(host.lobbies.AddBot, bot, host.auth)
        assert (code, info.reason) == (PRECONDITION, "LOBBY_FULL")
        players_after = set(own.store.scan_iter(match="player:*"))
        assert players_after - set(players_before) <= {keys.player(seat.player.player_id).encode()}


def test_games_with_bots_seat_the_same_few_bots_and_store_no_more_players(
    new_client,  # type: ignore[no-untyped-def]
    redis_url: str,
) -> None:
    """Bots are a fixed few of each strength, numbered, seated game after game: however many games
    bots play, Redis holds the same player records (a new bot player at every AddBot grew it without
    end)."""
    store = sync_client(redis_url)
    host = guest(new_client, "host")
    player_records, lineups = [], []
    for _ in range(4):
        lobby = create(host, 3)
        add_bot(host, lobby.lobby_id, strength=gateway_pb2.BOT_STRENGTH_HEURISTIC)
        add_bot(host, lobby.lobby_id)
        full = add_bot(host, lobby.lobby_id, seat=0, strength=gateway_pb2.BOT_STRENGTH_HEURISTIC)
        view = game_view(host, start(host, full).game_id)
        lineups.append(sorted((seat.player.display_name, seat.player.player_id) for seat in view.seats))
        player_records.append(sum(1 for _ in store.scan_iter(match="player:*", count=1000)))
    assert player_records == [player_records[0]] * 4, "no player record more after the first game"
    names = [name for name, _ in lineups[0]]
    assert names == ["Easy bot 1", "Easy bot 2", "Random bot 1"]
    assert all(lineup == lineups[0] for lineup in lineups), "the same bots in every game"
    for _, player_id in lineups[0]:
        assert store.hget(keys.player(player_id), "bot") == b"1"


def test_a_bot_of_unset_strength_plays_at_random(client: Client) -> None:
    client.sign_in_as_guest("host")
    lobby = create(client, 2)
    seat = add_bot(client, lobby.lobby_id, seat=1).seats[1]
    assert seat.bot_strength == gateway_pb2.BOT_STRENGTH_RANDOM
    assert seat.player.display_name.startswith("Random bot ")


def test_starting_needs_the_host_and_every_seat_taken(new_client) -> None:  # type: ignore[no-untyped-def]
    host, player = guest(new_client, "host"), guest(new_client, "player")
    lobby = create(host, 3)
    join(player, lobby.lobby_id)
    code, info = refused(host.lobbies.StartGame, start_request(lobby), host.auth)
    assert (code, info.reason) == (PRECONDITION, "SEATS_OPEN")
    add_bot(host, lobby.lobby_id)
    code, info = refused(player.lobbies.StartGame, start_request(lobby), player.auth)
    assert (code, info.reason) == (DENIED, "PERMISSION_DENIED")
    assert get(host, lobby.lobby_id).status == OPEN


def test_starting_creates_the_game_and_closes_the_lobby_to_joins(new_client) -> None:  # type: ignore[no-untyped-def]
    host, player, late = guest(new_client, "host"), guest(new_client, "player"), guest(new_client)
    lobby = create(host, 3)
    join(player, lobby.lobby_id)
    add_bot(host, lobby.lobby_id, strength=gateway_pb2.BOT_STRENGTH_SEARCH)
    started = start(host, lobby)
    assert started.game_id and started.lobby.game_id == started.game_id
    assert started.lobby.status == STARTED
    assert get(late, lobby.lobby_id).status == STARTED
    assert lobby.lobby_id not in [found.lobby_id for found in listed(late, page_size=100).lobbies]

    view = game_view(host, started.game_id)
    assert {seat.player.player_id for seat in view.seats} == set(seated(started.lobby))
    bots = [seat for seat in view.seats if seat.player.bot]
    assert [bot.bot_strength for bot in bots] == [gateway_pb2.BOT_STRENGTH_SEARCH]
    assert view.HasField("seat")

    again = start(host, lobby)  # a retry whose answer was lost: the same game, no second one
    assert again.game_id == started.game_id and game_view(host, again.game_id).version == view.version
    code, info = refused(late.lobbies.JoinLobby, join_request(lobby), late.auth)
    assert (code, info.reason) == (PRECONDITION, "LOBBY_NOT_OPEN")
    leave = gateway_pb2.LeaveLobbyRequest(lobby_id=lobby.lobby_id)
    code, info = refused(player.lobbies.LeaveLobby, leave, player.auth)
    assert (code, info.reason) == (PRECONDITION, "LOBBY_NOT_OPEN")


def test_a_host_may_give_every_seat_to_bots_and_watch(new_client) -> None:  # type: ignore[no-untyped-def]
    host = guest(new_client, "host")
    lobby = create(host, 3)
    add_bot(host, lobby.lobby_id)
    add_bot(host, lobby.lobby_id)
    code, info = refused(host.lobbies.AddBot, gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id), host.auth)
    assert (code, info.reason) == (PRECONDITION, "LOBBY_FULL"), "an unnumbered bot never unseats the host"
    full = add_bot(host, lobby.lobby_id, seat=0, strength=gateway_pb2.BOT_STRENGTH_HEURISTIC)
    assert me(host).player_id not in seated(full) and all(seat.player.bot for seat in full.seats)
    assert (
        full.host_player_id == me(host).player_id
        and full.seats[0].bot_strength == gateway_pb2.BOT_STRENGTH_HEURISTIC
    )

    started = start(host, full)
    view = game_view(host, started.game_id)
    assert not view.HasField("seat") and not view.legal_actions, "the host watches as a spectator"
    assert len(view.seats) == 3 and all(seat.player.bot for seat in view.seats)


def test_a_host_without_a_seat_closes_the_lobby_by_leaving(new_client) -> None:  # type: ignore[no-untyped-def]
    host = guest(new_client, "host")
    lobby = create(host, 2)
    add_bot(host, lobby.lobby_id, seat=0)
    leave = gateway_pb2.LeaveLobbyRequest(lobby_id=lobby.lobby_id)
    assert host.lobbies.LeaveLobby(leave, metadata=host.auth).lobby.status == CLOSED
    assert lobby.lobby_id not in [found.lobby_id for found in listed(host, page_size=100).lobbies]


def test_fixed_seating_keeps_the_lobby_order(new_client) -> None:  # type: ignore[no-untyped-def]
    host, player = guest(new_client, "host"), guest(new_client, "player")
    for _ in range(3):
        lobby = create(host, 3, seating=gateway_pb2.SEATING_FIXED)
        join(player, lobby.lobby_id, seat=2)
        add_bot(host, lobby.lobby_id)
        started = start(host, lobby)
        view = game_view(host, started.game_id)
        assert [seat.player.player_id for seat in view.seats] == seated(started.lobby)
        assert view.seat == 0


def test_shuffled_seating_changes_the_order_sometimes(new_client) -> None:  # type: ignore[no-untyped-def]
    host = guest(new_client, "host")
    orders = set()
    for _ in range(12):
        lobby = create(host, 2)
        lobby = add_bot(host, lobby.lobby_id)
        started = start(host, lobby)
        view = game_view(host, started.game_id)
        orders.add(view.seat)
    assert orders == {0, 1}, "12 shuffles of 2 seats all alike has odds 1 in 2048"


@ONE_NODE  # it counts every open lobby: an empty database of its own
def test_listing_pages_newest_first_without_gaps_or_repeats(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules) as own:
        hosts = [guest(own.make_client, f"host {i}") for i in range(6)]  # 5 open lobbies each at most
        created = [create(hosts[i % 5], 2).lobby_id for i in range(25)]
        private = create(hosts[5], 2, visibility=gateway_pb2.VISIBILITY_PRIVATE)
        reader = hosts[0]

        first = listed(reader)
        assert len(first.lobbies) == 20 and first.next_page_token

        pages, token = [], ""
        while True:
            page = listed(reader, page_size=10, page_token=token)
            pages.append([lobby.lobby_id for lobby in page.lobbies])
            if len(pages) == 1:
                create(hosts[5], 2)  # a lobby created meanwhile does not shift the later pages
            token = page.next_page_token
            if not token:
                break
        assert [len(page) for page in pages] == [10, 10, 5]
        assert [lobby_id for page in pages for lobby_id in page] == created[::-1]
        assert private.lobby_id not in {lobby_id for page in pages for lobby_id in page}

        titled = listed(reader, title=TITLE, page_size=100)
        assert len(titled.lobbies) == 26 and not titled.next_page_token
        stamps = [(lobby.created_at.seconds, lobby.created_at.nanos) for lobby in titled.lobbies]
        assert stamps == sorted(stamps, reverse=True)

        closing = created[-1]
        hosts[4].lobbies.LeaveLobby(gateway_pb2.LeaveLobbyRequest(lobby_id=closing), metadata=hosts[4].auth)
        assert closing not in [lobby.lobby_id for lobby in listed(reader, page_size=100).lobbies]


def test_listing_refuses_bad_pages_and_unknown_titles(client: Client) -> None:
    client.sign_in_as_guest("reader")
    for _ in range(3):
        create(client, 2)
    token = listed(client, page_size=1).next_page_token
    assert token
    cases = [
        ({"page_size": 101}, INVALID, "INVALID_PAGE_SIZE"),
        ({"page_size": -1}, INVALID, "INVALID_PAGE_SIZE"),
        ({"page_token": "not a token"}, INVALID, "INVALID_PAGE_TOKEN"),
        ({"page_token": "e30"}, INVALID, "INVALID_PAGE_TOKEN"),
        ({"page_token": token, "title": TITLE}, INVALID, "INVALID_PAGE_TOKEN"),
        ({"title": "nosuchgame"}, NOT_FOUND, "TITLE_NOT_FOUND"),
    ]
    for fields, code, reason in cases:
        refusal = refused(client.lobbies.ListLobbies, gateway_pb2.ListLobbiesRequest(**fields), client.auth)
        assert (refusal[0], refusal[1].reason) == (code, reason), fields


def test_an_unknown_lobby_is_not_found(client: Client) -> None:
    client.sign_in_as_guest("reader")
    for call, request in [
        (client.lobbies.GetLobby, gateway_pb2.GetLobbyRequest(lobby_id="f" * 32)),
        (client.lobbies.LeaveLobby, gateway_pb2.LeaveLobbyRequest(lobby_id="f" * 32)),
        (client.lobbies.AddBot, gateway_pb2.AddBotRequest(lobby_id="f" * 32)),
        (client.lobbies.StartGame, gateway_pb2.StartGameRequest(lobby_id="f" * 32)),
    ]:
        code, info = refused(call, request, client.auth)
        assert (code, info.reason) == (NOT_FOUND, "LOBBY_NOT_FOUND")


@ONE_NODE  # it lists every open lobby and game: an empty database of its own
def test_a_start_that_fails_leaves_the_lobby_open(redis_url: str) -> None:
    rules_server, port = create_rules_server("127.0.0.1:0", GAME)
    rules_server.start()
    try:
        with own_gateway(redis_url, {TITLE: f"127.0.0.1:{port}"}, rules_timeout_seconds=2.0) as own:
            host = guest(own.make_client, "host")
            lobby = create(host, 2)
            add_bot(host, lobby.lobby_id)
            rules_server.stop(None).wait()
            refusal = refused(host.lobbies.StartGame, start_request(lobby), host.auth)
            assert (refusal[0], refusal[1].reason) == (grpc.StatusCode.UNAVAILABLE, "RULES_UNAVAILABLE")
            after = get(host, lobby.lobby_id)
            assert (after.status, after.game_id) == (OPEN, "")
            assert [found.lobby_id for found in listed(host).lobbies] == [lobby.lobby_id]
            assert not list(own.store.scan_iter(match="game:*"))
    finally:
        rules_server.stop(None)


def test_a_start_that_stopped_before_its_game_existed_is_finished_by_the_hosts_retry(
    new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    """The claim names the game with the lobby marked started; a gateway that died before creating
    it leaves that lobby, and the host's retry creates the very game it names."""
    host = guest(new_client, "host")
    lobby = create(host, GAME.info.min_players)
    for _ in range(1, GAME.info.min_players):
        add_bot(host, lobby.lobby_id)
    store = sync_client(redis_url)
    claimed = gateway_pb2.Lobby.FromString(store.get(keys.lobby(lobby.lobby_id)))
    claimed.status, claimed.game_id = STARTED, "claimed0000000000000000000000000"
    store.set(keys.lobby(lobby.lobby_id), claimed.SerializeToString(), keepttl=True)
    store.close()
    started = start(host, lobby)
    assert started.game_id == claimed.game_id and started.lobby.status == STARTED
    assert {seat.seat for seat in game_view(host, started.game_id).seats} == set(range(GAME.info.min_players))

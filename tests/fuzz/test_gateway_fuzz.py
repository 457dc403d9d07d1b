"""Bad requests to the gateway's accounts, lobbies and reads over real gRPC: names with unicode and
control characters, wild titles, seat counts, options, enum values (every one and unknown ones) and
clocks, wild seats and bot strengths, wild ids, page sizes and tokens, and tokens that sign nobody in.
Every answer is OK or a refusal of the error table with a readable message, and a refused lobby call
changes nothing stored."""

from __future__ import annotations

import grpc
import redis
from boardgame.gateway.v1 import gateway_pb2
from hypothesis import given
from hypothesis import strategies as st

from live import keys
from services.common import registry
from tests.fuzz import strategies
from tests.fuzz.outcomes import call, check_refusal
from tests.fuzz.players import RPC_TIMEOUT, Player, new_game
from tests.fuzz.stored import game_stored, listings, lobby_stored
from tests.fuzz.volume import fuzz
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess

TITLES = list(registry.games())
INT32 = strategies.wild_ints(*strategies.INT32)


def enum_values(enum: object) -> st.SearchStrategy[int]:
    """Every value of a gateway enum, and any other int32."""
    return st.one_of(st.sampled_from(list(enum.values())), INT32)  # type: ignore[attr-defined]


def titles() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(TITLES), strategies.text())


@st.composite
def options(draw: st.DrawFn, title: str) -> list[gateway_pb2.GameOptionValue]:
    """Lobby options: names and values of the title's options, mixed with any text."""
    known = registry.get(title).info.options if title in TITLES else ()
    names = st.one_of(st.sampled_from([o.name for o in known] or [""]), strategies.text())
    values = st.one_of(st.sampled_from([c for o in known for c in o.choices] or [""]), strategies.text())
    pairs = st.builds(gateway_pb2.GameOptionValue, name=names, value=values)
    return draw(st.lists(pairs, max_size=4))


def turn_clocks() -> st.SearchStrategy[gateway_pb2.TurnClock]:
    """Clocks of any parts: limits, increments, reserves, paces and timeout policies."""
    return st.builds(
        gateway_pb2.TurnClock,
        per_move_seconds=INT32,
        total_seconds=INT32,
        on_timeout=enum_values(gateway_pb2.TimeoutPolicy),
        increment_seconds=INT32,
        reserve_seconds=INT32,
        pace=enum_values(gateway_pb2.ClockPace),
    )


def test_names(fuzz_gateway: GatewayProcess, fuzz_redis: redis.Redis) -> None:
    """CreateGuest, Register and SignIn with any names and passwords; a refused Register takes no name."""
    with patient_channel(fuzz_gateway.address) as channel:
        client = Client(channel)

        @fuzz(1.5)
        @given(
            display_name=strategies.text(),
            username=st.one_of(strategies.text(40), st.from_regex(r"[A-Za-z0-9_-]{3,32}", fullmatch=True)),
            password=strategies.text(140),
            method=st.sampled_from(["CreateGuest", "Register", "SignIn"]),
        )
        def run(display_name: str, username: str, password: str, method: str) -> None:
            accounts = client.accounts
            if method == "CreateGuest":
                request = gateway_pb2.CreateGuestRequest(display_name=display_name)
                call("account guest name", accounts.CreateGuest, request, timeout=RPC_TIMEOUT)
                return
            if method == "SignIn":
                signin = gateway_pb2.SignInRequest(username=username, password=password)
                outcome, _ = call("account sign in", accounts.SignIn, signin, timeout=RPC_TIMEOUT)
                assert not outcome.ok or fuzz_redis.exists(keys.username(username))
                return
            taken = fuzz_redis.get(keys.username(username))
            register = gateway_pb2.RegisterRequest(
                username=username, password=password, display_name=display_name
            )
            outcome, _ = call("account register", accounts.Register, register, timeout=RPC_TIMEOUT)
            if not outcome.ok:
                assert fuzz_redis.get(keys.username(username)) == taken, "a refused Register took the name"

        run()


def test_create_lobby(
    fuzz_gateway: GatewayProcess, fuzz_redis: redis.Redis, fuzz_players: list[Player]
) -> None:
    """CreateLobby with anything; a refused one lists nothing, a created one is closed by its host."""

    @fuzz(1.5)
    @given(
        host=st.sampled_from(fuzz_players),
        title=titles(),
        seat_count=st.one_of(st.integers(0, 6), INT32),
        data=st.data(),
        visibility=enum_values(gateway_pb2.Visibility),
        seating=enum_values(gateway_pb2.Seating),
        clock=turn_clocks() | st.none(),
    )
    def run(
        host: Player,
        title: str,
        seat_count: int,
        data: st.DataObject,
        visibility: int,
        seating: int,
        clock: gateway_pb2.TurnClock | None,
    ) -> None:
        request = gateway_pb2.CreateLobbyRequest(
            title=title,
            seat_count=seat_count,
            options=data.draw(options(title)),
            visibility=visibility,
            seating=seating,
            clock=clock,
        )
        lobbies, auth = host.client.lobbies, host.client.auth
        before = listings(fuzz_redis)
        outcome, created = call(
            "lobby create", lobbies.CreateLobby, request, metadata=auth, timeout=RPC_TIMEOUT
        )
        if created is None:
            assert listings(fuzz_redis) == before, f"a refused CreateLobby ({outcome.label}) listed a lobby"
            return
        leave = gateway_pb2.LeaveLobbyRequest(lobby_id=created.lobby.lobby_id)
        outcome, _ = call("lobby leave", lobbies.LeaveLobby, leave, metadata=auth, timeout=RPC_TIMEOUT)
        assert outcome.ok, outcome

    run()


def test_join_and_add_bot(
    fuzz_gateway: GatewayProcess, fuzz_redis: redis.Redis, fuzz_players: list[Player]
) -> None:
    """JoinLobby and AddBot with any seat, invite code and strength, on a fresh lobby (public or
    private); a refusal leaves the lobby as it was."""

    @fuzz(1.5)
    @given(
        title=st.sampled_from(TITLES),
        private=st.booleans(),
        pair=st.permutations(fuzz_players).map(lambda p: p[:2]),
        method=st.sampled_from(["JoinLobby", "AddBot"]),
        seat=st.none() | st.integers(-1, 6) | INT32,
        invite_code=strategies.text(),
        strength=enum_values(gateway_pb2.BotStrength),
        lobby_id=st.none() | strategies.text(),
    )
    def run(
        title: str,
        private: bool,
        pair: list[Player],
        method: str,
        seat: int | None,
        invite_code: str,
        strength: int,
        lobby_id: str | None,
    ) -> None:
        host, joiner = pair
        game = registry.get(title)
        visibility = gateway_pb2.VISIBILITY_PRIVATE if private else gateway_pb2.VISIBILITY_PUBLIC
        create = gateway_pb2.CreateLobbyRequest(
            title=title, seat_count=game.info.max_players, visibility=visibility
        )
        lobby = host.client.lobbies.CreateLobby(create, metadata=host.client.auth, timeout=RPC_TIMEOUT).lobby
        target = lobby.lobby_id if lobby_id is None else lobby_id
        before = lobby_stored(fuzz_redis, lobby.lobby_id, title)
        if method == "JoinLobby":
            join = gateway_pb2.JoinLobbyRequest(lobby_id=target, invite_code=invite_code, seat=seat)
            client = joiner.client
            outcome, _ = call(
                "lobby join", client.lobbies.JoinLobby, join, metadata=client.auth, timeout=RPC_TIMEOUT
            )
        else:
            add = gateway_pb2.AddBotRequest(lobby_id=target, strength=strength, seat=seat)
            client = host.client if lobby_id is None or seat is None else joiner.client
            outcome, _ = call(
                "lobby add bot", client.lobbies.AddBot, add, metadata=client.auth, timeout=RPC_TIMEOUT
            )
        if not outcome.ok:
            assert lobby_stored(fuzz_redis, lobby.lobby_id, title) == before, (
                f"{outcome.label} changed the lobby"
            )
        leave = gateway_pb2.LeaveLobbyRequest(lobby_id=lobby.lobby_id)
        host.client.lobbies.LeaveLobby(leave, metadata=host.client.auth, timeout=RPC_TIMEOUT)

    run()


def test_reads(fuzz_gateway: GatewayProcess, fuzz_redis: redis.Redis, fuzz_players: list[Player]) -> None:
    """Every read with wild ids, titles, page sizes and page tokens (and a live game's id, which no
    read changes)."""
    live_game = new_game(fuzz_gateway, TITLES[0], fuzz_players[: registry.get(TITLES[0]).info.min_players])
    stored = game_stored(fuzz_redis, live_game)
    ids = st.one_of(st.just(live_game), strategies.text())

    @fuzz(1.5)
    @given(
        player=st.sampled_from(fuzz_players),
        method=st.sampled_from(
            ["GetGame", "GetGameRecord", "ReplayGame", "GetLobby", "ListLobbies", "GetLeaderboard"]
        ),
        ident=ids,
        title=st.one_of(st.just(""), titles()),
        page_size=st.one_of(st.integers(0, 101), INT32),
        page_token=st.one_of(st.just(""), strategies.text(600)),
    )
    def run(player: Player, method: str, ident: str, title: str, page_size: int, page_token: str) -> None:
        client = player.client
        stub, request = {
            "GetGame": (client.games, gateway_pb2.GetGameRequest(game_id=ident)),
            "GetGameRecord": (client.games, gateway_pb2.GetGameRecordRequest(game_id=ident)),
            "ReplayGame": (client.games, gateway_pb2.ReplayGameRequest(game_id=ident)),
            "GetLobby": (client.lobbies, gateway_pb2.GetLobbyRequest(lobby_id=ident)),
            "ListLobbies": (
                client.lobbies,
                gateway_pb2.ListLobbiesRequest(title=title, page_size=page_size, page_token=page_token),
            ),
            "GetLeaderboard": (
                client.leaderboard,
                gateway_pb2.GetLeaderboardRequest(title=title, page_size=page_size, page_token=page_token),
            ),
        }[method]
        call(f"read {method}", getattr(stub, method), request, metadata=client.auth, timeout=RPC_TIMEOUT)
        assert game_stored(fuzz_redis, live_game) == stored, f"{method} changed the stored game"

    run()


def test_tokens(fuzz_gateway: GatewayProcess) -> None:
    """Calls with no token, a token that signs nobody in, or another scheme: UNAUTHENTICATED."""
    printable = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=100)
    with grpc.insecure_channel(fuzz_gateway.address) as channel:
        client = Client(channel)

        @fuzz(0.5)
        @given(value=st.one_of(printable.map(lambda t: f"Bearer {t}"), printable), send=st.booleans())
        def run(value: str, send: bool) -> None:
            metadata = (("authorization", value),) if send else ()
            request = gateway_pb2.GetMeRequest()
            outcome, _ = call(
                "account bad token", client.accounts.GetMe, request, metadata=metadata, timeout=RPC_TIMEOUT
            )
            if not outcome.ok:
                check_refusal(outcome, ("UNAUTHENTICATED",))
            assert not outcome.ok, "a made-up token signed in"

        run()


def test_find_match(
    fuzz_gateway: GatewayProcess, fuzz_redis: redis.Redis, fuzz_players: list[Player]
) -> None:
    """FindMatch with anything (then CancelMatch): a refused search queues nothing; an accepted one
    answers SEARCHING first and is withdrawn, its claim ended, by CancelMatch."""

    @fuzz(1.0)
    @given(
        player=st.sampled_from(fuzz_players),
        title=titles(),
        seat_count=st.one_of(st.integers(0, 6), INT32),
        data=st.data(),
        clock=turn_clocks() | st.none(),
        bots_after_seconds=st.one_of(st.integers(0, 700), INT32),
        bot_strength=enum_values(gateway_pb2.BotStrength),
        sound=st.booleans(),
    )
    def run(
        player: Player,
        title: str,
        seat_count: int,
        data: st.DataObject,
        clock: gateway_pb2.TurnClock | None,
        bots_after_seconds: int,
        bot_strength: int,
        sound: bool,
    ) -> None:
        request = gateway_pb2.FindMatchRequest(
            title=title,
            seat_count=seat_count,
            options=data.draw(options(title)),
            clock=clock,
            bots_after_seconds=bots_after_seconds,
            bot_strength=bot_strength,
        )
        if sound:  # half the searches are ones the gateway takes: a title's least seats, a long wait
            title = data.draw(st.sampled_from(TITLES))
            seats = registry.get(title).info.min_players
            request = gateway_pb2.FindMatchRequest(title=title, seat_count=seats, bots_after_seconds=600)
        matches, auth = player.client.matches, player.client.auth
        claim = keys.match_player(player.player.player_id)
        stream = matches.FindMatch(request, metadata=auth, timeout=RPC_TIMEOUT)
        outcome, first = call("match find", lambda _request: next(stream), request)  # its first message
        if first is None:
            assert not fuzz_redis.exists(claim), f"a refused FindMatch ({outcome.label}) claimed a search"
            return
        assert first.status == gateway_pb2.MATCH_STATUS_SEARCHING
        cancel = gateway_pb2.CancelMatchRequest()
        outcome, _ = call("match cancel", matches.CancelMatch, cancel, metadata=auth, timeout=RPC_TIMEOUT)
        assert outcome.ok or outcome.reason == "NOT_SEARCHING", outcome
        assert [reply.status for reply in stream][-1:] in (
            [gateway_pb2.MATCH_STATUS_CANCELLED],
            [gateway_pb2.MATCH_STATUS_MATCHED],
        )
        assert not fuzz_redis.exists(claim), "a withdrawn search kept its claim"

    run()

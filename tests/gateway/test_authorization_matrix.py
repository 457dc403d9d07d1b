"""Who may call what: every RPC of the gateway's services (read from their descriptors, so a new RPC
without a row fails here) against every kind of caller, each cell the gRPC code expected, on the
session's real gateway and Redis.

The callers: no token, a malformed one, an expired one, one an operator key issued before the key was
revoked, one signed out, a forged one naming a bot's seat, a bare operator key and a revoked one
(x-api-key, no token), and the players: the seated player (the lobby's host, the game's acting seat),
another player at the same table, a spectator (signed in, no seat), a player who resigned the game, and
a player signed in by an operator's key. A refused call changes nothing, so the refusals share one
lobby and one game; each cell expected to succeed in a call that changes something gets a table of its
own.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc, tournaments_pb2
from google.protobuf.message import Message

from gateway import api
from gateway.auth import create_api_key, digest, revoke_api_key
from live import keys
from live.connection import sync_client
from live.games import start_game
from tests.gateway._support_accounts import RPC_TIMEOUT, unique
from tests.gateway.patience import patient_channel
from tests.gateway.support import GatewayProcess
from tests.titles import GAME, TITLE

OK = grpc.StatusCode.OK
UNAUTHENTICATED = grpc.StatusCode.UNAUTHENTICATED
DENIED = grpc.StatusCode.PERMISSION_DENIED
PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION

NOBODY = ("no token", "bad token", "expired", "revoked", "signed out", "bot seat")
OPERATORS = ("operator key", "revoked key")
PLAYERS = ("seated", "other", "spectator", "resigned", "minted")
CALLERS = (*NOBODY, *OPERATORS, *PLAYERS)
PASSWORD = "matrix password"

Codes = dict[str, grpc.StatusCode]


def everyone(code: grpc.StatusCode) -> Codes:
    """The same code for every caller (a call that needs no token)."""
    return dict.fromkeys(CALLERS, code)


def players(code: grpc.StatusCode = OK, **exceptions: grpc.StatusCode) -> Codes:
    """A call that needs a player's token: UNAUTHENTICATED without one, `code` (else the exceptions,
    by role) for players."""
    cells = {**dict.fromkeys((*NOBODY, *OPERATORS), UNAUTHENTICATED), **dict.fromkeys(PLAYERS, code)}
    return cells | exceptions


EXPECTED: dict[str, Codes] = {
    "CreateGuest": everyone(OK),
    "Register": everyone(OK),
    "SignIn": everyone(OK),
    "SignOut": players(),
    "GetMe": players(),
    "SetLocale": players(),
    "IssuePlayerToken": everyone(UNAUTHENTICATED) | {"operator key": OK},
    "ListTitles": players(),
    "GetTitleData": players(),
    "GetCatalog": players(),
    "CreateLobby": players(),
    "ListLobbies": players(),
    "GetLobby": players(),
    "JoinLobby": players(seated=PRECONDITION, other=PRECONDITION),
    "LeaveLobby": players(spectator=PRECONDITION, resigned=PRECONDITION, minted=PRECONDITION),
    "AddBot": players(DENIED, seated=OK),
    "StartGame": players(DENIED, seated=OK),
    "GetGame": players(),
    "SubmitAction": players(other=PRECONDITION, spectator=DENIED, resigned=PRECONDITION, minted=DENIED),
    "Resign": players(spectator=DENIED, resigned=PRECONDITION, minted=DENIED),
    "Undo": players(PRECONDITION, spectator=DENIED, minted=DENIED),  # no decision of theirs to undo
    "RequestTakeback": players(PRECONDITION, spectator=DENIED, minted=DENIED),  # a rated game
    "AnswerTakeback": players(PRECONDITION, spectator=DENIED, minted=DENIED),  # none pending
    "WatchGame": players(),
    "GetGameRecord": players(PRECONDITION),  # the game is not over: for its players and anyone else
    "ReplayGame": players(PRECONDITION),
    "GetReplayStep": players(PRECONDITION),
    "GetLeaderboard": players(),
    "ListMyGames": players(),
    "WatchInbox": players(),
    "Rematch": players(PRECONDITION, spectator=DENIED, minted=DENIED),  # not over; theirs to ask for
    "SendChatMessage": players(),  # a spectator's goes on the spectators' channel
    "InviteSpectator": players(DENIED, seated=OK, other=OK, resigned=OK),  # by the game's players
    "CancelMatch": players(PRECONDITION),  # before FindMatch: nobody searches yet
    "FindMatch": players(),  # each search is withdrawn as its stream is cancelled
    "CreateTournament": players(),
    "ListTournaments": players(),
    "GetTournament": players(),
    "JoinTournament": players(other=PRECONDITION),  # `other` is registered; the organiser is not
    "LeaveTournament": players(PRECONDITION, other=OK),  # only an entrant withdraws
    "AddTournamentBot": players(DENIED, seated=OK),  # the organiser's
    "StartTournament": players(DENIED, seated=OK),
    "CancelTournament": players(DENIED, seated=OK),
}
# Calls after which the table is not as it was: a cell expected to succeed gets a table of its own.
CHANGING = {
    "SignOut",
    "JoinLobby",
    "LeaveLobby",
    "AddBot",
    "StartGame",
    "SubmitAction",
    "Resign",
    "InviteSpectator",
    "JoinTournament",
    "LeaveTournament",
    "AddTournamentBot",
    "StartTournament",
    "CancelTournament",
}


def rpcs() -> dict[str, tuple[str, bool]]:
    """Every RPC of the gateway's API: method name -> (service name, server streaming)."""
    return {
        method.name: (service.name, method.server_streaming)
        for service in api.services()
        for method in service.methods
    }


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Table:
    """A lobby, a game or a tournament and the tokens of the players at it: `seated` (host; acting
    seat; organiser), `other` (a player at the table; an entrant)."""

    lobby: gateway_pb2.Lobby | None = None
    game: gateway_pb2.GameView | None = None
    tournament: tournaments_pb2.Tournament | None = None
    tokens: dict[str, str] = field(default_factory=dict)


class World:
    """The callers and the shared tables, on the session's gateway."""

    def __init__(self, gateway: GatewayProcess, channel: grpc.Channel, store: redis.Redis) -> None:
        self.gateway = gateway
        self.store = store
        self.stubs = {service.name: api.stub(service.name, channel) for service in api.services()}
        self.accounts: gateway_pb2_grpc.AccountServiceStub = self.stubs["AccountService"]
        self.lobbies: gateway_pb2_grpc.LobbyServiceStub = self.stubs["LobbyService"]
        self.usernames = {role: unique(f"mx_{role}") for role in ("seated", "other", "spectator", "resigned")}
        self.tokens = {role: self.register(name) for role, name in self.usernames.items()}
        self.player_ids = {
            role: self.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=bearer(token)).player.player_id
            for role, token in self.tokens.items()
        }
        self.key = gateway.run(create_api_key(gateway.app.redis, "matrix"))  # type: ignore[union-attr]
        self.external = unique("user")
        self.tokens["minted"] = self.mint(self.key, self.external)
        self.revoked_key = ""
        self.tokens["revoked"] = self.revoked()
        self.tokens["signed out"] = self.signed_out()
        self.tokens["expired"] = self.expired()
        self.lobby = self.new_lobby()
        self.full_lobby = self.new_lobby(full=True)
        self.game = self.new_game()
        self.tournament = self.new_tournament()
        bot = self.full_lobby.lobby.seats[2].player  # type: ignore[union-attr]
        assert bot.bot
        self.tokens["bot seat"] = f"{bot.player_id}.forged-secret"

    def register(self, username: str) -> str:
        request = gateway_pb2.RegisterRequest(username=username, password=PASSWORD)
        return self.accounts.Register(request, timeout=RPC_TIMEOUT).session.token

    def sign_in(self, role: str) -> str:
        request = gateway_pb2.SignInRequest(username=self.usernames[role], password=PASSWORD)
        return self.accounts.SignIn(request, timeout=RPC_TIMEOUT).session.token

    def mint(self, api_key: str, external_id: str) -> str:
        request = gateway_pb2.IssuePlayerTokenRequest(external_id=external_id, display_name="Minted")
        issued = self.accounts.IssuePlayerToken(
            request, metadata=(("x-api-key", api_key),), timeout=RPC_TIMEOUT
        )
        return issued.session.token

    def revoked(self) -> str:
        """A token an operator key issued, then the key revoked (kept as `revoked_key`)."""
        redis = self.gateway.app.redis  # type: ignore[union-attr]
        self.revoked_key = self.gateway.run(create_api_key(redis, "doomed"))
        token = self.mint(self.revoked_key, unique("user"))
        self.gateway.run(revoke_api_key(redis, self.revoked_key))
        return token

    def signed_out(self) -> str:
        token = self.sign_in("spectator")
        self.accounts.SignOut(gateway_pb2.SignOutRequest(), metadata=bearer(token), timeout=RPC_TIMEOUT)
        return token

    def expired(self) -> str:
        """A token whose session ran out, as its TOKEN_TTL_SECONDS would make it."""
        token = self.sign_in("spectator")
        session = keys.session(token.partition(".")[0], digest(token))
        assert self.store.pexpire(session, 1)
        while self.store.exists(session):
            time.sleep(0.001)
        return token

    def new_lobby(self, full: bool = False) -> Table:
        """A lobby of 3 seats: `seated` hosts it, `other` sits in seat 1; seat 2 open, or a bot's."""
        host, other = bearer(self.tokens["seated"]), bearer(self.tokens["other"])
        create = gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=3, seating=gateway_pb2.SEATING_FIXED)
        lobby = self.lobbies.CreateLobby(create, metadata=host, timeout=RPC_TIMEOUT).lobby
        join = gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id)
        lobby = self.lobbies.JoinLobby(join, metadata=other, timeout=RPC_TIMEOUT).lobby
        if full:
            add = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id)
            lobby = self.lobbies.AddBot(add, metadata=host, timeout=RPC_TIMEOUT).lobby
        return Table(lobby=lobby, tokens={"seated": self.tokens["seated"], "other": self.tokens["other"]})

    def new_tournament(self) -> Table:
        """A tournament `seated` organises, with `other` and a bot registered (enough to start)."""
        tournaments = self.stubs["TournamentService"]
        host, other = bearer(self.tokens["seated"]), bearer(self.tokens["other"])
        create = tournaments_pb2.CreateTournamentRequest(
            title=TITLE,
            seats_per_table=GAME.info.min_players,
            format=tournaments_pb2.TOURNAMENT_FORMAT_SWISS,
            swiss_rounds=1,
            capacity=8,
        )
        tournament = tournaments.CreateTournament(create, metadata=host, timeout=RPC_TIMEOUT).tournament
        tournament_id = tournament.tournament_id
        join = tournaments_pb2.JoinTournamentRequest(tournament_id=tournament_id)
        tournaments.JoinTournament(join, metadata=other, timeout=RPC_TIMEOUT)
        add = tournaments_pb2.AddTournamentBotRequest(tournament_id=tournament_id)
        tournament = tournaments.AddTournamentBot(add, metadata=host, timeout=RPC_TIMEOUT).tournament
        return Table(
            tournament=tournament, tokens={"seated": self.tokens["seated"], "other": self.tokens["other"]}
        )

    def call_off(self, table: Table) -> None:
        """Cancel a tournament of its own after its cell (its organiser's open tournaments are counted)."""
        assert table.tournament is not None
        cancel = tournaments_pb2.CancelTournamentRequest(tournament_id=table.tournament.tournament_id)
        try:
            self.stubs["TournamentService"].CancelTournament(
                cancel, metadata=bearer(self.tokens["seated"]), timeout=RPC_TIMEOUT
            )
        except grpc.RpcError as error:
            assert error.code() == PRECONDITION  # started or cancelled by the cell itself

    def close(self, table: Table) -> None:
        """Close a lobby of its own after its cell (its host's open lobbies are counted)."""
        assert table.lobby is not None
        leave = gateway_pb2.LeaveLobbyRequest(lobby_id=table.lobby.lobby_id)
        try:
            self.lobbies.LeaveLobby(leave, metadata=bearer(self.tokens["seated"]), timeout=RPC_TIMEOUT)
        except grpc.RpcError as error:
            assert error.code() == PRECONDITION  # started or closed by the cell itself

    def new_game(self) -> Table:
        """A game of `seated`, `other` and `resigned` (who resigned it: a bot plays that seat), in which
        `seated` acts and `other` does not."""
        games: gateway_pb2_grpc.GameServiceStub = self.stubs["GameService"]
        me = gateway_pb2.GetMeRequest()
        people = {
            role: self.accounts.GetMe(me, metadata=bearer(self.tokens[role]), timeout=RPC_TIMEOUT).player
            for role in ("seated", "other", "resigned")
        }
        for _ in range(20):
            seats = [gateway_pb2.GameSeat(seat=i, player=p) for i, p in enumerate(people.values())]
            game_id = self.gateway.run(
                start_game(
                    self.gateway.app,  # type: ignore[arg-type]
                    title=TITLE,
                    player_count=len(seats),
                    options=[],
                    seats=seats,
                    clock=gateway_pb2.TurnClock(),
                    lobby_id="",
                )
            )
            request = gateway_pb2.GetGameRequest(game_id=game_id)
            view = games.GetGame(request, metadata=bearer(self.tokens["seated"]), timeout=RPC_TIMEOUT).game
            if list(view.acting_seats) == [0]:  # only `seated` acts, and keeps acting after the resignation
                break
        else:
            raise AssertionError(f"{TITLE} never started with seat 0 alone to act")
        resign = gateway_pb2.ResignRequest(game_id=game_id)
        games.Resign(resign, metadata=bearer(self.tokens["resigned"]), timeout=RPC_TIMEOUT)
        view = games.GetGame(request, metadata=bearer(self.tokens["seated"]), timeout=RPC_TIMEOUT).game
        return Table(game=view, tokens={"seated": self.tokens["seated"], "other": self.tokens["other"]})

    def metadata(self, caller: str, table: Table | None, fresh: bool) -> tuple[tuple[str, str], ...]:
        """What a caller sends; `fresh`: a token of its own, for a call that spends it (SignOut)."""
        if caller == "no token":
            return ()
        if caller == "bad token":
            return (("authorization", "Bearer not-a-token"),)
        if caller == "operator key":
            return (("x-api-key", self.key),)
        if caller == "revoked key":
            return (("x-api-key", self.revoked_key),)
        if fresh:  # each its own token, so that a wrong sign-out spoils no later cell
            makers: dict[str, Callable[[], str]] = {
                "minted": lambda: self.mint(self.key, self.external),
                "revoked": self.revoked,
                "signed out": self.signed_out,
                "expired": self.expired,
                "bot seat": lambda: self.tokens["bot seat"],
            }
            return bearer(makers.get(caller, lambda: self.sign_in(caller))())
        tokens = table.tokens if table is not None else {}
        return bearer(tokens.get(caller, self.tokens[caller]))


LOBBY_CALLS = {"GetLobby", "JoinLobby", "LeaveLobby", "AddBot"}
GAME_CALLS = {
    "GetGame",
    "SubmitAction",
    "Resign",
    "Undo",
    "RequestTakeback",
    "AnswerTakeback",
    "WatchGame",
    "GetGameRecord",
    "ReplayGame",
    "GetReplayStep",
    "Rematch",
    "SendChatMessage",
    "InviteSpectator",
}
TOURNAMENT_CALLS = {
    "GetTournament",
    "JoinTournament",
    "LeaveTournament",
    "AddTournamentBot",
    "StartTournament",
    "CancelTournament",
}


def table_for(world: World, method: str, own: bool) -> Table | None:
    """The table a call concerns: the shared one, or (`own`) one made for the cell."""
    if method in LOBBY_CALLS:
        return world.new_lobby() if own else world.lobby
    if method == "StartGame":
        return world.new_lobby(full=True) if own else world.full_lobby
    if method in GAME_CALLS:
        return world.new_game() if own else world.game
    if method in TOURNAMENT_CALLS:
        return world.new_tournament() if own else world.tournament
    return None


def request_for(world: World, method: str, table: Table | None) -> Message:
    """The request of one cell: valid, so that only the caller decides the outcome."""
    lobby_id = table.lobby.lobby_id if table is not None and table.lobby is not None else ""
    game = table.game if table is not None and table.game is not None else gateway_pb2.GameView()
    tournament_id = (
        table.tournament.tournament_id if table is not None and table.tournament is not None else ""
    )
    spectator = world.usernames["spectator"]
    requests: dict[str, Callable[[], Message]] = {
        "CreateGuest": lambda: gateway_pb2.CreateGuestRequest(display_name="matrix guest"),
        "Register": lambda: gateway_pb2.RegisterRequest(username=unique("mx_new"), password=PASSWORD),
        "SignIn": lambda: gateway_pb2.SignInRequest(username=spectator, password=PASSWORD),
        "SignOut": gateway_pb2.SignOutRequest,
        "GetMe": gateway_pb2.GetMeRequest,
        "SetLocale": lambda: gateway_pb2.SetLocaleRequest(locale="zh-TW"),
        "IssuePlayerToken": lambda: gateway_pb2.IssuePlayerTokenRequest(
            external_id=unique("user"), display_name="Issued"
        ),
        "ListTitles": gateway_pb2.ListTitlesRequest,
        "GetTitleData": lambda: gateway_pb2.GetTitleDataRequest(title=TITLE),
        "GetCatalog": lambda: gateway_pb2.GetCatalogRequest(title=TITLE, locale="zh-TW"),
        "CreateLobby": lambda: gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2),
        "ListLobbies": gateway_pb2.ListLobbiesRequest,
        "GetLobby": lambda: gateway_pb2.GetLobbyRequest(lobby_id=lobby_id),
        "JoinLobby": lambda: gateway_pb2.JoinLobbyRequest(lobby_id=lobby_id),
        "LeaveLobby": lambda: gateway_pb2.LeaveLobbyRequest(lobby_id=lobby_id),
        "AddBot": lambda: gateway_pb2.AddBotRequest(lobby_id=lobby_id),
        "StartGame": lambda: gateway_pb2.StartGameRequest(lobby_id=lobby_id),
        "GetGame": lambda: gateway_pb2.GetGameRequest(game_id=game.game_id),
        "SubmitAction": lambda: gateway_pb2.SubmitActionRequest(
            game_id=game.game_id,
            action=game.legal_actions[0].action,
            expected_version=game.version,
            request_id=uuid.uuid4().hex,
        ),
        "Resign": lambda: gateway_pb2.ResignRequest(game_id=game.game_id),
        "Undo": lambda: gateway_pb2.UndoRequest(
            game_id=game.game_id, expected_version=game.version, request_id=uuid.uuid4().hex
        ),
        "RequestTakeback": lambda: gateway_pb2.RequestTakebackRequest(
            game_id=game.game_id, expected_version=game.version
        ),
        "AnswerTakeback": lambda: gateway_pb2.AnswerTakebackRequest(
            game_id=game.game_id, takeback_id="none-pending", accept=True
        ),
        "WatchGame": lambda: gateway_pb2.WatchGameRequest(game_id=game.game_id),
        "GetGameRecord": lambda: gateway_pb2.GetGameRecordRequest(game_id=game.game_id),
        "ReplayGame": lambda: gateway_pb2.ReplayGameRequest(game_id=game.game_id),
        "GetReplayStep": lambda: gateway_pb2.GetReplayStepRequest(game_id=game.game_id),
        "GetLeaderboard": lambda: gateway_pb2.GetLeaderboardRequest(title=TITLE),
        "ListMyGames": gateway_pb2.ListMyGamesRequest,
        "WatchInbox": gateway_pb2.WatchInboxRequest,
        "Rematch": lambda: gateway_pb2.RematchRequest(game_id=game.game_id),
        "SendChatMessage": lambda: gateway_pb2.SendChatMessageRequest(game_id=game.game_id, text="hello"),
        "InviteSpectator": lambda: gateway_pb2.InviteSpectatorRequest(
            game_id=game.game_id, player_id=world.player_ids["spectator"]
        ),
        "CancelMatch": gateway_pb2.CancelMatchRequest,
        "FindMatch": lambda: gateway_pb2.FindMatchRequest(
            title=TITLE, seat_count=GAME.info.max_players, bots_after_seconds=600
        ),
        "CreateTournament": lambda: tournaments_pb2.CreateTournamentRequest(
            title=TITLE,
            seats_per_table=GAME.info.min_players,
            format=tournaments_pb2.TOURNAMENT_FORMAT_ROUND_ROBIN,
            capacity=4,
        ),
        "ListTournaments": tournaments_pb2.ListTournamentsRequest,
        "GetTournament": lambda: tournaments_pb2.GetTournamentRequest(tournament_id=tournament_id),
        "JoinTournament": lambda: tournaments_pb2.JoinTournamentRequest(tournament_id=tournament_id),
        "LeaveTournament": lambda: tournaments_pb2.LeaveTournamentRequest(tournament_id=tournament_id),
        "AddTournamentBot": lambda: tournaments_pb2.AddTournamentBotRequest(tournament_id=tournament_id),
        "StartTournament": lambda: tournaments_pb2.StartTournamentRequest(tournament_id=tournament_id),
        "CancelTournament": lambda: tournaments_pb2.CancelTournamentRequest(tournament_id=tournament_id),
    }
    return requests[method]()


def outcome(
    world: World, method: str, request: Message, metadata: tuple[tuple[str, str], ...]
) -> grpc.StatusCode:
    """The code a call ends with (a stream: once its first message came)."""
    service, streaming = rpcs()[method]
    call = getattr(world.stubs[service], method)
    try:
        if streaming:
            stream = call(request, metadata=metadata, timeout=RPC_TIMEOUT)
            next(stream)
            stream.cancel()
        else:
            call(request, metadata=metadata, timeout=RPC_TIMEOUT)
    except grpc.RpcError as error:
        return error.code()
    return OK


@pytest.fixture(scope="module")
def world(gateway: GatewayProcess, redis_url: str) -> Iterator[World]:
    store = sync_client(redis_url)
    with patient_channel(gateway.address) as channel:
        yield World(gateway, channel, store)
    store.close()


def test_every_rpc_has_a_row_and_every_row_every_caller() -> None:
    assert set(EXPECTED) == set(rpcs()), "an RPC without a row (or a row without an RPC)"
    assert all(set(row) == set(CALLERS) for row in EXPECTED.values())
    assert set(EXPECTED) >= CHANGING


def test_every_caller_gets_the_expected_code_from_every_rpc(world: World) -> None:
    lobby_before, game_before = world.lobby.lobby, world.game.game
    tournament_before = world.tournament.tournament
    found: dict[tuple[str, str], grpc.StatusCode] = {}
    for method, expected in EXPECTED.items():
        for caller, code in expected.items():
            own = method in CHANGING and code == OK
            table = table_for(world, method, own)
            metadata = world.metadata(caller, table, fresh=method == "SignOut")
            found[(method, caller)] = outcome(world, method, request_for(world, method, table), metadata)
            if own and table is not None and table.lobby is not None:
                world.close(table)
            if own and table is not None and table.tournament is not None:
                world.call_off(table)
    wrong = {
        cell: (found[cell].name, EXPECTED[cell[0]][cell[1]].name)
        for cell in found
        if found[cell] != EXPECTED[cell[0]][cell[1]]
    }
    assert not wrong, f"(rpc, caller): (got, expected): {wrong}"
    print(f"authorization matrix: {len(found)} cells checked")
    assert len(found) == len(EXPECTED) * len(CALLERS)
    get = gateway_pb2.GetLobbyRequest(lobby_id=lobby_before.lobby_id)
    host = bearer(world.tokens["seated"])
    assert world.lobbies.GetLobby(get, metadata=host, timeout=RPC_TIMEOUT).lobby == lobby_before, (
        "refusals changed the lobby"
    )
    games: gateway_pb2_grpc.GameServiceStub = world.stubs["GameService"]
    view = games.GetGame(
        gateway_pb2.GetGameRequest(game_id=game_before.game_id), metadata=host, timeout=RPC_TIMEOUT
    ).game
    assert view.version == game_before.version, "refusals changed the game"
    assert tournament_before is not None
    get_tournament = tournaments_pb2.GetTournamentRequest(tournament_id=tournament_before.tournament_id)
    tournament = world.stubs["TournamentService"].GetTournament(
        get_tournament, metadata=host, timeout=RPC_TIMEOUT
    )
    assert tournament.tournament == tournament_before, "refusals changed the tournament"


# Who may read a lobby and watch its game, by the lobby's visibility and spectators (the host's choice;
# unset: anyone for a public lobby, the invited for a private one), for its host (`seated`), a player
# who joined it (`other`), a player invited to watch (`invited`, where the policy lets anyone be) and
# anyone else (`outsider`). A record and a replay are refused as not over yet to whoever may read them.
WATCHERS = ("seated", "other", "invited", "outsider")
WATCH_CALLS = (
    "GetLobby",
    "GetGame",
    "WatchGame",
    "SendChatMessage",
    "GetGameRecord",
    "ReplayGame",
    "GetReplayStep",
)
PUBLIC, PRIVATE = gateway_pb2.VISIBILITY_PUBLIC, gateway_pb2.VISIBILITY_PRIVATE
UNSET, ANYONE = gateway_pb2.SPECTATORS_UNSPECIFIED, gateway_pb2.SPECTATORS_ANYONE
INVITED, NOBODY = gateway_pb2.SPECTATORS_INVITED, gateway_pb2.SPECTATORS_NONE


def watch_row(lobby: str, game: str) -> dict[str, str]:
    """One policy's cells: "lobby" for who may read the lobby, "game" for who may watch its game, as a
    string of the roles' first letters (s, o, i, x)."""
    return {"lobby": lobby, "game": game}


WATCH_EXPECTED: dict[tuple[int, int], dict[str, str]] = {
    (PUBLIC, UNSET): watch_row(lobby="soix", game="soix"),
    (PUBLIC, INVITED): watch_row(lobby="soix", game="soi"),
    (PUBLIC, NOBODY): watch_row(lobby="soix", game="so"),
    (PRIVATE, UNSET): watch_row(lobby="soi", game="soi"),
    (PRIVATE, ANYONE): watch_row(lobby="soi", game="soix"),
    (PRIVATE, NOBODY): watch_row(lobby="so", game="so"),
}


class Watched:
    """A lobby of `host` (`seated`) and `other`, with a bot, and its game, under one policy; `invited`
    is invited to watch before the start where the policy lets anyone be."""

    def __init__(self, world: World, visibility: int, spectators: int) -> None:
        self.world = world
        host, other = bearer(world.tokens["seated"]), bearer(world.tokens["other"])
        create = gateway_pb2.CreateLobbyRequest(
            title=TITLE,
            seat_count=3,
            visibility=visibility,
            spectators=spectators,  # type: ignore[arg-type]
        )
        lobby = world.lobbies.CreateLobby(create, metadata=host, timeout=RPC_TIMEOUT).lobby
        expected = spectators or (INVITED if visibility == PRIVATE else ANYONE)
        assert lobby.spectators == expected, "the lobby says the policy it resolved"
        join = gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id, invite_code=lobby.invite_code)
        world.lobbies.JoinLobby(join, metadata=other, timeout=RPC_TIMEOUT)
        add = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id)
        world.lobbies.AddBot(add, metadata=host, timeout=RPC_TIMEOUT)
        games: gateway_pb2_grpc.GameServiceStub = world.stubs["GameService"]
        if expected != NOBODY:
            invite = gateway_pb2.InviteSpectatorRequest(
                lobby_id=lobby.lobby_id, player_id=world.player_ids["spectator"]
            )
            games.InviteSpectator(invite, metadata=other, timeout=RPC_TIMEOUT)
        start = gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id)
        self.lobby_id = lobby.lobby_id
        self.game_id = world.lobbies.StartGame(start, metadata=host, timeout=RPC_TIMEOUT).game_id

    def request(self, method: str) -> Message:
        game_id, lobby_id = self.game_id, self.lobby_id
        requests: dict[str, Callable[[], Message]] = {
            "GetLobby": lambda: gateway_pb2.GetLobbyRequest(lobby_id=lobby_id),
            "GetGame": lambda: gateway_pb2.GetGameRequest(game_id=game_id),
            "WatchGame": lambda: gateway_pb2.WatchGameRequest(game_id=game_id),
            "SendChatMessage": lambda: gateway_pb2.SendChatMessageRequest(
                game_id=game_id, text="hi", channel=gateway_pb2.CHAT_CHANNEL_SPECTATORS
            ),
            "GetGameRecord": lambda: gateway_pb2.GetGameRecordRequest(game_id=game_id),
            "ReplayGame": lambda: gateway_pb2.ReplayGameRequest(game_id=game_id),
            "GetReplayStep": lambda: gateway_pb2.GetReplayStepRequest(game_id=game_id),
        }
        return requests[method]()

    def token(self, role: str) -> str:
        """The role's token: `invited` is the world's spectator, `outsider` its resigned player (who
        plays no part here)."""
        return self.world.tokens[{"invited": "spectator", "outsider": "resigned"}.get(role, role)]


def test_who_reads_a_lobby_and_watches_its_game_is_the_hosts_choice(world: World) -> None:
    found: dict[tuple[str, str, str], str] = {}
    wrong = {}
    for (visibility, spectators), row in WATCH_EXPECTED.items():
        policy = f"{gateway_pb2.Visibility.Name(visibility)}/{gateway_pb2.Spectators.Name(spectators)}"
        table = Watched(world, visibility, spectators)
        for method in WATCH_CALLS:
            allowed = row["lobby" if method == "GetLobby" else "game"]
            for role in WATCHERS:
                if role == "invited" and policy.endswith("NONE"):
                    continue  # nobody is invited where nobody may watch
                if method == "SendChatMessage":
                    time.sleep(0.5)  # the chat class allows 2 messages a second
                code = outcome(world, method, table.request(method), bearer(table.token(role)))
                may = {"seated": "s", "other": "o", "invited": "i", "outsider": "x"}[role] in allowed
                record = method in ("GetGameRecord", "ReplayGame", "GetReplayStep")
                expected = (PRECONDITION if record else OK) if may else DENIED
                found[(policy, method, role)] = code.name
                if code != expected:
                    wrong[(policy, method, role)] = (code.name, expected.name)
    assert not wrong, f"(policy, rpc, caller): (got, expected): {wrong}"
    print(f"spectator matrix: {len(found)} cells checked")


def test_a_private_lobby_answers_whoever_gives_its_code_and_a_refusal_says_why(world: World) -> None:
    table = Watched(world, PRIVATE, UNSET)
    outsider = bearer(table.token("outsider"))
    lobbies = world.lobbies
    with pytest.raises(grpc.RpcError) as refused:
        lobbies.GetLobby(gateway_pb2.GetLobbyRequest(lobby_id=table.lobby_id), metadata=outsider)
    assert refused.value.code() == DENIED and "private lobby" in refused.value.details()
    host = bearer(world.tokens["seated"])
    code = lobbies.GetLobby(gateway_pb2.GetLobbyRequest(lobby_id=table.lobby_id), metadata=host).lobby
    seen = lobbies.GetLobby(
        gateway_pb2.GetLobbyRequest(lobby_id=table.lobby_id, invite_code=code.invite_code), metadata=outsider
    ).lobby
    assert seen.lobby_id == table.lobby_id and not seen.invite_code and not seen.invited_spectator_ids
    games: gateway_pb2_grpc.GameServiceStub = world.stubs["GameService"]
    with pytest.raises(grpc.RpcError) as refused:
        games.GetGame(gateway_pb2.GetGameRequest(game_id=table.game_id), metadata=outsider)
    assert refused.value.code() == DENIED and "those they invite" in refused.value.details()
    inbox = games.WatchInbox(gateway_pb2.WatchInboxRequest(), metadata=outsider, timeout=RPC_TIMEOUT)
    assert not next(inbox).HasField("event"), "the opening message"
    invite = gateway_pb2.InviteSpectatorRequest(game_id=table.game_id, player_id=world.player_ids["resigned"])
    invited = games.InviteSpectator(invite, metadata=host).invited_spectator_ids
    told = next(inbox).event
    inbox.cancel()
    assert (told.kind, told.game_id) == (gateway_pb2.INBOX_EVENT_KIND_INVITED_TO_WATCH, table.game_id)
    assert told.sender.player_id == world.player_ids["seated"]
    assert invited == [world.player_ids["spectator"], world.player_ids["resigned"]]
    assert games.GetGame(gateway_pb2.GetGameRequest(game_id=table.game_id), metadata=outsider).game.game_id

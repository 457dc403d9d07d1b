"""The leaderboard through a real gateway, over rating tables written as the scoring worker writes
them: order, competition ranks, names and counts, pages, refusals."""

from __future__ import annotations

import grpc
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from tests.gateway._support_accounts import RPC_TIMEOUT, guest, own_gateway, refused
from tests.gateway.support import Client
from tests.redis_modes import ONE_NODE
from tests.titles import TITLE

pytestmark = ONE_NODE  # each test reads whole boards: an empty database of its own


def record_rating(
    store: redis.Redis, player_id: str, name: str, rating: float, games: int, wins: int
) -> None:
    """Store a player and its rating on the title, as the scoring worker would."""
    store.hset(keys.player(player_id), mapping={"display_name": name, "guest": "0", "bot": "0"})
    counts = {"mu": "25", "sigma": "8", "games": games, "wins": wins}
    store.hset(keys.rating(TITLE, player_id), mapping=counts)  # type: ignore[arg-type]
    store.zadd(keys.leaderboard(TITLE), {player_id: rating})


def board(client: Client, **fields: object) -> gateway_pb2.GetLeaderboardResponse:
    """One page of the title's leaderboard."""
    request = gateway_pb2.GetLeaderboardRequest(title=TITLE, **fields)  # type: ignore[arg-type]
    return client.leaderboard.GetLeaderboard(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def test_players_come_best_first_with_shared_ranks_for_equal_ratings(
    redis_url: str, rules: dict[str, str]
) -> None:
    with own_gateway(redis_url, rules) as own:
        reader = guest(own.make_client, "reader")
        assert list(board(reader).entries) == [] and not board(reader).next_page_token
        record_rating(own.store, "p-low", "Low", 3.5, games=4, wins=0)
        record_rating(own.store, "p-top", "Top", 31.25, games=12, wins=9)
        record_rating(own.store, "p-tie-a", "Tie A", 20.0, games=7, wins=3)
        record_rating(own.store, "p-tie-b", "Tie B", 20.0, games=6, wins=2)

        entries = board(reader).entries
        assert [(e.rank, e.player.player_id, e.rating) for e in entries] == [
            (1, "p-top", 31.25),
            (2, "p-tie-b", 20.0),
            (2, "p-tie-a", 20.0),
            (4, "p-low", 3.5),
        ]
        top = entries[0]
        assert (top.player.display_name, top.games, top.wins, top.player.guest) == ("Top", 12, 9, False)


def test_pages_cover_the_board_once_with_ranks_running_on(redis_url: str, rules: dict[str, str]) -> None:
    with own_gateway(redis_url, rules) as own:
        reader = guest(own.make_client, "reader")
        for number in range(45):
            record_rating(own.store, f"p{number:02}", f"Player {number}", float(number), games=number, wins=1)

        assert len(board(reader).entries) == 20, "20 entries by default"
        pages, token = [], ""
        while True:
            page = board(reader, page_size=10, page_token=token)
            pages.append(page.entries)
            token = page.next_page_token
            if not token:
                break
        assert [len(page) for page in pages] == [10, 10, 10, 10, 5]
        entries = [entry for page in pages for entry in page]
        assert [entry.player.player_id for entry in entries] == [f"p{n:02}" for n in reversed(range(45))]
        assert [entry.rank for entry in entries] == list(range(1, 46))
        assert [entry.games for entry in entries] == list(reversed(range(45)))

        exact = board(reader, page_size=45)
        assert len(exact.entries) == 45 and not exact.next_page_token


def test_leaderboard_refusals(client: Client) -> None:
    request = gateway_pb2.GetLeaderboardRequest(title=TITLE)
    code, info = refused(client.leaderboard.GetLeaderboard, request)
    assert code == grpc.StatusCode.UNAUTHENTICATED
    client.sign_in_as_guest("reader")
    for _ in range(2):
        lobby = gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2)
        client.lobbies.CreateLobby(lobby, metadata=client.auth, timeout=RPC_TIMEOUT)
    lobby_token = client.lobbies.ListLobbies(
        gateway_pb2.ListLobbiesRequest(page_size=1), metadata=client.auth
    ).next_page_token
    cases = [
        ({"title": "nosuchgame"}, grpc.StatusCode.NOT_FOUND, "TITLE_NOT_FOUND"),
        ({"title": ""}, grpc.StatusCode.INVALID_ARGUMENT, "MISSING_TITLE"),
        ({"title": TITLE, "page_size": 101}, grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_SIZE"),
        ({"title": TITLE, "page_token": "%%%"}, grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN"),
        ({"title": TITLE, "page_token": lobby_token}, grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN"),
    ]
    for fields, expected_code, reason in cases:
        code, info = refused(
            client.leaderboard.GetLeaderboard, gateway_pb2.GetLeaderboardRequest(**fields), client.auth
        )
        assert (code, info.reason) == (expected_code, reason), fields

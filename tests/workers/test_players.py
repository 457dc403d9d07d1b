"""What a player follows across games, through real gateways, a real worker and a real Redis: their
games (ListMyGames), their inbox (WatchInbox, on another gateway replica than the moves), rematches
and chat."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator

import grpc
import pytest
import redis
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.archive import game_keys
from tests.gateway._support_accounts import at_a_second_start, me, refused
from tests.gateway.support import Client, GatewayProcess
from tests.titles import TITLE
from tests.workers.support import bot_seat, finalized, new_game, wait_for

Inbox = queue.Queue[gateway_pb2.WatchInboxResponse | grpc.RpcError]


@pytest.fixture
def clients(gateway: GatewayProcess) -> Iterator[list[Client]]:
    """Three guests on their own channels."""
    channels = [grpc.insecure_channel(gateway.address) for _ in range(3)]
    made = []
    for index, channel in enumerate(channels):
        client = Client(channel)
        client.sign_in_as_guest(f"player {index}")
        made.append(client)
    yield made
    for channel in channels:
        channel.close()


@pytest.fixture(scope="module")
def replica(gateway: GatewayProcess) -> Iterator[GatewayProcess]:
    """A second gateway on the same Redis: any replica serves any stream."""
    with GatewayProcess(gateway.settings) as process:
        yield process


def seat(client: Client, index: int) -> gateway_pb2.GameSeat:
    return gateway_pb2.GameSeat(seat=index, player=me(client))


def view(client: Client, game_id: str) -> gateway_pb2.GameView:
    return client.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=client.auth).game


def move(client: Client, game_id: str) -> gateway_pb2.GameView:
    """Play the client's first legal action."""
    game = view(client, game_id)
    assert game.legal_actions, "the client must be acting"
    return client.games.SubmitAction(
        gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=game.legal_actions[0].action,
            expected_version=game.version,
            request_id=f"{game_id}:{game.version}",
        ),
        metadata=client.auth,
    ).game


def acting_client(clients: list[Client], game_id: str) -> Client:
    game = view(clients[0], game_id)
    acting = {s.player.player_id for s in game.seats if s.seat in game.acting_seats}
    return next(c for c in clients if me(c).player_id in acting)


def my_games(client: Client, page_size: int = 100) -> list[gateway_pb2.MyGame]:
    """Every page of the client's games, in order."""
    games: list[gateway_pb2.MyGame] = []
    token = ""
    while True:
        page = client.games.ListMyGames(
            gateway_pb2.ListMyGamesRequest(page_size=page_size, page_token=token), metadata=client.auth
        )
        games.extend(page.games)
        token = page.next_page_token
        if not token:
            return games


def open_inbox(client: Client, from_event_id: str = "") -> tuple[Inbox, grpc.Future]:
    """A WatchInbox stream past its opening message, read on a thread into a queue (its errors too)."""
    got: Inbox = queue.Queue()
    stream = client.games.WatchInbox(
        gateway_pb2.WatchInboxRequest(from_event_id=from_event_id), metadata=client.auth
    )

    def read() -> None:
        try:
            for response in stream:
                got.put(response)
        except grpc.RpcError as error:
            got.put(error)

    threading.Thread(target=read, daemon=True).start()
    opening = got.get(timeout=10)  # the stream listens from here on
    assert not isinstance(opening, grpc.RpcError), opening
    assert not opening.HasField("event") and opening.newest_event_id
    return got, stream


def next_event(
    got: Inbox, kind: gateway_pb2.InboxEventKind, game_id: str = "", timeout: float = 30
) -> gateway_pb2.InboxEvent:
    """The next event of `kind` (about `game_id`, if given); fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            item = got.get(timeout=max(0.01, deadline - time.monotonic()))
        except queue.Empty:
            break
        assert not isinstance(item, grpc.RpcError), item
        event = item.event
        if item.HasField("event") and event.kind == kind and (not game_id or event.game_id in (game_id,)):
            return event
    raise AssertionError(f"no {gateway_pb2.InboxEventKind.Name(kind)} within {timeout} s")


def resign_all(clients: list[Client], game_id: str) -> None:
    for client in clients:
        client.games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=client.auth)


def test_my_games_list_live_ones_my_turn_first_then_finished_with_results_after_their_keys_expire(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, clients: list[Client]
) -> None:
    a, b, _ = clients
    games = [new_game(gateway, TITLE, [seat(a, 0), seat(b, 1)]) for _ in range(4)]
    finished = games.pop()
    resign_all([a, b], finished)
    wait_for(lambda: finalized(redis_client, finished), 240, "the resigned game to be scored")
    # Whoever acts first, make one of the live games the other player's turn for A, one for A.
    for game_id in games[:2]:
        if acting_client([a, b], game_id) is a:
            move(a, game_id)
    wait_for(lambda: any(not g.my_turn for g in my_games(a)), 5, "a live game not A's turn")

    listed = my_games(a)
    live = [g for g in listed if g.status == gateway_pb2.GAME_STATUS_ACTIVE]
    assert {g.game_id for g in live} == set(games)
    assert listed[: len(live)] == live, "live games come first"
    turns = [g.my_turn for g in live]
    assert turns == sorted(turns, reverse=True), "A's turn first"
    for game in live:
        truth = view(a, game.game_id)
        assert game.my_turn == bool(truth.legal_actions)
        assert game.version == truth.version and game.acting_seats == truth.acting_seats
        assert game.title == TITLE and list(game.my_seats) == [0]
        assert game.last_move_at.seconds > 0
    done = listed[len(live) :]
    assert [g.game_id for g in done] == [finished]
    record = a.games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=finished), metadata=a.auth).record
    assert done[0].scores == record.scores and done[0].my_rank >= 1
    assert done[0].rating_before != done[0].rating_after

    # Paging: one game a page, every game once, in the same order.
    assert [g.game_id for g in my_games(a, page_size=1)] == [g.game_id for g in listed]
    code, info = refused(a.games.ListMyGames, gateway_pb2.ListMyGamesRequest(page_token="bm9wZQ"), a.auth)
    assert code == grpc.StatusCode.INVALID_ARGUMENT and info.reason == "INVALID_PAGE_TOKEN"

    # The lists are the player's own: the finished game stays listed once its keys are gone.
    redis_client.delete(*game_keys(finished), keys.game_archived(finished))
    assert [g.game_id for g in my_games(a) if g.status == gateway_pb2.GAME_STATUS_FINISHED] == [finished]


def test_the_inbox_on_another_replica_tells_of_turns_endings_ratings_and_resumes(
    gateway: GatewayProcess,
    replica: GatewayProcess,
    celery_worker: None,
    redis_client: redis.Redis,
    clients: list[Client],
) -> None:
    a, b, _ = clients
    with grpc.insecure_channel(replica.address) as channel:
        a_elsewhere = Client(channel, a.token)
        got, stream = open_inbox(a_elsewhere)  # before the game: its first turn may be A's
        game_id = new_game(gateway, TITLE, [seat(a, 0), seat(b, 1)])
        while acting_client([a, b], game_id) is b:
            move(b, game_id)
        turn = next_event(got, gateway_pb2.INBOX_EVENT_KIND_YOUR_TURN, game_id)
        assert turn.title == TITLE and turn.version >= 0 and turn.event_id
        resign_all([a, b], game_id)
        ended = next_event(got, gateway_pb2.INBOX_EVENT_KIND_GAME_ENDED, game_id, timeout=240)
        rated = next_event(got, gateway_pb2.INBOX_EVENT_KIND_RATING_CHANGED, game_id, timeout=60)
        assert rated.my_rank >= 1 and rated.rating_before != rated.rating_after
        stream.cancel()

        # Resuming from an event gets what came after it, in order, and no resync.
        resumed, again = open_inbox(a_elsewhere, turn.event_id)
        first = resumed.get(timeout=10)
        assert not isinstance(first, grpc.RpcError)
        assert not first.resync
        ids = [first.event.event_id]
        while ids[-1] != rated.event_id:
            item = resumed.get(timeout=10)
            assert not isinstance(item, grpc.RpcError)
            ids.append(item.event.event_id)
        assert ended.event_id in ids and turn.event_id not in ids
        again.cancel()


def test_a_malformed_resume_point_is_refused(gateway: GatewayProcess, clients: list[Client]) -> None:
    a = clients[0]
    stream = a.games.WatchInbox(gateway_pb2.WatchInboxRequest(from_event_id="yesterday"), metadata=a.auth)
    with pytest.raises(grpc.RpcError) as raised:
        next(stream)
    assert raised.value.code() == grpc.StatusCode.INVALID_ARGUMENT


def test_rematch_seats_the_bots_again_and_invites_the_others_through_their_inbox(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, clients: list[Client]
) -> None:
    a, b, c = clients
    bot = bot_seat(gateway, 2, "random")
    game_id = new_game(gateway, TITLE, [seat(a, 0), seat(b, 1), bot])
    code, info = refused(a.games.Rematch, gateway_pb2.RematchRequest(game_id=game_id), a.auth)
    assert code == grpc.StatusCode.FAILED_PRECONDITION and info.reason == "GAME_NOT_FINISHED"
    resign_all([a, b], game_id)
    wait_for(lambda: finalized(redis_client, game_id), 240, "the game to be scored")
    got, stream = open_inbox(b)
    code, info = refused(c.games.Rematch, gateway_pb2.RematchRequest(game_id=game_id), c.auth)
    assert code == grpc.StatusCode.PERMISSION_DENIED

    lobby = a.games.Rematch(gateway_pb2.RematchRequest(game_id=game_id), metadata=a.auth).lobby
    assert lobby.title == TITLE and lobby.seat_count == 3
    assert lobby.visibility == gateway_pb2.VISIBILITY_PRIVATE and lobby.invite_code
    assert lobby.host_player_id == me(a).player_id
    by_seat = {s.seat: s for s in lobby.seats}
    assert by_seat[0].player.player_id == me(a).player_id
    assert not by_seat[1].HasField("player")
    assert by_seat[2].player.player_id == bot.player.player_id
    assert by_seat[2].bot_strength == bot.bot_strength

    invited = next_event(got, gateway_pb2.INBOX_EVENT_KIND_INVITED)
    stream.cancel()
    assert invited.lobby_id == lobby.lobby_id and invited.invite_code == lobby.invite_code
    assert invited.sender.player_id == me(a).player_id
    b.lobbies.JoinLobby(
        gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id, invite_code=invited.invite_code),
        metadata=b.auth,
    )
    got, stream = open_inbox(b)
    started = a.lobbies.StartGame(gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), metadata=a.auth)
    event = next_event(got, gateway_pb2.INBOX_EVENT_KIND_LOBBY_STARTED)
    stream.cancel()
    assert event.game_id == started.game_id and event.lobby_id == lobby.lobby_id
    again = view(a, started.game_id)
    assert sorted(s.player.player_id for s in again.seats) == sorted(
        [me(a).player_id, me(b).player_id, bot.player.player_id]
    )
    first = a.games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=a.auth).record
    meta = gateway.run(gateway.app.store.meta(started.game_id))  # type: ignore[union-attr]
    assert meta.record.config == first.config


def test_a_deadline_near_comes_through_the_inbox_before_the_clock_runs_out(
    gateway: GatewayProcess, celery_worker: None, clients: list[Client]
) -> None:
    a, b, _ = clients
    clock = gateway_pb2.TurnClock(per_move_seconds=8)
    game_id = new_game(gateway, TITLE, [seat(a, 0), seat(b, 1)], clock)
    actor = acting_client([a, b], game_id)
    got, stream = open_inbox(actor, "0-0")
    turn = next_event(got, gateway_pb2.INBOX_EVENT_KIND_YOUR_TURN, game_id)
    listed = next(g for g in my_games(actor) if g.game_id == game_id)
    assert listed.my_turn and listed.my_deadline == turn.deadline
    near = next_event(got, gateway_pb2.INBOX_EVENT_KIND_DEADLINE_NEAR, game_id, timeout=10)
    stream.cancel()
    assert near.deadline == turn.deadline and near.deadline.seconds
    assert near.at.ToMilliseconds() < near.deadline.ToMilliseconds()
    assert near.deadline.ToMilliseconds() - near.at.ToMilliseconds() <= 8000 * 0.25 + 1500


def watch(client: Client, game_id: str) -> queue.Queue[gateway_pb2.WatchGameResponse]:
    got: queue.Queue[gateway_pb2.WatchGameResponse] = queue.Queue()
    stream = client.games.WatchGame(gateway_pb2.WatchGameRequest(game_id=game_id), metadata=client.auth)
    assert next(stream).game.game_id == game_id  # the opening view: the stream listens from here on

    def read() -> None:
        try:
            for response in stream:
                got.put(response)
        except grpc.RpcError:
            pass

    threading.Thread(target=read, daemon=True).start()
    return got


def chats(got: queue.Queue[gateway_pb2.WatchGameResponse], count: int) -> list[str]:
    texts: list[str] = []
    deadline = time.monotonic() + 10
    while len(texts) < count and time.monotonic() < deadline:
        try:
            response = got.get(timeout=0.2)
        except queue.Empty:
            continue
        if response.HasField("chat"):
            texts.append(response.chat.text)
    return texts


def say(client: Client, game_id: str, text: str, channel: int = 0) -> gateway_pb2.ChatMessage:
    return client.games.SendChatMessage(
        gateway_pb2.SendChatMessageRequest(game_id=game_id, text=text, channel=channel),  # type: ignore[arg-type]
        metadata=client.auth,
    ).message


def test_chat_reaches_watchers_by_channel_and_stays_with_the_record(
    gateway: GatewayProcess, celery_worker: None, redis_client: redis.Redis, clients: list[Client]
) -> None:
    a, b, spectator = clients
    game_id = new_game(gateway, TITLE, [seat(a, 0), seat(b, 1)])
    b_sees, spectator_sees = watch(b, game_id), watch(spectator, game_id)
    posted = say(a, game_id, "good luck, have fun ♟")
    assert posted.channel == gateway_pb2.CHAT_CHANNEL_PLAYERS
    assert posted.sender.player_id == me(a).player_id
    time.sleep(1.0)  # the chat class allows 2 messages a second
    say(spectator, game_id, "nice opening")
    assert chats(b_sees, 2) == ["good luck, have fun ♟", "nice opening"]
    assert chats(spectator_sees, 1) == ["nice opening"], "a spectator reads the spectators' channel only"

    code, info = refused(
        spectator.games.SendChatMessage,
        gateway_pb2.SendChatMessageRequest(
            game_id=game_id, text="psst", channel=gateway_pb2.CHAT_CHANNEL_PLAYERS
        ),
        spectator.auth,
    )
    assert code == grpc.StatusCode.PERMISSION_DENIED
    for text, reason in (("ring\a", "CHAT_CONTROL_CHARACTER"), ("two\nlines", "CHAT_CONTROL_CHARACTER")):
        time.sleep(0.5)  # a refused message counts in the chat class too
        code, info = refused(
            a.games.SendChatMessage, gateway_pb2.SendChatMessageRequest(game_id=game_id, text=text), a.auth
        )
        assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, reason)
        assert info.metadata["field"] == "text"
    for text, reason in (("x" * 281, "INVALID_TEXT"), ("", "INVALID_TEXT"), ("   ", "EMPTY_CHAT_MESSAGE")):
        time.sleep(0.5)
        code, info = refused(
            a.games.SendChatMessage, gateway_pb2.SendChatMessageRequest(game_id=game_id, text=text), a.auth
        )
        assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, reason)
    assert len(redis_client.lrange(keys.game_chat(game_id), 0, -1)) == 2, "a refused message is not kept"

    time.sleep(1.0)
    at_a_second_start()
    say(b, game_id, "one")
    say(b, game_id, "two")
    code, info = refused(
        b.games.SendChatMessage, gateway_pb2.SendChatMessageRequest(game_id=game_id, text="three"), b.auth
    )
    assert (code, info.reason, info.metadata["rate_class"]) == (
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        "RATE_LIMITED",
        "chat",
    )

    resign_all([a, b], game_id)
    wait_for(lambda: finalized(redis_client, game_id), 240, "the game to be scored")
    record = a.games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=a.auth).record
    assert [m.text for m in record.chat] == ["good luck, have fun ♟", "nice opening", "one", "two"]
    seen = spectator.games.GetGameRecord(
        gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=spectator.auth
    ).record
    assert [m.text for m in seen.chat] == ["nice opening"]


def test_lobby_chat_goes_to_the_members_inboxes(gateway: GatewayProcess, clients: list[Client]) -> None:
    a, b, outsider = clients
    lobby = a.lobbies.CreateLobby(
        gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2), metadata=a.auth
    ).lobby
    b.lobbies.JoinLobby(gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id), metadata=b.auth)
    got, stream = open_inbox(b)
    a.games.SendChatMessage(
        gateway_pb2.SendChatMessageRequest(lobby_id=lobby.lobby_id, text="ready?"), metadata=a.auth
    )
    event = next_event(got, gateway_pb2.INBOX_EVENT_KIND_LOBBY_CHAT)
    stream.cancel()
    assert event.lobby_id == lobby.lobby_id and event.chat.text == "ready?"
    code, _ = refused(
        outsider.games.SendChatMessage,
        gateway_pb2.SendChatMessageRequest(lobby_id=lobby.lobby_id, text="hi"),
        outsider.auth,
    )
    assert code == grpc.StatusCode.PERMISSION_DENIED
    code, info = refused(a.games.SendChatMessage, gateway_pb2.SendChatMessageRequest(text="hi"), a.auth)
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MISSING_CHAT_PLACE")

"""Live play through a real gateway, real Redis and real rules services: whole games of every title,
versions and idempotency, races, errors, hidden information, records and replays."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import threading
import time
import uuid

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2, message

from live import keys, moves
from live.connection import sync_client
from live.games import start_game
from live.store import GameStore
from services.common import registry
from services.common.rng import Rng
from services.common.status import error_info
from services.common.visibility import OWNER, declarations
from tests.gateway._support_accounts import at_a_second_start, guest, own_gateway, refused
from tests.gateway.support import Client, GatewayProcess
from tests.redis_modes import EVERY_TITLE_ON_ONE_NODE
from tests.titles import TITLE, example_lobbies

TITLES = sorted(registry.games())


def seat_players(clients: list[Client]) -> list[gateway_pb2.GameSeat]:
    """One seat per client, in order."""
    seats = []
    for seat, client in enumerate(clients):
        me = client.accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=client.auth).player
        seats.append(gateway_pb2.GameSeat(seat=seat, player=me))
    return seats


def new_game(
    gateway: GatewayProcess,
    title: str,
    clients: list[Client],
    options: list[gateway_pb2.GameOptionValue] | None = None,
) -> str:
    """Start a game of `title` with one seat per client."""
    return gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=title,
            player_count=len(clients),
            options=options or [],
            seats=seat_players(clients),
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
        )
    )


def signed_in(new_client, count: int) -> list[Client]:  # type: ignore[no-untyped-def]
    clients = [new_client() for _ in range(count)]
    for i, client in enumerate(clients):
        client.sign_in_as_guest(f"player {i}")
    return clients


def state_type_urls(msg: message.Message) -> list[str]:
    """Every Any type URL inside a message, recursively."""
    found = []
    for field, value in msg.ListFields():
        values = value if field.is_repeated else [value]
        for item in values:
            if isinstance(item, any_pb2.Any):
                found.append(item.type_url)
            elif isinstance(item, message.Message):
                found.extend(state_type_urls(item))
    return found


def play_to_end(
    gateway: GatewayProcess,
    title: str,
    clients: list[Client],
    seed: int,
    options: list[gateway_pb2.GameOptionValue] | None = None,
    changes: dict | None = None,  # type: ignore[type-arg]
) -> tuple[str, list, list]:  # type: ignore[type-arg]
    """Play a whole game by picking random legal actions.

    Returns the game id, every response received, and (seat, SubmitActionResponse) for every move;
    `changes`, if given, gets every committed change as the game keeps it, read right after its move
    (the game keeps only the last few).
    """
    game_id = new_game(gateway, title, clients, options)
    rng = Rng(seed)
    received: list = []  # type: ignore[type-arg]
    moves: list = []  # type: ignore[type-arg]
    for _ in range(registry.get(title).info.max_game_length):
        views = [
            c.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=c.auth).game
            for c in clients
        ]
        received.extend(views)
        if moves:  # the view a move returns is the mover's own, as GetGame shows it to that seat
            mover, answered = moves[-1]
            assert answered.game == views[mover], "SubmitAction returns the mover's view and no other"
        if views[0].status == gateway_pb2.GAME_STATUS_FINISHED:
            return game_id, received, moves
        acting = views[0].acting_seats[0]
        view = views[acting]
        assert view.legal_actions, "the acting seat is shown its legal actions"
        assert all(not v.legal_actions for s, v in enumerate(views) if s != acting)
        choice = view.legal_actions[rng.below(len(view.legal_actions))]
        response = clients[acting].games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=choice.action,
                expected_version=view.version,
                request_id=uuid.uuid4().hex,
            ),
            metadata=clients[acting].auth,
        )
        received.append(response)
        moves.append((acting, response))
        assert response.version == view.version + 1
        if changes is not None:
            store = GameStore(gateway.app.redis, 0)  # type: ignore[union-attr]
            changes.update(gateway.run(store.changes_since(game_id, response.version - 1)))
    raise AssertionError("the game did not end within the title's bound")


# Every title with its defaults and with each of its example configs (most hide more from each seat).
WHOLE_GAMES = example_lobbies()


@EVERY_TITLE_ON_ONE_NODE
@pytest.mark.parametrize(
    ("title", "config", "options"), WHOLE_GAMES, ids=[f"{t}-{c}" if c else t for t, c, _ in WHOLE_GAMES]
)
def test_whole_game_through_the_gateway(
    gateway: GatewayProcess, new_client, redis_url: str, title: str, config: str, options: dict[str, str]
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, registry.get(title).info.min_players + 1)
    chosen = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in options.items()]
    changes: dict[int, rules_pb2.ApplyActionResponse] = {}
    game_id, received, moves = play_to_end(gateway, title, clients, seed=11, options=chosen, changes=changes)
    checked = [(seat, response) for seat, response in moves if response.version in changes]
    assert len(checked) == len(moves)
    state_type = registry.get(title).messages.state.DESCRIPTOR
    if options and any(rule.audience == OWNER for rule in declarations(state_type)):  # seats' own secrets
        assert any(e.visible_to for _, change in changes.items() for e in change.events), (
            "the options hide some events from some seats"
        )
    for seat, response in checked:
        allowed = [
            e.text for e in changes[response.version].events if not e.visible_to or seat in e.visible_to
        ]
        assert [e.text for e in response.events] == allowed, "a seat receives exactly the events it may see"
    info = registry.get(title).info
    state_url = f"type.googleapis.com/boardgame.{title}.v1.State"
    assert all(state_url not in state_type_urls(msg) for msg in received), "no client ever receives a State"
    record = clients[0].games.GetGameRecord(
        gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=clients[0].auth
    )
    record = record.record
    assert hashlib.sha256(record.seed).hexdigest() == record.seed_sha256
    assert all(record.seed not in msg.SerializeToString() for msg in received[:-3]), (
        "the seed stays secret in play"
    )
    assert [a.version for a in record.actions] == list(range(1, len(record.actions) + 1))
    assert record.scores.final and record.scores.winners
    assert all(info.min_score <= s.total <= info.max_score for s in record.scores.scores)
    replay = clients[1].games.ReplayGame(
        gateway_pb2.ReplayGameRequest(game_id=game_id), metadata=clients[1].auth
    )
    assert replay.consistent, replay.mismatch
    assert replay.actions_replayed == len(record.actions)


def _error(call) -> grpc.RpcError:  # type: ignore[no-untyped-def]
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def test_stale_version_is_aborted_and_changes_nothing(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLES[0], clients)
    view = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    actor = clients[view.acting_seats[0]]
    mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    error = _error(
        lambda: actor.games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id, action=mine.legal_actions[0].action, expected_version=5, request_id="r1"
            ),
            metadata=actor.auth,
        )
    )
    assert error.code() == grpc.StatusCode.ABORTED
    assert error_info(error).reason == "STALE_VERSION"
    assert sync_client(redis_url).get(keys.game_version(game_id)) == b"0"


def test_repeated_request_id_applies_once(gateway: GatewayProcess, new_client, redis_url: str) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLES[0], clients)
    seat = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    actor = clients[seat.acting_seats[0]]
    mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    request = gateway_pb2.SubmitActionRequest(
        game_id=game_id, action=mine.legal_actions[0].action, expected_version=0, request_id="same"
    )
    first = actor.games.SubmitAction(request, metadata=actor.auth)
    second = actor.games.SubmitAction(request, metadata=actor.auth)
    assert first.version == second.version == 1
    assert [e.text for e in first.events] == [e.text for e in second.events]
    assert sync_client(redis_url).xlen(keys.game_log(game_id)) == 1


def test_racing_submissions_exactly_one_wins(gateway: GatewayProcess, new_client, redis_url: str) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLES[0], clients)
    seat = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    actor = clients[seat.acting_seats[0]]
    mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    outcomes: list[str] = []
    barrier = threading.Barrier(6)

    def submit(i: int) -> None:
        request = gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=mine.legal_actions[i % len(mine.legal_actions)].action,
            expected_version=0,
            request_id=f"race-{i}",
        )
        barrier.wait()
        try:
            actor.games.SubmitAction(request, metadata=actor.auth)
            outcomes.append("ok")
        except grpc.RpcError as error:
            outcomes.append(error.code().name)

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ABORTED"] * 5 + ["ok"]
    assert sync_client(redis_url).xlen(keys.game_log(game_id)) == 1


def test_errors_follow_the_table(gateway: GatewayProcess, new_client, client: Client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLES[0], clients)
    view = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    acting = view.acting_seats[0]
    other = clients[(acting + 1) % 3]
    actor = clients[acting]
    legal = actor.games.GetGame(
        gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth
    ).game.legal_actions

    def submit(who: Client, action: any_pb2.Any, game: str = game_id) -> grpc.RpcError:
        return _error(
            lambda: who.games.SubmitAction(
                gateway_pb2.SubmitActionRequest(
                    game_id=game, action=action, expected_version=0, request_id="x"
                ),
                metadata=who.auth,
            )
        )

    assert submit(other, legal[0].action).code() == grpc.StatusCode.FAILED_PRECONDITION  # not your turn
    outsider = new_client()
    outsider.sign_in_as_guest("outsider")
    assert submit(outsider, legal[0].action).code() == grpc.StatusCode.PERMISSION_DENIED
    assert submit(actor, legal[0].action, game="nope").code() == grpc.StatusCode.NOT_FOUND
    garbage = any_pb2.Any(type_url=legal[0].action.type_url, value=b"\xff\xff\xff")
    assert submit(actor, garbage).code() == grpc.StatusCode.INVALID_ARGUMENT
    wrong_type = any_pb2.Any(type_url="type.googleapis.com/boardgame.gateway.v1.Player", value=b"")
    assert submit(actor, wrong_type).code() == grpc.StatusCode.INVALID_ARGUMENT
    client.token = "not-a-token"
    assert submit(client, legal[0].action).code() == grpc.StatusCode.UNAUTHENTICATED
    assert submit(client, legal[0].action, game="nope").code() == grpc.StatusCode.UNAUTHENTICATED
    assert submit(client, any_pb2.Any()).code() == grpc.StatusCode.UNAUTHENTICATED, "who asks comes first"
    after = (
        clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth).game
    )
    assert after.version == 0, "refused requests change nothing"


def test_watch_streams_changes_and_resumes(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = new_game(gateway, TITLES[0], clients)
    watcher = clients[1]
    stream = watcher.games.WatchGame(gateway_pb2.WatchGameRequest(game_id=game_id), metadata=watcher.auth)
    opening = next(stream)
    assert opening.game.version == 0 and opening.game.seat == 1
    spectator = signed_in(new_client, 1)[0]
    watching = spectator.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id), metadata=spectator.auth
    )
    assert not next(watching).game.HasField("seat")
    rng = Rng(3)
    with_events = 0
    for expected in range(1, 6):
        view = (
            clients[0]
            .games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth)
            .game
        )
        actor = clients[view.acting_seats[0]]
        mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
        choice = mine.legal_actions[rng.below(len(mine.legal_actions))]
        actor.games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id,
                action=choice.action,
                expected_version=mine.version,
                request_id=f"w{expected}",
            ),
            metadata=actor.auth,
        )
        update = next(stream)
        assert update.game.version == expected
        for who, shown in ((watcher, update.game), (spectator, next(watching).game)):
            own = who.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=who.auth).game
            assert shown == own, "a watcher is shown its own view (a spectator: the spectator's)"
        assert all(e.version == expected for e in update.events)
        with_events += bool(update.events)
        assert bool(update.game.legal_actions) == (1 in update.game.acting_seats)
    stream.cancel()
    watching.cancel()
    assert with_events, "changes come with their events"
    resumed = watcher.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=2), metadata=watcher.auth, timeout=20
    )
    opening, *history = [next(resumed) for _ in range(4)]
    resumed.cancel()
    assert opening.game.version == 5 and not opening.resync and not opening.events
    assert not any(m.HasField("game") for m in history)
    assert all({e.version for e in m.events} <= {v} for m, v in zip(history, (3, 4, 5), strict=True))


def test_config_types_resolve_in_a_fresh_process() -> None:
    """A gateway process imports no game module, yet finds every title's Config type by name."""
    script = (
        "from boardgame.rules.v1 import rules_pb2\n"
        "from live.games import build_config\n"
        "import sys\n"
        "for name in sys.argv[1:]:\n"
        "    build_config(rules_pb2.GameInfo(name=name, config_type=f'boardgame.{name}.v1.Config'), [])\n"
    )
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", script, *TITLES], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_turn_clock_shows_its_deadline(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]

    clients = signed_in(new_client, 3)
    game_id = gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=TITLES[0],
            player_count=3,
            options=[],
            seats=seat_players(clients),
            clock=gateway_pb2.TurnClock(per_move_seconds=30),
            lobby_id="",
        )
    )
    before = time.time()
    first = clients[0]
    view = first.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=first.auth).game
    assert view.HasField("deadline")
    assert before + 20 < view.deadline.ToMilliseconds() / 1000 <= before + 31
    watcher = clients[1]
    stream = watcher.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id), metadata=watcher.auth, timeout=20
    )
    assert next(stream).game.deadline == view.deadline
    actor = clients[view.acting_seats[0]]
    mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
    actor.games.SubmitAction(
        gateway_pb2.SubmitActionRequest(
            game_id=game_id, action=mine.legal_actions[0].action, request_id="first"
        ),
        metadata=actor.auth,
    )
    moved = next(stream).game
    stream.cancel()
    assert moved.version == 1 and moved.deadline.ToMilliseconds() > view.deadline.ToMilliseconds()
    unclocked = new_game(gateway, TITLES[0], clients)
    plain = first.games.GetGame(gateway_pb2.GetGameRequest(game_id=unclocked), metadata=first.auth).game
    assert not plain.HasField("deadline")


def test_a_watcher_gets_the_events_of_a_change_that_was_overtaken(
    redis_url: str, rules: dict[str, str]
) -> None:
    with own_gateway(redis_url, rules) as own:
        process = own.gateway
        assert process.app is not None
        clients = [guest(own.make_client, f"player {i}") for i in range(2)]
        game_id = new_game(process, TITLES[0], clients)
        watcher = clients[0]
        stream = watcher.games.WatchGame(
            gateway_pb2.WatchGameRequest(game_id=game_id), metadata=watcher.auth, timeout=20
        )
        assert next(stream).game.version == 0
        fanout = process.gateway.fanout

        async def stop_reading() -> None:
            assert fanout.task is not None
            fanout.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await fanout.task

        async def read_again() -> None:
            fanout.task = asyncio.create_task(fanout._reader())

        def mover() -> tuple[Client, int, any_pb2.Any, int]:
            view = watcher.games.GetGame(
                gateway_pb2.GetGameRequest(game_id=game_id), metadata=watcher.auth
            ).game
            actor = clients[view.acting_seats[0]]
            mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
            return actor, mine.seat, mine.legal_actions[0].action, mine.version

        process.run(stop_reading())
        # Version 1 is made elsewhere (as a worker would): published, but this replica is not reading.
        _, seat, action, version = mover()
        process.run(moves.play(process.app, game_id, seat, action, version, "elsewhere"))
        # Version 2 is made here: handed to this replica's watcher at once, ahead of version 1.
        actor, _, action, version = mover()
        actor.games.SubmitAction(
            gateway_pb2.SubmitActionRequest(
                game_id=game_id, action=action, expected_version=version, request_id="here"
            ),
            metadata=actor.auth,
        )
        missed, caught_up = next(stream), next(stream)
        process.run(read_again())
        stream.cancel()
        assert not missed.HasField("game")
        assert missed.events and {e.version for e in missed.events} == {1}
        assert caught_up.game.version == 2 and not caught_up.resync


def test_a_move_over_the_rate_limit_is_refused_and_plays_nothing(
    redis_url: str, rules: dict[str, str]
) -> None:
    """The caller's check shares a round trip with the game's read: a refused caller still plays nothing."""
    with own_gateway(redis_url, rules, rate_limits={"move": 1}) as own:
        clients = [guest(own.make_client, f"player {i}") for i in range(2)]
        game_id = new_game(own.gateway, TITLE, clients)
        view = clients[0].games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=clients[0].auth)
        actor = clients[view.game.acting_seats[0]]
        mine = actor.games.GetGame(gateway_pb2.GetGameRequest(game_id=game_id), metadata=actor.auth).game
        request = gateway_pb2.SubmitActionRequest(
            game_id=game_id,
            action=mine.legal_actions[0].action,
            expected_version=mine.version,
            request_id="r",
        )
        at_a_second_start()
        empty = gateway_pb2.SubmitActionRequest(
            game_id=game_id, expected_version=mine.version, request_id="e"
        )
        assert refused(actor.games.SubmitAction, empty, actor.auth)[1].reason == "MISSING_ACTION"
        code, info = refused(actor.games.SubmitAction, request, actor.auth)
        assert (code, info.reason) == (grpc.StatusCode.RESOURCE_EXHAUSTED, "RATE_LIMITED")
        assert own.store.get(keys.game_version(game_id)) == b"0"
        assert own.store.xlen(keys.game_log(game_id)) == 0
        at_a_second_start()
        assert actor.games.SubmitAction(request, metadata=actor.auth).version == 1, "the same move, in time"

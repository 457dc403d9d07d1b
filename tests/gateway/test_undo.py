"""Undo through a real gateway, Redis and rules services: a decision taken back is a new version with the
state before it, seen as such by watchers, game lists, clocks, records and replays; idempotent by
request id; refused with the reason that says why (docs/undo.md)."""

from __future__ import annotations

import hashlib

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from live import keys
from live.connection import sync_client
from live.games import start_game
from services.common import registry
from services.common.rng import Rng
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players, signed_in
from tests.gateway.undoing import (
    LOOKING,
    RPC_TIMEOUT,
    acting,
    find_undoable,
    move,
    play_with_undos,
    refusal,
    undo,
    undo_request,
    view,
)
from tests.titles import TITLE

PRECONDITION = grpc.StatusCode.FAILED_PRECONDITION


def start(
    gateway: GatewayProcess,
    clients: list[Client],
    undo_policy: gateway_pb2.UndoPolicy = gateway_pb2.UNDO_POLICY_UNSPECIFIED,
    clock: gateway_pb2.TurnClock | None = None,
) -> str:
    """A game of TITLE with one seat per client, in order."""
    return gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=TITLE,
            player_count=len(clients),
            options=[],
            seats=seat_players(clients),
            clock=clock or gateway_pb2.TurnClock(),
            lobby_id="",
            undo=undo_policy,
        )
    )


def refused(client: Client, request: gateway_pb2.UndoRequest) -> tuple[grpc.StatusCode, str]:
    with pytest.raises(grpc.RpcError) as raised:
        client.games.Undo(request, metadata=client.auth, timeout=RPC_TIMEOUT)
    return refusal(raised.value)


def test_an_undo_returns_the_game_to_the_state_before_as_a_new_version(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = start(gateway, clients)
    store = sync_client(redis_url)
    found = find_undoable(clients, game_id)
    watcher = next(c for c in clients if c is not found.client)
    stream = watcher.games.WatchGame(
        gateway_pb2.WatchGameRequest(game_id=game_id, from_version=found.after.version),
        metadata=watcher.auth,
        timeout=RPC_TIMEOUT,
    )
    assert next(stream).game.version == found.after.version
    state_before = store.get(keys.game_state(game_id))
    request = undo_request(game_id, found.after.version)
    undone = found.client.games.Undo(request, metadata=found.client.auth, timeout=RPC_TIMEOUT)
    assert (undone.version, undone.returned_to) == (found.after.version + 1, found.before.version)
    assert [e.version for e in undone.events] == [undone.version] and "took back" in undone.events[0].text
    game = undone.game
    assert (game.view, list(game.legal_actions), list(game.acting_seats)) == (
        found.before.view,
        list(found.before.legal_actions),
        list(found.before.acting_seats),
    ), "the view and legal actions are those before the decision"
    assert store.get(keys.game_state(game_id)) != state_before
    change = next(stream)
    stream.cancel()
    assert change.game == view(watcher, game_id), "the watcher gets the change with its view after it"
    assert [e.text for e in change.events] == [e.text for e in undone.events]
    again = found.client.games.Undo(request, metadata=found.client.auth, timeout=RPC_TIMEOUT)
    assert (again.version, again.returned_to, again.game.version) == (
        undone.version,
        undone.returned_to,
        undone.version,
    ), "a retry under the same request id answers the first undo, applied once"
    assert refused(found.client, undo_request(game_id, found.after.version)) == (
        grpc.StatusCode.ABORTED,
        "STALE_VERSION",
    )
    reused = undo_request(game_id, undone.version, request.request_id)
    assert refused(found.client, reused) == (PRECONDITION, "REQUEST_ID_REUSED")
    log = store.xrange(keys.game_log(game_id))
    entry_id, fields = log[-1]
    assert entry_id == f"{undone.version}-1".encode() and fields[b"u"] == str(found.before.version).encode()
    listing = found.client.games.ListMyGames(gateway_pb2.ListMyGamesRequest(), metadata=found.client.auth)
    listed = next(g for g in listing.games if g.game_id == game_id)
    assert listed.version == undone.version and listed.my_turn
    remade = move(found.client, undone.game, found.choice)
    assert remade.game.view == found.after.view, "the same decision again gives the same state"


def test_undos_one_after_another_go_back_as_far_as_the_last_barrier(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = start(gateway, clients)
    for _ in range(LOOKING):  # two undoable decisions in a row, both made
        first = find_undoable(clients, game_id)
        second = move(first.client, first.after).game
        try:
            back = undo(first.client, game_id, second.version)
        except grpc.RpcError as error:
            assert refusal(error)[1] == "UNDO_BARRIER"
            continue
        assert back.game.view == first.after.view and back.returned_to == first.after.version
        second = move(first.client, back.game).game
        break
    else:
        raise AssertionError("no two decisions in a row could be undone")
    client = first.client
    one = undo(client, game_id, second.version)
    two = undo(client, game_id, one.version)
    assert (one.version, two.version) == (second.version + 1, second.version + 2)
    assert (one.returned_to, two.returned_to) == (back.version, first.before.version)
    assert one.game.view == first.after.view and two.game.view == first.before.view
    code, reason = refused(client, undo_request(game_id, two.version))
    assert code == PRECONDITION and reason in {"UNDO_BARRIER", "NOTHING_TO_UNDO"}


def test_undo_is_refused_with_the_reason_that_says_why(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    game_id = start(gateway, clients)
    first, _ = acting(clients, game_id)
    for client in clients:
        assert refused(client, undo_request(game_id, 0)) == (PRECONDITION, "NOTHING_TO_UNDO")
    spectator = signed_in(new_client, 1)[0]
    with pytest.raises(grpc.RpcError) as denied:
        spectator.games.Undo(undo_request(game_id, 0), metadata=spectator.auth, timeout=RPC_TIMEOUT)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    missing = undo_request("no-such-game", 0)
    assert refused(first, missing) == (grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND")
    for _ in range(registry.get(TITLE).info.max_game_length):  # play on until the turn passes on
        mover, current = acting(clients, game_id)
        after = move(mover, current).game
        if list(after.acting_seats) != list(current.acting_seats):
            break
    code, reason = refused(mover, undo_request(game_id, after.version))
    assert (code, reason) == (PRECONDITION, "UNDO_BARRIER")
    with pytest.raises(grpc.RpcError) as barrier:
        mover.games.Undo(undo_request(game_id, after.version), metadata=mover.auth, timeout=RPC_TIMEOUT)
    assert "takeback" in (barrier.value.details() or "")
    clients[1].games.Resign(gateway_pb2.ResignRequest(game_id=game_id), metadata=clients[1].auth)
    resigned_at = view(clients[0], game_id).version
    assert refused(clients[1], undo_request(game_id, resigned_at)) == (PRECONDITION, "SEAT_RESIGNED")
    off = start(gateway, clients, gateway_pb2.UNDO_POLICY_OFF)
    mover, current = acting(clients, off)
    after = move(mover, current).game
    assert refused(mover, undo_request(off, after.version)) == (PRECONDITION, "UNDO_OFF")


def test_an_undo_puts_the_turns_clock_back_as_it_was_before_the_decision(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    """The deadline comes back (the time since counts), and the increment of the decision taken back is
    not given again."""
    clients = signed_in(new_client, 3)
    clock = gateway_pb2.TurnClock(per_move_seconds=600, total_seconds=3000, increment_seconds=30)
    game_id = start(gateway, clients, clock=clock)
    store = sync_client(redis_url)
    found = find_undoable(clients, game_id)
    seat = found.before.seat
    undone = undo(found.client, game_id, found.after.version)
    assert undone.game.deadline == found.before.deadline
    before = store.hgetall(keys.game_clock(game_id))  # as it was before the decision
    remade = move(found.client, undone.game, found.choice).game
    assert remade.deadline.ToMilliseconds() >= undone.game.deadline.ToMilliseconds()
    left = f"left:{seat}".encode()
    assert int(store.hget(keys.game_clock(game_id), left) or 0) > int(before[left]) + 25_000, "credited"
    again = undo(found.client, game_id, remade.version)
    assert again.game.deadline == found.before.deadline, "the deadline before the decision, not a new one"
    fields = store.hgetall(keys.game_clock(game_id))
    for name in (b"kind", b"seat", b"started_at", b"due", left):
        assert fields.get(name) == before.get(name), name
    assert int(fields[b"version"]) == again.version
    assert store.zscore(keys.deadlines(), game_id) == float(fields[b"due"])


def test_a_game_with_undos_records_them_and_replays_exactly(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    """A whole game whose players undo now and then (making another choice after): the record names
    each version returned to, ReplayGame re-derives it, and the seed matches its published SHA-256."""
    clients = signed_in(new_client, 3)
    game_id = start(gateway, clients)
    undos = play_with_undos(clients, game_id, Rng(11), 2 * registry.get(TITLE).info.max_game_length)
    assert undos > 0
    record = (
        clients[0]
        .games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=clients[0].auth)
        .record
    )
    returned = [a for a in record.actions if a.HasField("returned_to")]
    assert len(returned) == undos and all(not a.takeback and not a.action.type_url for a in returned)
    assert all(a.returned_to < a.version - 1 for a in returned)
    assert [a.version for a in record.actions] == sorted({a.version for a in record.actions})
    assert hashlib.sha256(record.seed).hexdigest() == record.seed_sha256
    replay = clients[1].games.ReplayGame(
        gateway_pb2.ReplayGameRequest(game_id=game_id), metadata=clients[1].auth
    )
    assert replay.consistent, replay.mismatch
    assert replay.actions_replayed == len(record.actions)


def test_a_record_whose_undo_returns_to_a_version_never_reached_does_not_replay(
    gateway: GatewayProcess, new_client, redis_url: str
) -> None:  # type: ignore[no-untyped-def]
    """The replay checks the log's undo entries too: one naming a later version is a mismatch."""
    clients = signed_in(new_client, 3)
    game_id = start(gateway, clients)
    found = find_undoable(clients, game_id)
    undone = undo(found.client, game_id, found.after.version)
    store = sync_client(redis_url)
    log = store.xrange(keys.game_log(game_id))  # written again with the undo's entry forged
    store.delete(keys.game_log(game_id))
    for entry_id, fields in log:
        if entry_id == f"{undone.version}-1".encode():
            fields = {b"s": fields[b"s"], b"u": str(undone.version + 5).encode()}
        store.xadd(keys.game_log(game_id), fields, id=entry_id)
    for _ in range(2 * registry.get(TITLE).info.max_game_length):  # play on to the end, no undo
        if not view(clients[0], game_id).acting_seats:
            break
        client, current = acting(clients, game_id)
        move(client, current)
    replay = clients[0].games.ReplayGame(
        gateway_pb2.ReplayGameRequest(game_id=game_id), metadata=clients[0].auth
    )
    assert not replay.consistent and "returns to version" in replay.mismatch

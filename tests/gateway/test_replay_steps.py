"""GetReplayStep through a real gateway, Redis and rules services: every step of finished games of
every title is the view each seat and a spectator were shown live at that version (read from their
watch streams as the game was played), with the events they were shown and the label of the legal
action the mover chose from; undos and takebacks are steps that say so; steps asked for in any order
answer the same; each refusal has its reason; and a damaged record answers DATA_LOSS from the step it
fails at."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import grpc
import pytest
import redis.asyncio as aioredis
from boardgame.gateway.v1 import gateway_pb2
from google.rpc import error_details_pb2, status_pb2

from live import keys
from live.games import start_game
from services.common import registry
from services.common.rng import Rng
from services.common.status import error_info
from tests.gateway.patience import patient_channel
from tests.gateway.replaying import (
    Watcher,
    as_replayed,
    every_step,
    play_randomly,
    replay_step,
    seen_by,
    setup_events,
    watchers,
)
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.test_play import seat_players, signed_in
from tests.gateway.undoing import answer, ask_takeback, hand_over, play_with_undos, refusal, view
from tests.redis_modes import EVERY_TITLE_ON_A_CLUSTER, EVERY_TITLE_ON_ONE_NODE
from tests.titles import TITLE

TITLES = sorted(registry.games())


def start(gateway: GatewayProcess, title: str, clients: list[Client], rated: bool = True) -> str:
    """A game of `title` with one seat per client, in order, no clock."""
    return gateway.run(
        start_game(
            gateway.app,  # type: ignore[arg-type]
            title=title,
            player_count=len(clients),
            options=[],
            seats=seat_players(clients),
            clock=gateway_pb2.TurnClock(),
            lobby_id="",
            rated=rated,
        )
    )


def record_of(client: Client, game_id: str) -> gateway_pb2.GameRecord:
    request = gateway_pb2.GetGameRecordRequest(game_id=game_id)
    return client.games.GetGameRecord(request, metadata=client.auth).record


def check_steps(
    record: gateway_pb2.GameRecord,
    steps: list[gateway_pb2.GetReplayStepResponse],
    shown: Watcher,
    seat: int | None,
    movers: dict[int, Watcher],
    setup: list,  # type: ignore[type-arg]
) -> None:
    """Each step is what `shown` (the watch stream of `seat`; None: a spectator) was shown live at its
    version: the view without what only a live game has, the events; each move names its entry and
    carries the label of the legal action its seat chose among, as that seat was shown it."""
    versions = [0, *(entry.version for entry in record.actions)]
    assert [s.step for s in steps] == list(range(len(versions)))
    assert {s.step_count for s in steps} == {len(record.actions)}
    assert [s.game.version for s in steps] == versions
    for step, version in zip(steps, versions, strict=True):
        assert step.game == as_replayed(shown.views[version]), f"step {step.step}, seat {seat}"
        assert step.game.HasField("seat") == (seat is not None) and not step.game.legal_actions
    assert list(steps[0].events) == seen_by(setup, 0, seat)
    assert not steps[0].HasField("move")
    for step, entry in zip(steps[1:], record.actions, strict=True):
        assert list(step.events) == shown.events[entry.version], f"the events of step {step.step}"
        moved = step.move
        assert (moved.version, moved.seat) == (entry.version, entry.seat)
        if entry.HasField("returned_to"):
            how = "takeback" if entry.takeback else "undo"
            assert (moved.returned_to, moved.takeback) == (entry.returned_to, entry.takeback)
            assert moved.label == f"{how}: back to version {entry.returned_to}"
            assert not moved.HasField("action") and not moved.HasField("message")
            assert [e.text for e in step.events] == [e.text for e in shown.events[entry.version]]
            continue
        assert moved.action == entry.action and not moved.HasField("returned_to")
        offered = movers[entry.seat].views[entry.version - 1].legal_actions
        chosen = [legal for legal in offered if legal.action == entry.action]
        assert len(chosen) == 1, f"step {step.step}: the move is one of the legal actions its seat was shown"
        assert (moved.label, moved.message) == (chosen[0].label, chosen[0].message)
        assert moved.label and moved.message.template


def replayed_as_shown(gateway: GatewayProcess, new_client, title: str, players: int, seed: int) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, players)
    spectator = signed_in(new_client, 1)[0]
    game_id = start(gateway, title, clients)
    setup = setup_events(gateway, game_id)
    seats = watchers(clients, game_id)
    looking = watchers([spectator], game_id)[0]
    play_randomly(clients, game_id, Rng(seed), registry.get(title).info.max_game_length)
    for watcher in [*seats, looking]:
        watcher.finish()
    record = record_of(clients[0], game_id)
    movers = dict(enumerate(seats))
    viewers = [*((client, seat) for seat, client in enumerate(clients)), (spectator, None)]
    with ThreadPoolExecutor(len(viewers)) as pool:  # each viewer's calls count against its own rate limit
        stepped = list(pool.map(lambda viewer: every_step(viewer[0], game_id), viewers))
    for (_, seat), steps in zip(viewers, stepped, strict=True):
        check_steps(record, steps, movers[seat] if seat is not None else looking, seat, movers, setup)
    final = view(spectator, game_id)
    assert stepped[-1][-1].game == as_replayed(final) and final.status == gateway_pb2.GAME_STATUS_FINISHED
    assert all(s.game.status == gateway_pb2.GAME_STATUS_ACTIVE for s in stepped[-1][:-1])
    assert not any(s.game.HasField("scores") for s in stepped[-1][:-1])


@EVERY_TITLE_ON_ONE_NODE
@pytest.mark.parametrize("title", TITLES)
def test_every_step_is_what_each_seat_and_a_spectator_were_shown(
    gateway: GatewayProcess, new_client, title: str
) -> None:  # type: ignore[no-untyped-def]
    replayed_as_shown(gateway, new_client, title, registry.get(title).info.min_players, seed=3)


@EVERY_TITLE_ON_A_CLUSTER
@pytest.mark.parametrize("title", TITLES)
def test_every_step_is_what_each_seat_and_a_spectator_were_shown_on_a_cluster(
    gateway: GatewayProcess, new_client, title: str
) -> None:  # type: ignore[no-untyped-def]
    info = registry.get(title).info
    replayed_as_shown(gateway, new_client, title, min(max(3, info.min_players), info.max_players), seed=5)


def test_undos_and_a_takeback_are_steps_that_say_so_and_steps_answer_in_any_order(
    gateway: GatewayProcess, new_client
) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 3)
    spectator = signed_in(new_client, 1)[0]
    game_id = start(gateway, TITLE, clients, rated=False)
    setup = setup_events(gateway, game_id)
    seats = watchers(clients, game_id)
    looking = watchers([spectator], game_id)[0]
    done = hand_over(clients, game_id)  # a decision only a takeback takes back
    others = [c for c in clients if c is not done.client]
    asked = ask_takeback(done.client, game_id, done.version).takeback
    for other in others:
        answer(other, game_id, asked.takeback_id, accept=True)
    assert view(clients[0], game_id).version == done.version + 1, "taken back"
    undos = play_with_undos(clients, game_id, Rng(7), 2 * registry.get(TITLE).info.max_game_length)
    assert undos > 0
    for watcher in [*seats, looking]:
        watcher.finish()
    record = record_of(clients[0], game_id)
    returns = [entry for entry in record.actions if entry.HasField("returned_to")]
    assert sum(entry.takeback for entry in returns) == 1 and len(returns) == undos + 1
    movers = dict(enumerate(seats))
    forward = every_step(spectator, game_id)
    check_steps(record, forward, looking, None, movers, setup)
    check_steps(record, every_step(clients[1], game_id), seats[1], 1, movers, setup)
    count = len(record.actions)
    shuffled = list(range(1, count + 1))
    Rng(13).shuffle(shuffled)
    fresh = signed_in(new_client, 1)[0]  # another spectator, from the last step back: the same steps
    assert every_step(fresh, game_id, range(count, 0, -1)) == forward
    with GatewayProcess(gateway.settings) as cold, patient_channel(cold.address) as channel:
        there = Client(channel, spectator.token)  # a gateway that has kept nothing of the game
        assert every_step(there, game_id, shuffled) == forward, "asked for out of order"


def test_refusals_say_why(gateway: GatewayProcess, new_client) -> None:  # type: ignore[no-untyped-def]
    clients = signed_in(new_client, 2)
    game_id = start(gateway, TITLE, clients)
    cases = [
        ("no-such-game", 0, grpc.StatusCode.NOT_FOUND, "GAME_NOT_FOUND"),
        (game_id, 0, grpc.StatusCode.FAILED_PRECONDITION, "GAME_NOT_FINISHED"),
    ]
    for game, step, code, reason in cases:
        with pytest.raises(grpc.RpcError) as refused:
            replay_step(clients[0], game, step)
        assert refusal(refused.value) == (code, reason)
    play_randomly(clients, game_id, Rng(1), registry.get(TITLE).info.max_game_length)
    count = replay_step(clients[0], game_id, 0).step_count
    assert replay_step(clients[0], game_id, count).game.status == gateway_pb2.GAME_STATUS_FINISHED
    for step in (count + 1, 2**31 - 1, -1):
        with pytest.raises(grpc.RpcError) as refused:
            replay_step(clients[0], game_id, step)
        assert refusal(refused.value) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_STEP")
        details = dict(refused.value.trailing_metadata() or ())["grpc-status-details-bin"]
        status = status_pb2.Status.FromString(details)
        bad = error_details_pb2.BadRequest()
        assert any(detail.Unpack(bad) for detail in status.details)
        assert [v.field for v in bad.field_violations] == ["step"], step


DAMAGED_ENTRY = 3  # the log entry (1-based) a damaged record fails at
DAMAGES = {  # what stands in the entry's action: bytes that are no action, an action no rule allows
    "unreadable": b"\xff\xff",
    "no such move": b"\x08\x63",  # its first field, the kind of action, one no title has
}


async def damage_log(redis: aioredis.Redis, game_id: str, damage: str) -> None:
    """Write the game's log again with entry DAMAGED_ENTRY's action replaced as `damage` says."""
    log = keys.game_log(game_id)
    entries = await redis.xrange(log)
    entry_id, fields = entries[DAMAGED_ENTRY - 1]
    entries[DAMAGED_ENTRY - 1] = (entry_id, {**fields, b"a": DAMAGES[damage]})
    await redis.delete(log)
    for entry_id, fields in entries:
        await redis.xadd(log, fields, id=entry_id)


@pytest.mark.parametrize("damage", sorted(DAMAGES))
def test_a_record_that_does_not_replay_answers_data_loss_from_the_step_it_fails_at(  # type: ignore[no-untyped-def]
    gateway: GatewayProcess, new_client, damage: str
) -> None:
    """A record damaged after the game (or one its rules service no longer plays as it did) answers
    DATA_LOSS from the step it fails at, with that step in the metadata, never INTERNAL; the steps
    before it still answer."""
    clients = signed_in(new_client, 2)
    game_id = start(gateway, TITLE, clients)
    play_randomly(clients, game_id, Rng(5), registry.get(TITLE).info.max_game_length)
    gateway.run(damage_log(gateway.app.redis, game_id, damage))
    for step in range(DAMAGED_ENTRY):
        assert replay_step(clients[0], game_id, step).step == step
    for step in (DAMAGED_ENTRY, DAMAGED_ENTRY + 1):
        with pytest.raises(grpc.RpcError) as refused:
            replay_step(clients[0], game_id, step)
        assert refusal(refused.value) == (grpc.StatusCode.DATA_LOSS, "REPLAY_MISMATCH"), (
            refused.value.details()
        )
        assert error_info(refused.value).metadata["step"] == str(DAMAGED_ENTRY)

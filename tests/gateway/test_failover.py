"""A Redis Cluster primary killed outright (SIGKILL) while games are played through the gateway: its
replica is promoted, the gateway finds the new primary, the games go on, a watcher on another gateway
replica keeps getting changes, and no acknowledged move is lost under the replica-acknowledgement
policy (`REDIS_WAIT_REPLICAS=1`). The figures (how long the shard was unavailable, moves retried,
moves lost) are printed (`pytest -s`) and quoted in docs/scaling.md."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import TypeVar

import grpc
import pytest
from boardgame.gateway.v1 import gateway_pb2

from deploy.throwaway import ThrowawayCluster, redis_cluster, redis_server
from live import keys
from live.settings import ReplicaAcks
from live.table import NoDispatch
from services.common.rng import Rng
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game
from tests.titles import TITLE

T = TypeVar("T")
GAMES = 6
MOVES_BEFORE_KILL = 40  # in all, before the kill
MOVES_AFTER_KILL = 10  # per game on the killed shard, after the kill
RETRIED = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED}
RETRY_FOR_SECONDS = 30.0


@dataclass
class Tally:
    """What the players saw: every acknowledged move, by game, and the calls they had to retry."""

    acknowledged: dict[str, list[tuple[int, bytes]]] = field(default_factory=dict)  # version, action
    retried: int = 0


def retrying(call: Callable[[], T], tally: Tally) -> T:
    """The call's result, sending it again (as the docs ask clients) while Redis is unavailable."""
    deadline = time.monotonic() + RETRY_FOR_SECONDS
    while True:
        try:
            return call()
        except grpc.RpcError as error:
            if error.code() not in RETRIED or time.monotonic() > deadline:
                raise
            tally.retried += 1
            time.sleep(0.05)


def play_one(client: Client, game_id: str, rng: Rng, tally: Tally) -> bool:
    """One move of the player, if it is their turn (a random legal action, under a fresh request id
    kept for its retries); False if it is not, or the game is over."""
    request = gateway_pb2.GetGameRequest(game_id=game_id)
    view = retrying(lambda: client.games.GetGame(request, metadata=client.auth, timeout=5).game, tally)
    if view.status == gateway_pb2.GAME_STATUS_FINISHED or not view.legal_actions:
        return False
    choice = view.legal_actions[rng.below(len(view.legal_actions))]
    submit = gateway_pb2.SubmitActionRequest(
        game_id=game_id, action=choice.action, expected_version=view.version, request_id=uuid.uuid4().hex
    )
    response = retrying(lambda: client.games.SubmitAction(submit, metadata=client.auth, timeout=5), tally)
    tally.acknowledged.setdefault(game_id, []).append((response.version, choice.action.value))
    return True


@contextlib.contextmanager
def watching(gateway: GatewayProcess, client: Client, game_id: str) -> Iterator[list[int]]:
    """The versions a watcher of `game_id` on `gateway` is shown, as they come (reconnecting the
    stream from its last version, as clients do, if it breaks)."""
    seen: list[int] = [0]
    stop = threading.Event()

    def cancel_on_stop(stream: grpc.Future) -> None:
        stop.wait()
        stream.cancel()

    def watch() -> None:
        with patient_channel(gateway.address) as channel:
            stub = Client(channel, client.token).games
            while not stop.is_set():
                request = gateway_pb2.WatchGameRequest(game_id=game_id, from_version=seen[-1])
                stream = stub.WatchGame(request, metadata=client.auth)
                threading.Thread(target=cancel_on_stop, args=(stream,), daemon=True).start()
                with contextlib.suppress(grpc.RpcError):
                    for item in stream:
                        if item.HasField("game"):
                            seen.append(item.game.version)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    try:
        yield seen
    finally:
        stop.set()
        thread.join(10)


def lost_moves(cluster: ThrowawayCluster, tally: Tally) -> int:
    """Acknowledged moves the Cluster does not have: not in their game's log at their version."""
    with cluster.client() as store:
        lost = 0
        for game_id, acknowledged in tally.acknowledged.items():
            log = store.xrange(keys.game_log(game_id))
            logged = {int(entry_id.split(b"-")[0]): fields[b"a"] for entry_id, fields in log}
            lost += sum(1 for version, action in acknowledged if logged.get(version) != action)
        return lost


@pytest.fixture
def cluster() -> Iterator[ThrowawayCluster]:
    with redis_cluster() as throwaway:
        yield throwaway


def test_a_killed_primary_fails_over_and_the_games_go_on_without_losing_an_acknowledged_move(
    cluster: ThrowawayCluster, rules: dict[str, str]
) -> None:
    with redis_server() as broker:
        settings = replace(
            gateway_settings(cluster.url, rules, celery_broker_url=broker),
            replica_acks=ReplicaAcks(replicas=1, timeout_ms=100),
        )
        with (
            GatewayProcess(settings, NoDispatch()) as gateway,
            GatewayProcess(settings, NoDispatch()) as other,
        ):
            channels = [patient_channel(gateway.address) for _ in range(2)]
            players = [Client(channel) for channel in channels]
            for number, player in enumerate(players):
                player.sign_in_as_guest(f"player {number}")
            games = [new_game(gateway, TITLE, players) for _ in range(GAMES)]
            rng, tally = Rng(17), Tally()

            def move(game_id: str) -> None:
                assert any(play_one(player, game_id, rng, tally) for player in players), "nobody moved"

            watched = games[0]
            with watching(other, players[0], watched) as seen:
                for number in range(MOVES_BEFORE_KILL):
                    move(games[number % GAMES])
                killed = cluster.primary_of(keys.game_version(watched))
                on_killed = [g for g in games if cluster.primary_of(keys.game_version(g)) == killed]
                before = {g: len(tally.acknowledged.get(g, [])) for g in on_killed}
                cluster.kill(killed)
                started = time.monotonic()
                retried_before = tally.retried
                move(watched)
                unavailable_seconds = time.monotonic() - started
                for game_id in on_killed:
                    for _ in range(MOVES_AFTER_KILL):
                        move(game_id)
                last = tally.acknowledged[watched][-1][0]
                deadline = time.monotonic() + 10
                while seen[-1] < last and time.monotonic() < deadline:
                    time.sleep(0.05)
            for channel in channels:
                channel.close()

    promoted = cluster.primary_of(keys.game_version(watched))
    lost = lost_moves(cluster, tally)
    acknowledged = sum(len(moves) for moves in tally.acknowledged.values())
    print(
        f"\nfailover: shard unavailable {unavailable_seconds:.2f} s after kill -9 of its primary; "
        f"{tally.retried - retried_before} calls retried; {acknowledged} moves acknowledged, {lost} lost"
    )
    assert promoted != killed and promoted in cluster.alive()  # its replica took over the slot
    assert all(len(tally.acknowledged[g]) >= before[g] + MOVES_AFTER_KILL for g in on_killed)
    assert lost == 0
    assert seen[-1] == last  # the watcher on the other replica saw every change up to the last

"""What a replay step costs (GameService.GetReplayStep) on a long game:
`python -m bench.replay [--players 5] [--seed 1] [--jumps 200]`.

A throwaway redis-server, the first registered title's rules service and a gateway, each a process of
its own, with the settings a user gets. One game at --players seats is played to its end through the
gateway by random legal moves (its longest table: the most steps), then a spectator times
GetReplayStep from its own process, round trip in milliseconds, one call at a time, kept under the
read rate limit (READ_CALLS_PER_SECOND):

- cold, last: the first call once the game is over, for its last step (every entry re-derived);
- forward: each step after the one before, from the first to the last (the neighbour kept);
- back: each step before the one after, from the last to the first (from the nearest state kept);
- jumps: steps drawn at random (at most CHECKPOINT_STEPS entries from a state kept);
- again: a step just asked for, asked for again (kept whole);
- cold, middle: on a second gateway started afresh, the middle step first (half the entries);
- GetGame of the finished game, for the floor of a read call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from functools import partial
from typing import TypeVar

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from bench import table
from bench.gateway import TITLE, rate_limit_delay, start_gateway, start_rules
from bench.latency import percentile
from deploy.probe import serving
from deploy.throwaway import free_port, redis_server
from live.replay import CHECKPOINT_STEPS
from services.common import registry
from services.common.rng import Rng

READ_CALLS_PER_SECOND = 40  # under the read class's 50 a second: no call is refused for the rate limit
READY_SECONDS = 60.0
RPC_TIMEOUT = 60.0

Auth = tuple[tuple[str, str], ...]
T = TypeVar("T")


def wait_serving(address: str) -> None:
    deadline = time.monotonic() + READY_SECONDS
    while not serving(address, timeout=1):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{address} did not start")
        time.sleep(0.2)


def guest(channel: grpc.Channel, name: str) -> tuple[gateway_pb2.Player, Auth]:
    session = gateway_pb2_grpc.AccountServiceStub(channel).CreateGuest(
        gateway_pb2.CreateGuestRequest(display_name=name), timeout=RPC_TIMEOUT
    )
    return session.session.player, (("authorization", f"Bearer {session.session.token}"),)


def patiently(call: Callable[[], T]) -> T:
    """`call()`, after the delay asked for whenever it is refused for the rate limit."""
    while True:
        try:
            return call()
        except grpc.RpcError as error:
            delay = rate_limit_delay(error)
            if delay is None:
                raise
            time.sleep(delay)


def play(channel: grpc.Channel, players: int, seed: int) -> tuple[str, int]:
    """A game at `players` seats, each a guest, played to its end by random legal moves through the
    gateway; its id and its record's entries."""
    lobbies = gateway_pb2_grpc.LobbyServiceStub(channel)
    games = gateway_pb2_grpc.GameServiceStub(channel)
    seats = [guest(channel, f"bench player {n}") for n in range(players)]
    host = seats[0][1]
    lobby = lobbies.CreateLobby(
        gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=players), metadata=host, timeout=RPC_TIMEOUT
    ).lobby
    for _, auth in seats[1:]:
        lobbies.JoinLobby(
            gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id), metadata=auth, timeout=RPC_TIMEOUT
        )
    start = gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id)
    game_id = lobbies.StartGame(start, metadata=host, timeout=RPC_TIMEOUT).game_id
    rng = Rng(seed)
    request = gateway_pb2.GetGameRequest(game_id=game_id)
    auths = {player.player_id: auth for player, auth in seats}
    seated = games.GetGame(request, metadata=host, timeout=RPC_TIMEOUT).game.seats
    by_seat = {seat.seat: auths[seat.player.player_id] for seat in seated}  # a lobby may seat at random
    acting = list(games.GetGame(request, metadata=host, timeout=RPC_TIMEOUT).game.acting_seats)
    for _ in range(registry.get(TITLE).info.max_game_length):
        if not acting:
            break
        auth = by_seat[acting[0]]
        view = patiently(partial(games.GetGame, request, metadata=auth, timeout=RPC_TIMEOUT)).game
        choice = view.legal_actions[rng.below(len(view.legal_actions))]
        move = gateway_pb2.SubmitActionRequest(
            game_id=game_id, action=choice.action, expected_version=view.version, request_id=uuid.uuid4().hex
        )
        moved = patiently(partial(games.SubmitAction, move, metadata=auth, timeout=RPC_TIMEOUT))
        acting = list(moved.game.acting_seats)
    record = games.GetGameRecord(gateway_pb2.GetGameRecordRequest(game_id=game_id), metadata=host)
    return game_id, len(record.record.actions)


class Timer:
    """Times one spectator's calls, one at a time, paced under the read rate limit."""

    def __init__(self, channel: grpc.Channel, auth: Auth, game_id: str) -> None:
        self.games = gateway_pb2_grpc.GameServiceStub(channel)
        self.auth = auth
        self.game_id = game_id
        self.last = 0.0

    def timed(self, call: Callable[[], object]) -> float:
        wait = self.last + 1 / READ_CALLS_PER_SECOND - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.last = time.monotonic()
        started = time.perf_counter()
        call()
        return (time.perf_counter() - started) * 1000

    def step(self, number: int) -> float:
        request = gateway_pb2.GetReplayStepRequest(game_id=self.game_id, step=number)
        return self.timed(lambda: self.games.GetReplayStep(request, metadata=self.auth, timeout=RPC_TIMEOUT))

    def get_game(self) -> float:
        request = gateway_pb2.GetGameRequest(game_id=self.game_id)
        return self.timed(lambda: self.games.GetGame(request, metadata=self.auth, timeout=RPC_TIMEOUT))


def row(case: str, samples: list[float]) -> list[object]:
    return [
        case,
        len(samples),
        f"{statistics.fmean(samples):.1f}",
        f"{percentile(samples, 0.5):.1f}",
        f"{percentile(samples, 0.95):.1f}",
        f"{max(samples):.1f}",
    ]


def measure(players: int, seed: int, jumps: int) -> str:
    """Play the game, time the steps; the table."""
    rules_address = f"127.0.0.1:{free_port()}"
    processes = []
    with redis_server() as redis_url:
        try:
            processes.append(start_rules(rules_address))
            wait_serving(rules_address)
            first, second = (f"127.0.0.1:{free_port()}" for _ in range(2))
            processes.append(start_gateway(first, redis_url, rules_address))
            wait_serving(first)
            with grpc.insecure_channel(first) as channel:
                game_id, count = play(channel, players, seed)
                _, auth = guest(channel, "bench spectator")
                timer = Timer(channel, auth, game_id)
                rng = Rng(seed)
                rows = [row("cold, last step", [timer.step(count)])]
                rows.append(row("forward", [timer.step(n) for n in range(count + 1)]))
                rows.append(row("back", [timer.step(n) for n in range(count, -1, -1)]))
                drawn = [rng.below(count + 1) for _ in range(jumps)]
                rows.append(row("jumps", [timer.step(n) for n in drawn]))
                again = []
                for n in drawn[: jumps // 2]:
                    timer.step(n)
                    again.append(timer.step(n))
                rows.append(row("again", again))
                rows.append(row("GetGame (floor)", [timer.get_game() for _ in range(jumps // 2)]))
            processes.append(start_gateway(second, redis_url, rules_address))
            wait_serving(second)
            with grpc.insecure_channel(second) as channel:
                rows.insert(1, row("cold, middle step", [Timer(channel, auth, game_id).step(count // 2)]))
        finally:
            for process in processes:
                process.terminate()
                process.wait(30)
    heading = (
        f"GetReplayStep on a game of {TITLE} at {players} seats, {count} steps (checkpoints every "
        f"{CHECKPOINT_STEPS}), ms a call"
    )
    return table(heading, ["case", "calls", "mean", "p50", "p95", "max"], rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    info = registry.get(TITLE).info
    parser.add_argument("--players", type=int, default=info.max_players, help="seats (default: the most)")
    parser.add_argument("--seed", type=int, default=1, help="the random moves' seed")
    parser.add_argument("--jumps", type=int, default=200, help="random steps asked for")
    args = parser.parse_args(argv)
    print(measure(args.players, args.seed, args.jumps))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a player follows across games (table h of `make bench`): ListMyGames for a player with 500
finished and 20 live games, and how fast an inbox event reaches its player next to WatchGame.

Processes: a redis-server (and, for the second run, a Redis Cluster of three primaries and three
replicas with a plain Redis as Celery's broker), the first title's rules service and the gateway (each
a real process, with the limits a user gets; calls are paced under them). The 20 live games are
started through the write path (`live.games.start_game`); the 500 finished ones are written into the
player's lists by the functions the write path and the scoring call (`live.mygames.committed`,
`scored`), as playing 500 games to their end would take the benchmark many minutes. ListMyGames is
timed for its first page (the 20 live games, the player's turn first) and for a page of finished games
deep in the list.

Inbox against WatchGame: two guests play one game (another when it ends), each with a WatchGame and a
WatchInbox stream open; the acting player submits a random legal action, and the time from sending
SubmitAction to each stream delivering that version (WatchGame: every watcher's view; the inbox: the
YOUR_TURN of the player who now acts) is recorded, for the same moves, in the same run. Play goes on
past `--moves` until the inbox has at least MIN_INBOX_SAMPLES deliveries (a YOUR_TURN comes only when
the turn changes hands).

    python -m bench.players [--moves 300] [--calls 200] [--mode 'one node' | --mode 'cluster 3+3']
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid
from dataclasses import replace

import grpc
import uvloop
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from bench import table, unpin, verdict
from bench.gateway import TITLE, _guest, _patiently, _wait_serving, start_gateway, start_rules
from bench.latency import percentile
from deploy.throwaway import free_port, redis_cluster, redis_server
from live import mygames
from live.games import start_game
from live.settings import Settings
from live.table import connect
from services.common.rng import Rng

FINISHED, LIVE = 500, 20
CALLS_PER_SECOND = 40  # under the read class's 50 a second
TARGET_INBOX_OVER_WATCH_P50 = 2.0
MOVE_PAUSE_SECONDS = 0.02  # after a move's deliveries, before the next: an unloaded gateway
DELIVERY_TIMEOUT = 10.0
MIN_INBOX_SAMPLES = 100  # YOUR_TURN deliveries timed at the least, whatever --moves says
MOST_MOVES_PER_ASKED = 10  # but never more than this many times --moves

Auth = tuple[tuple[str, str], ...]


async def _fill(settings: Settings, player: gateway_pb2.Player, rival: gateway_pb2.Player) -> None:
    """The player's 20 live games (started for real) and 500 finished ones (written to their lists)."""
    app = await connect(settings)
    try:
        seats = [gateway_pb2.GameSeat(seat=0, player=player), gateway_pb2.GameSeat(seat=1, player=rival)]
        for _ in range(LIVE):
            await start_game(
                app,
                title=TITLE,
                player_count=2,
                options=[],
                seats=seats,
                clock=gateway_pb2.TurnClock(),
                lobby_id="",
            )
        finished_at = int(time.time() * 1000) - FINISHED * 60_000
        for index in range(FINISHED):
            record = gateway_pb2.GameRecord(
                game_id=uuid.uuid4().hex, title=TITLE, player_count=2, seats=seats
            )
            record.finished_at.FromMilliseconds(finished_at + index * 60_000)
            record.scores.final = True
            for seat in (0, 1):
                record.scores.scores.add(seat=seat, total=10 * seat, rank=2 - seat)
            change = mygames.Change(record, 100, (), True, at_ms=finished_at + index * 60_000)
            await mygames.committed(app.redis, change)
            ratings = {player.player_id: (20.0, 21.0), rival.player_id: (20.0, 19.0)}
            await mygames.scored(app.redis, record, 100, {player.player_id: 2, rival.player_id: 1}, ratings)
    finally:
        await app.rules.close()
        await app.redis.aclose()


async def _time_pages(
    games: gateway_pb2_grpc.GameServiceStub, auth: Auth, calls: int
) -> dict[str, list[float]]:
    """ListMyGames times (ms): the first page, a page deep in the finished games, and whole walks."""
    times: dict[str, list[float]] = {"first": [], "deep": [], "walk": []}
    first = await games.ListMyGames(gateway_pb2.ListMyGamesRequest(), metadata=auth)
    token = first.next_page_token
    for _ in range(10):  # 10 pages of 20 on: the page of finished games 201 to 220
        token = (
            await games.ListMyGames(gateway_pb2.ListMyGamesRequest(page_token=token), metadata=auth)
        ).next_page_token
    pages = {
        "first": gateway_pb2.ListMyGamesRequest(),
        "deep": gateway_pb2.ListMyGamesRequest(page_token=token),
    }
    for _ in range(calls):
        for name, request in pages.items():
            started = time.perf_counter()
            await _patiently(games.ListMyGames, request, auth)
            times[name].append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(1 / CALLS_PER_SECOND)
    for _ in range(5):
        spent, walk, shown = 0.0, "", 0
        while True:
            started = time.perf_counter()
            page = await _patiently(
                games.ListMyGames, gateway_pb2.ListMyGamesRequest(page_size=100, page_token=walk), auth
            )
            spent += time.perf_counter() - started  # the calls' time, not the pauses between them
            shown += len(page.games)
            walk = page.next_page_token
            await asyncio.sleep(1 / CALLS_PER_SECOND)
            if not walk:
                break
        times["walk"].append(spent * 1000)
        assert shown == FINISHED + LIVE, shown
    return times


async def _deliveries(channel: grpc.aio.Channel, moves: int) -> tuple[list[float], list[float]]:
    """Submit-to-delivery times (ms) of WatchGame and of the inbox's YOUR_TURN, over `moves` moves."""
    accounts = gateway_pb2_grpc.AccountServiceStub(channel)
    lobbies = gateway_pb2_grpc.LobbyServiceStub(channel)
    games = gateway_pb2_grpc.GameServiceStub(channel)
    players = [await _guest(accounts, f"inbox {i}") for i in range(2)]
    sent: dict[tuple[str, int], float] = {}
    watch_ms: list[float] = []
    inbox_ms: list[float] = []
    arrived: asyncio.Queue[tuple[int, gateway_pb2.GameView]] = asyncio.Queue()

    async def inbox(seat: int) -> None:
        async for response in games.WatchInbox(gateway_pb2.WatchInboxRequest(), metadata=players[seat]):
            event = response.event
            if (
                event.kind == gateway_pb2.INBOX_EVENT_KIND_YOUR_TURN
                and (event.game_id, event.version) in sent
            ):
                inbox_ms.append((time.perf_counter() - sent[(event.game_id, event.version)]) * 1000)

    async def watch(seat: int, game_id: str) -> None:
        request = gateway_pb2.WatchGameRequest(game_id=game_id)
        async for response in games.WatchGame(request, metadata=players[seat]):
            if response.HasField("game"):
                if (game_id, response.game.version) in sent:
                    watch_ms.append((time.perf_counter() - sent[(game_id, response.game.version)]) * 1000)
                await arrived.put((seat, response.game))

    inboxes = [asyncio.create_task(inbox(seat)) for seat in range(2)]
    rng = Rng(7)
    played = 0

    def more() -> bool:
        wanted = played < moves or len(inbox_ms) < MIN_INBOX_SAMPLES
        return wanted and played < MOST_MOVES_PER_ASKED * moves

    try:
        while more():
            lobby = (
                await _patiently(
                    lobbies.CreateLobby, gateway_pb2.CreateLobbyRequest(title=TITLE, seat_count=2), players[0]
                )
            ).lobby
            await _patiently(
                lobbies.JoinLobby, gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id), players[1]
            )
            game_id = (
                await _patiently(
                    lobbies.StartGame, gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), players[0]
                )
            ).game_id
            watchers = [asyncio.create_task(watch(seat, game_id)) for seat in range(2)]
            views: dict[int, gateway_pb2.GameView] = {}
            try:
                while more():
                    while len(views) < 2 or len({view.version for view in views.values()}) > 1:
                        seat, view = await asyncio.wait_for(arrived.get(), DELIVERY_TIMEOUT)
                        views[seat] = view
                    if any(view.status == gateway_pb2.GAME_STATUS_FINISHED for view in views.values()):
                        break
                    await asyncio.sleep(MOVE_PAUSE_SECONDS)
                    seat, view = next((s, v) for s, v in views.items() if v.legal_actions)
                    choice = view.legal_actions[rng.below(len(view.legal_actions))]
                    sent[(game_id, view.version + 1)] = time.perf_counter()
                    await _patiently(
                        games.SubmitAction,
                        gateway_pb2.SubmitActionRequest(
                            game_id=game_id,
                            action=choice.action,
                            expected_version=view.version,
                            request_id=uuid.uuid4().hex,
                        ),
                        players[seat],
                    )
                    played += 1
                    views.clear()
            finally:
                for watcher in watchers:
                    watcher.cancel()
        await asyncio.sleep(0.5)  # the last inbox events
    finally:
        for task in inboxes:
            task.cancel()
    return watch_ms, inbox_ms


Figures = tuple[dict[str, list[float]], list[float], list[float]]


def _run(redis_url: str, broker_url: str, moves: int, calls: int) -> Figures:
    """Both measurements on the Redis of `redis_url`: ListMyGames times, WatchGame's and the inbox's."""
    rules_address, gateway_address = f"127.0.0.1:{free_port()}", f"127.0.0.1:{free_port()}"
    rules = start_rules(rules_address)
    gateway = start_gateway(gateway_address, redis_url, rules_address, broker_url)
    settings = replace(
        Settings(), redis_url=redis_url, rules_addresses=(rules_address,), celery_broker_url=broker_url
    )
    try:
        _wait_serving(gateway_address)

        async def run() -> Figures:
            async with grpc.aio.insecure_channel(gateway_address) as channel:
                accounts = gateway_pb2_grpc.AccountServiceStub(channel)
                games = gateway_pb2_grpc.GameServiceStub(channel)
                auths = [await _guest(accounts, name) for name in ("busy player", "rival")]
                people = [
                    (await accounts.GetMe(gateway_pb2.GetMeRequest(), metadata=auth)).player for auth in auths
                ]
                await _fill(settings, people[0], people[1])
                pages = await _time_pages(games, auths[0], calls)
                watch_ms, inbox_ms = await _deliveries(channel, moves)
            return pages, watch_ms, inbox_ms

        return uvloop.run(run())
    finally:
        for process in (gateway, rules):
            process.terminate()
            process.wait(10)


def _rows(mode: str, figures: Figures) -> list[list[str]]:
    pages, watch_ms, inbox_ms = figures
    watch_p50 = statistics.median(watch_ms)
    inbox_p50 = statistics.median(inbox_ms)
    limit = TARGET_INBOX_OVER_WATCH_P50 * watch_p50
    return [
        [
            f"{mode}: ListMyGames first page (20 live) p50 ms",
            f"{statistics.median(pages['first']):.2f}",
            "-",
            "-",
        ],
        [f"{mode}: ListMyGames first page p99 ms", f"{percentile(pages['first'], 0.99):.2f}", "-", "-"],
        [f"{mode}: ListMyGames finished 201-220 p50 ms", f"{statistics.median(pages['deep']):.2f}", "-", "-"],
        [f"{mode}: ListMyGames finished 201-220 p99 ms", f"{percentile(pages['deep'], 0.99):.2f}", "-", "-"],
        [
            f"{mode}: ListMyGames all 520 (6 pages of 100) p50 ms",
            f"{statistics.median(pages['walk']):.2f}",
            "-",
            "-",
        ],
        [f"{mode}: WatchGame submit-to-view p50 ms ({len(watch_ms)})", f"{watch_p50:.2f}", "-", "-"],
        [f"{mode}: WatchGame submit-to-view p99 ms", f"{percentile(watch_ms, 0.99):.2f}", "-", "-"],
        [
            f"{mode}: WatchInbox submit-to-YOUR_TURN p50 ms ({len(inbox_ms)})",
            f"{inbox_p50:.2f}",
            f"<= {limit:.2f} (2 x WatchGame)",
            verdict(inbox_p50 <= limit),
        ],
        [f"{mode}: WatchInbox submit-to-YOUR_TURN p99 ms", f"{percentile(inbox_ms, 0.99):.2f}", "-", "-"],
    ]


MODES = ("one node", "cluster 3+3")


def measure(moves: int = 300, calls: int = 200, modes: tuple[str, ...] = MODES) -> str:
    """Run both measurements against real processes, on one Redis node and on a Redis Cluster, and
    return table (h)."""
    unpin()
    rows = []
    for mode in modes:
        if mode == MODES[0]:
            with redis_server() as redis_url:
                rows += _rows(mode, _run(redis_url, "", moves, calls))
        else:
            with redis_cluster() as cluster, redis_server() as broker:
                rows += _rows(mode, _run(cluster.url, broker, moves, calls))
    title = (
        f"(h) a player's games and inbox: {FINISHED} finished + {LIVE} live games, {moves}+ moves of {TITLE}"
    )
    return table(title, ["figure", "value", "target", "meets"], rows)


def main() -> None:
    """Run table (h) with the sizes given on the command line."""
    parser = argparse.ArgumentParser(description="A player's games and inbox (table h of `make bench`).")
    parser.add_argument("--moves", type=int, default=300, help="moves timed for the inbox (default 300)")
    parser.add_argument("--calls", type=int, default=200, help="ListMyGames calls per page (default 200)")
    parser.add_argument("--mode", action="append", choices=MODES, help="only this Redis (repeatable)")
    args = parser.parse_args()
    print(measure(args.moves, args.calls, tuple(args.mode or MODES)))


if __name__ == "__main__":
    main()

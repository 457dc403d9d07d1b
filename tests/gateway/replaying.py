"""Helpers of the replay tests: what each seat and a spectator were shown live, read from their watch
streams while a game is played through a real gateway, and a finished game's steps (GetReplayStep)."""

from __future__ import annotations

import threading
from collections import defaultdict
from collections.abc import Iterable

from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2

from live.store import GameStore
from services.common.rng import Rng
from tests.gateway.support import Client, GatewayProcess
from tests.gateway.undoing import RPC_TIMEOUT, move, view

WATCH_SECONDS = 600.0


class Watcher(threading.Thread):
    """A client's watch stream of one game, read to the game's end on a thread: the view shown after
    each version and the events of each, as that client was shown them live."""

    def __init__(self, client: Client, game_id: str) -> None:
        super().__init__(daemon=True)
        self.client = client
        self.game_id = game_id
        self.views: dict[int, gateway_pb2.GameView] = {}
        self.events: dict[int, list[gateway_pb2.GameEvent]] = defaultdict(list)
        self.opened = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            request = gateway_pb2.WatchGameRequest(game_id=self.game_id)
            stream = self.client.games.WatchGame(request, metadata=self.client.auth, timeout=WATCH_SECONDS)
            for reply in stream:
                for event in reply.events:
                    self.events[event.version].append(event)
                if reply.HasField("game"):
                    self.views[reply.game.version] = reply.game
                    self.opened.set()
        except BaseException as error:  # re-raised by `finish`
            self.failure = error
            self.opened.set()

    def start_watching(self) -> Watcher:
        """Open the stream; return once its first view came."""
        self.start()
        assert self.opened.wait(RPC_TIMEOUT), "no opening view"
        return self

    def finish(self) -> None:
        """Wait for the stream to end with the game."""
        self.join(WATCH_SECONDS)
        assert not self.is_alive(), "the watch stream did not end with the game"
        if self.failure is not None:
            raise self.failure


def watchers(clients: Iterable[Client], game_id: str) -> list[Watcher]:
    """A watcher per client, each stream open."""
    return [Watcher(client, game_id).start_watching() for client in clients]


def setup_events(gateway: GatewayProcess, game_id: str) -> list[rules_pb2.Event]:
    """The events of a game's setup, as the game keeps its change at version 0 (read before any move:
    it keeps its last few changes only)."""
    store = GameStore(gateway.app.redis, 0)  # type: ignore[union-attr]
    kept = dict(gateway.run(store.changes_since(game_id, -1)))
    return list(kept[0].events)


def play_randomly(clients: list[Client], game_id: str, rng: Rng, bound: int) -> None:
    """Play random legal actions to the end (the game's seats are the clients, in order)."""
    for _ in range(bound):
        seats = view(clients[0], game_id).acting_seats
        if not seats:
            return
        current = view(clients[seats[0]], game_id)
        move(clients[seats[0]], current, rng.below(len(current.legal_actions)))
    raise AssertionError(f"the game did not end within {bound} moves")


def replay_step(client: Client, game_id: str, step: int) -> gateway_pb2.GetReplayStepResponse:
    """One step of a finished game, as the client is shown it."""
    request = gateway_pb2.GetReplayStepRequest(game_id=game_id, step=step)
    return client.games.GetReplayStep(request, metadata=client.auth, timeout=RPC_TIMEOUT)


def every_step(
    client: Client, game_id: str, order: Iterable[int] | None = None
) -> list[gateway_pb2.GetReplayStepResponse]:
    """Every step of a finished game in step order, asked for in `order` (the steps it leaves out
    after it), else from the first."""
    found: dict[int, gateway_pb2.GetReplayStepResponse] = {}
    for number in order if order is not None else ():
        found[number] = replay_step(client, game_id, number)
    count = (found[next(iter(found))] if found else replay_step(client, game_id, 0)).step_count
    for number in range(count + 1):
        if number not in found:
            found[number] = replay_step(client, game_id, number)
    return [found[number] for number in range(count + 1)]


def seen_by(events: Iterable[rules_pb2.Event], version: int, seat: int | None) -> list[gateway_pb2.GameEvent]:
    """The events a seat (None: a spectator) may see, as the API sends them: those visible to everyone
    or naming the seat."""
    return [
        gateway_pb2.GameEvent(
            version=version,
            detail=event.detail,
            text=event.text,
            message=event.message if event.HasField("message") else None,
        )
        for event in events
        if not event.visible_to or seat in event.visible_to
    ]


def as_replayed(shown: gateway_pb2.GameView) -> gateway_pb2.GameView:
    """A view shown live, as a replay shows it: without what only the live game has (legal actions, a
    deadline, a pending takeback)."""
    kept = gateway_pb2.GameView()
    kept.CopyFrom(shown)
    del kept.legal_actions[:]
    kept.ClearField("deadline")
    kept.ClearField("takeback")
    return kept

"""A change's views, built once per seat on this process: the GameView of a seat (None: the
spectators) at a version, shared by the mover's reply and every watcher of that seat, and the watch
reply those watchers get alike, encoded once (`gateway.encoded`). The newest VIEWS_KEPT are kept: the
watchers of a change ask for its views within moments of each other, and one asking later builds
them again."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from boardgame.gateway.v1 import gateway_pb2

from gateway.encoded import Encoded
from gateway.metrics import WATCH_REPLIES

ENCODED, SHARED = WATCH_REPLIES.labels("encoded"), WATCH_REPLIES.labels("shared")

VIEWS_KEPT = 2048  # seats' views of the newest changes (a few KB each)

Key = tuple[str, int, int | None]  # game id, version, seat (None: a spectator)


class Shown:
    """A seat's view at a version, and its watch reply once a watcher asked for it."""

    __slots__ = ("encoded", "view")

    def __init__(self, view: gateway_pb2.GameView) -> None:
        self.view = view
        self.encoded: Encoded | None = None

    def reply(self, events: Callable[[], list[gateway_pb2.GameEvent]]) -> Encoded:
        """The watch reply of the change for this seat (its `events` and the view), encoded once."""
        if self.encoded is None:
            self.encoded = Encoded(gateway_pb2.WatchGameResponse(events=events(), game=self.view))
            ENCODED.inc()
        else:
            SHARED.inc()
        return self.encoded


class SeatViews:
    """The views of the newest changes, by game, version and seat."""

    def __init__(self, kept: int = VIEWS_KEPT) -> None:
        self.kept = kept
        # oldest first; a future while its first caller builds it
        self.built: dict[Key, Shown | asyncio.Future[Shown]] = {}

    async def shown(self, key: Key, build: Callable[[], Awaitable[gateway_pb2.GameView]]) -> Shown:
        """The seat's view at the version, built by `build` for the first caller (in its own task: a
        view that needs no Redis read is built at once); a caller coming meanwhile waits for it. A
        build that fails is not kept (the next caller builds again), and one whose caller left is
        built by the next that was waiting."""
        while (found := self.built.get(key)) is not None:
            if isinstance(found, Shown):
                return found
            try:
                return await asyncio.shield(found)
            except asyncio.CancelledError:
                if not found.cancelled():  # the waiter itself was cancelled
                    raise
        building: asyncio.Future[Shown] = asyncio.get_running_loop().create_future()
        self.built[key] = building
        while len(self.built) > self.kept:
            del self.built[next(iter(self.built))]
        try:
            shown = Shown(await build())
        except BaseException as error:
            if self.built.get(key) is building:
                del self.built[key]
            if isinstance(error, asyncio.CancelledError):
                building.cancel()
            else:
                building.set_exception(error)
                building.exception()  # those waiting raise it; nobody waiting is no error to log
            raise
        if self.built.get(key) is building:
            self.built[key] = shown
        building.set_result(shown)
        return shown

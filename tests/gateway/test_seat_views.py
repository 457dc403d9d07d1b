"""A change's views are built once per seat on a gateway, and the watchers of a seat get one encoding
of it: native streams, browser streams (binary and JSON) and the mover's own reply all show the same
view, and `gateway_watch_replies_total` counts one encoding per seat watched and a shared copy for
every other watcher."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import prometheus_client
import pytest
from boardgame.gateway.v1 import gateway_pb2

from gateway.browser import WebSettings
from gateway.seat_views import SeatViews
from tests.gateway.browser_client import BrowserClient
from tests.gateway.patience import patient_channel
from tests.gateway.support import Client, GatewayProcess, gateway_settings
from tests.gateway.test_play import new_game
from tests.titles import GAME, TITLE
from tests.workers.test_players import acting_client, move


@pytest.fixture(scope="module")
def web_gateway(redis_url: str, rules: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator:  # type: ignore[type-arg]
    web = WebSettings(address="127.0.0.1:0", client_dir=Path(tmp_path_factory.mktemp("web")))
    with GatewayProcess(gateway_settings(redis_url, rules), web=web) as process:
        yield process


def replies(encoding: str) -> float:
    sample = prometheus_client.REGISTRY.get_sample_value(
        "gateway_watch_replies_total", {"encoding": encoding}
    )
    return sample or 0.0


def browser_spectator(gateway: GatewayProcess, name: str, proto_json: bool) -> BrowserClient:
    client = BrowserClient(gateway.web_url, proto_json=proto_json)
    reply = client.call("AccountService", "CreateGuest", gateway_pb2.CreateGuestRequest(display_name=name))
    client.token = reply.session.token
    return client


def next_view(stream: Iterator[Any], version: int) -> gateway_pb2.WatchGameResponse:
    """The stream's reply carrying the view at `version`."""
    return next(reply for reply in stream if reply.HasField("game") and reply.game.version == version)


def test_the_watchers_of_a_seat_share_one_encoding_of_each_change(web_gateway: GatewayProcess) -> None:
    channels = []

    def native(name: str) -> Client:
        channels.append(patient_channel(web_gateway.address))
        client = Client(channels[-1])
        client.sign_in_as_guest(name)
        return client

    try:
        players = [native(f"player {seat}") for seat in range(GAME.info.min_players)]
        game_id = new_game(web_gateway, TITLE, players)
        mover = acting_client(players, game_id)
        request = gateway_pb2.WatchGameRequest(game_id=game_id)
        mover_streams = [mover.games.WatchGame(request, metadata=mover.auth) for _ in range(2)]
        spectators = [native(f"spectator {n}") for n in range(2)]
        spectator_streams: list[Iterator[Any]] = [
            s.games.WatchGame(request, metadata=s.auth) for s in spectators
        ]
        spectator_streams += [
            browser_spectator(web_gateway, f"web {form}", form == "json").stream(
                "GameService", "WatchGame", request
            )
            for form in ("binary", "json")
        ]
        opened = [next(stream) for stream in mover_streams + spectator_streams]
        version = opened[0].game.version
        encoded, shared = replies("encoded"), replies("shared")

        moved = move(mover, game_id)

        seen_by_mover = [next_view(stream, version + 1) for stream in mover_streams]
        seen_by_spectators = [next_view(stream, version + 1) for stream in spectator_streams]
        assert seen_by_mover[0] == seen_by_mover[1] and seen_by_mover[0].game == moved
        assert all(reply == seen_by_spectators[0] for reply in seen_by_spectators)
        assert not seen_by_spectators[0].game.HasField("seat") and seen_by_mover[0].game.HasField("seat")
        # One encoding for the mover's seat and one for the spectators; every other watcher shares one.
        assert replies("encoded") - encoded == 2
        assert replies("shared") - shared == len(mover_streams) + len(spectator_streams) - 2
    finally:
        for channel in channels:
            channel.close()


def test_a_view_is_built_once_for_its_callers_and_again_after_a_failed_or_abandoned_build() -> None:
    async def run() -> None:
        views = SeatViews(kept=2)
        builds: list[int] = []

        async def build() -> gateway_pb2.GameView:
            builds.append(1)
            await asyncio.sleep(0.01)
            return gateway_pb2.GameView(game_id="g", version=len(builds))

        key = ("g", 1, 0)
        first, second = await asyncio.gather(views.shown(key, build), views.shown(key, build))
        assert first is second and len(builds) == 1

        async def failing() -> gateway_pb2.GameView:
            raise RuntimeError("rules service gone")

        with pytest.raises(RuntimeError):
            await views.shown(("g", 2, 0), failing)
        assert (await views.shown(("g", 2, 0), build)).view.version == 2

        leaving = asyncio.ensure_future(views.shown(("g", 3, 0), build))
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(views.shown(("g", 3, 0), build))
        leaving.cancel()  # the builder leaving: the caller waiting builds it
        assert (await waiting).view.version == 4 and len(builds) == 4
        assert leaving.cancelled()
        assert list(views.built) == [("g", 2, 0), ("g", 3, 0)]  # the newest `kept` only

    asyncio.run(run())

"""The games of a chaos run, played through the real gateway API: bots in every seat, or scripted human
clients that watch their game and submit one of the labelled legal actions of their view, each under a
fresh request id that a retry keeps. Every move the gateway acknowledged is recorded, to be found in
the log afterwards.

The games cycle over every registered title, each title over its player counts and its configs (the
defaults, then its example configs, as lobby options), so a run of a few games per title covers them.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

import grpc
from boardgame.gateway.v1 import gateway_pb2, gateway_pb2_grpc

from chaos.gateways import Auth, Gateways
from live.games import option_values
from services.common import registry
from services.common.rng import Rng

BOT_STRENGTHS = (gateway_pb2.BOT_STRENGTH_RANDOM, gateway_pb2.BOT_STRENGTH_HEURISTIC)
POLL_SECONDS = 1.0  # how often a bot game's host looks at it
STALL_SECONDS = 20.0  # a watcher hearing nothing for this long has missed a change
REFUSED = frozenset({grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION})
Pace = Callable[[], Awaitable[None]]  # waits until the load allows another move
Lobbies = gateway_pb2_grpc.LobbyServiceStub
Games = gateway_pb2_grpc.GameServiceStub


@dataclass(frozen=True)
class Plan:
    """One game to play: its title, seats, config (name and lobby options) and who plays."""

    title: str
    seats: int
    config: str
    options: tuple[gateway_pb2.GameOptionValue, ...]
    humans: bool
    strength: gateway_pb2.BotStrength = gateway_pb2.BOT_STRENGTH_RANDOM
    bot_seats: int = 0  # of a game of human clients: its last seats are bots


@dataclass(frozen=True)
class Acked:
    """A move the gateway acknowledged: its request id, the version it produced, seat and action."""

    request_id: str
    version: int
    seat: int
    action: bytes  # the Action message (the packed Any's value, as the log keeps it)


@dataclass
class Played:
    """A game being played: its plan, id, a player's credentials, the acknowledged moves and what the
    clients went through."""

    plan: Plan
    game_id: str
    host: Auth
    acked: list[Acked] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)
    finished: bool = False
    longest_pause: float = 0.0  # seconds without a new version, as its host saw it
    error: str = ""  # what stopped its clients, if anything did


def plans(bot_games: int, human_games: int) -> list[Plan]:
    """The games of a run, cycling over titles, player counts and configs (see the module docstring)."""
    titles = list(registry.games().values())
    chosen = []
    for index in range(bot_games + human_games):
        game = titles[index % len(titles)]
        turn = index // len(titles)
        counts = list(game.info.player_counts)
        configs = [("default", ()), *((name, tuple(option_values(c))) for name, c in game.example_configs)]
        name, options = configs[turn % len(configs)]
        chosen.append(
            Plan(
                title=game.info.name,
                seats=counts[turn % len(counts)],
                config=name,
                options=options,
                humans=index >= bot_games,
                strength=BOT_STRENGTHS[turn % len(BOT_STRENGTHS)],
            )
        )
    return chosen


async def guest(gateways: Gateways, name: str) -> Auth:
    """A new guest's call metadata."""
    reply = await gateways.call(
        gateway_pb2_grpc.AccountServiceStub,
        "CreateGuest",
        gateway_pb2.CreateGuestRequest(display_name=name),
        (),
    )
    return (("authorization", f"Bearer {reply.session.token}"),)


async def open_game(
    gateways: Gateways, plan: Plan, number: int, regulars: Sequence[Auth] = ()
) -> tuple[str, list[Auth]]:
    """Gather a lobby as planned and start its game: the host alone with bots on every seat (its own
    last), or one player per seat but the last `bot_seats`. The players are `regulars` (the host first)
    as far as they go, new guests after them. The game's id and its human players (the host first)."""

    async def player(index: int, name: str) -> Auth:
        return regulars[index] if index < len(regulars) else await guest(gateways, name)

    host = await player(0, f"chaos host {number}")
    request = gateway_pb2.CreateLobbyRequest(
        title=plan.title, seat_count=plan.seats, options=plan.options, seating=gateway_pb2.SEATING_FIXED
    )
    lobby = (await gateways.call(Lobbies, "CreateLobby", request, host)).lobby
    players = [host]
    for seat in range(1, plan.seats):
        if plan.humans and seat < plan.seats - plan.bot_seats:
            joiner = await player(seat, f"chaos {number}.{seat}")
            join = gateway_pb2.JoinLobbyRequest(lobby_id=lobby.lobby_id)
            await gateways.call(Lobbies, "JoinLobby", join, joiner)
            players.append(joiner)
        else:
            bot = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=plan.strength, seat=seat)
            await gateways.call(Lobbies, "AddBot", bot, host)
    if not plan.humans:
        bot = gateway_pb2.AddBotRequest(lobby_id=lobby.lobby_id, strength=plan.strength, seat=0)
        await gateways.call(Lobbies, "AddBot", bot, host)
    started = await gateways.call(
        Lobbies, "StartGame", gateway_pb2.StartGameRequest(lobby_id=lobby.lobby_id), host
    )
    return started.game_id, players


async def follow_bots(gateways: Gateways, played: Played) -> None:
    """Look at a bot game now and then until it is over, noting the longest pause between versions."""
    version, changed = -1, time.monotonic()
    request = gateway_pb2.GetGameRequest(game_id=played.game_id)
    while True:
        game = (await gateways.call(Games, "GetGame", request, played.host)).game
        now = time.monotonic()
        if game.version != version:
            version, changed = game.version, now
        played.longest_pause = max(played.longest_pause, now - changed)
        if game.status == gateway_pb2.GAME_STATUS_FINISHED:
            played.finished = True
            return
        await asyncio.sleep(POLL_SECONDS)


async def play_seat(
    gateways: Gateways, played: Played, auth: Auth, rng: Rng, think: float, pace: Pace | None = None
) -> None:
    """One scripted human client: watch the game (failing over between replicas) and, whenever its
    view offers legal actions at a version it has not played, submit one of them after a pause of
    `think` seconds on average (and once `pace` lets it); a move refused as stale or out of turn is
    dropped (a newer view follows), an acknowledged one recorded."""
    last = -1
    async for view in gateways.watch(played.game_id, auth, STALL_SECONDS):
        if view.status == gateway_pb2.GAME_STATUS_FINISHED:
            played.finished = True
            return
        if not view.legal_actions or view.version <= last:
            continue
        last = view.version
        await asyncio.sleep(rng.below(int(2000 * think) + 1) / 1000)
        if pace is not None:
            await pace()
        choice = view.legal_actions[rng.below(len(view.legal_actions))]
        request = gateway_pb2.SubmitActionRequest(
            game_id=played.game_id,
            action=choice.action,
            expected_version=view.version,
            request_id=uuid.uuid4().hex,
        )
        try:
            reply = await gateways.call(Games, "SubmitAction", request, auth)
        except grpc.aio.AioRpcError as error:
            if error.code() not in REFUSED:
                raise
            played.counts["moves refused"] += 1
            continue
        played.acked.append(Acked(request.request_id, reply.version, view.seat, choice.action.value))


async def play(
    addresses: list[str],
    played: Played,
    players: list[Auth],
    seed: int,
    think: float,
    pace: Pace | None = None,
) -> None:
    """Play a game to its end: each human client with its own channels to the replicas (starting on
    different ones) and pauses of `think` seconds on average before a move (and `pace`), or its host
    following the bots; what the clients went through into `played.counts`."""
    clients = [Gateways(addresses, first=seed + seat) for seat in range(len(players))]
    try:
        if played.plan.humans:
            await asyncio.gather(
                *(
                    play_seat(client, played, auth, Rng(seed * 100 + seat), think, pace)
                    for seat, (client, auth) in enumerate(zip(clients, players, strict=True))
                )
            )
        else:
            await follow_bots(clients[0], played)
    finally:
        for client in clients:
            played.counts.update(client.counts)
            await client.close()

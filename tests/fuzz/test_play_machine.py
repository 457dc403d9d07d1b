"""A stateful fuzz of live play: hypothesis drives a game of a registered title on the real gateway
(real Redis, real rules services) with its seated guests and a spectator, mixing legal moves with bad
requests of every kind: an Any of another type or of random bytes, actions built from the Action
descriptor, moves by a seat that does not act or by a spectator, stale and out-of-range versions,
request ids replayed with another body (and retried with the same), wild ids, missing fields,
resignations and moves after them, and watch streams opened and dropped.

After every request that is refused (or answered as a retry), every Redis key of the game is
byte-identical to before; every refusal has the code of docs/errors.md and a readable message."""

from __future__ import annotations

import time
import uuid

import redis
from boardgame.gateway.v1 import gateway_pb2
from google.protobuf import any_pb2
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    precondition,
    rule,
    run_state_machine_as_test,
)

from gateway import metrics
from services.common import registry
from tests.fuzz import strategies
from tests.fuzz.outcomes import Outcome, call, check_refusal
from tests.fuzz.players import RPC_TIMEOUT, Player, new_game, watch_and_drop
from tests.fuzz.positions import message_type_names
from tests.fuzz.stored import game_stored
from tests.fuzz.volume import fuzz
from tests.gateway.support import GatewayProcess

TITLES = list(registry.games())
STEPS = 30  # requests per game


class PlayMachine(RuleBasedStateMachine):
    """One game, its players, what was accepted so far."""

    gateway: GatewayProcess
    store: redis.Redis
    players: list[Player]

    def __init__(self) -> None:
        super().__init__()
        self.game_id = ""
        self.seated: list[Player] = []
        self.spectators: list[Player] = []
        self.resigned: set[int] = set()
        self.accepted: dict[str, tuple[int, any_pb2.Any, int]] = {}  # request id -> seat, action, version
        self.over = False

    @initialize(title=st.sampled_from(TITLES), data=st.data())
    def start(self, title: str, data: st.DataObject) -> None:
        game = registry.get(title)
        count = data.draw(st.sampled_from(game.info.player_counts), label="player count")
        order = data.draw(st.permutations(self.players), label="players")
        self.seated, self.spectators = list(order[:count]), list(order[count:])
        self.game_id = new_game(self.gateway, title, self.seated)
        self.action_type = game.messages.action

    # What the game is now, as its players see it.

    def view(self, seat: int) -> gateway_pb2.GameView:
        client = self.seated[seat].client
        request = gateway_pb2.GetGameRequest(game_id=self.game_id)
        return client.games.GetGame(request, metadata=client.auth, timeout=RPC_TIMEOUT).game

    def acting(self) -> tuple[gateway_pb2.GameView, list[int]]:
        """The spectator-free view of seat 0 and the seats that act now and still play."""
        view = self.view(0)
        self.over = view.status == gateway_pb2.GAME_STATUS_FINISHED
        return view, [seat for seat in view.acting_seats if seat not in self.resigned]

    def submit(
        self,
        kind: str,
        player: Player,
        request: gateway_pb2.SubmitActionRequest,
        allowed: tuple[str, ...] = (),
    ) -> Outcome:
        """Send a move; if refused (or answered as a retry) nothing the game stores has changed."""
        before = game_stored(self.store, self.game_id)
        client = player.client
        outcome, response = call(
            kind, client.games.SubmitAction, request, metadata=client.auth, timeout=RPC_TIMEOUT
        )
        after = game_stored(self.store, self.game_id)
        if not outcome.ok:
            check_refusal(outcome, allowed)
            assert after == before, f"{kind}: refused ({outcome.label}) but the stored game changed"
        elif request.request_id in self.accepted:
            assert after == before, f"{kind}: a retry changed the stored game"
        else:
            assert response is not None
            assert after != before, f"{kind}: an accepted move left the stored game as it was"
            seat = self.seated.index(player)
            self.accepted[request.request_id] = (seat, request.action, request.expected_version)
        return outcome

    def legal(self, data: st.DataObject) -> tuple[int, gateway_pb2.GameView, any_pb2.Any] | None:
        """An acting seat still played, its view, and one of its legal actions; None if there is none."""
        seat_index, action_index = pick(data), pick(data)
        _, acting = self.acting()
        if self.over or not acting:
            return None
        seat = acting[seat_index % len(acting)]
        seat_view = self.view(seat)
        if not seat_view.legal_actions:
            return None
        return seat, seat_view, seat_view.legal_actions[action_index % len(seat_view.legal_actions)].action

    def move(
        self, action: any_pb2.Any, version: int, request_id: str = ""
    ) -> gateway_pb2.SubmitActionRequest:
        return gateway_pb2.SubmitActionRequest(
            game_id=self.game_id,
            action=action,
            expected_version=version,
            request_id=request_id or uuid.uuid4().hex,
        )

    # Rules.

    @rule(data=st.data())
    def legal_move(self, data: st.DataObject) -> None:
        found = self.legal(data)
        if found is not None:
            seat, view, action = found
            outcome = self.submit("play legal move", self.seated[seat], self.move(action, view.version))
            assert outcome.ok, outcome

    @rule(data=st.data(), packed=strategies.any_values(message_type_names()))
    def action_of_any_type(self, data: st.DataObject, packed: any_pb2.Any) -> None:
        found = self.legal(data)
        if found is not None:
            seat, view, _ = found
            self.submit("play any of any type", self.seated[seat], self.move(packed, view.version))

    @rule(data=st.data())
    def forged_action(self, data: st.DataObject) -> None:
        action = data.draw(strategies.messages(self.action_type), label="forged action")
        found = self.legal(data)
        if found is not None:
            seat, view, _ = found
            packed = any_pb2.Any()
            packed.Pack(action)
            self.submit("play forged action", self.seated[seat], self.move(packed, view.version))

    @rule(data=st.data())
    def move_out_of_turn(self, data: st.DataObject) -> None:
        index = pick(data)
        found = self.legal(data)
        if found is None:
            return
        _, view, action = found
        idle = [s for s in range(len(self.seated)) if s not in view.acting_seats and s not in self.resigned]
        if idle:
            seat = idle[index % len(idle)]
            self.submit(
                "play out of turn", self.seated[seat], self.move(action, view.version), ("NOT_YOUR_TURN",)
            )

    @rule(data=st.data())
    def spectator_move(self, data: st.DataObject) -> None:
        index = pick(data)
        found = self.legal(data)
        if found is not None and self.spectators:
            _, view, action = found
            spectator = self.spectators[index % len(self.spectators)]
            self.submit(
                "play as spectator", spectator, self.move(action, view.version), ("PERMISSION_DENIED",)
            )

    @rule(data=st.data(), version=strategies.numbers())
    def stale_version(self, data: st.DataObject, version: int) -> None:
        found = self.legal(data)
        if found is not None and version != found[1].version:
            seat, _, action = found
            allowed = ("STALE_VERSION", "INVALID_EXPECTED_VERSION")
            self.submit("play stale version", self.seated[seat], self.move(action, version), allowed)

    @precondition(lambda self: bool(self.accepted))
    @rule(data=st.data())
    def replayed_request_id(self, data: st.DataObject) -> None:
        index, other = pick(data), pick(data)
        request_ids = sorted(self.accepted)
        request_id = request_ids[index % len(request_ids)]
        seat, action, version = self.accepted[request_id]
        change = data.draw(st.sampled_from(["none", "version", "action", "player"]), label="change")
        player, request = self.seated[seat], self.move(action, version, request_id)
        if change == "version":
            request.expected_version = version + 1
        elif change == "action":
            request.action.value = action.value + b"\x08\x01"
        elif change == "player":
            others = [p for p in self.seated + self.spectators if p != player]
            player = others[other % len(others)]
        if change == "none":
            outcome = self.submit("play retried request id", player, request)
            assert outcome.ok, outcome
        else:
            allowed = ("REQUEST_ID_REUSED", "PERMISSION_DENIED", "SEAT_RESIGNED", "WRONG_ACTION_TYPE")
            self.submit("play reused request id", player, request, allowed)

    @rule(data=st.data(), game_id=strategies.text(), request_id=strategies.text(), wild_game=st.booleans())
    def wild_ids(self, data: st.DataObject, game_id: str, request_id: str, wild_game: bool) -> None:
        found = self.legal(data)
        if found is not None:
            seat, view, action = found
            request = self.move(action, view.version)
            if wild_game:
                request.game_id = game_id
            else:
                request.request_id = request_id
            self.submit("play wild ids", self.seated[seat], request)

    @rule(data=st.data(), missing=st.sets(st.sampled_from(["game_id", "action", "request_id"]), min_size=1))
    def missing_fields(self, data: st.DataObject, missing: set[str]) -> None:
        found = self.legal(data)
        if found is not None:
            seat, view, action = found
            request = self.move(action, view.version)
            for name in missing:
                request.ClearField(name)
            allowed = ("INVALID_GAME_ID", "INVALID_REQUEST_ID", "MISSING_ACTION")
            self.submit("play missing fields", self.seated[seat], request, allowed)

    @precondition(lambda self: len(self.accepted) >= 3 and not self.resigned)
    @rule(data=st.data())
    def resign(self, data: st.DataObject) -> None:
        seat = pick(data) % len(self.seated)
        client = self.seated[seat].client
        request = gateway_pb2.ResignRequest(game_id=self.game_id)
        outcome, _ = call(
            "play resign", client.games.Resign, request, metadata=client.auth, timeout=RPC_TIMEOUT
        )
        if outcome.ok:
            self.resigned.add(seat)
        else:
            check_refusal(outcome, ("GAME_OVER",))

    @rule(data=st.data())
    def spectator_resigns(self, data: st.DataObject) -> None:
        index = pick(data)
        if not self.spectators:
            return
        client = self.spectators[index % len(self.spectators)].client
        before = game_stored(self.store, self.game_id)
        request = gateway_pb2.ResignRequest(game_id=self.game_id)
        outcome, _ = call(
            "play spectator resigns", client.games.Resign, request, metadata=client.auth, timeout=RPC_TIMEOUT
        )
        check_refusal(outcome, ("PERMISSION_DENIED",))
        assert game_stored(self.store, self.game_id) == before, "a refused Resign changed the stored game"

    @precondition(lambda self: bool(self.resigned))
    @rule(data=st.data())
    def move_after_resigning(self, data: st.DataObject) -> None:
        view = self.view(0)
        seat = next(iter(self.resigned))
        action = any_pb2.Any()
        action.Pack(self.action_type())
        self.submit(
            "play after resigning", self.seated[seat], self.move(action, view.version), ("SEAT_RESIGNED",)
        )

    @rule(data=st.data(), from_version=strategies.numbers(), read=st.integers(0, 1))
    def watch_dropped(self, data: st.DataObject, from_version: int, read: int) -> None:
        watchers = self.seated + self.spectators
        watcher = watchers[pick(data) % len(watchers)]
        before = game_stored(self.store, self.game_id)
        request = gateway_pb2.WatchGameRequest(game_id=self.game_id, from_version=from_version)
        outcome = watch_and_drop("play watch dropped", watcher.client, request, read)
        if not outcome.ok:
            check_refusal(outcome, ("INVALID_FROM_VERSION",))
        assert game_stored(self.store, self.game_id) == before, "watching changed the stored game"


def test_play_machine(
    fuzz_gateway: GatewayProcess, fuzz_redis: redis.Redis, fuzz_players: list[Player]
) -> None:
    PlayMachine.gateway, PlayMachine.store, PlayMachine.players = fuzz_gateway, fuzz_redis, fuzz_players
    streams = metrics.WATCH_STREAMS._value.get()
    run_state_machine_as_test(PlayMachine, settings=fuzz(0.4, stateful_step_count=STEPS))
    assert_streams_closed(streams)


def assert_streams_closed(before: float) -> None:
    """Every dropped watch stream is closed on the gateway (soon after the client dropped it)."""
    for _ in range(100):
        if metrics.WATCH_STREAMS._value.get() <= before:
            return
        time.sleep(0.05)
    raise AssertionError(f"{metrics.WATCH_STREAMS._value.get() - before} watch streams left open")


def pick(data: st.DataObject) -> int:
    """An index to choose among things the live game decides (taken modulo their number), drawn the
    same way whatever the game holds, so that hypothesis can replay a run."""
    return data.draw(st.integers(0, 2**16), label="index")

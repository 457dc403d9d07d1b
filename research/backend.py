"""Where a research environment's games are played: a registered title's engine in this process, or
a running rules service over gRPC.

Both backends answer the same few questions about an opaque state (who acts, which actions they may
take in the engine's sorted order, what a seat sees as its title's View message, the scores) and
apply an action to give a new state; the environments never know which one they talk to. States are
never changed in place, so an environment may keep any state it has seen (to clone or undo).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import grpc
from boardgame.gateway.v1 import gateway_pb2
from boardgame.rules.v1 import rules_pb2, rules_pb2_grpc
from google.protobuf import any_pb2
from google.protobuf.message import Message

from live.errors import GatewayError
from live.games import build_config
from services.common import registry
from services.common.game import AnyGame, GameInfo
from services.common.servicer import info_to_proto

Options = Mapping[str, str]
"""A game's options as a lobby sets them: option name to choice (`{"buildings": "draft"}`)."""


def packed_config(info: rules_pb2.GameInfo, options: Options) -> any_pb2.Any:
    """The title's Config message for `options`, packed, read exactly as the gateway reads a lobby's
    options; ValueError naming the option for one the title does not have or a choice it does not
    offer."""
    values = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in options.items()]
    try:
        return build_config(info, values)
    except GatewayError as error:
        raise ValueError(error.message) from error


@dataclass(frozen=True)
class Outcome:
    """A state's scores: each seat's total, the winners (empty until the game is over), and whether
    they are final."""

    totals: tuple[int, ...]
    winners: tuple[int, ...]
    final: bool


class Backend(Protocol):
    """A title's rules, local or remote, as the research environments use them."""

    info: GameInfo
    info_message: rules_pb2.GameInfo
    view_class: type[Message]

    def new_game(self, player_count: int, seed: bytes, config: any_pb2.Any | None = None) -> Any:
        """The initial state of a game of `player_count` seats under `config` (a packed Config; None:
        every option at its default); `seed` decides every chance draw."""
        ...

    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The seats that act now; empty once the game is over."""
        ...

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        """`seat`'s legal actions, sorted and unique as the engine lists them; empty if it does not act."""
        ...

    def label(self, state: Any, seat: int, action: Any) -> str:
        """The readable label of one of `seat`'s legal actions."""
        ...

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        """The state after `seat` takes `action` (one of its legal actions)."""
        ...

    def view(self, state: Any, seat: int | None) -> Message:
        """What `seat` (None: a spectator) sees: the title's View message."""
        ...

    def outcome(self, state: Any) -> Outcome:
        """The scores of a state."""
        ...

    def serialize(self, state: Any) -> bytes:
        """The State message's bytes."""
        ...

    def deserialize(self, data: bytes) -> Any:
        """The state of these State bytes."""
        ...


class LocalBackend:
    """A registered title's engine, called in this process."""

    def __init__(self, title: str) -> None:
        self.game: AnyGame = registry.get(title)
        self.info = self.game.info
        self.info_message = info_to_proto(self.info, self.game)
        self.view_class = self.game.messages.view

    def new_game(self, player_count: int, seed: bytes, config: any_pb2.Any | None = None) -> Any:
        """The initial state (forced first decisions taken)."""
        message = self.game.messages.config()
        if config is not None:
            config.Unpack(message)
        return self.game.new_game(player_count, self.game.config_from_proto(message), seed)[0]

    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The seats that act now."""
        return tuple(self.game.acting_seats(state))

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        """The engine's native legal actions of `seat`."""
        return self.game.legal_actions(state, seat)

    def label(self, state: Any, seat: int, action: Any) -> str:
        """The engine's label of the action."""
        return self.game.label(state, action)

    def apply(self, state: Any, seat: int, action: Any) -> Any:
        """The engine's pure apply."""
        return self.game.apply(state, seat, action)[0]

    def view(self, state: Any, seat: int | None) -> Message:
        """The View message of the seat."""
        return self.game.view_to_proto(state, seat)

    def views(self, state: Any) -> Sequence[Message]:
        """Every seat's View message, then the spectator's."""
        return self.game.views_to_proto(state, None)

    def outcome(self, state: Any) -> Outcome:
        """The engine's scores."""
        scores = self.game.scores(state)
        return Outcome(tuple(s.total for s in scores.seats), tuple(scores.winners), scores.final)

    def serialize(self, state: Any) -> bytes:
        """The State message's deterministic bytes."""
        return self.game.encode_state(state)

    def deserialize(self, data: bytes) -> Any:
        """The native state of State bytes."""
        return self.game.decode_state(data)


@dataclass
class RemoteState:
    """A state held by a rules-service client: the packed State, who acts, whether the game is over,
    and the legal actions already asked for, by seat."""

    state: any_pb2.Any
    acting: tuple[int, ...]
    over: bool
    legal: dict[int, list[rules_pb2.LegalAction]] = field(default_factory=dict)


class RulesServiceBackend:
    """A title played on a running rules service (`boardgame.rules.v1.RulesService`) over a channel.

    The title's message classes come from the registered title of the same name, so the service must
    serve this checkout's title: the constructor checks that the service's GameInfo names the same
    State, Action and View messages."""

    def __init__(self, channel: grpc.Channel, timeout: float = 10.0) -> None:
        self._stub = rules_pb2_grpc.RulesServiceStub(channel)
        self._timeout = timeout
        info = self._stub.GetGameInfo(rules_pb2.GetGameInfoRequest(), timeout=timeout).info
        self.info_message = info
        game = registry.get(info.name)
        self.info = game.info
        messages = game.messages
        expected = (messages.state, messages.action, messages.view)
        served = (info.state_type, info.action_type, info.view_type)
        if served != tuple(m.DESCRIPTOR.full_name for m in expected):
            raise ValueError(f"the rules service's {info.name} messages {served} are not this checkout's")
        self.view_class = messages.view
        self._state_url = "type.googleapis.com/" + messages.state.DESCRIPTOR.full_name

    def new_game(self, player_count: int, seed: bytes, config: any_pb2.Any | None = None) -> RemoteState:
        """NewGame (with no config: the service's defaults)."""
        request = rules_pb2.NewGameRequest(player_count=player_count, seed=seed, config=config)
        reply = self._stub.NewGame(request, timeout=self._timeout)
        return RemoteState(reply.state, tuple(reply.acting_seats), not reply.acting_seats)

    def acting_seats(self, state: RemoteState) -> tuple[int, ...]:
        """The acting seats the last reply named."""
        return state.acting

    def legal_actions(self, state: RemoteState, seat: int) -> Sequence[rules_pb2.LegalAction]:
        """ListLegalActions, asked once per state and seat."""
        if seat not in state.legal:
            request = rules_pb2.ListLegalActionsRequest(state=state.state, seat=seat)
            reply = self._stub.ListLegalActions(request, timeout=self._timeout)
            state.legal[seat] = list(reply.actions)
        return state.legal[seat]

    def label(self, state: RemoteState, seat: int, action: rules_pb2.LegalAction) -> str:
        """The label the service gave the action."""
        return action.label

    def apply(self, state: RemoteState, seat: int, action: rules_pb2.LegalAction) -> RemoteState:
        """ApplyAction."""
        request = rules_pb2.ApplyActionRequest(state=state.state, seat=seat, action=action.action)
        reply = self._stub.ApplyAction(request, timeout=self._timeout)
        return RemoteState(reply.state, tuple(reply.acting_seats), reply.game_over)

    def view(self, state: RemoteState, seat: int | None) -> Message:
        """GetView, unpacked."""
        request = rules_pb2.GetViewRequest(state=state.state, seat=seat)
        packed = self._stub.GetView(request, timeout=self._timeout).view
        view = self.view_class()
        packed.Unpack(view)
        return view

    def outcome(self, state: RemoteState) -> Outcome:
        """GetScores."""
        reply = self._stub.GetScores(rules_pb2.GetScoresRequest(state=state.state), timeout=self._timeout)
        totals = tuple(s.total for s in sorted(reply.scores, key=lambda s: s.seat))
        return Outcome(totals, tuple(reply.winners), reply.final)

    def serialize(self, state: RemoteState) -> bytes:
        """The packed State's bytes."""
        return bytes(state.state.value)

    def deserialize(self, data: bytes) -> RemoteState:
        """A state from State bytes: a GetView asks who acts."""
        packed = any_pb2.Any(type_url=self._state_url, value=data)
        reply = self._stub.GetView(rules_pb2.GetViewRequest(state=packed), timeout=self._timeout)
        return RemoteState(packed, tuple(reply.acting_seats), reply.game_over)


def backend(title: str, rules_address: str = "") -> Backend:
    """The backend of `title`: its engine in this process, or the rules service at `rules_address`
    (host:port) when one is given."""
    if not rules_address:
        return LocalBackend(title)
    remote = RulesServiceBackend(grpc.insecure_channel(rules_address))
    if remote.info.name != title:
        raise ValueError(f"{rules_address} serves {remote.info.name}, not {title}")
    return remote

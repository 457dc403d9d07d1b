"""Two ways to drive any registered game for the conformance suite, with one interface.

`InProcessDriver` calls the engine through the Game protocol (native states and actions, the codec
only where bytes are needed); `GrpcDriver` talks to a real RulesService over a real channel, where
states and actions are `google.protobuf.Any` messages. Both report refusals as `Refused` with the
gRPC status code name, so every test runs unchanged against either. Nothing here names a game.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import grpc
from boardgame.rules.v1 import rules_pb2, rules_pb2_grpc
from google.protobuf import any_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from services.common import registry, titledata
from services.common.errors import MalformedRequest, RulesError
from services.common.game import Game, Scores, SeatScore
from services.common.rng import Rng
from services.common.servicer import info_to_proto
from tests.profile import PROFILE

TYPE_URL_PREFIX = "type.googleapis.com/"
RNG_STATE_TYPE = rules_pb2.RngState.DESCRIPTOR.full_name
RPC_TIMEOUT_SECONDS = 30.0


class Refused(Exception):
    """A request the rules service refused: gRPC code name, ErrorInfo reason and message."""

    def __init__(self, code: str, reason: str, message: str, error: BaseException | None = None) -> None:
        super().__init__(f"{code} ({reason}): {message}")
        self.code = code
        self.reason = reason
        self.message = message
        self.error = error


@dataclass(frozen=True)
class EventRecord:
    """One event as both drivers report it."""

    type_name: str
    detail: bytes
    text: str
    visible_to: tuple[int, ...]


@dataclass(frozen=True)
class LegalRecord:
    """One legal action: the driver's handle for it, its serialized Action message and its label."""

    action: Any
    action_bytes: bytes
    label: str


@dataclass(frozen=True)
class Outcome:
    """What NewGame or ApplyAction returns: the state handle, who acts next, the events."""

    state: Any
    acting_seats: tuple[int, ...]
    events: tuple[EventRecord, ...]
    game_over: bool
    # ApplyAction's undo barriers (UndoBarrier values) and its `undoable` flag, as a rules service
    # serves them; None in-process and for NewGame.
    undo_barriers: tuple[int, ...] | None = None
    undoable: bool | None = None


def serialize(message: Message) -> bytes:
    """Deterministic wire bytes of a message."""
    return message.SerializeToString(deterministic=True)


def pack(message: Message) -> any_pb2.Any:
    """`message` packed into an Any with the standard type URL prefix."""
    packed = any_pb2.Any()
    packed.Pack(message)
    return packed


class Driver(ABC):
    """The operations the conformance suite needs, in-process or over gRPC."""

    kind: str

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def info(self) -> rules_pb2.GameInfo:
        """The game's static facts as the GameInfo message."""

    @abstractmethod
    def data(self) -> rules_pb2.GameData:
        """The game's static data as the GameData message."""

    @abstractmethod
    def new_game(self, player_count: int, seed: bytes, config: Message | None = None) -> Outcome:
        """Set up a game; `config` is a Config message (None: defaults)."""

    @abstractmethod
    def legal_actions(self, state: Any, seat: int) -> list[LegalRecord]:
        """The legal actions of `seat`, in the order the service lists them."""

    @abstractmethod
    def apply(self, state: Any, seat: int, action: Any) -> Outcome:
        """Apply one action; raises Refused."""

    @abstractmethod
    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The seats that act in `state`."""

    @abstractmethod
    def state_bytes(self, state: Any) -> bytes:
        """The serialized State message of a state handle."""

    @abstractmethod
    def state_from_bytes(self, data: bytes) -> Any:
        """A state handle for a serialized State message; raises Refused."""

    @abstractmethod
    def action_from_bytes(self, data: bytes) -> Any:
        """An action handle for a serialized Action message; raises Refused."""

    @abstractmethod
    def view_bytes(self, state: Any, seat: int | None) -> bytes:
        """The serialized View message for `seat` (None: a spectator)."""

    @abstractmethod
    def scores(self, state: Any) -> Scores:
        """The score breakdown of a state."""

    @abstractmethod
    def close(self) -> None:
        """Release what the driver holds."""


def info_message(game: Game) -> rules_pb2.GameInfo:
    """The GameInfo message a correct service reports for `game`."""
    info, data = game.info, game.title_data
    return rules_pb2.GameInfo(
        name=info.name,
        display_name=info.display_name,
        min_players=info.min_players,
        max_players=info.max_players,
        options=[
            rules_pb2.GameOption(
                name=option.name,
                description=option.description,
                choices=option.choices,
                default_value=option.default,
                message=option.text,
            )
            for option in info.options
        ],
        has_chance=info.has_chance,
        has_hidden_information=info.has_hidden_information,
        max_game_length=info.max_game_length,
        min_score=info.min_score,
        max_score=info.max_score,
        config_type=game.messages.config.DESCRIPTOR.full_name,
        state_type=game.messages.state.DESCRIPTOR.full_name,
        action_type=game.messages.action.DESCRIPTOR.full_name,
        view_type=game.messages.view.DESCRIPTOR.full_name,
        event_type=game.messages.event.DESCRIPTOR.full_name,
        data_type=data.message.DESCRIPTOR.full_name if data is not None else "",
        data_digest=hashlib.sha256(titledata.encode(data)).hexdigest() if data is not None else "",
    )


class InProcessDriver(Driver):
    """Calls the engine directly: handles are native states and native actions."""

    kind = "inprocess"

    def _refused(self, error: RulesError) -> Refused:
        return Refused(error.code, error.reason, error.message, error)

    def _events(self, events: Sequence[Any]) -> tuple[EventRecord, ...]:
        records = []
        for event in events:
            detail, text, visible_to = self.game.event_to_proto(event)
            records.append(
                EventRecord(detail.DESCRIPTOR.full_name, serialize(detail), text, tuple(visible_to))
            )
        return tuple(records)

    def _outcome(self, state: Any, events: Sequence[Any]) -> Outcome:
        return Outcome(
            state, tuple(self.game.acting_seats(state)), self._events(events), self.game.is_terminal(state)
        )

    def info(self) -> rules_pb2.GameInfo:
        """The game's static facts as the servicer converts them (checked against `info_message`)."""
        return info_to_proto(self.game.info, self.game, self.data())

    def data(self) -> rules_pb2.GameData:
        """The game's static data as the servicer converts it (empty for a game without)."""
        declared = self.game.title_data
        return rules_pb2.GameData() if declared is None else titledata.game_data(declared)

    def new_game(self, player_count: int, seed: bytes, config: Message | None = None) -> Outcome:
        """Set up a game; `config` is a Config message (None: defaults)."""
        try:
            message = config if config is not None else self.game.messages.config()
            native = self.game.config_from_proto(message)
            state, events = self.game.new_game(player_count, native, seed)
        except RulesError as error:
            raise self._refused(error) from error
        return self._outcome(state, events)

    def legal_actions(self, state: Any, seat: int) -> list[LegalRecord]:
        """The legal actions of `seat`, in the engine's order."""
        return [
            LegalRecord(action, serialize(self.game.action_to_proto(action)), self.game.label(state, action))
            for action in self.game.legal_actions(state, seat)
        ]

    def apply(self, state: Any, seat: int, action: Any) -> Outcome:
        """Apply one action with the pure `apply`; raises Refused."""
        try:
            new_state, events = self.game.apply(state, seat, action)
        except RulesError as error:
            raise self._refused(error) from error
        return self._outcome(new_state, events)

    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The seats that act in `state`."""
        return tuple(self.game.acting_seats(state))

    def state_bytes(self, state: Any) -> bytes:
        """The serialized State message of a native state."""
        return serialize(self.game.state_to_proto(state))

    def state_from_bytes(self, data: bytes) -> Any:
        """The native state of a serialized State message; raises Refused."""
        try:
            message = self.game.messages.state.FromString(data)
            return self.game.state_from_proto(message)
        except DecodeError as error:
            raise Refused("INVALID_ARGUMENT", MalformedRequest.reason, str(error), error) from error
        except RulesError as error:
            raise self._refused(error) from error

    def action_from_bytes(self, data: bytes) -> Any:
        """The native action of a serialized Action message; raises Refused."""
        try:
            return self.game.action_from_proto(self.game.messages.action.FromString(data))
        except DecodeError as error:
            raise Refused("INVALID_ARGUMENT", MalformedRequest.reason, str(error), error) from error
        except RulesError as error:
            raise self._refused(error) from error

    def view_bytes(self, state: Any, seat: int | None) -> bytes:
        """The serialized View message for `seat`."""
        return serialize(self.game.view_to_proto(state, seat))

    def scores(self, state: Any) -> Scores:
        """The engine's score breakdown."""
        return self.game.scores(state)

    def close(self) -> None:
        """Nothing to release in-process."""


class GrpcDriver(Driver):
    """Talks to a RulesService over a real channel: handles are Any messages."""

    kind = "grpc"

    def __init__(self, game: Game, target: str) -> None:
        super().__init__(game)
        self.channel = grpc.insecure_channel(target)
        self.stub = rules_pb2_grpc.RulesServiceStub(self.channel)
        self.state_type_url = TYPE_URL_PREFIX + game.messages.state.DESCRIPTOR.full_name
        self.action_type_url = TYPE_URL_PREFIX + game.messages.action.DESCRIPTOR.full_name

    def call(self, method: str, request: Message) -> Any:
        """Call one RPC; a gRPC error becomes Refused with the ErrorInfo reason, if any."""
        try:
            return getattr(self.stub, method)(request, timeout=RPC_TIMEOUT_SECONDS)
        except grpc.RpcError as error:
            reason = ""
            status = rpc_status.from_call(error)
            if status is not None:
                for detail in status.details:
                    info = error_details_pb2.ErrorInfo()
                    if detail.Unpack(info):
                        reason = info.reason
            raise Refused(error.code().name, reason, error.details() or "", error) from error

    def _events(self, events: Sequence[rules_pb2.Event]) -> tuple[EventRecord, ...]:
        return tuple(
            EventRecord(
                event.detail.type_url.removeprefix(TYPE_URL_PREFIX),
                event.detail.value,
                event.text,
                tuple(event.visible_to),
            )
            for event in events
        )

    def info(self) -> rules_pb2.GameInfo:
        """GetGameInfo."""
        response: rules_pb2.GetGameInfoResponse = self.call("GetGameInfo", rules_pb2.GetGameInfoRequest())
        return response.info

    def data(self) -> rules_pb2.GameData:
        """GetGameData."""
        response: rules_pb2.GetGameDataResponse = self.call("GetGameData", rules_pb2.GetGameDataRequest())
        return response.data

    def new_game(self, player_count: int, seed: bytes, config: Message | None = None) -> Outcome:
        """NewGame; `config` is a Config message (None: an empty Any)."""
        request = rules_pb2.NewGameRequest(player_count=player_count, seed=seed)
        if config is not None:
            request.config.Pack(config)
        response = self.call("NewGame", request)
        return Outcome(response.state, tuple(response.acting_seats), self._events(response.events), False)

    def legal_actions(self, state: Any, seat: int) -> list[LegalRecord]:
        """ListLegalActions."""
        response = self.call("ListLegalActions", rules_pb2.ListLegalActionsRequest(state=state, seat=seat))
        return [LegalRecord(legal.action, legal.action.value, legal.label) for legal in response.actions]

    def apply(self, state: Any, seat: int, action: Any) -> Outcome:
        """ApplyAction."""
        request = rules_pb2.ApplyActionRequest(state=state, seat=seat, action=action)
        response = self.call("ApplyAction", request)
        return Outcome(
            response.state,
            tuple(response.acting_seats),
            self._events(response.events),
            response.game_over,
            tuple(response.undo_barriers),
            response.undoable,
        )

    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The acting seats GetView reports for a spectator."""
        response = self.call("GetView", rules_pb2.GetViewRequest(state=state))
        return tuple(response.acting_seats)

    def state_bytes(self, state: Any) -> bytes:
        """The value of the state's Any."""
        return bytes(state.value)

    def state_from_bytes(self, data: bytes) -> Any:
        """The bytes packed as the game's State."""
        return any_pb2.Any(type_url=self.state_type_url, value=data)

    def action_from_bytes(self, data: bytes) -> Any:
        """The bytes packed as the game's Action."""
        return any_pb2.Any(type_url=self.action_type_url, value=data)

    def view_bytes(self, state: Any, seat: int | None) -> bytes:
        """GetView's View bytes."""
        request = rules_pb2.GetViewRequest(state=state)
        if seat is not None:
            request.seat = seat
        response = self.call("GetView", request)
        return bytes(response.view.value)

    def scores(self, state: Any) -> Scores:
        """GetScores, as the engine's Scores record."""
        response = self.call("GetScores", rules_pb2.GetScoresRequest(state=state))
        return Scores(
            seats=tuple(
                SeatScore(
                    seat=score.seat,
                    total=score.total,
                    items=tuple((item.label, item.points) for item in score.items),
                    tiebreak=score.tiebreak,
                    rank=score.rank,
                )
                for score in response.scores
            ),
            winners=tuple(response.winners),
            final=response.final,
        )

    def close(self) -> None:
        """Close the channel."""
        self.channel.close()


@dataclass(frozen=True)
class Step:
    """One decision of a traced playout: the state before it, who acted, the choices, the result."""

    index: int
    state: Any
    acting_seats: tuple[int, ...]
    seat: int
    legal: tuple[LegalRecord, ...]
    choice: int
    outcome: Outcome


@dataclass(frozen=True)
class Trace:
    """A random playout through a driver, every decision recorded."""

    player_count: int
    seed: bytes
    initial: Outcome
    steps: tuple[Step, ...]

    @property
    def final(self) -> Outcome:
        """The outcome of the last decision (the setup if there was none)."""
        return self.steps[-1].outcome if self.steps else self.initial

    def states(self) -> Iterator[tuple[Any, tuple[int, ...]]]:
        """Every state of the playout with its acting seats, the final one included."""
        for step in self.steps:
            yield step.state, step.acting_seats
        yield self.final.state, self.final.acting_seats


def choice_rng(seed: bytes) -> Rng:
    """The generator that picks random actions for the game seeded with `seed`."""
    return Rng.from_seed(b"conformance-choices:" + seed)


def run_trace(
    driver: Driver, player_count: int, seed: bytes, max_steps: int, config: Message | None = None
) -> Trace:
    """Play uniformly random legal actions through `driver`, as `services.common.playout` chooses them.

    Stops when the game is over or after `max_steps` decisions.
    """
    rng = choice_rng(seed)
    outcome = driver.new_game(player_count, seed, config)
    initial = outcome
    steps: list[Step] = []
    while outcome.acting_seats and len(steps) < max_steps:
        seats = outcome.acting_seats
        seat = seats[0] if len(seats) == 1 else seats[rng.below(len(seats))]
        legal = tuple(driver.legal_actions(outcome.state, seat))
        if not legal:
            raise AssertionError(f"step {len(steps)}: acting seat {seat} has no legal action")
        choice = rng.below(len(legal))
        result = driver.apply(outcome.state, seat, legal[choice].action)
        steps.append(Step(len(steps), outcome.state, seats, seat, legal, choice, result))
        outcome = result
    return Trace(player_count, seed, initial, tuple(steps))


def enum_mutations(message: Message) -> Iterator[tuple[str, Message]]:
    """Copies of `message`, each with one set enum value replaced by a number its enum does not define.

    Yields (field path, mutated copy).
    """
    for path in _enum_paths(message, ()):
        mutated = type(message)()
        mutated.CopyFrom(message)
        target: Any = mutated
        for name, index in path[:-1]:
            target = getattr(target, name) if index is None else getattr(target, name)[index]
        name, index = path[-1]
        enum_type = target.DESCRIPTOR.fields_by_name[name].enum_type
        undefined = max(value.number for value in enum_type.values) + 1000
        if index is None:
            setattr(target, name, undefined)
        else:
            getattr(target, name)[index] = undefined
        yield ".".join(name if index is None else f"{name}[{index}]" for name, index in path), mutated


FieldPath = tuple[tuple[str, int | None], ...]


def _enum_paths(message: Message, prefix: FieldPath) -> Iterator[FieldPath]:
    for field, value in message.ListFields():
        repeated = bool(field.is_repeated)
        if field.message_type is not None:
            if field.message_type.GetOptions().map_entry:
                continue
            if repeated:
                for index, item in enumerate(value):
                    yield from _enum_paths(item, (*prefix, (field.name, index)))
            else:
                yield from _enum_paths(value, (*prefix, (field.name, None)))
        elif field.enum_type is not None:
            if repeated:
                for index in range(len(value)):
                    yield (*prefix, (field.name, index))
            else:
                yield (*prefix, (field.name, None))


def rng_paths(descriptor: Any) -> list[tuple[str, ...]]:
    """Paths of the singular RngState fields reachable from a message type (not through repeats)."""
    found: list[tuple[str, ...]] = []

    def walk(current: Descriptor, prefix: tuple[str, ...], depth: int) -> None:
        for field in current.fields:
            if field.message_type is None or field.is_repeated or depth > 8:
                continue
            if field.message_type.full_name == RNG_STATE_TYPE:
                found.append((*prefix, field.name))
            else:
                walk(field.message_type, (*prefix, field.name), depth + 1)

    walk(descriptor, (), 0)
    return found


def with_rng_changed(message: Message, paths: Sequence[tuple[str, ...]], bump: int) -> Message:
    """A copy of a State message with every RngState at `paths` moved to another key and counter."""
    changed = type(message)()
    changed.CopyFrom(message)
    for path in paths:
        target: Any = changed
        for name in path:
            target = getattr(target, name)
        target.key = (target.key ^ (0x5DEECE66D * bump)) & ((1 << 64) - 1)
        target.counter = (target.counter + 7919 * bump) & ((1 << 64) - 1)
    return changed


def option_value(config_type: type[Message], name: str, choice: str) -> Any:
    """The Python value to set Config field `name` to for the option choice string `choice`."""
    field = config_type.DESCRIPTOR.fields_by_name[name]
    if field.enum_type is not None:
        for value in field.enum_type.values:
            lowered = value.name.lower()
            if lowered == choice.lower() or lowered.endswith("_" + choice.lower()):
                return value.number
        raise ValueError(f"option {name}: no enum value for choice {choice!r}")
    if field.type == FieldDescriptor.TYPE_BOOL:
        if choice not in ("true", "false"):
            raise ValueError(f"option {name}: boolean choice {choice!r}")
        return choice == "true"
    if field.type in (FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE):
        return float(choice)
    if field.type == FieldDescriptor.TYPE_STRING:
        return choice
    return int(choice)


def config_with(config_type: type[Message], name: str, value: Any) -> Message:
    """A Config message with only field `name` set to `value`."""
    config = config_type()
    setattr(config, name, value)
    return config


# Seeds per (game, player count): more in-process, where a decision costs microseconds, and twice as
# many in the volume profile (`make chaos`) as in `make test`'s (tests.profile).
IN_PROCESS_SEEDS = {"test": 4, "volume": 8}
SEEDS = {
    "inprocess": tuple(f"conformance-{n}".encode() for n in range(1, IN_PROCESS_SEEDS[PROFILE] + 1)),
    "grpc": (b"conformance-1", b"conformance-2"),
}
REPLAYED_SEEDS = {"test": 1, "volume": 2}[PROFILE]  # seeds played twice over for determinism
# States per traced playout at which the expensive checks run.
SAMPLES = {"inprocess": 16, "grpc": 5}


@dataclass(frozen=True)
class Case:
    """One game at one player count, with its defaults or one of its named example configs."""

    game: str
    players: int
    config: str = ""

    def __str__(self) -> str:
        return f"{self.game}-{self.players}p" + (f"-{self.config}" if self.config else "")

    def config_message(self) -> Message | None:
        """The Config message of the case (None: the defaults)."""
        if not self.config:
            return None
        return dict(registry.get(self.game).example_configs)[self.config]


class Pool:
    """Session-wide servers, drivers and traced playouts, created on first use."""

    def __init__(self) -> None:
        self.servers: dict[str, tuple[Any, int]] = {}
        self.drivers: dict[tuple[str, str], Driver] = {}
        self.traces: dict[tuple[str, str, int, str, bytes], Trace] = {}

    def port(self, game_name: str) -> int:
        """The port of the session's server for `game_name`, started on first use."""
        if game_name not in self.servers:
            from services.common.server import create_server

            server, port = create_server("127.0.0.1:0", registry.get(game_name))
            server.start()
            self.servers[game_name] = (server, port)
        return self.servers[game_name][1]

    def driver(self, kind: str, game_name: str) -> Driver:
        """The session's driver of `kind` for `game_name`."""
        key = (kind, game_name)
        if key not in self.drivers:
            game = registry.get(game_name)
            if kind == "inprocess":
                self.drivers[key] = InProcessDriver(game)
            else:
                self.drivers[key] = GrpcDriver(game, f"127.0.0.1:{self.port(game_name)}")
        return self.drivers[key]

    def trace(self, kind: str, case: Case, seed: bytes) -> Trace:
        """The random playout of `case` with `seed` through the `kind` driver, played once."""
        key = (kind, case.game, case.players, case.config, seed)
        if key not in self.traces:
            driver = self.driver(kind, case.game)
            limit = driver.game.info.max_game_length
            self.traces[key] = run_trace(driver, case.players, seed, limit + 1, case.config_message())
        return self.traces[key]

    def close(self) -> None:
        """Close every channel and stop every server."""
        for driver in self.drivers.values():
            driver.close()
        for server, _ in self.servers.values():
            server.stop(grace=None).wait()

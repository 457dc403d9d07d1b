"""The codec functions of a game whose conversion is a `services.common.convert.Converter`.

A game gives its converter (with the shapes of its native values), its actions' `KindTuples`, its
engine's `validate`, how a viewer's View differs from the State's table, and who may see an event;
`Codec` derives from them every function the `Game` record's codec part names (both the message and
the bytes forms), and `services.common.modular.modular_game` takes the `Codec` itself, so that a
game's `codec.py` holds only what is its own.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from google.protobuf.message import Message

from services.common.convert import Converter, KindTuples, leading_field, oneof_writer
from services.common.decisions import check_seat as seat_of_game
from services.common.errors import InvalidConfig, MalformedRequest
from services.common.game import Messages

# What reading a forged State raises where it lacks what a well-formed one always has.
MALFORMED_SHAPES = (TypeError, ValueError, IndexError, KeyError, AttributeError)

View = Callable[[Any, int | None, bytes], bytes]
"""A viewer's View bytes from the state, the seat (None: a spectator) and the State's table field."""


class Codec:
    """State, view and event conversion for a game built on services.common.convert."""

    def __init__(
        self,
        protos: ModuleType,
        converter: Converter,
        actions: KindTuples,
        *,
        validate: Callable[[Any], Any],
        view: View,
        event_text: Callable[[Any], str],
        event_audience: Callable[[Any], tuple[int, ...]],
        check_config: Callable[[Any], Any] | None = None,
        check_action: Callable[[Any, Message], Any] | None = None,
        config_from_proto: Callable[[Message], Any] | None = None,
        config_to_proto: Callable[[Any], Message] | None = None,
        exact_state_round_trip: bool = False,
        wire_decoding: bool = True,
        check_seat: Callable[[Any, int], None] = seat_of_game,
    ) -> None:
        """`protos` is the game's generated module (its Config, State, View, Action and Event).
        The Event message is one oneof, whose members are the events' message types (see
        `convert.oneof_writer`); a state's `players` hold one record per seat.
        `check_action(action, message)` refuses (MalformedRequest) an action that its message
        holds but the game cannot (an argument out of its range); a game whose options are not
        `convert.options` gives its own `config_from_proto` and `config_to_proto`. With
        `exact_state_round_trip`, decoding a state's encoding gives back an equal state, attribute by
        attribute, the legal-action memo aside (services.common.game.exact_state_round_trip; the
        conformance suite checks it). Without `wire_decoding`, `decode_state` parses the bytes and
        reads the message rather than reading the bytes themselves (`Converter.decoder`): faster for
        some states (Assyria's, as `python -m bench.conversion` measures)."""
        self.messages = messages = Messages.of(protos)
        self._write_state = converter.writer(messages.state)
        self._read_state = converter.reader(messages.state)
        parse = messages.state.FromString
        self._decode_state = (
            converter.decoder(messages.state) if wire_decoding else lambda b: self._read_state(parse(b))
        )
        (event_oneof,) = messages.event.DESCRIPTOR.oneofs
        self._write_event = oneof_writer(converter, messages.event, event_oneof.name)
        self._validate, self._view, self._check_seat = validate, view, check_seat
        self._event_text, self._event_audience = event_text, event_audience
        self._converter, self._check_config = converter, check_config
        self._actions, self._check_action = actions, check_action
        self._own_config = (config_from_proto, config_to_proto)
        self.exact_state_round_trip = exact_state_round_trip

    def config_from_proto(self, message: Message) -> Any:
        """The native config (of a converter whose roots include the Config message, see
        `services.common.convert.options`); InvalidConfig for one that cannot be, or that
        `check_config` refuses."""
        if self._own_config[0] is not None:
            return self._own_config[0](message)
        try:
            config = self._converter.reader(self.messages.config)(message)
        except MalformedRequest as error:
            raise InvalidConfig(error.message) from error
        if self._check_config is not None:
            self._check_config(config)
        return config

    def config_to_proto(self, config: Any) -> Message:
        """The Config message."""
        if self._own_config[1] is not None:
            return self._own_config[1](config)
        return self.messages.config.FromString(self._converter.writer(self.messages.config)(config))

    def action_from_proto(self, message: Message) -> Any:
        """The native action; MalformedRequest if no move is set or a value is one the actions'
        KindTuples or `check_action` refuse."""
        action = self._actions.read(message)
        if self._check_action is not None:
            self._check_action(action, message)
        return action

    def action_to_proto(self, action: Any) -> Message:
        """The Action message."""
        return self.messages.action.FromString(self._actions.write(action))

    def encode_state(self, state: Any) -> bytes:
        """The State message's deterministic bytes, hidden parts included."""
        return self._write_state(state)

    def state_to_proto(self, state: Any) -> Message:
        """The State message, hidden parts included."""
        return self.messages.state.FromString(self._write_state(state))

    def state_from_proto(self, message: Message) -> Any:
        """The native state of a State message; MalformedRequest unless it is a consistent state.

        A forged message may leave out what a game's shapes and checks take as given (a sub-message,
        the entries of a list), so that reading it fails before `validate` can say why: that is a
        malformed state too, never an engine failure."""
        try:
            return self._validate(self._read_state(message))
        except MALFORMED_SHAPES as error:
            raise _malformed(error) from error

    def decode_state(self, data: bytes) -> Any:
        """`state_from_proto` of the State message in `data` (DecodeError if it is not one)."""
        try:
            return self._validate(self._decode_state(data))
        except MALFORMED_SHAPES as error:
            raise _malformed(error) from error

    def encode_views(self, state: Any, state_bytes: bytes) -> list[bytes]:
        """Every seat's View, then the spectator's, from the State's table field in `state_bytes`
        (the state's `encode_state`: its table is field 1, as a View's is)."""
        table = leading_field(state_bytes)
        return [self._view(state, seat, table) for seat in [*range(len(state.players)), None]]

    def view_to_proto(self, state: Any, seat: int | None) -> Message:
        """What `seat` (None: a spectator) may see."""
        if seat is not None:
            self._check_seat(state, seat)
        return self.messages.view.FromString(self._view(state, seat, leading_field(self._write_state(state))))

    def views_to_proto(self, state: Any, state_message: Message | None = None) -> list[Message]:
        """Every seat's View, then the spectator's."""
        views = self.encode_views(state, self._write_state(state))
        return [self.messages.view.FromString(data) for data in views]

    def encode_event(self, event: Any) -> tuple[bytes, str, tuple[int, ...]]:
        """The Event message's bytes, its text, and the seats that may see it (empty: all)."""
        return self._write_event(event), self._event_text(event), self._event_audience(event)

    def event_to_proto(self, event: Any) -> tuple[Message, str, tuple[int, ...]]:
        """`encode_event` with the Event message."""
        data, text, audience = self.encode_event(event)
        return self.messages.event.FromString(data), text, audience


def _malformed(error: Exception) -> MalformedRequest:
    return MalformedRequest(f"invalid state: a part is missing or malformed ({error})")

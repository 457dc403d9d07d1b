"""The generic `boardgame.rules.v1.RulesService`: a thin adapter from gRPC to any `Game`.

It unpacks the game-typed `Any` fields after checking their type, calls the engine, packs the
results deterministically, and maps every refusal onto a status with an ErrorInfo reason. It holds
no game state: every call carries the whole state. What it does keep is a cache of which native
state it encoded to which bytes, to skip decoding a state it returned when that state comes back; a
hit answers exactly what decoding would.

A bad request never surfaces as UNKNOWN: undecodable input is INVALID_ARGUMENT (MALFORMED_REQUEST),
what the rules refuse has the code of its `RulesError`, and an engine failure on a request it
should have refused is logged and reported as INTERNAL (a bug to fix in that engine).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import grpc
from boardgame.rules.v1 import rules_pb2, rules_pb2_grpc
from google.protobuf import any_pb2
from google.protobuf.message import DecodeError, Message

from services.common import replies, titledata, undo
from services.common.errors import InvalidConfig, MalformedRequest, NoCatalog, RulesError, echoed
from services.common.game import AnyGame, Edition, GameInfo, Scores
from services.common.rng import MAX_SEED_BYTES
from services.common.statecache import DEFAULT_STATE_CACHE, StateCache
from services.common.status import abort, abort_with_error, error_status

log = logging.getLogger(__name__)

SERVICE_NAME = rules_pb2.DESCRIPTOR.services_by_name["RulesService"].full_name

M = TypeVar("M", bound=Message)
T = TypeVar("T")
Handler = Callable[[Any, Any, grpc.ServicerContext], Any]


def pack(message: Message) -> any_pb2.Any:
    """`message` packed into an Any, serialized deterministically."""
    packed = any_pb2.Any()
    packed.Pack(message, deterministic=True)
    return packed


def packed_bytes(type_url: str, data: bytes) -> any_pb2.Any:
    """An Any holding the already serialized message `data` of the type `type_url` names."""
    return any_pb2.Any(type_url=type_url, value=data)


def type_url(message_class: type[Message]) -> str:
    """The type URL an Any of `message_class` carries."""
    return "type.googleapis.com/" + message_class.DESCRIPTOR.full_name


ACTION_MEMO = 4096  # packed native actions a servicer remembers (a game's actions repeat)


def check_type(packed: any_pb2.Any, message_class: type[Message], field: str) -> None:
    """Raise MalformedRequest unless `packed` holds a `message_class` message (by its type URL)."""
    expected = message_class.DESCRIPTOR.full_name
    if not packed.type_url:
        raise MalformedRequest(f"{field} is missing: expected a packed {expected}", field=field)
    if packed.TypeName() != expected:
        raise MalformedRequest(
            f"{field} has type {echoed(packed.type_url)}, expected {expected}",
            field=field,
            expected=expected,
            type_url=echoed(packed.type_url),
        )


def unpack(packed: any_pb2.Any, message_class: type[M], field: str) -> M:
    """The `message_class` message inside `packed`; MalformedRequest if it is missing, mistyped or garbage."""
    check_type(packed, message_class, field)
    return decoded(packed.value, message_class.FromString, message_class, field)


def decoded(data: bytes, decode: Callable[[bytes], T], message_class: type[Message], field: str) -> T:
    """`decode(data)`, a `message_class` message's bytes decoded; MalformedRequest if they are garbage."""
    try:
        return decode(data)
    except DecodeError as err:
        expected = message_class.DESCRIPTOR.full_name
        raise MalformedRequest(f"{field} is not a valid {expected}: {err}", field=field) from err


def info_to_proto(
    info: GameInfo, game: AnyGame, data: rules_pb2.GameData | None = None
) -> rules_pb2.GameInfo:
    """The GameInfo message of a game's static facts and message types, with the type and digest of
    its static data `data` when it has some."""
    messages = game.messages
    return rules_pb2.GameInfo(
        name=info.name,
        display_name=info.display_name,
        min_players=info.min_players,
        max_players=info.max_players,
        options=[
            rules_pb2.GameOption(
                name=option.name,
                description=option.description,
                choices=list(option.choices),
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
        config_type=messages.config.DESCRIPTOR.full_name,
        state_type=messages.state.DESCRIPTOR.full_name,
        action_type=messages.action.DESCRIPTOR.full_name,
        view_type=messages.view.DESCRIPTOR.full_name,
        event_type=messages.event.DESCRIPTOR.full_name,
        data_type=data.data.TypeName() if data is not None else "",
        data_digest=data.digest if data is not None else "",
    )


def edition_to_proto(edition: Edition) -> rules_pb2.Edition:
    """The Edition message of a game's edition."""
    return rules_pb2.Edition(
        data_set=edition.data_set,
        data_version=edition.data_version,
        reconstruction=edition.reconstruction,
        notice=edition.notice,
    )


def scores_to_proto(scores: Scores, info: GameInfo | None = None) -> rules_pb2.GetScoresResponse:
    """The GetScoresResponse of a score breakdown; MalformedRequest for the scores of a forged state:
    a total outside the game's declared bounds (`info`), or a number its field cannot hold."""
    if info is not None:
        for seat in scores.seats:
            if not info.min_score <= seat.total <= info.max_score:
                raise MalformedRequest(
                    f"invalid state: seat {seat.seat} would score {seat.total}, outside the game's bounds"
                    f" [{info.min_score}, {info.max_score}]"
                )
    try:
        return _scores_message(scores)
    except ValueError as error:  # protobuf: "Value out of range"
        raise MalformedRequest(f"invalid state: a score does not fit its field ({error})") from error


def _scores_message(scores: Scores) -> rules_pb2.GetScoresResponse:
    return rules_pb2.GetScoresResponse(
        scores=[
            rules_pb2.SeatScore(
                seat=seat.seat,
                total=seat.total,
                items=[
                    rules_pb2.ScoreItem(label=label, points=points, message=getattr(label, "text", None))
                    for label, points in seat.items
                ],
                tiebreak=seat.tiebreak,
                rank=seat.rank,
            )
            for seat in scores.seats
        ],
        winners=list(scores.winners),
        final=scores.final,
    )


def _maps_errors(handler: Handler) -> Handler:
    """Wrap an RPC method so that every failure ends the call with a rich status."""

    @functools.wraps(handler)
    def wrapper(self: Any, request: Any, context: grpc.ServicerContext) -> Any:
        try:
            return handler(self, request, context)
        except RulesError as err:
            abort_with_error(context, err)
        except Exception:
            log.exception("rules engine failed on %s", handler.__name__)
            abort(
                context,
                error_status(
                    grpc.StatusCode.INTERNAL,
                    "ENGINE_FAILURE",
                    "the rules engine failed on this request; the rules service logged the details",
                ),
            )

    return wrapper


class RulesServicer(rules_pb2_grpc.RulesServiceServicer):
    """Serves one game's RulesService over its `Game` implementation.

    It remembers the native states behind the last `state_cache` State encodings it returned (0: none),
    so that a request carrying one of them back skips decoding it (see `services.common.statecache`);
    only for a game that declares `exact_state_round_trip`, since a hit must answer what decoding would.
    """

    def __init__(self, game: AnyGame, *, state_cache: int = DEFAULT_STATE_CACHE) -> None:
        self.game = game
        self._data = None if game.title_data is None else titledata.game_data(game.title_data)
        self._info = info_to_proto(game.info, game, self._data)
        cached = state_cache > 0 and game.exact_state_round_trip
        self._cache = StateCache(state_cache) if cached else None
        messages = game.messages
        self._state_url, self._view_url = type_url(messages.state), type_url(messages.view)
        self._event_url = type_url(messages.event)
        self._state_head, self._view_head, self._event_head = (
            replies.type_url_field(url) for url in (self._state_url, self._view_url, self._event_url)
        )
        self._action_url = replies.type_url_field(type_url(messages.action))
        self._action_anys: dict[Any, bytes] = {}
        self._read_actions: dict[bytes, Any] = {}
        self._actions: dict[Any, any_pb2.Any] = {}
        self._undo = undo.Classifier(game)
        self._traced = game.apply_traced

    def _state(self, packed: any_pb2.Any) -> Any:
        """The native state of a packed State: the one this servicer encoded to these bytes if it
        still has it, else the decoded message. Shared with other calls: never change it."""
        state_message = self.game.messages.state
        check_type(packed, state_message, "state")
        if self._cache is not None:
            cached = self._cache.get(packed.value)
            if cached is not None:
                return cached
        return decoded(packed.value, self.game.decode_state, state_message, "state")

    def _remember(self, packed: any_pb2.Any, state: Any) -> None:
        """Cache `state` as the native state of the State bytes `packed` carries."""
        if self._cache is not None:
            self._cache.put(packed.value, state)

    def _seat(self, seat: int) -> int:
        """`seat`, checked to be a seat the game can have."""
        if not 0 <= seat < self.game.info.max_players:
            raise MalformedRequest(
                f"seat {seat} is out of range: {self.game.info.name} seats are 0 to "
                f"{self.game.info.max_players - 1}",
                seat=str(seat),
            )
        return seat

    def _events(self, events: list[Any]) -> list[rules_pb2.Event]:
        """The Event messages of native events."""
        converted = []
        url = self._event_url
        for event in events:
            detail, text, visible_to = self.game.encode_event(event)
            converted.append(
                rules_pb2.Event(
                    detail=packed_bytes(url, detail),
                    text=text,
                    visible_to=list(visible_to),
                    message=getattr(text, "text", None),
                )
            )
        return converted

    def _action(self, action: Any) -> any_pb2.Any:
        """A native action's packed Action message, remembered: actions are immutable values that
        recur from call to call (an unhashable one is packed each time)."""
        try:
            return self._actions[action]
        except KeyError:
            packed = self._actions[action] = pack(self.game.action_to_proto(action))
            if len(self._actions) > ACTION_MEMO:
                self._actions.clear()
            return packed
        except TypeError:
            return pack(self.game.action_to_proto(action))

    def _read_action(self, packed: any_pb2.Any) -> Any:
        """The native action of a packed Action, remembered by its bytes (a game's actions repeat)."""
        action_message = self.game.messages.action
        check_type(packed, action_message, "action")
        data = packed.value
        action = self._read_actions.get(data)
        if action is None:
            action = self.game.action_from_proto(
                decoded(data, action_message.FromString, action_message, "action")
            )
            if len(self._read_actions) >= ACTION_MEMO:
                self._read_actions.clear()
            self._read_actions[data] = action
        return action

    def _action_field(self, action: Any) -> bytes:
        """A LegalAction's field of a native action's packed Action, remembered as `_action`
        remembers the message."""
        try:
            return self._action_anys[action]
        except KeyError:
            data = self._action_anys[action] = replies.action_field(self._action(action).SerializeToString())
            if len(self._action_anys) > ACTION_MEMO:
                self._action_anys.clear()
            return data
        except TypeError:
            return replies.action_field(self._action(action).SerializeToString())

    def _legal_action_bytes(self, state: Any, seat: int) -> list[bytes]:
        """The seat's legal_actions fields of a GetViewResponse, each with its label."""
        label = self.game.label
        return [
            replies.legal_action(self._action_field(action), label(state, action))
            for action in self.game.legal_actions(state, seat)
        ]

    def _legal_actions(self, state: Any, seat: int) -> list[rules_pb2.LegalAction]:
        """The seat's legal actions, packed, each with its label."""
        legal = []
        for action in self.game.legal_actions(state, seat):
            label = self.game.label(state, action)
            message = getattr(label, "text", None)
            legal.append(rules_pb2.LegalAction(action=self._action(action), label=label, message=message))
        return legal

    @_maps_errors
    def GetGameInfo(
        self, request: rules_pb2.GetGameInfoRequest, context: grpc.ServicerContext
    ) -> rules_pb2.GetGameInfoResponse:
        """The game's static facts."""
        return rules_pb2.GetGameInfoResponse(info=self._info)

    @_maps_errors
    def GetGameData(
        self, request: rules_pb2.GetGameDataRequest, context: grpc.ServicerContext
    ) -> rules_pb2.GetGameDataResponse:
        """The game's static data (empty for a game that declares none)."""
        return rules_pb2.GetGameDataResponse(data=self._data)

    @_maps_errors
    def GetCatalog(
        self, request: rules_pb2.GetCatalogRequest, context: grpc.ServicerContext
    ) -> rules_pb2.GetCatalogResponse:
        """The game's message catalog nearest the locale asked for (English when none is near)."""
        domain = self.game.catalogs
        if domain is None:
            raise NoCatalog(f"{self.game.info.name} has no message catalogs yet")
        try:
            catalog = domain.catalog(request.locale)
        except ValueError as error:
            raise MalformedRequest(str(error), locale=request.locale) from error
        return rules_pb2.GetCatalogResponse(
            locale=catalog.locale, messages=catalog.messages, digest=catalog.digest, locales=domain.locales
        )

    @_maps_errors
    def NewGame(
        self, request: rules_pb2.NewGameRequest, context: grpc.ServicerContext
    ) -> rules_pb2.NewGameResponse:
        """A new game's initial state, acting seats and setup events."""
        info = self.game.info
        if request.player_count not in info.player_counts:
            raise InvalidConfig(
                f"{info.name} is for {info.min_players} to {info.max_players} players, "
                f"not {request.player_count}",
                player_count=str(request.player_count),
            )
        if not 1 <= len(request.seed) <= MAX_SEED_BYTES:
            raise MalformedRequest(
                f"seed must be 1 to {MAX_SEED_BYTES} bytes, not {len(request.seed)}",
                field="seed",
            )
        config_message = self.game.messages.config
        if not request.config.type_url and not request.config.value:
            config = self.game.config_from_proto(config_message())
        else:
            config = self.game.config_from_proto(unpack(request.config, config_message, "config"))
        state, events = self.game.new_game(request.player_count, config, request.seed)
        response = rules_pb2.NewGameResponse(
            state=packed_bytes(self._state_url, self.game.encode_state(state)),
            acting_seats=list(self.game.acting_seats(state)),
            events=self._events(events),
        )
        if self.game.edition is not None:
            response.edition.CopyFrom(edition_to_proto(self.game.edition(state)))
        self._remember(response.state, state)
        return response

    @_maps_errors
    def ListLegalActions(
        self, request: rules_pb2.ListLegalActionsRequest, context: grpc.ServicerContext
    ) -> rules_pb2.ListLegalActionsResponse:
        """The actions a seat may take now, each with its label."""
        state = self._state(request.state)
        return rules_pb2.ListLegalActionsResponse(
            actions=self._legal_actions(state, self._seat(request.seat))
        )

    @_maps_errors
    def ApplyAction(
        self, request: rules_pb2.ApplyActionRequest, context: grpc.ServicerContext
    ) -> rules_pb2.ApplyActionResponse:
        """The state after one seat's action, what happened, and whether the seat may take it back
        (`services.common.undo`)."""
        state = self._state(request.state)
        seat = self._seat(request.seat)
        action = self._read_action(request.action)
        if self._traced is not None:
            new_state, events, others = self._traced(state, seat, action)
        else:
            (new_state, events), others = self.game.apply(state, seat, action), frozenset()
        state_bytes = self.game.encode_state(new_state)
        acting = list(self.game.acting_seats(new_state))
        over = self.game.is_terminal(new_state)
        encoded = [self.game.encode_event(event) for event in events]
        barriers = self._undo.barriers(
            request.state.value,
            state_bytes,
            seat,
            self.game.acting_seats(state),
            acting,
            bool(others),
            [audience for _, _, audience in encoded],
            self.game.seat_count(state),
        )
        parts = []
        if request.HasField("view_seat"):
            seat_view = self._view(new_state, self._seat(request.view_seat), legal_actions=True)
            parts.append(replies.field(5, seat_view.SerializeToString()))
        if request.include_views:
            *views, spectator = self.game.encode_views(new_state, state_bytes)
            url, shared = self._view_head, replies.seats_and_flag(acting, over, 2)
            for seat, data in enumerate(views):
                legal = self._legal_action_bytes(new_state, seat) if seat in acting else ()
                parts.append(replies.view_response(6, replies.any_body(url, data), shared, legal))
            parts.append(replies.view_response(7, replies.any_body(url, spectator), shared))
        head = self._event_head
        reply = replies.apply_response(
            replies.any_body(self._state_head, state_bytes),
            [replies.event(head, *event) for event in encoded],
            replies.seats_and_flag(acting, over, 3),
            [*parts, replies.undo_barriers(barriers)],
        )
        if self._cache is not None:
            self._cache.put(state_bytes, new_state)
        return rules_pb2.ApplyActionResponse.FromString(reply)

    @_maps_errors
    def GetView(
        self, request: rules_pb2.GetViewRequest, context: grpc.ServicerContext
    ) -> rules_pb2.GetViewResponse:
        """What a seat, or a spectator when no seat is given, may see of a state."""
        state = self._state(request.state)
        seat = self._seat(request.seat) if request.HasField("seat") else None
        return self._view(state, seat, legal_actions=request.include_legal_actions)

    def _view(self, state: Any, seat: int | None, *, legal_actions: bool) -> rules_pb2.GetViewResponse:
        """What `seat` (None: a spectator) may see, with its legal actions when asked for."""
        return rules_pb2.GetViewResponse(
            view=pack(self.game.view_to_proto(state, seat)),
            acting_seats=list(self.game.acting_seats(state)),
            game_over=self.game.is_terminal(state),
            legal_actions=self._legal_actions(state, seat) if legal_actions and seat is not None else [],
        )

    @_maps_errors
    def GetScores(
        self, request: rules_pb2.GetScoresRequest, context: grpc.ServicerContext
    ) -> rules_pb2.GetScoresResponse:
        """The score breakdown of a state."""
        return scores_to_proto(self.game.scores(self._state(request.state)), self.game.info)


def add_to_server(servicer: RulesServicer, server: grpc.Server) -> None:
    """Register `servicer` as the server's RulesService."""
    rules_pb2_grpc.add_RulesServiceServicer_to_server(servicer, server)

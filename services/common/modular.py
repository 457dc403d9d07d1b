"""A `Game` assembled from the modules of a game package laid out as docs/adding-a-game.md says:
`setup.new_game`, an `engine` built on `services.common.decisions.DecisionLoop`, `labels.label`, a
`codec`, and a final-scores function. A game subclasses it and adds what is its own
(`disturb_hidden`, and optionally `determinize`, `heuristic_action`, `example_configs`).

A codec may set `EXACT_STATE_ROUND_TRIP = True` to declare what `services.common.game.
exact_state_round_trip` describes, and may offer `views_to_proto(state, state_message)`, where
`state_message` is the State message already built, or None."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from google.protobuf.message import Message

from services.common.game import GameInfo, Messages, Scores


class ModularGame:
    """Forwards the `Game` protocol to a game package's modules."""

    def __init__(
        self,
        info: GameInfo,
        messages: Messages,
        *,
        setup: ModuleType,
        engine: ModuleType,
        labels: ModuleType,
        codec: ModuleType,
        scores: Callable[[Any], Scores],
    ) -> None:
        self.info = info
        self.messages = messages
        self._setup = setup
        self._engine = engine
        self._labels = labels
        self._codec = codec
        self._scores = scores
        # See services.common.game.exact_state_round_trip: a codec declares it for its game.
        self.exact_state_round_trip = bool(getattr(codec, "EXACT_STATE_ROUND_TRIP", False))

    def new_game(self, player_count: int, config: Any, seed: bytes) -> tuple[Any, list[Any]]:
        """The initial state and the setup events (forced first decisions taken)."""
        state, events = self._setup.new_game(player_count, config, seed)
        self._engine.settle(state, events)
        return state, events

    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The seats that act now."""
        return tuple(self._engine.acting_seats(state))

    def seat_count(self, state: Any) -> int:
        """How many seats the game has (a game state keeps one record per seat in `players`)."""
        return len(state.players)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        """`seat`'s legal actions, sorted."""
        return list(self._engine.legal_actions(state, seat))

    def label(self, state: Any, action: Any) -> str:
        """A readable description of a legal action."""
        return str(self._labels.label(state, action))

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Any]]:
        """The new state and the events; `state` is not changed."""
        return self._engine.apply(state, seat, action)

    def copy_state(self, state: Any) -> Any:
        """An independent copy."""
        return state.copy()

    def play(self, state: Any, seat: int, action: Any) -> list[Any]:
        """Apply in place; returns the events."""
        return list(self._engine.play(state, seat, action))

    def is_terminal(self, state: Any) -> bool:
        """Whether the game is over."""
        return bool(state.terminal)

    def scores(self, state: Any) -> Scores:
        """The score breakdown."""
        return self._scores(state)

    def config_from_proto(self, message: Any) -> Any:
        """The native config."""
        return self._codec.config_from_proto(message)

    def state_to_proto(self, state: Any) -> Message:
        """The State message."""
        return self._codec.state_to_proto(state)

    def state_from_proto(self, message: Any) -> Any:
        """The native state, checked."""
        return self._codec.state_from_proto(message)

    def action_to_proto(self, action: Any) -> Message:
        """The Action message."""
        return self._codec.action_to_proto(action)

    def action_from_proto(self, message: Any) -> Any:
        """The native action."""
        return self._codec.action_from_proto(message)

    def view_to_proto(self, state: Any, seat: int | None) -> Message:
        """What `seat` may see."""
        return self._codec.view_to_proto(state, seat)

    def views_to_proto(self, state: Any, state_message: Message | None = None) -> list[Message]:
        """Every seat's view, then the spectator's (the codec's `views_to_proto` if it has one, which
        can share the conversion of what every view shows, and take it from `state_message`)."""
        shared = getattr(self._codec, "views_to_proto", None)
        if shared is None:
            return [self._codec.view_to_proto(state, seat) for seat in [*range(self.seat_count(state)), None]]
        return list(shared(state, state_message))

    def event_to_proto(self, event: Any) -> tuple[Message, str, tuple[int, ...]]:
        """The Event message, its text and audience."""
        return self._codec.event_to_proto(event)

"""The interface every game implements, and the static facts it declares.

A game is a pure engine over its own native state plus a codec to its protobuf messages. The
gRPC servicer, the conformance suite, the gateway and the bots only talk to games through this
interface, so nothing generic ever names a specific game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Protocol

from google.protobuf.message import Message

from services.common.rng import Rng


@dataclass(frozen=True)
class OptionInfo:
    """One game option; `name` is the name of a field of the game's Config message."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str


@dataclass(frozen=True)
class GameInfo:
    """Static facts of a game, read by GetGameInfo, lobbies and the conformance suite."""

    name: str
    display_name: str
    min_players: int
    max_players: int
    options: tuple[OptionInfo, ...]
    has_chance: bool
    has_hidden_information: bool
    max_game_length: int
    min_score: int
    max_score: int

    @property
    def player_counts(self) -> range:
        """Every supported number of seats."""
        return range(self.min_players, self.max_players + 1)


@dataclass(frozen=True)
class SeatScore:
    """One seat's score: the total, the lines adding up to it, and its tie-break value."""

    seat: int
    total: int
    items: tuple[tuple[str, int], ...]
    tiebreak: int
    rank: int


@dataclass(frozen=True)
class Scores:
    """Every seat's score; `winners` is empty until the game is over."""

    seats: tuple[SeatScore, ...]
    winners: tuple[int, ...]
    final: bool


ScoreRow = tuple[int, tuple[tuple[str, int], ...], int]


def ranked_scores(rows: Sequence[ScoreRow], final: bool) -> Scores:
    """Scores from each seat's (total, score lines, tie-break), in seat order.

    A seat's rank is one more than the number of seats with a higher (total, tie-break), so equal
    keys share a rank; once `final`, the winners are every seat ranked first (a shared victory).
    """
    keys = [(total, tie) for total, _, tie in rows]
    seats = tuple(
        SeatScore(seat, total, items, tie, 1 + sum(1 for key in keys if key > (total, tie)))
        for seat, (total, items, tie) in enumerate(rows)
    )
    winners = tuple(s.seat for s in seats if s.rank == 1) if final else ()
    return Scores(seats, winners, final)


@dataclass(frozen=True)
class Messages:
    """The game's protobuf message classes."""

    config: type[Message]
    state: type[Message]
    action: type[Message]
    view: type[Message]
    event: type[Message]
    extra: tuple[type[Message], ...] = field(default=())

    @classmethod
    def of(cls, module: ModuleType) -> Messages:
        """The classes named Config, State, Action, View and Event of a generated `*_pb2` module."""
        return cls(
            config=module.Config,
            state=module.State,
            action=module.Action,
            view=module.View,
            event=module.Event,
        )


ExampleConfigs = tuple[tuple[str, Message], ...]


def example_configs(game: Game) -> ExampleConfigs:
    """Named Config messages, besides the defaults, that the generic suites (conformance, golden
    playthroughs, bench) also cover: a game's optional `example_configs` attribute, else none.

    A game lists there the settings that change its rules enough to need their own coverage (for
    example another set of components); every other option is covered with its defaults only.
    """
    return tuple(getattr(game, "example_configs", ()))


def exact_state_round_trip(game: Game) -> bool:
    """Whether the game declares, with a true `exact_state_round_trip` attribute, that decoding the
    encoding of any state it reaches gives a state equal to it in every attribute (so a rules service
    may answer from the native state it encoded instead of decoding those bytes). Else False.

    The conformance suite holds a game that declares it to it: every state of its playouts is
    compared, attribute by attribute, with its decoded encoding.
    """
    return bool(getattr(game, "exact_state_round_trip", False))


class Game(Protocol):
    """A game: engine (native, pure), codec (native <-> protobuf) and test support."""

    info: GameInfo
    messages: Messages

    # Engine: pure functions over native values. `apply` never mutates its argument.
    def new_game(self, player_count: int, config: Any, seed: bytes) -> tuple[Any, list[Any]]:
        """The initial state and the setup events. Raises InvalidConfig."""
        ...

    def acting_seats(self, state: Any) -> tuple[int, ...]:
        """The seats that act now; empty when the game is over."""
        ...

    def seat_count(self, state: Any) -> int:
        """How many seats the game has."""
        ...

    def views_to_proto(self, state: Any, state_message: Message | None = None) -> list[Message]:
        """Every seat's View message in seat order, then the spectator's.

        `state_message`, when given, is `state_to_proto(state)` already built by the caller: an
        implementation may take from it what the views share instead of converting that again.
        """
        ...

    def legal_actions(self, state: Any, seat: int) -> Sequence[Any]:
        """The actions `seat` may take now, sorted and unique; empty if it does not act."""
        ...

    def label(self, state: Any, action: Any) -> str:
        """A readable description of a legal action in `state`."""
        ...

    def apply(self, state: Any, seat: int, action: Any) -> tuple[Any, list[Any]]:
        """The new state and the events. Raises IllegalAction, NotYourTurn or GameOver."""
        ...

    def copy_state(self, state: Any) -> Any:
        """An independent copy of a native state."""
        ...

    def play(self, state: Any, seat: int, action: Any) -> list[Any]:
        """Apply in place, for playouts and search that own their state; returns the events.

        Raises like `apply`, and leaves the state unchanged when it does.
        """
        ...

    def is_terminal(self, state: Any) -> bool:
        """Whether the game is over."""
        ...

    def scores(self, state: Any) -> Scores:
        """The score breakdown; final once the game is over."""
        ...

    # Codec: every *_from_proto raises MalformedRequest on input that is not a valid value.
    def config_from_proto(self, message: Any) -> Any:
        """The native config of a Config message (defaults filled in)."""
        ...

    def state_to_proto(self, state: Any) -> Message:
        """The State message of a native state."""
        ...

    def state_from_proto(self, message: Any) -> Any:
        """The native state of a State message, checked for consistency."""
        ...

    def action_to_proto(self, action: Any) -> Message:
        """The Action message of a native action."""
        ...

    def action_from_proto(self, message: Any) -> Any:
        """The native action of an Action message."""
        ...

    def view_to_proto(self, state: Any, seat: int | None) -> Message:
        """What `seat` (None: a spectator) may see of `state`, as the View message."""
        ...

    def event_to_proto(self, event: Any) -> tuple[Message, str, tuple[int, ...]]:
        """An event as (Event message, readable text, seats allowed to see it; empty: all)."""
        ...

    # For the bots (the determinization of a game without `determinize`). What a seat may see is
    # declared in the State message (boardgame/rules/v1/visibility.proto), not here.
    def disturb_hidden(self, state: Any, seat: int | None, rng: Rng) -> Any:
        """A copy of `state` differing only in what `seat` cannot see (others' secrets, stack order, RNG)."""
        ...


class HasHeuristic(Protocol):
    """Optional part of a game: a greedy policy with game knowledge, for the `heuristic` bot strength.

    A game without it gets the generic one-ply policy of `workers.bots.heuristic`.
    """

    def heuristic_action(self, state: Any, seat: int, rng: Rng) -> Any:
        """A good legal action for `seat`, decided only from what `seat` may see."""
        ...


class HasDeterminize(Protocol):
    """Optional part of a game with hidden information: sampling what a seat cannot see, for search bots.

    A game without it is determinized with `disturb_hidden`, which changes only hidden data too.
    """

    def determinize(self, state: Any, seat: int, rng: Rng) -> Any:
        """A copy of `state` with everything `seat` cannot see resampled from what it can see.

        The result depends only on `seat`'s view and `rng`, never on the hidden data of `state`.
        """
        ...

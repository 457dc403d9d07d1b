"""The interface every game implements, and the static facts it declares.

A game is a pure engine over its own native state plus a codec to its protobuf messages. The
gRPC servicer, the conformance suite, the gateway and the bots only talk to games through this
interface, so nothing generic ever names a specific game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Generic, TypeVar

from boardgame.rules.v1 import rules_pb2
from google.protobuf.message import Message

from i18n import messages
from i18n.messages import Domain
from services.common.rng import Rng


@dataclass(frozen=True)
class OptionInfo:
    """One game option; `name` is the name of a field of the game's Config message."""

    name: str
    description: str
    choices: tuple[str, ...]
    default: str

    @classmethod
    def of_enum(cls, config: type[Message], name: str, description: str, default: int) -> OptionInfo:
        """The option of the enum field `name` of the `config` message: a choice per value but the zero
        one, named as the gateway reads option values (without the enum's prefix, in lower case), and
        the choice of `default`, the value an unset field takes."""
        enum = config.DESCRIPTOR.fields_by_name[name].enum_type
        assert enum is not None, name
        prefix = enum.values[0].name.removesuffix("UNSPECIFIED")
        names = {value.number: value.name.removeprefix(prefix).lower() for value in enum.values[1:]}
        return cls(name, description, tuple(names.values()), names[default])

    @property
    def text(self) -> rules_pb2.Text | None:
        """The description's Text, when it comes from the title's catalogs (`i18n.options.described`)."""
        return self.description.text if isinstance(self.description, messages.Message) else None


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


@dataclass(frozen=True)
class Edition:
    """Which material (board, cards) a game plays with, for a game whose material is replaceable
    data: the data set's name and version, whether it is a reconstruction rather than the printed
    game, and that as a sentence for people."""

    data_set: str
    data_version: str
    reconstruction: bool
    notice: str


@dataclass(frozen=True)
class TitleData:
    """A game's static data for clients (`GetGameData`): what its views refer to by number or id and do
    not repeat. `message` is the game's message of it; `native()` gives the value it is written from
    by `services.common.convert` (an object whose attributes are named as the message's fields, built
    from the engine's own tables), and `version()` the edition of that data for people."""

    message: type[Message]
    native: Callable[[], Any]
    version: Callable[[], str]


ExampleConfigs = tuple[tuple[str, Message], ...]


@dataclass(frozen=True)
class PerformanceTargets:
    """What a game's engine should reach, as `make bench` measures it; None where no target is set."""

    games_per_second_4p: float | None = None  # random 4-player games per second on one core
    apply_over_echo_p50: float | None = None  # ApplyAction p50 over a bare gRPC echo of its bytes
    state_bytes_4p: int | None = None  # serialized mid-game 4-player state, at most


NO_TARGETS = PerformanceTargets()


S = TypeVar("S")  # a game's native state
A = TypeVar("A")  # a game's native action
C = TypeVar("C")  # a game's native config

Policy = Callable[[S, int, Rng], A]
Sampler = Callable[[S, int, Rng], S]


@dataclass(frozen=True, kw_only=True)
class Game(Generic[S, A, C]):
    """A game: its static facts, a pure engine over its native state `S`, actions `A` and config `C`,
    the codec between those and its protobuf messages, and its optional parts.

    The gRPC servicer, the conformance suite, the gateway and the bots only talk to games through
    this record, so nothing generic names a specific game. Each game builds its own from its package
    (`services.common.modular.modular_game` does it for the usual layout) and the registry lists it in
    one line.
    """

    info: GameInfo
    messages: Messages

    # Engine: pure functions over native values; `apply` never changes its argument.
    new_game: Callable[[int, C, bytes], tuple[S, list[Any]]]
    """The initial state and the setup events, forced first decisions taken. Raises InvalidConfig."""
    acting_seats: Callable[[S], tuple[int, ...]]
    """The seats that act now; empty when the game is over."""
    seat_count: Callable[[S], int]
    legal_actions: Callable[[S, int], Sequence[A]]
    """The actions a seat may take now, sorted and unique; empty if it does not act."""
    label: Callable[[S, A], str]
    """A readable description of a legal action in a state: in English, and an `i18n.messages.Message`
    (which carries its Text) for a game with `catalogs`; so are the texts of `event_to_proto`."""
    apply: Callable[[S, int, A], tuple[S, list[Any]]]
    """The new state and the events. Raises IllegalAction, NotYourTurn or GameOver."""
    play: Callable[[S, int, A], list[Any]]
    """Apply in place, for playouts and search that own their state; leaves it unchanged on a refusal."""
    copy_state: Callable[[S], S]
    is_terminal: Callable[[S], bool]
    scores: Callable[[S], Scores]
    """The score breakdown; final once the game is over."""

    # Codec: every *_from_proto raises MalformedRequest on input that is not a valid value.
    config_from_proto: Callable[[Message], C]
    state_to_proto: Callable[[S], Message]
    state_from_proto: Callable[[Message], S]
    """The native state of a State message, checked for consistency."""
    action_to_proto: Callable[[A], Message]
    action_from_proto: Callable[[Message], A]
    view_to_proto: Callable[[S, int | None], Message]
    """What a seat (None: a spectator) may see of a state."""
    views_to_proto: Callable[[S, Message | None], Sequence[Message]]
    """Every seat's View in seat order, then the spectator's. The message, when given, is
    `state_to_proto(state)` already built by the caller, to take what the views share from."""
    event_to_proto: Callable[[Any], tuple[Message, str, tuple[int, ...]]]
    """An event as (Event message, readable text, seats allowed to see it; empty: all)."""
    disturb_hidden: Callable[[S, int | None, Rng], S]
    """A copy of a state differing only in what the seat cannot see (others' secrets, stack order, RNG),
    for the bots of a game without `determinize`. What a seat may see is declared in the State
    message (boardgame/rules/v1/visibility.proto), not here; the conformance suite checks this
    function against that declaration."""

    # Optional parts.
    heuristic_action: Policy[S, A] | None = None
    """A good legal action decided only from what the seat may see, for the `heuristic` bot; without
    it the bots use the generic one-ply policy of `workers.bots.heuristic`."""
    determinize: Sampler[S] | None = None
    """A copy of a state with everything the seat cannot see resampled from what it can, for the
    search bot; without it the bots use `disturb_hidden`."""
    edition: Callable[[S], Edition] | None = None
    """The edition of its material a new game's state plays with, which NewGame returns and the
    gateway keeps in the game's record; without it, the game has only one."""
    title_data: TitleData | None = None
    """The game's static data, which a client draws a table from besides the views (GetGameData);
    every registered game has it (the conformance suite checks)."""
    example_configs: ExampleConfigs = ()
    """Named Config messages, besides the defaults, that the generic suites (conformance, golden
    playthroughs, bench) also cover: settings that change the rules enough to need their own."""
    targets: PerformanceTargets = NO_TARGETS
    """The figures `make bench` holds the game to."""
    catalogs: Domain | None = None
    """The game's message catalogs (its labels module's CATALOGS), which GetCatalog serves and its
    labels' and events' Texts name; docs/translations.md."""
    encode_state: Callable[[S], bytes] = None  # type: ignore[assignment]
    """The deterministic bytes of `state_to_proto(state)`, what a rules call returns (default: that
    message serialized; a codec built on services.common.convert writes them without it)."""
    decode_state: Callable[[bytes], S] = None  # type: ignore[assignment]
    """`state_from_proto` of the State message in these bytes, DecodeError if they are not one
    (default: the message parsed; a codec built on services.common.convert reads the bytes)."""
    encode_views: Callable[[S, bytes], Sequence[bytes]] = None  # type: ignore[assignment]
    """The bytes of `views_to_proto(state)`, given the state's `encode_state` bytes to take what the
    views share from (default: those messages serialized)."""
    encode_event: Callable[[Any], tuple[bytes, str, tuple[int, ...]]] = None  # type: ignore[assignment]
    """`event_to_proto` with the Event message's deterministic bytes (default: serialized)."""
    exact_state_round_trip: bool = False
    """Decoding the encoding of any state it reaches gives a state equal to it in every attribute,
    so a rules service may answer from the native state it encoded instead of decoding those bytes
    (the conformance suite holds a game that declares it to it)."""
    apply_traced: Callable[[S, int, A], tuple[S, list[Any], frozenset[int]]] | None = None
    """`apply`, also naming the seats other than the acting one whose forced decisions the rules took
    on the way (another seat has acted: an undo barrier, `services.common.undo`); without it, only the
    acting seats before and after a decision tell whether another seat has acted."""
    legal_now: Callable[[S], Sequence[A]] = None  # type: ignore[assignment]
    """The first acting seat's legal actions, not to be changed by the caller (default: a copy from
    `legal_actions`): for playouts, with `advance`."""
    advance: Callable[[S, A], None] = None  # type: ignore[assignment]
    """`play` of one of `legal_now`'s actions by the first acting seat, without checking it or keeping
    the events (default: `play`): the step of a playout or a search that drew the action itself."""

    rollout: Callable[[S, Rng, int], None] = None  # type: ignore[assignment]
    """Play a state on in place by `advance` of uniformly random `legal_now` actions, one `below` draw
    of the generator each, for at most the given number of decisions or until it is terminal
    (default: those calls in a loop): the search bot's playouts."""

    def __post_init__(self) -> None:
        """Derive the `encode_*` functions the game leaves unset from its message functions."""
        defaults = {
            "encode_state": lambda state: self.state_to_proto(state).SerializeToString(deterministic=True),
            "decode_state": lambda data: self.state_from_proto(self.messages.state.FromString(data)),
            "encode_views": lambda state, state_bytes: [
                view.SerializeToString(deterministic=True)
                for view in self.views_to_proto(state, self.messages.state.FromString(state_bytes))
            ],
            "encode_event": self._serialized_event,
            "legal_now": lambda state: self.legal_actions(state, self.acting_seats(state)[0]),
            "advance": lambda state, action: self.play(state, self.acting_seats(state)[0], action),
            "rollout": self._rollout,
        }
        for name, default in defaults.items():
            if getattr(self, name) is None:
                object.__setattr__(self, name, default)

    def _rollout(self, state: S, rng: Rng, depth: int) -> None:
        for _ in range(depth):
            if self.is_terminal(state):
                break
            actions = self.legal_now(state)
            self.advance(state, actions[rng.below(len(actions))])

    def _serialized_event(self, event: Any) -> tuple[bytes, str, tuple[int, ...]]:
        message, text, visible_to = self.event_to_proto(event)
        return message.SerializeToString(deterministic=True), text, visible_to


AnyGame = Game[Any, Any, Any]

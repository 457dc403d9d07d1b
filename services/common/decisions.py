"""The decision loop shared by engines in which one seat decides at a time.

An engine supplies two functions: the acting seat's legal actions, and taking one decision in
place (or, with `of_steps`, a table of the two for each step). The loop checks the seat and the
action before anything changes, caches the legal actions on the state until it changes, takes a
decision with a single legal action by itself (its events are reported like any other), and offers
the pure `apply` on a copy, and `apply_traced`, which also names the other seats whose forced
decisions it took on the way (an undo barrier: another seat has acted, `services.common.undo`). For
playouts and searches that draw their actions from `legal_now`, `advance` takes one unchecked and
`rollout` plays a random playout.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any, Generic, Protocol, Self, TypeVar

from services.common.errors import GameOver, IllegalAction, MalformedRequest, NotYourTurn
from services.common.rng import Rng


class TurnState(Protocol):
    """What the loop needs of a state: seat count, step, acting seat, the legal-action cache, a copy."""

    n: int
    step: int
    actor: int
    legal: list[Any] | None

    def copy(self) -> Self:
        """An independent copy."""
        ...


S = TypeVar("S", bound=TurnState)
A = TypeVar("A", bound=Hashable)


def check_seat(state: Any, seat: int) -> None:
    """Raise MalformedRequest unless `seat` is a seat of the game of `state` (of `state.n` seats)."""
    if not 0 <= seat < state.n:
        raise MalformedRequest(f"seat {seat} is not in this {state.n}-player game", seat=str(seat))


class DecisionLoop(Generic[S, A]):
    """Checks, takes and settles decisions for an engine; `auto_resolve` takes forced ones by itself."""

    def __init__(
        self,
        game_over: int,
        legal: Callable[[S], list[A]],
        take: Callable[[S, A, list[Any]], None],
        auto_resolve: bool = True,
    ) -> None:
        self.game_over = game_over
        self.legal = legal
        self.take = take
        self.auto_resolve = auto_resolve
        # `of_steps`'s functions by step number, called directly (each gap: `legal` and `take`).
        self.legal_by_step: list[Callable[[S], list[A]]] = []
        self.take_by_step: list[Callable[[S, A, list[Any]], Any]] = []

    @classmethod
    def of_steps(
        cls,
        game_over: int,
        steps: Mapping[int, tuple[Callable[[S], list[A]], Callable[[S, A, list[Any]], Any]]],
        auto_resolve: bool = True,
    ) -> DecisionLoop[S, A]:
        """The loop of an engine whose every step has its own legal-actions and play functions."""

        def legal(state: S) -> list[A]:
            return steps[state.step][0](state)

        def take(state: S, action: A, events: list[Any]) -> None:
            steps[state.step][1](state, action, events)

        loop = cls(game_over, legal, take, auto_resolve)
        numbers = range(max((step for step in steps if step >= 0), default=-1) + 1)
        loop.legal_by_step = [steps[step][0] if step in steps else legal for step in numbers]
        loop.take_by_step = [steps[step][1] if step in steps else take for step in numbers]
        return loop

    def _legal(self, state: S) -> list[A]:
        step, table = state.step, self.legal_by_step
        return table[step](state) if 0 <= step < len(table) else self.legal(state)

    def legal_now(self, state: S) -> list[A]:
        """The acting seat's legal actions (cached on the state until it changes)."""
        legal = state.legal
        if legal is None:
            legal = [] if state.step == self.game_over else self._legal(state)
            state.legal = legal
        return legal

    def check_seat(self, state: S, seat: int) -> None:
        """Raise MalformedRequest unless `seat` is a seat of this game."""
        check_seat(state, seat)

    def legal_actions(self, state: S, seat: int) -> list[A]:
        """`seat`'s legal actions: empty unless it is the acting seat."""
        self.check_seat(state, seat)
        if state.step == self.game_over or seat != state.actor:
            return []
        return self.legal_now(state)

    def acting_seats(self, state: S) -> tuple[int, ...]:
        """The seat that acts now, or none once the game is over."""
        return () if state.step == self.game_over else (state.actor,)

    def _take(self, state: S, action: A, events: list[Any]) -> None:
        state.legal = None
        step, table = state.step, self.take_by_step
        if 0 <= step < len(table):
            table[step](state, action, events)
        else:
            self.take(state, action, events)

    def settle(self, state: S, events: list[Any], actors: set[int] | None = None) -> None:
        """Take forced decisions until a real choice (or the end) is reached; the seat of each one
        taken goes into `actors`, when given."""
        while self.auto_resolve and state.step != self.game_over:
            legal = self.legal_now(state)
            if len(legal) != 1:
                return
            if actors is not None:
                actors.add(state.actor)
            self._take(state, legal[0], events)

    def play(self, state: S, seat: int, action: A) -> list[Any]:
        """Apply `seat`'s action in place and return the events; the state is untouched when refused."""
        return self._play(state, seat, action, None)

    def _play(self, state: S, seat: int, action: A, actors: set[int] | None) -> list[Any]:
        self.check_seat(state, seat)
        if state.step == self.game_over:
            raise GameOver("the game is over")
        if seat != state.actor:
            raise NotYourTurn(
                f"seat {seat} does not act now; seat {state.actor} does", actor=str(state.actor)
            )
        if action not in self.legal_now(state):
            raise IllegalAction(f"{action!r} is not a legal action now", action=repr(action))
        events: list[Any] = []
        self._take(state, action, events)
        self.settle(state, events, actors)
        return events

    def advance(self, state: S, action: A) -> None:
        """`play` of one of `legal_now`'s actions by the acting seat, without the checks, the events
        dropped: the step of a playout or a search that drew the action from `legal_now` itself."""
        events: list[Any] = []
        self._take(state, action, events)
        self.settle(state, events)

    def rollout(self, state: S, rng: Rng, depth: int) -> None:
        """`advance` by uniformly random actions of `legal_now` (one `rng.below` draw each) for at most
        `depth` decisions or until the game is over: a search's playout, in one call."""
        game_over = self.game_over
        for _ in range(depth):
            if state.step == game_over:
                break
            actions = self.legal_now(state)
            self.advance(state, actions[rng.below(len(actions))])

    def apply(self, state: S, seat: int, action: A) -> tuple[S, list[Any]]:
        """The pure form of `play`: a new state and the events; the argument is never changed."""
        new_state = state.copy()
        events = self.play(new_state, seat, action)
        return new_state, events

    def apply_traced(self, state: S, seat: int, action: A) -> tuple[S, list[Any], frozenset[int]]:
        """`apply`, with the seats other than `seat` whose forced decisions the loop took after it."""
        new_state = state.copy()
        actors: set[int] = set()
        events = self._play(new_state, seat, action, actors)
        actors.discard(seat)
        return new_state, events, frozenset(actors)

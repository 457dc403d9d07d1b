"""What both research environments share: one title's backend, observation encoder, action space and
rewards, over the states of one game."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from research.actions import ActionSpace
from research.backend import Backend, Options, Outcome, backend, packed_config
from research.observation import ViewEncoder
from research.survey import survey


def returns(outcome: Outcome, player_count: int) -> list[float]:
    """Each seat's return of a finished game: 1 for a winner (ties share the win), -1 for the others;
    0 for every seat until the scores are final."""
    if not outcome.final:
        return [0.0] * player_count
    return [1.0 if seat in outcome.winners else -1.0 for seat in range(player_count)]


class Shared:
    """An object that copies share: `copy.deepcopy` gives it back itself (OpenSpiel clones a state by
    deep-copying its attributes)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Shared:
        return self


@dataclass(frozen=True)
class Position(Shared):
    """A backend state, which no move changes in place, so that clones share it; it pickles as the
    State's bytes."""

    rules: TitleRules
    state: Any

    def __reduce__(self) -> tuple[Any, ...]:
        return _position, (self.rules, self.rules.backend.serialize(self.state))


def _position(rules: TitleRules, data: bytes) -> Position:
    return Position(rules, rules.backend.deserialize(data))


class TitleRules(Shared):
    """A title's backend with its fixed observation encoding and action space, and the packed Config
    of the options its games are played with (the title's defaults for those not given)."""

    def __init__(
        self,
        title: str,
        rules_address: str = "",
        action_count: int | None = None,
        options: Options | None = None,
    ) -> None:
        self.title = title
        self.options = dict(options or {})
        self._arguments = (title, rules_address, action_count, self.options)
        self.backend: Backend = backend(title, rules_address)
        self.config = packed_config(self.backend.info_message, self.options)
        found = survey(title)
        self.encoder = ViewEncoder.of(self.backend.view_class, found.repeated)
        self.actions = ActionSpace(action_count or found.action_count)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its arguments: unpickling connects again."""
        return TitleRules, self._arguments

    def new_game(self, player_count: int, seed: bytes) -> Any:
        """The first state of a game of `player_count` seats under the options, from `seed`."""
        return self.backend.new_game(player_count, seed, self.config)

    def acting_seat(self, state: Any) -> int | None:
        """The seat that acts now (the first, if several do), None once the game is over."""
        acting = self.backend.acting_seats(state)
        return acting[0] if acting else None

    def legal(self, state: Any, seat: int) -> Sequence[Any]:
        """`seat`'s legal actions, in the order of their indices."""
        legal = self.backend.legal_actions(state, seat)
        self.actions.check(legal)
        return legal

    def observation(self, state: Any, seat: int | None) -> np.ndarray:
        """The encoded view of `seat` (None: a spectator)."""
        return self.encoder.encode(self.backend.view(state, seat))

    def step(self, state: Any, seat: int, index: int) -> Any:
        """The state after `seat` takes the legal action at `index`."""
        return self.backend.apply(state, seat, self.actions.action(self.legal(state, seat), index))

    def labels(self, state: Any, seat: int) -> list[str]:
        """The labels of `seat`'s legal actions, by index."""
        return [self.backend.label(state, seat, action) for action in self.legal(state, seat)]

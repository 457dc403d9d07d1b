"""What seeded random playouts of a title show about its sizes: the most legal actions a seat had
and the longest each repeated field of its View was.

The playouts are fixed (seeds and choices are derived from their numbers), cover every player count
under the default options and under each of the title's example configs (the settings that change the
rules enough for the generic suites to cover them: Puerto Rico's Expansion I buildings, say), look at
every seat's view and the spectator's, and run on the engine in this process, so a title's survey, and
with it its observation length and action space, is the same on every machine, for either backend and
for any of those options.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from itertools import product

from google.protobuf import any_pb2
from google.protobuf.message import Message

from research.backend import LocalBackend
from research.observation import Bounds, RepeatedLengths

GAMES_PER_PLAYER_COUNT = 4
ACTION_MARGIN = 2  # the action space holds this many times the most legal actions seen


@dataclass(frozen=True)
class Survey:
    """A title's sizes as its playouts saw them."""

    most_legal_actions: int
    repeated: Bounds

    @property
    def action_count(self) -> int:
        """The size of the title's action space (the most legal actions seen, with a margin)."""
        return ACTION_MARGIN * self.most_legal_actions


def _packed(config: Message) -> any_pb2.Any:
    packed = any_pb2.Any()
    packed.Pack(config)
    return packed


@cache
def survey(title: str) -> Survey:
    """The survey of a registered title (computed once per process)."""
    backend = LocalBackend(title)
    configs: list[tuple[str, any_pb2.Any | None]] = [("default", None)]
    configs += [(name, _packed(config)) for name, config in backend.game.example_configs]
    most = 0
    lengths = RepeatedLengths(backend.view_class)
    for (name, config), player_count, number in product(
        configs, backend.info.player_counts, range(GAMES_PER_PLAYER_COUNT)
    ):
        where = f"{player_count}/{number}" if config is None else f"{name}/{player_count}/{number}"
        choose = random.Random(f"{title}/{where}")
        state = backend.new_game(player_count, f"survey/{where}".encode(), config)
        for _ in range(backend.info.max_game_length):
            for view in backend.views(state):
                lengths.see(view)
            acting = backend.acting_seats(state)
            if not acting:
                break
            legal = backend.legal_actions(state, acting[0])
            most = max(most, len(legal))
            state = backend.apply(state, acting[0], choose.choice(legal))
    return Survey(most, dict(sorted(lengths.found.items())))

"""A title's fixed action space: the legal actions of a state as indices.

The titles' actions are messages whose arguments include unbounded numbers (board coordinates, tile
and hex indices), so the actions cannot be numbered from their messages. Index `i` is instead the
`i`-th of the acting seat's legal actions, in the engine's own sorted order; the space has as many
indices as a `Survey` of the title saw legal actions at most, with a margin (`Survey.action_count`).
The same title always has the same space; a state offering more actions than it holds is refused
with `ActionSpaceExceeded` rather than cut short.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np


class ActionSpaceExceeded(RuntimeError):
    """A state offers more legal actions than the title's action space holds."""


@dataclass(frozen=True)
class ActionSpace:
    """`size` indices, each naming a position in the acting seat's sorted legal actions."""

    size: int

    def check(self, legal: Sequence[Any]) -> None:
        """Raise ActionSpaceExceeded when `legal` does not fit."""
        if len(legal) > self.size:
            raise ActionSpaceExceeded(
                f"{len(legal)} legal actions, but the action space holds {self.size}: "
                "pass a larger action_count"
            )

    def indices(self, legal: Sequence[Any]) -> list[int]:
        """The indices of the legal actions."""
        self.check(legal)
        return list(range(len(legal)))

    def mask(self, legal: Sequence[Any]) -> np.ndarray:
        """1 (int8) at the index of every legal action, 0 elsewhere."""
        self.check(legal)
        mask = np.zeros(self.size, np.int8)
        mask[: len(legal)] = 1
        return mask

    def action(self, legal: Sequence[Any], index: int) -> Any:
        """The legal action at `index`; ValueError for an index naming none."""
        self.check(legal)
        if not 0 <= index < len(legal):
            raise ValueError(f"action {index} is not legal now: {len(legal)} legal actions")
        return legal[index]

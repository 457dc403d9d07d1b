"""A counter-based random generator whose whole state is two integers kept inside the game state.

Value i of a stream is SplitMix64's output function applied to key + (i + 1) * GAMMA, so the
generator needs no hidden state, serializes as (key, counter) and never touches the global
`random` module.
"""

from __future__ import annotations

import hashlib

MASK64 = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15
SEED_DOMAIN = b"boardgame.rng.v1:"
MAX_SEED_BYTES = 64


def key_from_seed(seed: bytes) -> int:
    """Derive the 64-bit generator key from a game seed."""
    return int.from_bytes(hashlib.sha256(SEED_DOMAIN + seed).digest()[:8], "little")


class Rng:
    """Counter-based generator: `key` is fixed for a game, `counter` counts values drawn."""

    __slots__ = ("counter", "key")

    def __init__(self, key: int, counter: int = 0) -> None:
        self.key = key & MASK64
        self.counter = counter & MASK64

    @classmethod
    def from_seed(cls, seed: bytes) -> Rng:
        """A fresh generator for a game seed."""
        return cls(key_from_seed(seed))

    def copy(self) -> Rng:
        """An independent generator at the same position."""
        return Rng(self.key, self.counter)

    def next64(self) -> int:
        """The next uniformly distributed 64-bit value."""
        self.counter = (self.counter + 1) & MASK64
        z = (self.key + self.counter * GAMMA) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias (`next64` drawn until below a multiple of n,
        written out here: bots and playouts draw one a move)."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        key, counter = self.key, self.counter
        while True:
            counter = (counter + 1) & MASK64
            z = (key + counter * GAMMA) & MASK64
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                self.counter = counter
                return z % n

    def shuffle(self, items: list) -> None:  # type: ignore[type-arg]
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list | tuple):  # type: ignore[no-untyped-def, type-arg]
        """A uniformly chosen element of a non-empty sequence."""
        return items[self.below(len(items))]

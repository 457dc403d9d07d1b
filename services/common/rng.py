"""A counter-based random generator whose whole state is two integers kept inside the game state.

Value i of a stream is SplitMix64's output function applied to key + (i + 1) * GAMMA, so the
generator needs no hidden state, serializes as (key, counter) and never touches the global
`random` module.
"""

from __future__ import annotations

import hashlib
from typing import Final

try:
    from mypy_extensions import i64
except ImportError:  # without mypy's extensions (the image's runtime): plain ints, as in any source run
    i64 = int  # type: ignore[misc]

MASK64: Final = (1 << 64) - 1
GAMMA: Final = 0x9E3779B97F4A7C15
MIX1: Final = 0xBF58476D1CE4E5B9
MIX2: Final = 0x94D049BB133111EB
SEED_DOMAIN: Final = b"boardgame.rng.v1:"
MAX_SEED_BYTES: Final = 64

# The same draws in 64-bit integers that wrap around (compiled by mypyc: i64, as in C), which spare
# the arbitrary-precision ones' work: the constants as signed 64-bit values (each minus 2**64), and
# what a logical shift right keeps of an arithmetic one.
GAMMA_I64: Final[i64] = -7046029254386353131
MIX1_I64: Final[i64] = -4658895280553007687
MIX2_I64: Final[i64] = -7723592293110705685
LOW33: Final[i64] = (1 << 33) - 1
LOW34: Final[i64] = (1 << 34) - 1
LOW37: Final[i64] = (1 << 37) - 1
BIT62: Final[i64] = 1 << 62
WRAPPED_BELOW: Final = 1 << 31  # the ranges and counters the wrapping draws take
WRAPPED_COUNTERS: Final = 1 << 61  # (a small int to compare with: 2**62 would be an object)


def _wraps() -> bool:
    """Whether this module's i64 arithmetic wraps around (compiled) rather than grows (source)."""
    big: i64 = BIT62
    return big * 4 == 0


WRAPS: Final = _wraps()


def _signed(value: int) -> int:
    """A 64-bit value as the signed 64-bit integer of the same bits."""
    return value - (1 << 64) if value >> 63 else value


def key_from_seed(seed: bytes) -> int:
    """Derive the 64-bit generator key from a game seed."""
    return int.from_bytes(hashlib.sha256(SEED_DOMAIN + seed).digest()[:8], "little")


class Rng:
    """Counter-based generator: `key` is fixed for a game, `counter` counts values drawn."""

    __slots__ = ("counter", "key", "signed_key")

    def __init__(self, key: int, counter: int = 0) -> None:
        self.key = key & MASK64
        self.counter = counter & MASK64
        self.signed_key = _signed(self.key)

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
        if WRAPS and n < WRAPPED_BELOW and self.counter < WRAPPED_COUNTERS:
            return self._below_wrapping(n)
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

    def _below_wrapping(self, n: i64) -> int:
        """`below` in wrapping 64-bit arithmetic (only where it wraps): the same value from the same
        bits, each unsigned value v held as the signed one v - 2**64 when v >= 2**63."""
        key: i64 = self.signed_key
        counter: i64 = self.counter
        reject: i64 = BIT62 % n * 4 % n  # 2**64 % n: the values at the top that would bias the draw
        while True:
            counter += 1
            z: i64 = key + counter * GAMMA_I64
            z = (z ^ ((z >> 30) & LOW34)) * MIX1_I64
            z = (z ^ ((z >> 27) & LOW37)) * MIX2_I64
            z ^= (z >> 31) & LOW33
            if z >= 0:
                self.counter = counter
                return z % n
            if z < -reject:  # below 2**64 - reject unsigned
                self.counter = counter
                return (z % n + reject) % n  # (z + 2**64) % n

    def shuffle(self, items: list) -> None:  # type: ignore[type-arg]
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list | tuple):  # type: ignore[no-untyped-def, type-arg]
        """A uniformly chosen element of a non-empty sequence."""
        return items[self.below(len(items))]

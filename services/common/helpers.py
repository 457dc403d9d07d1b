"""Small helpers the games' codecs and labels share: state checks, the RNG message, plurals."""

from __future__ import annotations

from boardgame.rules.v1 import rules_pb2

from services.common.errors import MalformedRequest
from services.common.rng import Rng

# The most any one count of a state may be (coins, VP, goods, whisky, a round): far above what a game
# reaches, and low enough that what the rules and the scores add up from such counts stays within the
# int32 fields of the messages, so a forged state holding more is refused, not an overflow.
MAX_COUNT = 1 << 20


def check_state(condition: bool, what: str) -> None:
    """Raise MalformedRequest ("invalid state: `what`") unless `condition` holds."""
    if not condition:
        raise MalformedRequest(f"invalid state: {what}")


def counts_ok(*values: int) -> bool:
    """Whether every value is a count from 0 to MAX_COUNT."""
    return all(0 <= value <= MAX_COUNT for value in values)


def rng_to_proto(rng: Rng) -> rules_pb2.RngState:
    """The RngState message of a generator."""
    return rules_pb2.RngState(key=rng.key, counter=rng.counter)


def rng_from_proto(message: rules_pb2.RngState) -> Rng:
    """The generator of an RngState message (its fields are uint64, as the generator's values are)."""
    return Rng(message.key, message.counter)


def plural(count: int, word: str) -> str:
    """`count` and `word`, with an "s" unless the count is one: "1 coin", "2 coins"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"

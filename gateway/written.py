"""The one rule for text a person writes for others to read, display names and chat messages alike:
one line of visible characters and spaces. It refuses control characters (line breaks, tabs,
escapes), format characters (the bidirectional controls such as U+202E, which turn the text around
them over, and the zero-width ones, which hide in it) but the joiner of emoji sequences, line and
paragraph separators, surrogates and private-use characters. Ids have a stricter rule of their own
(`gateway.validation`)."""

from __future__ import annotations

import unicodedata

HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
EMOJI_JOINER = "\u200d"  # a format character, but one that draws: it joins emoji into one (a family)


def hidden(text: str) -> tuple[int, str] | None:
    """The position and the character of the text's first character the rule refuses, or None."""
    for position, character in enumerate(text):
        if character != EMOJI_JOINER and unicodedata.category(character) in HIDDEN_CATEGORIES:
            return position, character
    return None


def described(position: int, character: str) -> str:
    """What is wrong with a field holding a character it may not, for a person (after its name)."""
    name = unicodedata.name(character, "a control character").lower()
    return f"holds U+{ord(character):04X} ({name}) at position {position}"

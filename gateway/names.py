"""Names no player may take: the bots' (a bot is named after its level and numbered, such as
"Easy bot 2" (`gateway.bots`), so a player named so would pass for one; the names bots had before the
levels, "Heuristic bot" and "Search bot", stay reserved) and the configured
RESERVED_NAMES. Names are compared as a reader sees them: compatibility forms (full-width or
mathematical letters) and case folded by NFKC, then look-alike letters by their confusables skeleton
(Unicode TR39, ICU's), so a Cyrillic a (U+0430) is an "a" and "rn" an "m"; only letters and digits count, so
"heuristic_bot" or "HEURISTIC-BOT" is a bot's name too."""

from __future__ import annotations

import unicodedata

import icu

from gateway.auth import BOT_NAMES
from live.errors import invalid
from live.levels import RETIRED_DISPLAY_NAMES
from live.settings import Settings

_SPOOF = icu.SpoofChecker()  # only its skeletons are used, which take no settings
_SKELETON_TYPE = 0  # TR39's one skeleton (ICU's flag for the any-case table is deprecated)


def folded(name: str) -> str:
    """The name as names are compared: NFKC and case-folded, by its confusables skeleton, letters and
    digits only."""
    readable = unicodedata.normalize("NFKC", name).casefold()
    skeleton = unicodedata.normalize("NFKC", _SPOOF.getSkeleton(_SKELETON_TYPE, readable)).casefold()
    return "".join(c for c in skeleton if c.isalnum())


BOT_PREFIXES = tuple(folded(name) for name in (*BOT_NAMES.values(), *RETIRED_DISPLAY_NAMES))


def refuse_reserved(name: str, settings: Settings, field: str) -> None:
    """INVALID_ARGUMENT (RESERVED_NAME) for a bot's name, a reserved one or one that looks like them."""
    key = folded(name)
    if key.startswith(BOT_PREFIXES) or key in {folded(reserved) for reserved in settings.reserved_names}:
        raise invalid("RESERVED_NAME", f"{field} {name!r} is reserved; choose another", field=field)

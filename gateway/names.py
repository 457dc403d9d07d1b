"""Names no player may take: the bots' (a bot is named after its strength and numbered, such as
"Heuristic bot 2" (`gateway.bots`), so a player named so would pass for one) and the configured
RESERVED_NAMES. Names are compared by their letters and digits alone, case and compatibility forms
(full-width letters) folded, so "heuristic_bot" or "HEURISTIC-BOT" is a bot's name too."""

from __future__ import annotations

import unicodedata

from gateway.auth import BOT_NAMES
from live.errors import invalid
from live.settings import Settings


def folded(name: str) -> str:
    """The name as names are compared: NFKC, case-folded, letters and digits only."""
    return "".join(c for c in unicodedata.normalize("NFKC", name).casefold() if c.isalnum())


BOT_PREFIXES = tuple(folded(name) for name in BOT_NAMES.values())


def refuse_reserved(name: str, settings: Settings, field: str) -> None:
    """INVALID_ARGUMENT (RESERVED_NAME) for a bot's name or a reserved one."""
    key = folded(name)
    if key.startswith(BOT_PREFIXES) or key in {folded(reserved) for reserved in settings.reserved_names}:
        raise invalid("RESERVED_NAME", f"{field} {name!r} is reserved; choose another", field=field)

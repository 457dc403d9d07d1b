"""Who sees which secret: a seat's VP (OP-23). The views (services.glenmore.codec), the bots'
determinizations (services.glenmore.bot) and `disturb_hidden` (services.glenmore.game) all ask here."""

from __future__ import annotations

from services.glenmore.state import State


def vp_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) may see `seat`'s VP: always with the option public_vp
    (OP-23), else only its own, and everyone's once the game is over (the final scores are public)."""
    return state.config.public_vp or viewer == seat or state.terminal

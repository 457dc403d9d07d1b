"""Who sees which secret (§10): a seat's landscape hand and its bonus cards. The views
(services.goldencity.codec) and the bots' determinizations (services.goldencity.bot) both ask here."""

from __future__ import annotations

from services.goldencity.state import State


def hand_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) sees `seat`'s landscape hand (OP-20)."""
    return state.config.public_hands or viewer == seat


def bonus_cards_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` sees `seat`'s bonus cards (OP-3; everyone's once the game is over)."""
    return state.config.bonus_cards_public or viewer == seat or state.terminal

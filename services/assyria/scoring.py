"""End of the game and the scores (§6, OP-13): ziggurat pieces, plows and camels, and a shared victory
on a tie."""

from __future__ import annotations

from services.assyria import events as ev
from services.assyria.data import END_CAMELS_PER_VP, END_PLOW_VP, ZIGGURAT_PIECE_VP
from services.assyria.labels import CATALOGS
from services.assyria.revenue import ziggurat_pieces
from services.assyria.state import GAME_OVER, State
from services.common.game import Scores, ranked_scores


def final_bonus(state: State, seat: int) -> tuple[int, int, int]:
    """(ziggurat-piece VP, plow VP, camel VP) the seat adds at the end."""
    player = state.players[seat]
    return (
        ZIGGURAT_PIECE_VP * ziggurat_pieces(state, seat),
        END_PLOW_VP * player.plow,
        player.camels // END_CAMELS_PER_VP,
    )


def end_game(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Add the end bonuses; the game is over."""
    seats = []
    for seat, player in enumerate(state.players):
        pieces, plows, camels = final_bonus(state, seat)
        player.score += pieces + plows + camels
        seats.append(ev.SeatFinal(seat, pieces, plows, camels, player.score))
    state.step = GAME_OVER
    state.actor = 0
    state.clear_turn_progress()
    best = max(p.score for p in state.players)
    events.append(
        ev.GameEnded(tuple(seats), tuple(s for s, p in enumerate(state.players) if p.score == best))
    )


_ = CATALOGS.message
# The score lines' labels: Messages of the catalogs.
DURING_PLAY, PIECES, PLOWS, CAMELS = (
    _(f"assyria.score.{line}") for line in ("during_play", "ziggurat_pieces", "plows", "camels")
)


def final_scores(state: State) -> Scores:
    """Every seat's score; at the end with the end bonuses as their own lines. No tie-break (OP-13)."""
    rows = []
    items: tuple[tuple[str, int], ...]
    for seat, player in enumerate(state.players):
        if state.terminal:
            pieces, plows, camels = final_bonus(state, seat)
            play = player.score - pieces - plows - camels
            items = ((DURING_PLAY, play), (PIECES, pieces), (PLOWS, plows), (CAMELS, camels))
        else:
            items = ((DURING_PLAY, player.score),)
        rows.append((player.score, items, 0))
    return ranked_scores(rows, state.terminal)

"""Scoring (§9): the three intermediate scorings, the final scoring, the tie-break and ranks."""

from __future__ import annotations

from typing import Final

from services.common.game import ScoreRow, Scores, ranked_scores
from services.glenmore import events as ev
from services.glenmore.data import (
    BONNETS,
    CASTLE_OF_MEY,
    DIFF_TABLE,
    DUART_CASTLE,
    DUART_CASTLE_VP,
    DUART_COUNTS_START_VILLAGE,
    GREEN,
    IONA_ABBEY,
    IONA_ABBEY_VP,
    LOCH_MORAR,
    LOCH_MORAR_VP,
    TILE_PENALTY,
    TILES,
    VILLAGE,
    YELLOW,
)
from services.glenmore.labels import CATALOGS
from services.glenmore.state import Player, State

_ = CATALOGS.message
# The score lines' names (messages without arguments: the same for every score).
VP_DURING_PLAY: Final = _("glenmore.score.vp_during_play")
INTERMEDIATE_SCORINGS: Final = _("glenmore.score.intermediate_scorings")
SPECIAL_LOCATIONS: Final = _("glenmore.score.special_locations")
COINS: Final = _("glenmore.score.coins")
TILE_PENALTY_LINE: Final = _("glenmore.score.tile_penalty")


def difference_vp(value: int, lowest: int) -> int:
    """VP of the difference table for a value against the lowest value of the players."""
    return DIFF_TABLE[min(value - lowest, len(DIFF_TABLE) - 1)]


def chieftain_value(player: Player) -> int:
    """Chieftains (doubled with Castle of Mey) plus bonnets."""
    factor = 2 if CASTLE_OF_MEY in player.cards else 1
    return factor * player.chieftains + sum(BONNETS[card] for card in player.cards)


def intermediate_scoring(state: State, number: int, events: list) -> None:  # type: ignore[type-arg]
    """Scoring `number`: whisky, chieftains plus bonnets, cards; VP by the difference table.

    With hidden VP (OP-23) the scoring itself stays public (the counts are; its VP read 0), and each seat that
    scored is told its VP by a VpGained that only it sees.
    """
    players = state.players
    whisky = [p.whisky for p in players]
    chieftains = [chieftain_value(p) for p in players]
    cards = [len(p.cards) for p in players]
    lows = (min(whisky), min(chieftains), min(cards))
    public = state.config.public_vp
    seats = []
    private: list[ev.VpGained] = []
    for seat, player in enumerate(players):
        whisky_vp = difference_vp(whisky[seat], lows[0])
        chieftain_vp = difference_vp(chieftains[seat], lows[1])
        card_vp = difference_vp(cards[seat], lows[2])
        gained = whisky_vp + chieftain_vp + card_vp
        player.vp += gained
        player.scoring_vp += gained
        if not public and gained:
            private.append(ev.VpGained(seat, gained, ev.VP_SCORING, public=False))
        if not public:  # the scoring reports the counts only
            whisky_vp = chieftain_vp = card_vp = 0
        seats.append(
            ev.SeatScoring(
                seat, whisky[seat], whisky_vp, chieftains[seat], chieftain_vp, cards[seat], card_vp
            )
        )
    state.scorings_done = number
    events.append(ev.ScoringDone(number, tuple(seats), vp_hidden=not public))
    events.extend(private)


def _count(player: Player, border: int) -> int:
    return sum(1 for tile in player.tiles if TILES[tile].border == border)


def _villages(player: Player) -> int:
    return sum(
        1
        for tile in player.tiles
        if TILES[tile].family == VILLAGE and (DUART_COUNTS_START_VILLAGE or TILES[tile].stack >= 0)
    )


def end_card_vp(player: Player) -> int:
    """VP of the end-game cards: Iona Abbey, Loch Morar, Duart Castle."""
    total = 0
    if IONA_ABBEY in player.cards:
        total += IONA_ABBEY_VP * _count(player, YELLOW)
    if LOCH_MORAR in player.cards:
        total += LOCH_MORAR_VP * _count(player, GREEN)
    if DUART_CASTLE in player.cards:
        total += DUART_CASTLE_VP * _villages(player)
    return total


def final_parts(state: State) -> list[tuple[int, int, int, int]]:
    """Per seat: end-card VP, coin VP, tile penalty (<= 0), cubes left (the tie-break)."""
    fewest = min(len(p.tiles) for p in state.players)
    return [
        (end_card_vp(p), p.coins, -TILE_PENALTY * (len(p.tiles) - fewest), sum(p.own)) for p in state.players
    ]


def score_rows(state: State) -> list[ScoreRow]:
    """Per seat: total, score lines and tie-break; the final lines only once the game is over."""
    rows = []
    parts = final_parts(state) if state.terminal else None
    for seat, player in enumerate(state.players):
        items: list[tuple[str, int]] = [
            (VP_DURING_PLAY, player.vp - player.scoring_vp),
            (INTERMEDIATE_SCORINGS, player.scoring_vp),
        ]
        if parts is not None:
            cards, coins, penalty, _cubes = parts[seat]
            items += [
                (SPECIAL_LOCATIONS, cards),
                (COINS, coins),
                (TILE_PENALTY_LINE, penalty),
            ]
        rows.append((sum(points for _line, points in items), tuple(items), sum(player.own)))
    return rows


def final_scores(state: State) -> Scores:
    """Scores for every seat; winners and shared ranks once the game is over (OP-9)."""
    return ranked_scores(score_rows(state), state.terminal)


def game_ended(state: State) -> ev.GameEnded:
    """The GameEnded event of a finished game."""
    parts = final_parts(state)
    scores = final_scores(state)
    seats = tuple(
        ev.SeatFinal(seat, cards, coins, penalty, scores.seats[seat].total, cubes)
        for seat, (cards, coins, penalty, cubes) in enumerate(parts)
    )
    return ev.GameEnded(seats, scores.winners)

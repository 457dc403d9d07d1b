"""Scoring (§9): the difference table (T1), the tile penalty (T3), the final sum and the tie-break."""

from __future__ import annotations

from services.glenmore import events as ev
from services.glenmore.data import CASTLE_OF_MEY, CAWDOR_CASTLE, SHEEP, WOOD
from services.glenmore.scoring import difference_vp, final_scores, intermediate_scoring
from services.glenmore.state import GAME_OVER
from tests.glenmore.scenario import blank_game, put, tile

FILLER = tile("Field", stack=2)


def test_t1_difference_table():
    """T1: d = 0..5 -> 0, 1, 2, 3, 5, 8; capped at 8 above 5 (OP-7)."""
    assert [difference_vp(v, 0) for v in range(8)] == [0, 1, 2, 3, 5, 8, 8, 8]
    assert difference_vp(7, 3) == 5


def test_t1_intermediate_scoring_whisky_and_cards():
    """T1: whisky 5/2/2 -> 3/0/0; cards 0/1/6 -> 0/1/8; nothing is spent (OP-8).
    Ruling 16: differences against the lowest real player (here 2, and 0), never the die (3p)."""
    state = blank_game(3)
    for player, whisky in zip(state.players, (5, 2, 2), strict=True):
        player.whisky = whisky
    state.players[1].cards = [0]
    state.players[2].cards = [1, 2, 3, 4, 5, 9]  # cards without bonnets
    events: list = []
    intermediate_scoring(state, 1, events)
    (scoring,) = events
    assert isinstance(scoring, ev.ScoringDone) and scoring.number == 1
    assert [s.whisky_vp for s in scoring.seats] == [3, 0, 0]
    assert [s.card_vp for s in scoring.seats] == [0, 1, 8]
    assert [p.vp for p in state.players] == [3, 1, 8]
    assert [p.whisky for p in state.players] == [5, 2, 2]


def test_chieftain_category_with_mey_and_cawdor():
    """T2 at a scoring: 2 chieftains with Mey and Cawdor count 8 against a player with 0 -> 8 VP."""
    state = blank_game(2)
    state.players[0].chieftains = 2
    state.players[0].cards = [CASTLE_OF_MEY, CAWDOR_CASTLE]
    events: list = []
    intermediate_scoring(state, 2, events)
    assert [(s.chieftains, s.chieftain_vp) for s in events[0].seats] == [(8, 8), (0, 0)]
    assert state.players[0].vp == 8 + 2  # and 2 VP for holding 2 cards against none


def _finish(state):
    state.step = GAME_OVER
    state.scorings_done = 3
    return final_scores(state)


def test_t3_tile_penalty():
    """T3: tiles 10 / 8 / 12 -> -6 / 0 / -12.
    Ruling 18: territories compared with the start village counted in each."""
    state = blank_game(3)
    for seat, count in enumerate((10, 8, 12)):
        for i in range(count - 1):
            put(state, seat, FILLER, i + 1, 7)
    scores = _finish(state)
    penalties = [dict(s.items)["tile penalty"] for s in scores.seats]
    assert penalties == [-6, 0, -12]


def test_final_score_adds_cards_coins_and_penalty():
    """Final: VP chips + end-game cards + 1 VP per coin - the tile penalty.
    Ruling 17: in the final scoring each coin is 1 VP."""
    state = blank_game(2)
    a, b = state.players
    a.vp, a.scoring_vp, a.coins = 20, 5, 4
    put(state, 0, tile("Loch Morar"), 0, 1)
    put(state, 0, tile("Sheep pasture", edge=1), 0, -1)
    b.vp, b.coins = 10, 7
    scores = _finish(state)
    assert scores.final
    assert scores.seats[0].items == (
        ("VP during play", 15),
        ("intermediate scorings", 5),
        ("special locations at the end", 2),
        ("coins", 4),
        ("tile penalty", -6),
    )
    assert scores.seats[0].total == 20 and scores.seats[1].total == 17
    assert scores.winners == (0,)


def test_tie_break_by_cubes_then_shared():
    """OP-9: equal totals -> most cubes left; still equal -> shared victory."""
    state = blank_game(3)
    for player in state.players:
        player.coins = 0
    put(state, 0, tile("Forest", edge=1), 0, 1, cubes={WOOD: 2})
    put(state, 1, tile("Forest", edge=1), 0, 1, cubes={WOOD: 1})
    put(state, 2, tile("Sheep pasture", edge=1), 0, 1, cubes={SHEEP: 2})
    scores = _finish(state)
    assert [s.total for s in scores.seats] == [0, 0, 0]
    assert [s.tiebreak for s in scores.seats] == [2, 1, 2]
    assert [s.rank for s in scores.seats] == [1, 3, 1]
    assert scores.winners == (0, 2)


def test_running_scores_are_not_final():
    """Before the end, scores are the VP chips so far and name no winner.
    Ruling 17: coins are not VP before the final scoring."""
    state = blank_game(4)
    state.players[2].vp = 7
    scores = final_scores(state)
    assert not scores.final and scores.winners == ()
    assert [s.total for s in scores.seats] == [0, 0, 7, 0]

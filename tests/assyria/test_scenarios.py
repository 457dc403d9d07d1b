"""The test scenarios T1-T12 of the Assyria rules (§11), each a concrete position with its outcome
written out from the rules (T11, the map data, is tests/assyria/test_data.py)."""

# Covered here, by the tests named after them: scenarios T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T12.

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import assur, end_of_turn, engine, expansion, offerings, revenue, scoring, sowing, wells
from services.assyria import events as ev
from services.assyria.board import SITE_HEXES, SITE_NUMBER, SITES
from services.assyria.cards import WILD_CARD, card_of
from services.assyria.data import Food, WellSite
from services.assyria.state import FED_REIGN, Config
from tests.assyria.scenario import at, expanding, hut, table, ziggurat

DATES, GRAPES, SALT, PALMS = Food.DATES, Food.GRAPES, Food.SALT, Food.PALMS


def assur_vp(events: list) -> dict[int, int]:  # type: ignore[type-arg]
    return {e.seat: e.vp for e in events if isinstance(e, ev.AssurScored)}


def test_t1_assur_cascade_four_players_reign_two_with_the_bonus_card() -> None:
    state = table(4, reign=2, turn=5)
    state.assur_cards = [4, 3, 2, 4]  # the reign's expansion cards and the bonus card
    state.assur_higher = [0, 0, 1]  # influence 6, 3, 2, 1
    state.assur_middle = [2]
    state.assur_lower = [3]
    state.players[1].huts -= 1  # (huts in Assur come from stock; only the ranking matters here)
    events: list = []  # type: ignore[type-arg]
    assur.score(state, events)
    assert assur_vp(events) == {0: 13, 1: 9, 2: 5, 3: 2}
    assert [p.score for p in state.players] == [13, 9, 5, 2]

    state = table(4, reign=2, turn=5)
    state.assur_cards = [4, 3, 2, 4]
    state.assur_higher = [2]
    state.assur_lower = [0]
    events = []
    assur.score(state, events)
    assert assur_vp(events) == {2: 13, 0: 9}
    assert [p.score for p in state.players] == [9, 0, 13, 0]


def test_t2_assur_with_two_players() -> None:
    state = table(2, reign=1, turn=2)
    state.assur_cards = [4, 3]
    state.assur_higher = [1]
    state.assur_lower = [0]
    events: list = []  # type: ignore[type-arg]
    assur.score(state, events)
    assert assur_vp(events) == {1: 7, 0: 0}

    state = table(2, reign=2, turn=5)
    state.assur_cards = [4, 3, 2]
    state.assur_higher = [0]
    state.assur_lower = [1]
    events = []
    assur.score(state, events)
    assert assur_vp(events) == {0: 9, 1: 2}


def test_t3_camels_per_river_and_the_cap_of_ten() -> None:
    state = expanding(table(4), 0)
    for q, r in ((0, 2), (1, 1), (0, 4)):  # 2 huts on R1, 1 on R2
        hut(state, 0, q, r, fed=True)
    assert revenue.river_camels([2, 1]) == 8
    state.players[0].camels = 7
    events: list = []  # type: ignore[type-arg]
    revenue.collect(state, events)
    assert state.players[0].camels == 10
    assert events == [ev.RevenueGained(0, 3, 5, 0)]


def test_t4_prestige() -> None:
    state = expanding(table(4), 0)
    for q, r in ((0, 0), (0, 1)):  # outside
        hut(state, 0, q, r, fed=True)
    hut(state, 0, 0, 3, fed=True)  # inside
    for q, r in ((0, 2), (1, 1)):  # river 1
        hut(state, 0, q, r, fed=True)
    ziggurat(state, 0, 2, 5, height=2)  # base + centre
    ziggurat(state, 0, 4, 4, height=1)  # a lone base
    assert revenue.prestige(state, 0) == 2 + 2 + 0 + 3 == 7


def test_t5_a_well_on_a_site_whose_three_hexes_hold_the_players_huts() -> None:
    state = expanding(table(2, reign=2, turn=4), 0)
    for q, r in ((1, 0), (0, 0), (0, 1)):
        hut(state, 0, q, r, fed=True)
    site = SITE_NUMBER[WellSite(1, 0, -1)]
    assert sorted(SITE_HEXES[site]) == sorted(at(*c) for c in ((1, 0), (0, 0), (0, 1)))
    assert wells.legal_sites(state, 0) == [site]
    events: list = []  # type: ignore[type-arg]
    wells.play(state, act.Action(act.BUILD_WELL, site), events)
    assert state.players[0].score == 5
    assert state.wells == [site] and state.wells_supply == 7
    assert events == [ev.WellBuilt(0, site, 5)]

    # A site touching a river hex is allowed: (0, 1, +1) = {(0, 1), (1, 1), (1, 0)}, (1, 1) on river 1.
    state = expanding(table(2), 0)
    for q, r in ((0, 1), (1, 1), (1, 0)):
        hut(state, 0, q, r, fed=True)
    assert wells.legal_sites(state, 0) == [SITE_NUMBER[WellSite(0, 1, 1)]]
    # No site touches an inside hex.
    inside = {at(q, r) for q, r in ((0, 3), (1, 2), (2, 1), (2, 2), (3, 1), (4, 1))}
    assert not any(set(s.hexes()) & {(0, 3), (1, 2), (2, 1), (2, 2), (3, 1), (4, 1)} for s in SITES)
    assert not any(set(SITE_HEXES[n]) & inside for n in range(1, len(SITES) + 1))


def test_t6_the_higher_dignitary() -> None:
    for huts, vp in ((2, 4), (3, 8)):
        state = table(2, reign=1, turn=2)
        state.assur_higher = [0] * huts
        events: list = []  # type: ignore[type-arg]
        assur.reward(state, events)
        assert state.players[0].score == vp
        assert state.assur_higher == [] and state.players[0].huts == 10 + huts


def test_t7_offerings() -> None:
    state = table(2)
    ziggurat(state, 0, 1, 0)
    ziggurat(state, 0, 1, 4, height=3)
    state.players[0].offerings = 5
    ziggurat(state, 1, 4, -1)
    ziggurat(state, 1, 4, 3, height=2)
    ziggurat(state, 1, 3, 4)
    state.players[1].offerings = 7
    events: list = []  # type: ignore[type-arg]
    offerings.score(state, events)
    assert [p.score for p in state.players] == [2 * 3, 3 * 4]
    assert [p.offerings for p in state.players] == [0, 0]


def test_t8_end_of_game_bonuses() -> None:
    state = table(2)
    ziggurat(state, 0, 1, 0, height=3)
    ziggurat(state, 0, 1, 4, height=2)
    state.players[0].plow = True
    state.players[0].camels = 7
    assert scoring.final_bonus(state, 0) == (5, 1, 3)
    events: list = []  # type: ignore[type-arg]
    scoring.end_game(state, events)
    assert state.players[0].score == 9 and state.terminal
    assert events[-1].seats[0] == ev.SeatFinal(0, 5, 1, 3, 9)


def test_t9_the_sowing_sort() -> None:
    drawn = [card_of(DATES, 2), WILD_CARD, card_of(GRAPES, 1), card_of(SALT, 1), card_of(PALMS, 3)]
    assert sowing.sorted_row(drawn) == [
        card_of(GRAPES, 1),
        card_of(SALT, 1),
        card_of(DATES, 2),
        card_of(PALMS, 3),
        WILD_CARD,
    ]
    # The deal draws row 1 completely, then row 2 (OP-22), from the end of the deck.
    state = table(4)
    state.food_deck = [*drawn, *([card_of(SALT, 3)] * 5)][::-1]  # drawn first = last in the list
    sowing.sow(state, [])
    assert state.sowing_row_1 == sowing.sorted_row(drawn)
    assert state.sowing_row_2 == [card_of(SALT, 3)] * 5


def test_t10_assur_tie_breaks() -> None:
    state = table(4)
    state.assur_middle, state.assur_lower = [0], [1, 1]
    assert assur.ranking(state) == [1, 0]  # equal influence 2: more huts
    state = table(4)
    state.assur_middle = [2, 0]
    assert assur.ranking(state) == [2, 0]  # one middle hut each: the higher space
    state.assur_middle = [0, 2]
    assert assur.ranking(state) == [0, 2]
    state = table(4)
    state.assur_middle, state.assur_lower = [0], [3]
    assert assur.ranking(state) == [0, 3]  # influence 2 against 1


def starved(events: list) -> list[int]:  # type: ignore[type-arg]
    return [h for e in events if isinstance(e, ev.HutsStarved) for h in e.hexes]


def test_t12_feeding_every_turn() -> None:
    state = expanding(table(2, reign=2, turn=3), 0)
    h = hut(state, 0, 0, 0, fed=True)  # fed in turn 3
    end_of_turn.end_turn(state, [])
    assert state.turn == 4 and not state.fed[h]
    expanding(state, 0)
    events: list = []  # type: ignore[type-arg]
    expansion.after_placing(state, events)  # no food in hand, no plow
    assert state.legal is None and engine.legal_now(state) == [act.END_FEEDING_ACTION]
    events += engine.play(state, 0, act.END_FEEDING_ACTION)  # the only choice: it starves
    assert starved(events) == [h]
    assert state.hut_seats[h] == -1 and state.players[0].huts == 10


def test_t12_with_fed_status_lasting_the_reign() -> None:
    state = expanding(table(2, reign=2, turn=3, config=Config(fed_status_lasts=FED_REIGN)), 0)
    h = hut(state, 0, 0, 0, fed=True)
    for turn in (4, 5):
        end_of_turn.end_turn(state, [])
        assert state.turn == turn and state.fed[h]
        expanding(state, 0)
        events: list = []  # type: ignore[type-arg]
        expansion.after_placing(state, events)  # nothing to feed: it stays
        assert starved(events) == [] and state.hut_seats[h] == 0
    end_of_turn.end_turn(state, [])  # the Flood of turn 5
    assert (state.reign, state.turn) == (3, 6) and not state.fed[h] and state.hut_seats[h] == 0
    expanding(state, 0)
    events = []
    expansion.after_placing(state, events)
    events += engine.play(state, 0, act.END_FEEDING_ACTION)
    assert starved(events) == [h] and state.hut_seats[h] == -1

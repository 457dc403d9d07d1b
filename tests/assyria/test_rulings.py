"""Every numbered ruling of §7 of the Assyria rules as a concrete position with its outcome (ruling 5
is scenario T12 and ruling 13 a view test: tests/assyria/test_scenarios.py, test_codec.py)."""

# Covered here, by the tests named after them: ruling 1, ruling 2, ruling 3, ruling 4, ruling 6, ruling 7,
# ruling 8, ruling 9, ruling 10, ruling 11, ruling 12, ruling 14, ruling 15, ruling 16.

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import assur, end_of_turn, expansion, feeding, flood, huts, offerings, revenue, wells
from services.assyria import events as ev
from services.assyria import ziggurats as zig
from services.assyria.board import SITE_HEXES, SITE_NUMBER, SITES
from services.assyria.cards import WILD_CARD, card_of
from services.assyria.data import Dignitary, Food, WellSite
from services.assyria.state import FEED, NOBODY
from tests.assyria.scenario import at, expanding, hut, table, ziggurat


def test_ruling_1_river_huts_earn_camels_no_prestige_and_are_lost_at_the_flood() -> None:
    state = expanding(table(2), 0)
    h = hut(state, 0, 1, 1, fed=True)  # river 1
    events: list = []  # type: ignore[type-arg]
    revenue.collect(state, events)
    assert events == [ev.RevenueGained(0, 3, 0, 0)]
    flood.flood_rivers(state, events)
    assert state.hut_seats[h] == NOBODY and state.players[0].huts == 10
    assert events[-1] == ev.FloodCame(1, (1, 0))


def test_ruling_2_adjacency_counts_own_pieces_and_huts_placed_in_the_same_step() -> None:
    state = expanding(table(2), 0)
    ziggurat(state, 0, 1, 0)
    hut(state, 1, 3, -1)
    expected = sorted(at(*c) for c in ((2, 0), (2, -1), (0, 0), (0, 1), (1, 1)))
    assert huts.open_hexes(state, 0) == expected  # (4, -1), next to seat 1's hut only, is not open
    state.huts_to_place = 2
    huts.play(state, act.Action(act.PLACE_HUT, at(0, 1)), [])
    assert at(0, 2) in huts.open_hexes(state, 0)  # next to the hut just placed


def test_ruling_3_one_piece_per_hex_and_a_base_replaces_the_hut() -> None:
    state = expanding(table(2), 0)
    ziggurat(state, 0, 1, 0)
    hut(state, 1, 2, 0)
    assert at(2, 0) not in huts.open_hexes(state, 0) and at(1, 0) not in huts.open_hexes(state, 0)
    h = hut(state, 0, 0, 0, fed=True)
    state.players[0].camels = 6
    state.step = 7
    zig.play(state, act.Action(act.BUILD_BASE, h), [])
    assert state.hut_seats[h] == NOBODY and state.ziggurat_seats[h] == 0 and state.ziggurat_heights[h] == 1
    assert state.players[0].huts == 10 and state.players[0].camels == 0


def test_ruling_4_ziggurats_off_rivers_and_well_hexes_wells_off_ziggurats_and_the_inside() -> None:
    state = table(2)
    state.players[0].camels = 10
    river = hut(state, 0, 1, 1, fed=True)
    for q, r in ((1, 0), (0, 0), (0, 1)):
        hut(state, 0, q, r, fed=True)
    site = SITE_NUMBER[WellSite(1, 0, -1)]
    state.wells = [site]
    free = hut(state, 0, 2, -1, fed=True)
    bases = [a.a for a in zig.options(state, 0) if a.kind == act.BUILD_BASE]
    assert bases == [free]  # not the river hex, not the well's 3 hexes
    assert river not in bases and not set(SITE_HEXES[site]) & set(bases)

    state = table(2)
    hut(state, 0, 0, 0, fed=True)
    hut(state, 0, 0, 1, fed=True)
    ziggurat(state, 0, 1, 0)
    assert site not in wells.legal_sites(state, 0)
    inside = {(q, r) for q, r in ((0, 3), (1, 2), (2, 1), (2, 2), (3, 1), (4, 1), (5, 0), (5, 1))}
    assert all(not set(s.hexes()) & inside for s in SITES)


def test_ruling_6_a_card_feeds_its_own_food_only_and_unused_symbols_are_lost() -> None:
    state = expanding(table(2), 0)
    dates = [hut(state, 0, q, r) for q, r in ((0, 1), (2, 0))]  # two dates hexes
    grapes = hut(state, 0, 2, 1)
    state.step = FEED
    state.players[0].hand = [card_of(Food.DATES, 3), WILD_CARD]
    assert feeding.legal(state) == [  # feeding is compulsory (OP-24): no stopping while a card can feed
        act.Action(act.PLAY_CARD, card_of(Food.DATES, 3)),
        act.Action(act.PLAY_CARD, WILD_CARD),
    ]
    feeding.play(state, act.Action(act.PLAY_CARD, card_of(Food.DATES, 3)), [])
    assert feeding.legal(state) == [act.Action(act.FEED_HUT, h) for h in sorted(dates)]
    for h in dates:
        feeding.play(state, act.Action(act.FEED_HUT, h), [])
    assert state.feeding_symbols == 0  # the third symbol is lost: no dates hut is left unfed
    assert feeding.legal(state) == [act.Action(act.PLAY_CARD, WILD_CARD)]
    feeding.play(state, act.Action(act.PLAY_CARD, WILD_CARD), [])
    assert feeding.legal(state) == [act.Action(act.FEED_HUT, grapes)]
    assert feeding.play(state, act.Action(act.FEED_HUT, grapes), [])  # everything fed: done
    assert state.food_discard == [card_of(Food.DATES, 3), WILD_CARD] and state.players[0].hand == []


def test_ruling_6_a_plow_feeds_any_one_hut_and_returns_to_the_stack() -> None:
    state = expanding(table(2), 0)
    a, b = hut(state, 0, 0, 0), hut(state, 0, 0, 1)
    state.players[0].plow = True
    state.step = FEED
    feeding.play(state, act.PLAY_PLOW_ACTION, [])
    assert feeding.legal(state) == [act.Action(act.FEED_HUT, a), act.Action(act.FEED_HUT, b)]
    assert not feeding.play(state, act.Action(act.FEED_HUT, b), [])
    assert state.plow_stack == 1 and not state.players[0].plow and state.feeding_symbols == 0
    events: list = []  # type: ignore[type-arg]
    feeding.famine(state, events)
    assert events == [ev.HutsStarved(0, (a,))] and state.hut_seats[b] == 0


def test_ruling_7_the_camel_track_stops_at_ten_for_the_lower_dignitary_too() -> None:
    state = table(2)
    state.players[0].camels = 9
    state.assur_lower = [0, 0, 0]
    events: list = []  # type: ignore[type-arg]
    assur.reward(state, events)
    assert state.players[0].camels == 10
    assert events == [ev.DignitaryRewarded(0, Dignitary.LOWER, 0, 1, False)]


def test_ruling_8_river_camels_are_counted_per_river() -> None:
    assert revenue.river_camels([2, 2]) == (3 + 2) + (3 + 2) == 10
    assert revenue.river_camels([0, 1]) == 3
    assert revenue.river_camels([0, 0]) == 0


def test_ruling_9_only_players_in_assur_are_ranked_and_late_ranks_score_nothing() -> None:
    state = table(4, reign=1, turn=2)
    state.assur_cards = [4]
    state.assur_higher, state.assur_middle, state.assur_lower = [3], [1], [2]
    events: list = []  # type: ignore[type-arg]
    assur.score(state, events)
    assert events == [ev.AssurScored(3, 1, 4), ev.AssurScored(1, 2, 0), ev.AssurScored(2, 3, 0)]
    assert state.players[0].score == 0


def test_ruling_10_middle_dignitary_plows() -> None:
    state = table(3)
    state.assur_middle = [0, 1, 2]
    state.players[0].plow = True
    state.plow_stack = 1
    state.turn_order = [2, 1, 0]
    assur.reward(state, [])
    assert [p.plow for p in state.players] == [True, False, True]  # seat 2 is first in turn order
    assert state.plow_stack == 0
    state = table(2)
    state.assur_middle = [0]
    assur.reward(state, [])
    assert not state.players[0].plow  # the stack is empty


def test_ruling_11_offerings_multiply_ziggurats_not_pieces() -> None:
    state = table(2)
    ziggurat(state, 0, 1, 0, height=3)
    state.players[0].offerings = 4
    offerings.score(state, [])
    assert state.players[0].score == 3 and state.players[0].offerings == 0


def test_ruling_12_the_bonus_card_counts_in_assur_only() -> None:
    for n, row in ((4, [4, 2]), (3, [2])):
        state = table(n, reign=1, turn=2)
        state.expansion_deck = [3, 2]
        end_of_turn.end_turn(state, [])
        assert (state.reign, state.turn, state.expansion_card) == (2, 3, 2)
        assert state.assur_cards == row
    state = expanding(table(4, reign=2, turn=3), 0)
    state.assur_cards = [4, 2]
    state.expansion_card = 2
    ziggurat(state, 0, 1, 0)
    events: list = []  # type: ignore[type-arg]
    expansion.begin(state, events)
    assert state.huts_to_place == 2


def test_ruling_14_unused_cards_stay_in_hand_with_no_limit() -> None:
    state = table(2, reign=1, turn=1)
    hand = [card_of(Food.SALT, 1)] * 12
    state.players[0].hand = hand[:]
    state.column_seats = [NOBODY] * 3
    end_of_turn.end_turn(state, [])
    assert state.players[0].hand == hand and state.turn == 2


def test_ruling_15_no_huts_in_stock_no_placement_and_no_intrigue() -> None:
    state = expanding(table(2), 0)
    ziggurat(state, 0, 1, 0)
    state.players[0].huts = 0
    state.players[0].camels = 10
    events: list = []  # type: ignore[type-arg]
    expansion.begin(state, events)
    assert not any(isinstance(e, ev.HutPlaced) for e in events)
    assert assur.options(state, 0) == []


def test_ruling_16_placements_with_no_legal_hex_are_skipped() -> None:
    state = expanding(table(2), 0)
    ziggurat(state, 0, 0, 0)
    for q, r in ((1, 0), (1, 1), (0, 2)):
        hut(state, 1, q, r, fed=True)
    events: list = []  # type: ignore[type-arg]
    expansion.begin(state, events)
    assert huts.legal(state) == [act.Action(act.PLACE_HUT, at(0, 1))]
    assert huts.play(state, act.Action(act.PLACE_HUT, at(0, 1)), events)  # done: 3 placements skipped
    assert [e for e in events if isinstance(e, ev.HutPlaced)] == [ev.HutPlaced(0, at(0, 1))]

"""Assyria's static data (services/assyria/data.py): the map scenario T11 of the rules, the neighbour
formula and the well-site rule on hand-checked hexes, the reduced boards, the decks, the open points'
DEFAULTs, and `check()` refusing broken copies of the tables. Expected values are written out here
from the rules, not read back from the tables under test."""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter

import pytest

from services.assyria import data
from services.assyria.data import (
    FOOD_DECK,
    HEXES,
    LISTED_WELL_SITES,
    MAP,
    WELL_SITES,
    DataError,
    Dignitary,
    Food,
    Hex,
    Region,
    StartSpace,
    Tables,
    WellSite,
    check,
    derive_well_sites,
    neighbours,
)

OUTSIDE, RIVER_1, RIVER_2, INSIDE = Region.OUTSIDE, Region.RIVER_1, Region.RIVER_2, Region.INSIDE


def regions(players: int) -> tuple[int, int, int, int, int]:
    """(all, O, R1, R2, I) hex counts of a player count's board."""
    count = Counter(h.region for h in MAP[players].values())
    return len(MAP[players]), count[OUTSIDE], count[RIVER_1], count[RIVER_2], count[INSIDE]


def is_chain(hexes: set[tuple[int, int]]) -> bool:
    """Whether the hexes form one simple path under the neighbour formula: connected, two ends, no fork."""
    degree = [len(neighbours(q, r, hexes)) for q, r in hexes]
    seen, todo = set(), [next(iter(hexes))]
    while todo:
        h = todo.pop()
        if h not in seen:
            seen.add(h)
            todo.extend(neighbours(*h, hexes))
    return seen == hexes and sorted(degree) == [1, 1] + [2] * (len(hexes) - 2)


def test_T11_map_data() -> None:
    """T11: 64 hexes, 32 / 10 / 10 / 12 by region, food 13 / 13 / 13 / 13 / 12, each river a chain,
    the site rule gives exactly the 58 listed sites, reduced boards 51 hexes / 44 sites (3p) and 38 / 31
    (2p)."""
    assert len(HEXES) == 64
    assert len({(h.q, h.r) for h in HEXES}) == 64
    assert regions(4) == (64, 32, 10, 10, 12)
    assert Counter(h.food for h in HEXES) == {
        Food.PALMS: 13,
        Food.DATES: 13,
        Food.GRAPES: 13,
        Food.SALT: 13,
        Food.BARLEY: 12,
    }
    for river in (RIVER_1, RIVER_2):
        assert is_chain({c for c, h in MAP[4].items() if h.region == river}), river.name
    derived = derive_well_sites(MAP[4])
    assert len(derived) == 58
    assert derived == set(LISTED_WELL_SITES)
    assert Counter(site.t for site in derived) == {-1: 29, 1: 29}
    assert regions(3) == (51, 25, 8, 8, 10)
    assert len(WELL_SITES[3]) == 44
    assert regions(2) == (38, 18, 6, 6, 8)
    assert len(WELL_SITES[2]) == 31
    assert len(WELL_SITES[4]) == 58


def test_the_rivers_chains_as_listed_are_neighbour_to_neighbour() -> None:
    r1 = [(0, 2), (1, 1), (2, 0), (3, 0), (4, 0), (5, -1), (6, -1), (7, -1), (8, -2), (9, -2)]
    r2 = [(0, 4), (1, 3), (2, 3), (3, 2), (4, 2), (5, 2), (6, 1), (7, 1), (8, 0), (9, 0)]
    for river, chain in ((RIVER_1, r1), (RIVER_2, r2)):
        assert {c for c, h in MAP[4].items() if h.region == river} == set(chain)
        for a, b in itertools.pairwise(chain):
            assert b in neighbours(*a, MAP[4]) and a in neighbours(*b, MAP[4])


def test_neighbours_follow_the_formula_and_stop_at_the_board_edge() -> None:
    # An inside hex has all six: (q+1, r), (q+1, r-1), (q, r-1), (q-1, r), (q-1, r+1), (q, r+1).
    assert neighbours(4, 1, MAP[4]) == [(5, 1), (5, 0), (4, 0), (3, 1), (3, 2), (4, 2)]
    # The corner (0, 0) keeps only (1, 0) and (0, 1): the other four are off the map.
    assert neighbours(0, 0, MAP[4]) == [(1, 0), (0, 1)]
    # The hexes of the rules' site (1, 0, -1) are mutual neighbours.
    assert (0, 0) in neighbours(1, 0, MAP[4]) and (0, 1) in neighbours(1, 0, MAP[4])
    assert (0, 1) in neighbours(0, 0, MAP[4])
    # On the 2-player board (q <= 5) column 6 does not exist: (5, 0) loses (6, 0) and (6, -1).
    assert neighbours(5, 0, MAP[4]) == [(6, 0), (6, -1), (5, -1), (4, 0), (4, 1), (5, 1)]
    assert neighbours(5, 0, MAP[2]) == [(5, -1), (4, 0), (4, 1), (5, 1)]


def test_the_well_site_rule_on_hand_checked_corners() -> None:
    # (1, 0, -1) = {(1, 0), (0, 0), (0, 1)}: three outside hexes on the map, so a site (the rules' example).
    assert WellSite(1, 0, -1).hexes() == ((1, 0), (0, 0), (0, 1))
    assert WellSite(1, 0, -1) in WELL_SITES[4]
    # (0, 1, +1) = {(0, 1), (1, 1), (1, 0)} touches the river hex (1, 1): wells may touch rivers.
    assert WellSite(0, 1, 1).hexes() == ((0, 1), (1, 1), (1, 0))
    assert MAP[4][(1, 1)].region == RIVER_1
    assert WellSite(0, 1, 1) in WELL_SITES[4]
    # (0, 2, +1) = {(0, 2), (1, 2), (1, 1)}: all on the map, but (1, 2) is inside: no wells between rivers.
    assert MAP[4][(1, 2)].region == INSIDE
    assert WellSite(0, 2, 1) not in WELL_SITES[4]
    # (0, 0, +1) = {(0, 0), (1, 0), (1, -1)}: (1, -1) is off the map.
    assert (1, -1) not in MAP[4]
    assert WellSite(0, 0, 1) not in WELL_SITES[4]
    # (6, 2, -1) = {(6, 2), (5, 2), (5, 3)}: on the 3-player board, not on the 2-player one (q <= 5).
    assert WellSite(6, 2, -1) in WELL_SITES[3]
    assert WellSite(6, 2, -1) not in WELL_SITES[2]
    assert not any(MAP[4][h].region == INSIDE for site in WELL_SITES[4] for h in site.hexes())


def test_reduced_boards_and_their_start_spaces() -> None:
    assert {players: max(q for q, _ in board) for players, board in MAP.items()} == {4: 9, 3: 7, 2: 5}
    assert WELL_SITES[2] < WELL_SITES[3] < WELL_SITES[4]
    starts = {players: sorted((s.q, s.r) for s in spaces) for players, spaces in data.START_SPACES.items()}
    assert starts == {
        4: [(1, 0), (1, 4), (8, -3), (8, 1)],
        3: [(1, 4), (4, -1), (6, 2)],
        2: [(1, 0), (1, 4), (4, -1), (4, 3)],
    }
    for players, spaces in data.START_SPACES.items():
        for s in spaces:
            assert MAP[players][(s.q, s.r)].region == OUTSIDE
    assert (8, 1) not in MAP[3] and (6, 2) not in MAP[2]
    assert {p: row.wells for p, row in data.SETUP.items()} == {2: 8, 3: 12, 4: 16}


def test_the_decks() -> None:
    assert len(FOOD_DECK) == 40
    kinds = Counter((card.food, card.symbols) for card in FOOD_DECK)
    for food in (Food.GRAPES, Food.PALMS, Food.SALT, Food.BARLEY, Food.DATES):
        assert (kinds[(food, 1)], kinds[(food, 2)], kinds[(food, 3)]) == (3, 2, 2), food.name
    assert kinds[(Food.WILD, 1)] == 5
    assert sum(kinds.values()) == 40
    assert Counter(card.cost for card in FOOD_DECK) == {1: 15, 2: 25}  # 1-symbol 1, others and wild 2
    assert sorted(data.EXPANSION_CARDS) == [2, 2, 3, 3, 3, 3, 4, 4, 4]
    assert data.TURN_1_EXPANSION == 4 and data.BONUS_CARD == 4
    assert data.PLOW_CARDS == 4 and data.PLOW_COST == 2
    assert len(FOOD_DECK) + len(data.EXPANSION_CARDS) + 1 + data.PLOW_CARDS == 54


def test_costs_and_the_assur_tables() -> None:
    assert [data.ZIGGURAT_COST[p] for p in data.ZigguratPiece] == [6, 3, 2]
    assert [(d.spaces, d.cost, d.influence) for d in data.DIGNITARIES.values()] == [
        (3, 4, 3),
        (4, 3, 2),
        (6, 2, 1),
    ]
    assert list(data.DIGNITARIES) == [Dignitary.HIGHER, Dignitary.MIDDLE, Dignitary.LOWER]
    assert data.HIGHER_DIGNITARY_VP == (0, 1, 4, 8)
    assert data.WELL_VP == (6, 5, 4)
    assert data.REIGN_TURNS == ((1, 2), (3, 4, 5), (6, 7, 8))


def test_every_open_point_has_its_default() -> None:
    assert sorted(data.OPEN_POINTS, key=lambda op: int(op[3:])) == [f"OP-{n}" for n in range(1, 25)]
    defaults = {
        "ASSUR_2P_RULE": True,
        "OFFERING_MULT": (0, 1, 2, 2, 3, 3, 3, 4),
        "DIGNITARY_SPACES": {Dignitary.HIGHER: 3, Dignitary.MIDDLE: 4, Dignitary.LOWER: 6},
        "INITIAL_TURN_ORDER_RANDOM": True,
        "HUTS_MANDATORY": True,
        "DISCARD_LEFTOVER_COLUMN": True,
        "FOOD_HAND_LIMIT": None,
        "RESHUFFLE_FOOD_DISCARDS": True,
        "SHARED_VICTORY": True,
        "WELL_ZIGGURAT_CHECK": "site_hexes",
        "ONE_PIECE_PER_TURN": True,
        "MIDDLE_PLOWS_IN_TURN_ORDER": True,
        "CAMEL_CAP": 10,
        "START_PLOW": True,
        "UNUSED_PLOWS": "stack",
        "RIVER_REVENUE": "per_river",
        "ASSUR_TIE_BEST_HUT": True,
        "EXPANSION_MODE": "per_player",
        "SOWING_ROW_BY_ROW": True,
        "FED_STATUS_LASTS": "turn",
        "FEEDING": "compulsory",
        "FOOD_CARD_COST": {1: 1, 2: 2, 3: 2},
        "WILD_CARD_COST": 2,
    }
    assert {name: getattr(data, name) for name in defaults} == defaults
    named = {name for names in data.OPEN_POINTS.values() for name in names}
    assert set(defaults) <= named


def _moved(hexes: tuple[Hex, ...], q: int, r: int, region: Region) -> tuple[Hex, ...]:
    return tuple(h._replace(region=region) if (h.q, h.r) == (q, r) else h for h in hexes)


TABLES = Tables()
BROKEN = {
    "a hex removed": (dataclasses.replace(TABLES, hexes=HEXES[1:]), "HEXES", "63 hexes"),
    "a hex twice": (dataclasses.replace(TABLES, hexes=(*HEXES, HEXES[0])), "HEXES", "listed twice: [(0, 0)]"),
    "an outside hex made inside": (
        dataclasses.replace(TABLES, hexes=_moved(HEXES, 0, 0, INSIDE)),
        "BOARDS",
        "4 players: hexes (all, O, R1, R2, I) (64, 31, 10, 10, 13)",
    ),
    "a river hex made outside": (
        dataclasses.replace(TABLES, hexes=_moved(HEXES, 0, 2, OUTSIDE)),
        "RIVER_CHAINS",
        "RIVER_1",
    ),
    "a hex's food changed": (
        dataclasses.replace(TABLES, hexes=(HEXES[0]._replace(food=Food.BARLEY), *HEXES[1:])),
        "HEXES",
        "food counts",
    ),
    "a neighbour step wrong": (
        dataclasses.replace(TABLES, neighbour_steps=((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (1, 1))),
        "NEIGHBOUR_STEPS",
        "not back",
    ),
    "a stated site count wrong": (
        dataclasses.replace(TABLES, boards={**data.BOARDS, 3: data.BOARDS[3]._replace(well_sites=45)}),
        "BOARDS",
        "3 players: 44 well sites by the site rule; T11 gives 45",
    ),
    "a listed site missing": (
        dataclasses.replace(TABLES, listed_well_sites=LISTED_WELL_SITES[1:]),
        "LISTED_WELL_SITES",
        "not listed: [WellSite(q=1, r=0, t=-1)]",
    ),
    "a site between the rivers listed": (
        dataclasses.replace(TABLES, listed_well_sites=(*LISTED_WELL_SITES, WellSite(0, 2, 1))),
        "LISTED_WELL_SITES",
        "listed, not derived: [WellSite(q=0, r=2, t=1)]",
    ),
    "a start space off its board": (
        dataclasses.replace(
            TABLES,
            start_spaces={**data.START_SPACES, 3: (*data.START_SPACES[3], StartSpace(8, 1, Food.GRAPES))},
        ),
        "START_SPACES",
        "3 players: (8, 1) is not on their board",
    ),
    "a start space twice": (
        dataclasses.replace(
            TABLES, start_spaces={**data.START_SPACES, 2: (StartSpace(1, 0, Food.BARLEY),) * 2}
        ),
        "START_SPACES",
        "2 players: a start space twice",
    ),
    "a start space on a river": (
        dataclasses.replace(
            TABLES,
            start_spaces={
                **data.START_SPACES,
                2: (StartSpace(0, 2, Food.GRAPES), StartSpace(1, 0, Food.BARLEY)),
            },
        ),
        "START_SPACES",
        "(0, 2) is not an outside hex",
    ),
    "a start space's food wrong": (
        dataclasses.replace(
            TABLES,
            start_spaces={**data.START_SPACES, 4: (StartSpace(1, 0, Food.SALT), *data.START_SPACES[4][1:])},
        ),
        "START_SPACES",
        "(1, 0) is BARLEY, not SALT",
    ),
    "wild cards dropped": (
        dataclasses.replace(TABLES, food_cards=data.FOOD_CARDS[:-1]),
        "FOOD_CARDS",
        "35 food cards",
    ),
    "a grapes card made palms, the total kept": (
        dataclasses.replace(
            TABLES,
            food_cards=(
                data.FOOD_CARDS[0]._replace(copies=2),
                *data.FOOD_CARDS[1:3],
                data.FOOD_CARDS[3]._replace(copies=4),
                *data.FOOD_CARDS[4:],
            ),
        ),
        "FOOD_CARDS",
        "per type",
    ),
    "an expansion card missing": (
        dataclasses.replace(TABLES, expansion_cards=data.EXPANSION_CARDS[1:]),
        "EXPANSION_CARDS",
        "8 expansion cards",
    ),
    "an open point without its constant": (
        dataclasses.replace(TABLES, open_points={k: v for k, v in data.OPEN_POINTS.items() if k != "OP-12"}),
        "OPEN_POINTS",
        "OP-1 to OP-24",
    ),
    "an offering band falling": (
        dataclasses.replace(TABLES, offering_mult=(0, 1, 2, 2, 3, 3, 2, 4)),
        "OFFERING_MULT",
        "falls",
    ),
}


def test_the_tables_as_shipped_pass_the_check() -> None:
    check()
    check(TABLES)


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_check_refuses_a_broken_table_and_names_it(case: str) -> None:
    tables, table, rule = BROKEN[case]
    with pytest.raises(DataError) as refused:
        check(tables)
    assert refused.value.table == table
    assert rule in refused.value.rule
    assert str(refused.value).startswith(f"Assyria data, {table}: ")

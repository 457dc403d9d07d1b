"""Assyria's static facts as data: the hex map, the reduced boards, start spaces and well sites, the
card decks, costs, the Assur and dignitary tables, and the named DEFAULT of every open point.

Sources (keys of the Assyria rules specification): BGA-A (the BoardGameArena implementation: map,
cards, costs, scoring; the only machine-readable map), BGA-DOC (its game help), ASY-RB (the Ystari /
Rio Grande rulebook), REV (reviews) and S001 (a Chinese rules summary with the Assur example). The
map, the start spaces, the per-type food split, the expansion split, the card costs, the dignitary
space counts and the offering bands are BGA-A only (UNCONFIRMED there); a correction against a
printed copy is a change to a table below, and `check()` (run on import) says what it broke.

Ids that will become protobuf enum numbers start at 1 (0 is "unspecified"), in the rules' order.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import Counter
from collections.abc import Iterable, Mapping
from enum import IntEnum
from typing import Final, NamedTuple

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
COLOURS: Final = 4

Coord = tuple[int, int]


class Region(IntEnum):
    """The four regions of the map (§2.1)."""

    OUTSIDE = 1  # O: beyond either river
    RIVER_1 = 2  # R1
    RIVER_2 = 3  # R2
    INSIDE = 4  # I: between the rivers


RIVERS: Final = (Region.RIVER_1, Region.RIVER_2)


class Food(IntEnum):
    """Food types in the order of §1.1; WILD is a card kind only (any food, 1 symbol), never a hex's."""

    GRAPES = 1
    PALMS = 2
    SALT = 3
    BARLEY = 4
    DATES = 5
    WILD = 6


HEX_FOODS: Final = (Food.GRAPES, Food.PALMS, Food.SALT, Food.BARLEY, Food.DATES)


class Dignitary(IntEnum):
    """The three dignitaries of Assur (§1.3)."""

    HIGHER = 1
    MIDDLE = 2
    LOWER = 3


class ZigguratPiece(IntEnum):
    """The pieces of a ziggurat, in building order (§1.3)."""

    BASE = 1
    CENTRE = 2
    ROOF = 3


class Hex(NamedTuple):
    """One hex of the map in axial coordinates: q the column 0-9, r the row."""

    q: int
    r: int
    food: Food
    region: Region


class Board(NamedTuple):
    """A player count's board as the rules state it (§2.2, §2.3): its last usable column and its counts."""

    last_column: int
    hexes: int
    outside: int
    river_1: int
    river_2: int
    inside: int
    well_sites: int


class StartSpace(NamedTuple):
    """A marked start space (§2.2) with the food the rules name for it."""

    q: int
    r: int
    food: Food


class WellSite(NamedTuple):
    """A hex corner (§2.3): shared by hexes (q, r), (q + t, r) and (q + t, r - t), t = -1 or +1."""

    q: int
    r: int
    t: int

    def hexes(self) -> tuple[Coord, Coord, Coord]:
        """The 3 hexes around this corner."""
        q, r, t = self
        return (q, r), (q + t, r), (q + t, r - t)


class FoodCards(NamedTuple):
    """A row of the food deck (§1.1): copies of a card of one food type with so many symbols."""

    food: Food
    symbols: int
    copies: int


class FoodCard(NamedTuple):
    """One food card: its food type (WILD for a wild card) and its number of symbols."""

    food: Food
    symbols: int

    @property
    def cost(self) -> int:
        """Its camel cost as a leftover card (§1.1, OP-2)."""
        return WILD_CARD_COST if self.food == Food.WILD else FOOD_CARD_COST[self.symbols]


class DignitaryRow(NamedTuple):
    """A dignitary's spaces, camel cost per hut and influence per hut (§1.3, §5 II)."""

    spaces: int
    cost: int
    influence: int


class SetupRow(NamedTuple):
    """What a player count changes at setup (§3)."""

    wells: int
    sowing_row_cards: int
    draft_cards: int
    bonus_card: bool


OUT: Final = Region.OUTSIDE
R1: Final = Region.RIVER_1
R2: Final = Region.RIVER_2
IN: Final = Region.INSIDE
GRAPES, PALMS, SALT, BARLEY, DATES = HEX_FOODS

# §2.1, one column per group, r ascending.
HEXES: Final[tuple[Hex, ...]] = (
    Hex(0, 0, PALMS, OUT),
    Hex(0, 1, DATES, OUT),
    Hex(0, 2, GRAPES, R1),
    Hex(0, 3, SALT, IN),
    Hex(0, 4, BARLEY, R2),
    Hex(0, 5, GRAPES, OUT),
    #
    Hex(1, 0, BARLEY, OUT),
    Hex(1, 1, SALT, R1),
    Hex(1, 2, PALMS, IN),
    Hex(1, 3, GRAPES, R2),
    Hex(1, 4, SALT, OUT),
    Hex(1, 5, PALMS, OUT),
    #
    Hex(2, -1, SALT, OUT),
    Hex(2, 0, DATES, R1),
    Hex(2, 1, GRAPES, IN),
    Hex(2, 2, BARLEY, IN),
    Hex(2, 3, DATES, R2),
    Hex(2, 4, BARLEY, OUT),
    Hex(2, 5, DATES, OUT),
    #
    Hex(3, -1, BARLEY, OUT),
    Hex(3, 0, PALMS, R1),
    Hex(3, 1, DATES, IN),
    Hex(3, 2, PALMS, R2),
    Hex(3, 3, GRAPES, OUT),
    Hex(3, 4, PALMS, OUT),
    #
    Hex(4, -2, GRAPES, OUT),
    Hex(4, -1, DATES, OUT),
    Hex(4, 0, BARLEY, R1),
    Hex(4, 1, GRAPES, IN),
    Hex(4, 2, SALT, R2),
    Hex(4, 3, BARLEY, OUT),
    Hex(4, 4, SALT, OUT),
    #
    Hex(5, -2, SALT, OUT),
    Hex(5, -1, GRAPES, R1),
    Hex(5, 0, PALMS, IN),
    Hex(5, 1, DATES, IN),
    Hex(5, 2, PALMS, R2),
    Hex(5, 3, DATES, OUT),
    #
    Hex(6, -3, PALMS, OUT),
    Hex(6, -2, BARLEY, OUT),
    Hex(6, -1, DATES, R1),
    Hex(6, 0, SALT, IN),
    Hex(6, 1, BARLEY, R2),
    Hex(6, 2, GRAPES, OUT),
    Hex(6, 3, PALMS, OUT),
    #
    Hex(7, -3, SALT, OUT),
    Hex(7, -2, GRAPES, OUT),
    Hex(7, -1, PALMS, R1),
    Hex(7, 0, GRAPES, IN),
    Hex(7, 1, SALT, R2),
    Hex(7, 2, DATES, OUT),
    #
    Hex(8, -4, DATES, OUT),
    Hex(8, -3, PALMS, OUT),
    Hex(8, -2, SALT, R1),
    Hex(8, -1, BARLEY, IN),
    Hex(8, 0, DATES, R2),
    Hex(8, 1, GRAPES, OUT),
    Hex(8, 2, PALMS, OUT),
    #
    Hex(9, -4, BARLEY, OUT),
    Hex(9, -3, DATES, OUT),
    Hex(9, -2, GRAPES, R1),
    Hex(9, -1, SALT, IN),
    Hex(9, 0, BARLEY, R2),
    Hex(9, 1, SALT, OUT),
)

# §2.1: the neighbours of (q, r) are (q + dq, r + dr) for these steps, if on the map.
NEIGHBOUR_STEPS: Final[tuple[Coord, ...]] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

# §2.1: each river as a chain, each hex a neighbour of the next.
RIVER_CHAINS: Final[Mapping[Region, tuple[Coord, ...]]] = {
    R1: ((0, 2), (1, 1), (2, 0), (3, 0), (4, 0), (5, -1), (6, -1), (7, -1), (8, -2), (9, -2)),
    R2: ((0, 4), (1, 3), (2, 3), (3, 2), (4, 2), (5, 2), (6, 1), (7, 1), (8, 0), (9, 0)),
}

# §2.1: hexes per food on the full map.
MAP_FOOD_COUNTS: Final[Mapping[Food, int]] = {PALMS: 13, DATES: 13, GRAPES: 13, SALT: 13, BARLEY: 12}

# §2.2-§2.3 (OP-4): the usable columns q = 0..last_column and the counts the rules give for them.
BOARDS: Final[Mapping[int, Board]] = {
    4: Board(last_column=9, hexes=64, outside=32, river_1=10, river_2=10, inside=12, well_sites=58),
    3: Board(last_column=7, hexes=51, outside=25, river_1=8, river_2=8, inside=10, well_sites=44),
    2: Board(last_column=5, hexes=38, outside=18, river_1=6, river_2=6, inside=8, well_sites=31),
}

# §2.2 (OP-4): the marked start spaces per player count, all outside hexes.
START_SPACES: Final[Mapping[int, tuple[StartSpace, ...]]] = {
    4: (StartSpace(1, 0, BARLEY), StartSpace(1, 4, SALT), StartSpace(8, -3, PALMS), StartSpace(8, 1, GRAPES)),
    3: (StartSpace(1, 4, SALT), StartSpace(4, -1, DATES), StartSpace(6, 2, GRAPES)),
    2: (StartSpace(1, 0, BARLEY), StartSpace(1, 4, SALT), StartSpace(4, -1, DATES), StartSpace(4, 3, BARLEY)),
}

# §2.3: the 58 well sites as listed, (q, r) per t. The engine uses the sites derived by the site rule
# (`derive_well_sites`, WELL_SITES); `check()` asserts that they are exactly these.
_LISTED_SITES: Final[Mapping[int, tuple[Coord, ...]]] = {
    -1: (
        (1, 0), (1, 1), (1, 4), (2, 0), (2, 3), (2, 4), (3, -1), (3, 3), (3, 4), (4, -1), (4, 2), (4, 3),
        (5, -2), (5, -1), (5, 2), (5, 3), (6, -2), (6, 2), (7, -3), (7, -2), (7, 1), (7, 2), (8, -3),
        (8, -2), (8, 1), (9, -4), (9, -3), (9, 0), (9, 1),
    ),
    1: (
        (0, 1), (0, 4), (0, 5), (1, 0), (1, 4), (1, 5), (2, 0), (2, 3), (2, 4), (3, -1), (3, 0), (3, 3),
        (3, 4), (4, -1), (4, 3), (5, -2), (5, -1), (5, 2), (5, 3), (6, -2), (6, -1), (6, 2), (7, -3),
        (7, -2), (7, 1), (7, 2), (8, -3), (8, -2), (8, 1),
    ),
}  # fmt: skip
LISTED_WELL_SITES: Final[tuple[WellSite, ...]] = tuple(
    WellSite(q, r, t) for t, coords in _LISTED_SITES.items() for q, r in coords
)
# §2.3: a site's 3 hexes may not include one of these regions ("no wells between the rivers").
WELL_FORBIDDEN_REGIONS: Final = frozenset({IN})

# §1, §3: components and setup per player count.
HUTS: Final = 40
HUTS_PER_COLOUR: Final = 10
ZIGGURAT_PIECES: Final = 16  # of each kind
ZIGGURAT_PIECES_PER_COLOUR: Final[Mapping[ZigguratPiece, int]] = {
    ZigguratPiece.BASE: 4,
    ZigguratPiece.CENTRE: 4,
    ZigguratPiece.ROOF: 4,
}
WELLS: Final = 16
SETUP: Final[Mapping[int, SetupRow]] = {
    2: SetupRow(wells=8, sowing_row_cards=3, draft_cards=2, bonus_card=False),
    3: SetupRow(wells=12, sowing_row_cards=4, draft_cards=3, bonus_card=False),
    4: SetupRow(wells=16, sowing_row_cards=5, draft_cards=4, bonus_card=True),
}
SOWING_ROWS: Final = 2

# §1.1 (OP-1): the food deck; the per-type split is UNCONFIRMED, the total of 40 matches ASY-RB.
FOOD_CARDS: Final[tuple[FoodCards, ...]] = (
    *(FoodCards(food, symbols, copies) for food in HEX_FOODS for symbols, copies in ((1, 3), (2, 2), (3, 2))),
    FoodCards(Food.WILD, 1, 5),
)
FOOD_DECK_SIZE: Final = 40
FOOD_TYPE_TOTALS: Final[Mapping[Food, int]] = {**dict.fromkeys(HEX_FOODS, 7), Food.WILD: 5}  # §1.1 "Total"
# OP-2: camel cost of a leftover food card by its symbols (UNCONFIRMED, BGA-A); a wild card costs 2.
FOOD_CARD_COST: Final[Mapping[int, int]] = {1: 1, 2: 2, 3: 2}
WILD_CARD_COST: Final = 2
LEFTOVER_FOOD_BUYS_PER_TURN: Final = 1

# §1.2 (OP-3): expansion card values, UNCONFIRMED split; one 4 is set aside face up as turn 1's card.
EXPANSION_CARDS: Final[tuple[int, ...]] = (4, 4, 4, 3, 3, 3, 3, 2, 2)
TURN_1_EXPANSION: Final = 4
EXPANSION_UNUSED: Final = 1  # cards never revealed: 8 shuffled, 7 revealed for turns 2-8
BONUS_CARD: Final = 4  # §1.2: counts in Assur only, 4 players only, reigns 2 and 3
BONUS_CARD_REIGNS: Final = (2, 3)
PLOW_CARDS: Final = 4
PLOW_COST: Final = 2
PLOW_HAND_LIMIT: Final = 1
PLOW_BUYS_PER_TURN: Final = 1
CARDS: Final = 54  # §1: 40 food + 9 expansion + 1 bonus + 4 plow

# §4: reigns as their turns; a Flood follows the last turn of each.
REIGN_TURNS: Final[tuple[tuple[int, ...], ...]] = ((1, 2), (3, 4, 5), (6, 7, 8))
TURNS: Final = 8

# §1.3: camel costs.
ZIGGURAT_COST: Final[Mapping[ZigguratPiece, int]] = {
    ZigguratPiece.BASE: 6,
    ZigguratPiece.CENTRE: 3,
    ZigguratPiece.ROOF: 2,
}
OFFERING_STEP_COST: Final = 1
OFFERING_STEPS_PER_TURN: Final = 3
OFFERINGS_MAX: Final = 7

# §1.3, §5 II (OP-7 space counts, UNCONFIRMED).
DIGNITARIES: Final[Mapping[Dignitary, DignitaryRow]] = {
    Dignitary.HIGHER: DignitaryRow(spaces=3, cost=4, influence=3),
    Dignitary.MIDDLE: DignitaryRow(spaces=4, cost=3, influence=2),
    Dignitary.LOWER: DignitaryRow(spaces=6, cost=2, influence=1),
}
DIGNITARY_SPACES: Final[Mapping[Dignitary, int]] = {d: row.spaces for d, row in DIGNITARIES.items()}  # OP-7
HIGHER_DIGNITARY_VP: Final = (0, 1, 4, 8)  # §5 III: VP for 0-3 own huts at the higher dignitary
LOWER_DIGNITARY_CAMELS: Final = 1  # §5 III: camels per own hut at the lower dignitary
MIDDLE_DIGNITARY_PLOWS: Final = 1  # §5 III: a plow for a player with >= 1 hut there and none in hand

# §4 Phase 2, §5 IV, §6: scoring tables.
WELL_VP: Final = (6, 5, 4)  # per reign 1-3
RIVER_FIRST_HUT_CAMELS: Final = 3
RIVER_FURTHER_HUT_CAMELS: Final = 2
PRESTIGE_VP: Final[Mapping[Region, int]] = {OUT: 1, R1: 0, R2: 0, IN: 2}  # per own hut
ZIGGURAT_PIECE_VP: Final = 1  # per piece on the board, in prestige and at the end
END_PLOW_VP: Final = 1
END_CAMELS_PER_VP: Final = 2

# Open points (§10): each DEFAULT. Lower-case options of §10 become upper-case constants here; the
# engine's Config (state.Config) takes them as the options' defaults.
# OP-1 is FOOD_CARDS, OP-2 FOOD_CARD_COST and WILD_CARD_COST, OP-3 EXPANSION_CARDS, OP-4 BOARDS and
# START_SPACES (MAP, at the end, is derived from them), OP-7 DIGNITARY_SPACES (all above).
ASSUR_2P_RULE: Final = (
    True  # OP-5: with 2 players 2nd place scores 0 in reign 1, the lowest card in reigns 2-3
)
OFFERING_MULT: Final = (0, 1, 2, 2, 3, 3, 3, 4)  # OP-6: offerings multiplier for positions 0-7
INITIAL_TURN_ORDER_RANDOM: Final = True  # OP-8: the first turn order is drawn uniformly at random
HUTS_MANDATORY: Final = True  # OP-9: new huts must be placed up to the card value, stock and legal hexes
DISCARD_LEFTOVER_COLUMN: Final = True  # OP-10: the unclaimed column's unbought cards go at turn end
FOOD_HAND_LIMIT: Final[int | None] = None  # OP-11: unused food cards are kept, with no hand limit
RESHUFFLE_FOOD_DISCARDS: Final = (
    True  # OP-12: an empty deck is the shuffled discards; if short, deal what exists
)
SHARED_VICTORY: Final = True  # OP-13: players tied on the highest total share the victory
WELL_ZIGGURAT_CHECK: Final = "site_hexes"  # OP-14: "not next to a ziggurat" looks at the site's 3 hexes only
ONE_PIECE_PER_TURN: Final = True  # OP-15: a ziggurat gains at most one piece a turn; a new base counts
MIDDLE_PLOWS_IN_TURN_ORDER: Final = (
    True  # OP-16: middle-dignitary plows go in turn order while the stack lasts
)
CAMEL_CAP: Final = 10  # OP-17: the camel track stops at 10; camels beyond are lost
START_PLOW: Final = True  # OP-18: each player starts with 1 plow card
UNUSED_PLOWS: Final = "stack"  # OP-18: plows no player took form the plow stack (BGA-A: "removed")
UNUSED_PLOWS_CHOICES: Final = ("stack", "removed")
RIVER_REVENUE: Final = "per_river"  # OP-19: river camels 3 + 2 x (n - 1) counted for each river apart
ASSUR_TIE_BEST_HUT: Final = (
    True  # OP-20: a tie left after hut counts goes to the best hut: dignitary, then space
)
EXPANSION_MODE: Final = "per_player"  # OP-21: each player does expansion steps a-e before the next player
SOWING_ROW_BY_ROW = True  # OP-22: row 1 is dealt completely, then row 2; sort ties follow this order
FED_STATUS_LASTS: Final = "turn"  # OP-23: a fed hut stays fed until the end of the turn
FED_STATUS_LASTS_CHOICES: Final = ("turn", "reign")
FEEDING: Final = "compulsory"  # OP-24: while a held card or the plow can feed an unfed hut, one is played
FEEDING_CHOICES: Final = ("compulsory", "optional")

# Which named constant holds each open point's DEFAULT.
OPEN_POINTS: Final[Mapping[str, tuple[str, ...]]] = {
    "OP-1": ("FOOD_CARDS",),
    "OP-2": ("FOOD_CARD_COST", "WILD_CARD_COST"),
    "OP-3": ("EXPANSION_CARDS",),
    "OP-4": ("BOARDS", "START_SPACES"),
    "OP-5": ("ASSUR_2P_RULE",),
    "OP-6": ("OFFERING_MULT",),
    "OP-7": ("DIGNITARY_SPACES",),
    "OP-8": ("INITIAL_TURN_ORDER_RANDOM",),
    "OP-9": ("HUTS_MANDATORY",),
    "OP-10": ("DISCARD_LEFTOVER_COLUMN",),
    "OP-11": ("FOOD_HAND_LIMIT",),
    "OP-12": ("RESHUFFLE_FOOD_DISCARDS",),
    "OP-13": ("SHARED_VICTORY",),
    "OP-14": ("WELL_ZIGGURAT_CHECK",),
    "OP-15": ("ONE_PIECE_PER_TURN",),
    "OP-16": ("MIDDLE_PLOWS_IN_TURN_ORDER",),
    "OP-17": ("CAMEL_CAP",),
    "OP-18": ("START_PLOW", "UNUSED_PLOWS"),
    "OP-19": ("RIVER_REVENUE",),
    "OP-20": ("ASSUR_TIE_BEST_HUT",),
    "OP-21": ("EXPANSION_MODE",),
    "OP-22": ("SOWING_ROW_BY_ROW",),
    "OP-23": ("FED_STATUS_LASTS",),
    "OP-24": ("FEEDING",),
}
OPEN_POINT_COUNT: Final = 24


def neighbours(
    q: int, r: int, board: Iterable[Coord], steps: Iterable[Coord] = NEIGHBOUR_STEPS
) -> list[Coord]:
    """The hexes of `board` next to (q, r), by the formula of §2.1."""
    on_board = board if isinstance(board, frozenset | set | dict) else set(board)
    return [(q + dq, r + dr) for dq, dr in steps if (q + dq, r + dr) in on_board]


def board_hexes(
    players: int, hexes: Iterable[Hex] = HEXES, boards: Mapping[int, Board] = BOARDS
) -> dict[Coord, Hex]:
    """The usable hexes for a player count (§2.2): the columns up to its last usable one."""
    last = boards[players].last_column
    return {(h.q, h.r): h for h in hexes if h.q <= last}


def derive_well_sites(board: Mapping[Coord, Hex]) -> frozenset[WellSite]:
    """The well sites of a board by the rule of §2.3: corners whose 3 hexes are all on the board and
    none of them an inside hex."""
    return frozenset(
        site
        for q, r in board
        for site in (WellSite(q, r, -1), WellSite(q, r, 1))
        if all(h in board and board[h].region not in WELL_FORBIDDEN_REGIONS for h in site.hexes())
    )


class DataError(ValueError):
    """A table breaks a rule the rules state about it."""

    def __init__(self, table: str, rule: str) -> None:
        super().__init__(f"Assyria data, {table}: {rule}")
        self.table = table
        self.rule = rule


@dataclasses.dataclass(frozen=True)
class Tables:
    """The tables `check()` verifies, so that a test can hand it a broken copy."""

    hexes: tuple[Hex, ...] = HEXES
    neighbour_steps: tuple[Coord, ...] = NEIGHBOUR_STEPS
    river_chains: Mapping[Region, tuple[Coord, ...]] = dataclasses.field(default_factory=lambda: RIVER_CHAINS)
    map_food_counts: Mapping[Food, int] = dataclasses.field(default_factory=lambda: MAP_FOOD_COUNTS)
    boards: Mapping[int, Board] = dataclasses.field(default_factory=lambda: BOARDS)
    start_spaces: Mapping[int, tuple[StartSpace, ...]] = dataclasses.field(
        default_factory=lambda: START_SPACES
    )
    listed_well_sites: tuple[WellSite, ...] = LISTED_WELL_SITES
    setup: Mapping[int, SetupRow] = dataclasses.field(default_factory=lambda: SETUP)
    food_cards: tuple[FoodCards, ...] = FOOD_CARDS
    expansion_cards: tuple[int, ...] = EXPANSION_CARDS
    dignitaries: Mapping[Dignitary, DignitaryRow] = dataclasses.field(default_factory=lambda: DIGNITARIES)
    offering_mult: tuple[int, ...] = OFFERING_MULT
    open_points: Mapping[str, tuple[str, ...]] = dataclasses.field(default_factory=lambda: OPEN_POINTS)


def _require(ok: bool, table: str, rule: str) -> None:
    if not ok:
        raise DataError(table, rule)


def _check_map(t: Tables) -> None:
    coords = [(h.q, h.r) for h in t.hexes]
    twice = sorted(c for c, n in Counter(coords).items() if n > 1)
    _require(not twice, "HEXES", f"hexes listed twice: {twice}")
    full = t.boards[MAX_PLAYERS]
    _require(len(coords) == full.hexes, "HEXES", f"{len(coords)} hexes; T11 gives {full.hexes}")
    _require(all(0 <= h.q <= full.last_column for h in t.hexes), "HEXES", "a hex outside columns q = 0-9")
    _require(all(h.food in HEX_FOODS for h in t.hexes), "HEXES", "a hex whose food is not one of the five")
    food = Counter(h.food for h in t.hexes)
    _require(
        food == Counter(t.map_food_counts),
        "HEXES",
        f"food counts {dict(food)}; §2.1 gives {t.map_food_counts}",
    )
    on_map = set(coords)
    for c in coords:
        for n in neighbours(*c, on_map, t.neighbour_steps):
            _require(
                c in neighbours(*n, on_map, t.neighbour_steps),
                "NEIGHBOUR_STEPS",
                f"{n} is next to {c}, not back",
            )
    by_coord = {(h.q, h.r): h for h in t.hexes}
    for river, chain in t.river_chains.items():
        region = {c for c, h in by_coord.items() if h.region == river}
        _require(set(chain) == region, "RIVER_CHAINS", f"{river.name} is not the map's {river.name} hexes")
        for a, b in itertools.pairwise(chain):
            _require(
                b in neighbours(*a, on_map, t.neighbour_steps),
                "RIVER_CHAINS",
                f"{a} and {b} are not neighbours",
            )


def _check_boards(t: Tables) -> None:
    _require(
        sorted(t.boards) == list(range(MIN_PLAYERS, MAX_PLAYERS + 1)), "BOARDS", "not one per player count"
    )
    for players, board in t.boards.items():
        hexes = board_hexes(players, t.hexes, t.boards)
        regions = Counter(h.region for h in hexes.values())
        derived = (len(hexes), regions[OUT], regions[R1], regions[R2], regions[IN])
        stated = (board.hexes, board.outside, board.river_1, board.river_2, board.inside)
        _require(
            derived == stated,
            "BOARDS",
            f"{players} players: hexes (all, O, R1, R2, I) {derived}; T11 and §2.2 give {stated}",
        )
        sites = derive_well_sites(hexes)
        _require(
            len(sites) == board.well_sites,
            "BOARDS",
            f"{players} players: {len(sites)} well sites by the site rule; T11 gives {board.well_sites}",
        )


def _check_well_sites(t: Tables) -> None:
    listed = Counter(t.listed_well_sites)
    twice = sorted(s for s, n in listed.items() if n > 1)
    _require(not twice, "LISTED_WELL_SITES", f"sites listed twice: {twice}")
    derived = derive_well_sites(board_hexes(MAX_PLAYERS, t.hexes, t.boards))
    missing, extra = sorted(derived - set(listed)), sorted(set(listed) - derived)
    _require(
        not missing and not extra,
        "LISTED_WELL_SITES",
        f"the site rule (§2.3) derives {len(derived)} sites; not listed: {missing}; "
        f"listed, not derived: {extra}",
    )


def _check_start_spaces(t: Tables) -> None:
    for players, spaces in t.start_spaces.items():
        board = board_hexes(players, t.hexes, t.boards)
        _require(
            len(spaces) >= players, "START_SPACES", f"{players} players: only {len(spaces)} start spaces"
        )
        _require(len(set(spaces)) == len(spaces), "START_SPACES", f"{players} players: a start space twice")
        for s in spaces:
            h = board.get((s.q, s.r))
            if h is None:
                raise DataError("START_SPACES", f"{players} players: ({s.q}, {s.r}) is not on their board")
            _require(h.region == OUT, "START_SPACES", f"({s.q}, {s.r}) is not an outside hex")
            _require(h.food == s.food, "START_SPACES", f"({s.q}, {s.r}) is {h.food.name}, not {s.food.name}")


def _check_components(t: Tables) -> None:
    _require(
        HUTS_PER_COLOUR * COLOURS == HUTS, "HUTS_PER_COLOUR", f"{COLOURS} colours do not make {HUTS} huts"
    )
    for piece, count in ZIGGURAT_PIECES_PER_COLOUR.items():
        _require(
            count * COLOURS == ZIGGURAT_PIECES, "ZIGGURAT_PIECES_PER_COLOUR", f"{piece.name}: not 16 in all"
        )
    _require(sorted(t.setup) == sorted(t.boards), "SETUP", "not one row per player count")
    for players, row in t.setup.items():
        _require(row.wells <= WELLS, "SETUP", f"{players} players: {row.wells} wells of {WELLS}")
        _require(
            row.sowing_row_cards == players + 1, "SETUP", f"{players} players: a sowing row is players + 1"
        )
        _require(
            row.draft_cards == players, "SETUP", f"{players} players: the initial draft is players cards"
        )
        _require(row.bonus_card == (players == 4), "SETUP", "the bonus card is used with 4 players only")
    food = Counter[Food]()
    for cards_row in t.food_cards:
        food[cards_row.food] += cards_row.copies
        _require(
            cards_row.symbols in FOOD_CARD_COST, "FOOD_CARDS", f"a card with {cards_row.symbols} symbols"
        )
    _require(
        all(r.symbols == 1 for r in t.food_cards if r.food == Food.WILD),
        "FOOD_CARDS",
        "a wild card is 1 symbol",
    )
    size = sum(food.values())
    _require(size == FOOD_DECK_SIZE, "FOOD_CARDS", f"{size} food cards; §1.1 gives {FOOD_DECK_SIZE}")
    _require(
        food == Counter(FOOD_TYPE_TOTALS),
        "FOOD_CARDS",
        f"per type {dict(food)}; §1.1 gives {FOOD_TYPE_TOTALS}",
    )
    deck = t.expansion_cards
    _require(len(deck) == 9, "EXPANSION_CARDS", f"{len(deck)} expansion cards; §1.2 gives 9")
    _require(TURN_1_EXPANSION in deck, "EXPANSION_CARDS", "no 4 to set aside for turn 1")
    _require(
        len(deck) - 1 - (TURNS - 1) == EXPANSION_UNUSED, "EXPANSION_CARDS", "turns 2-8 leave 1 card unused"
    )
    cards = size + len(deck) + 1 + PLOW_CARDS
    _require(cards == CARDS, "FOOD_CARDS", f"{cards} cards in all; §1 gives {CARDS}")
    turns = [turn for reign in REIGN_TURNS for turn in reign]
    _require(turns == list(range(1, TURNS + 1)), "REIGN_TURNS", "reigns are not turns 1-8 in order")
    _require(len(WELL_VP) == len(REIGN_TURNS), "WELL_VP", "not one value per reign")
    for d, dignitary in t.dignitaries.items():
        _require(
            dignitary.spaces > 0 and dignitary.cost > 0, "DIGNITARIES", f"{d.name}: no spaces or no cost"
        )
    higher = t.dignitaries[Dignitary.HIGHER].spaces
    _require(len(HIGHER_DIGNITARY_VP) == higher + 1, "HIGHER_DIGNITARY_VP", "not one value per hut count")
    mult = t.offering_mult
    _require(len(mult) == OFFERINGS_MAX + 1, "OFFERING_MULT", f"{len(mult)} positions; the track is 0-7")
    _require(list(mult) == sorted(mult), "OFFERING_MULT", "a multiplier falls as the disc rises")


def _check_open_points(t: Tables) -> None:
    ids = [f"OP-{n}" for n in range(1, OPEN_POINT_COUNT + 1)]
    _require(sorted(t.open_points) == sorted(ids), "OPEN_POINTS", f"not exactly OP-1 to {ids[-1]}")
    names = globals()
    unnamed = sorted(name for names_ in t.open_points.values() for name in names_ if name not in names)
    _require(not unnamed, "OPEN_POINTS", f"no constant named {unnamed}")
    _require(UNUSED_PLOWS in UNUSED_PLOWS_CHOICES, "UNUSED_PLOWS", f"not one of {UNUSED_PLOWS_CHOICES}")
    _require(FED_STATUS_LASTS in FED_STATUS_LASTS_CHOICES, "FED_STATUS_LASTS", "not one of its choices")
    _require(FEEDING in FEEDING_CHOICES, "FEEDING", f"not one of {FEEDING_CHOICES}")


def check(tables: Tables | None = None) -> None:
    """Verify the tables against the rules (T11 and the stated totals); raise DataError naming the
    table and the rule broken."""
    t = Tables() if tables is None else tables
    _check_map(t)
    _check_boards(t)
    _check_well_sites(t)
    _check_start_spaces(t)
    _check_components(t)
    _check_open_points(t)


check()

# Derived once, after the check: the usable hexes (OP-4's `MAP` per player count) and the well sites
# per player count, and the 40 food cards one by one.
MAP: Final[Mapping[int, Mapping[Coord, Hex]]] = {players: board_hexes(players) for players in BOARDS}
WELL_SITES: Final[Mapping[int, frozenset[WellSite]]] = {
    players: derive_well_sites(board) for players, board in MAP.items()
}
FOOD_DECK: Final[tuple[FoodCard, ...]] = tuple(
    FoodCard(row.food, row.symbols) for row in FOOD_CARDS for _ in range(row.copies)
)

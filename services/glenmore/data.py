"""Glen More's static facts as data: resources, tiles, special locations, market and scoring tables.

Source: shared/rules/glen_more.md (the engineering specification; original text seeds/003). The
tile table is §7.2 and is single-source data (AGORA tile data, marked UNCONFIRMED there, OP-12):
`TILES_CONFIRMED = False` says so, and a correction against a physical copy is a change to
`_TILE_ROWS` only. Every default chosen for an open point of §14 is a named constant below.
"""

from __future__ import annotations

from typing import Final, NamedTuple

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5

# Resource kinds, numbered like the protobuf Resource enum minus one.
WOOD: Final = 0
STONE: Final = 1
GRAIN: Final = 2
CATTLE: Final = 3
SHEEP: Final = 4
RESOURCE_NAMES: Final = ("wood", "stone", "grain", "cattle", "sheep")

START_COINS: Final = 6
TILE_CUBE_CAP: Final = 3  # cubes one tile can hold (§7.1)
TRACK_SPACES: Final = 14
TRACK_LENGTH: Final = 13  # occupied spaces: one space behind the rearmost figure stays empty (§3, OP-3)
STACKS: Final = 4

# OP-6: price-1 slots filled at the start, by player count.
MARKET_PREFILL: Final = {2: 1, 3: 1, 4: 0, 5: 0}
MARKET_SLOTS: Final = 3  # prices 1, 2, 3

# §10 die faces; OP-4 the die counts tiles (skipping figures) and stops on the last tile.
DIE_FACES: Final = (1, 1, 1, 2, 2, 3)
DIE_COUNTS_TILES: Final = True
DIE_PLAYER_COUNTS: Final = (2, 3)  # OP-5: the die figure starts after the last player

# OP-7 difference table, capped at its last value; OP-8 scorings consume nothing.
DIFF_TABLE: Final = (0, 1, 2, 3, 5, 8)
SCORING_CONSUMES: Final = False
TILE_PENALTY: Final = 3  # VP per tile above the smallest territory (§9.2)

# Activation values (§7.1).
FAIR_VP: Final = (1, 3, 5, 8, 12)  # m different kinds -> VP; the 1 and 3 are single-source
BUTCHER_VP: Final = (2, 4)  # 1 or 2 cubes of the butcher's kind
MIXED_BUTCHER_VP: Final = 5  # 1 sheep + 1 cattle
GROCER_CUBES: Final = 3  # OP-10: any 3 cubes
GROCER_VP: Final = 8
BRIDGE_VP: Final = 7
LOCH_MORAR_VP: Final = 2  # per green tile
IONA_ABBEY_VP: Final = 2  # per yellow tile
DUART_CASTLE_VP: Final = 3  # per village
ARMADALE_COINS: Final = 3
LOCH_LOCHY_CUBES: Final = 2

# Open points settled as constants (§14).
SCORING_TRIGGER_LAST_TILE_DRAWN: Final = True  # OP-1
PLAY_OUT_TRACK: Final = False  # OP-2: the game ends right after scoring 3
REFILL_TO_TRACK_LENGTH: Final = True  # OP-3: refill until 13 entries
NO_LEGAL_TILE_DISCARDS_FIRST: Final = True  # OP-14
ACTIVATION_OPTIONAL: Final = True  # OP-15
MOVEMENT_AFTER_ACTIVATION: Final = True  # OP-16
BUY_SHORTFALL_ONLY: Final = True  # OP-17
UNLIMITED_SUPPLY: Final = True  # OP-18
DUART_COUNTS_START_VILLAGE: Final = True  # OP-19
LOCH_NESS_SAME_TURN: Final = False  # §8: "every later turn of the owner"
RANDOM_START_PLAYER: Final = True  # OP-24
AUTO_RESOLVE_FORCED: Final = True  # a decision with a single legal action is taken by the engine

# Open points that are game options (state.Config); each constant is the option's default.
PUBLIC_VP: Final = True  # OP-23: every seat's VP are shown to everyone (option `public_vp`)

# Border colours (OP-20).
YELLOW: Final = 0
GREEN: Final = 1
BROWN: Final = 2
GREY: Final = 3
BLUE: Final = 4

# Edge features (§5): a river runs N-S, a road E-W; the start village has both.
NO_EDGE: Final = 0
RIVER: Final = 1
ROAD: Final = 2
BOTH: Final = 3

# Tile families.
PRODUCTION: Final = 0
ABBEY: Final = 1
VILLAGE: Final = 2
CASTLE: Final = 3
LOCH: Final = 4
CRAFT: Final = 5

# Activation effects (§7.1).
NOTHING: Final = 0
PRODUCE: Final = 1
CHOSEN_CUBE: Final = 2
DISTILLERY: Final = 3
BUTCHER: Final = 4
MIXED_BUTCHER: Final = 5
FAIR: Final = 6
GROCER: Final = 7
BRIDGE: Final = 8
TAVERN: Final = 9
MOVEMENT: Final = 10

# Special-location cards, numbered like the protobuf SpecialLocation enum minus one.
LOCH_LOCHY: Final = 0
LOCH_MORAR: Final = 1
LOCH_NESS: Final = 2
LOCH_SHIEL: Final = 3
LOCH_OICH: Final = 4
IONA_ABBEY: Final = 5
CASTLE_STALKER: Final = 6
CASTLE_MOIL: Final = 7
ARMADALE_CASTLE: Final = 8
DUART_CASTLE: Final = 9
DONAN_CASTLE: Final = 10
CASTLE_OF_MEY: Final = 11
CAWDOR_CASTLE: Final = 12
NO_CARD: Final = -1
CARD_NAMES: Final = (
    "Loch Lochy",
    "Loch Morar",
    "Loch Ness",
    "Loch Shiel",
    "Loch Oich",
    "Iona Abbey",
    "Castle Stalker",
    "Castle Moil",
    "Armadale Castle",
    "Duart Castle",
    "Donan Castle",
    "Castle of Mey",
    "Cawdor Castle",
)
# OP-11 bonnets per card (UNCONFIRMED except Cawdor's 3).
BONNETS: Final = (0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1, 3)
CARD_WHISKY: Final = {CASTLE_MOIL: 1, DONAN_CASTLE: 2}
CARD_EXTRA_CLAN: Final = {CASTLE_STALKER: 1}


class Cost(NamedTuple):
    """A buy cost: cubes of named kinds, cubes of different kinds, whisky, or a clan member."""

    cubes: tuple[int, ...] = ()
    different: int = 0
    whisky: int = 0
    clan_member: bool = False

    @property
    def free(self) -> bool:
        """Whether nothing is to pay."""
        return not (self.cubes or self.different or self.whisky or self.clan_member)


class Tile(NamedTuple):
    """One tile: where it comes from, its borders and edges, its cost, bonus and activation."""

    number: int  # 1-67 stack tiles, 68-72 start villages (seat 0-4)
    stack: int  # 0-3; -1 for a start village
    name: str
    border: int
    edge: int
    family: int
    cost: Cost
    effect: int
    arg: int  # produced kind, butcher kind, fair size or tavern VP
    card: int
    bonus_clan: int  # clan members placed on the tile when it is placed
    bonus_whisky: int


FREE: Final = Cost()
W, S, G, C, SH = WOOD, STONE, GRAIN, CATTLE, SHEEP
N_: Final = NO_EDGE
R_: Final = RIVER
RD: Final = ROAD

# (number, stack, name, border, edge, family, cost, effect, arg, card)
_TILE_ROWS: Final[tuple[tuple[int, int, str, int, int, int, Cost, int, int, int], ...]] = (
    (1, 0, "Quarry", YELLOW, RD, PRODUCTION, FREE, PRODUCE, S, NO_CARD),
    (2, 0, "Forest", YELLOW, R_, PRODUCTION, FREE, PRODUCE, W, NO_CARD),
    (3, 0, "Sheep pasture", GREEN, R_, PRODUCTION, FREE, PRODUCE, SH, NO_CARD),
    (4, 0, "Village", GREY, RD, VILLAGE, FREE, MOVEMENT, 0, NO_CARD),
    (5, 0, "Field", GREEN, RD, PRODUCTION, FREE, PRODUCE, G, NO_CARD),
    (6, 0, "Cattle pasture", GREEN, R_, PRODUCTION, FREE, PRODUCE, C, NO_CARD),
    (7, 0, "Quarry", YELLOW, R_, PRODUCTION, FREE, PRODUCE, S, NO_CARD),
    (8, 0, "Forest", YELLOW, RD, PRODUCTION, FREE, PRODUCE, W, NO_CARD),
    (9, 1, "Loch Lochy", BLUE, R_, LOCH, FREE, NOTHING, 0, LOCH_LOCHY),
    (10, 1, "Butcher (sheep)", BROWN, N_, CRAFT, FREE, BUTCHER, SH, NO_CARD),
    (11, 1, "Distillery", YELLOW, N_, CRAFT, Cost((S,)), DISTILLERY, 0, NO_CARD),
    (12, 1, "Sheep pasture", GREEN, N_, PRODUCTION, FREE, PRODUCE, SH, NO_CARD),
    (13, 1, "Fair (3)", BROWN, N_, CRAFT, Cost((W,)), FAIR, 3, NO_CARD),
    (14, 1, "Village", GREY, R_, VILLAGE, Cost((S,)), MOVEMENT, 0, NO_CARD),
    (15, 1, "Distillery", YELLOW, RD, CRAFT, Cost((S,)), DISTILLERY, 0, NO_CARD),
    (16, 1, "Village", GREY, N_, VILLAGE, Cost((S,)), MOVEMENT, 0, NO_CARD),
    (17, 1, "Fair (3)", BROWN, RD, CRAFT, Cost((W,)), FAIR, 3, NO_CARD),
    (18, 1, "Field", GREEN, RD, PRODUCTION, FREE, PRODUCE, G, NO_CARD),
    (19, 1, "Village", GREY, RD, VILLAGE, Cost((S,)), MOVEMENT, 0, NO_CARD),
    (20, 1, "Village", GREY, R_, VILLAGE, Cost((W,)), MOVEMENT, 0, NO_CARD),
    (21, 1, "Cattle pasture", GREEN, N_, PRODUCTION, FREE, PRODUCE, C, NO_CARD),
    (22, 1, "Field", GREEN, N_, PRODUCTION, FREE, PRODUCE, G, NO_CARD),
    (23, 1, "Quarry", YELLOW, N_, PRODUCTION, FREE, PRODUCE, S, NO_CARD),
    (24, 1, "Forest", YELLOW, N_, PRODUCTION, FREE, PRODUCE, W, NO_CARD),
    (25, 1, "Quarry", YELLOW, N_, PRODUCTION, FREE, PRODUCE, S, NO_CARD),
    (26, 1, "Castle Moil", GREY, N_, CASTLE, Cost((W, S, G)), MOVEMENT, 0, CASTLE_MOIL),
    (27, 1, "Castle Stalker", GREY, R_, CASTLE, Cost((W, S)), MOVEMENT, 0, CASTLE_STALKER),
    (28, 1, "Forest", YELLOW, N_, PRODUCTION, FREE, PRODUCE, W, NO_CARD),
    (29, 1, "Village", GREY, N_, VILLAGE, Cost((W,)), MOVEMENT, 0, NO_CARD),
    (30, 1, "Armadale Castle", GREY, N_, CASTLE, Cost((W, S)), MOVEMENT, 0, ARMADALE_CASTLE),
    (31, 1, "Butcher (cattle)", BROWN, N_, CRAFT, FREE, BUTCHER, C, NO_CARD),
    (32, 2, "Quarry", YELLOW, N_, PRODUCTION, FREE, PRODUCE, S, NO_CARD),
    (33, 2, "Tavern", BROWN, N_, CRAFT, Cost(whisky=1), TAVERN, 3, NO_CARD),
    (34, 2, "Butcher (sheep and cattle)", BROWN, N_, CRAFT, Cost((W,)), MIXED_BUTCHER, 0, NO_CARD),
    (35, 2, "Loch Morar", BLUE, R_, LOCH, FREE, NOTHING, 0, LOCH_MORAR),
    (36, 2, "Distillery", YELLOW, N_, CRAFT, Cost((S,)), DISTILLERY, 0, NO_CARD),
    (37, 2, "Loch Ness", BLUE, R_, LOCH, Cost(clan_member=True), NOTHING, 0, LOCH_NESS),
    (38, 2, "Castle of Mey", GREY, N_, CASTLE, Cost((W, S, C)), MOVEMENT, 0, CASTLE_OF_MEY),
    (39, 2, "Cattle pasture", GREEN, RD, PRODUCTION, FREE, PRODUCE, C, NO_CARD),
    (40, 2, "Forest", YELLOW, RD, PRODUCTION, FREE, PRODUCE, W, NO_CARD),
    (41, 2, "Village", GREY, RD, VILLAGE, Cost((W,)), MOVEMENT, 0, NO_CARD),
    (42, 2, "Tavern", BROWN, N_, CRAFT, Cost(whisky=1), TAVERN, 3, NO_CARD),
    (43, 2, "Duart Castle", GREY, N_, CASTLE, Cost((W, S, SH)), MOVEMENT, 0, DUART_CASTLE),
    (44, 2, "Village", GREY, R_, VILLAGE, Cost((S,)), MOVEMENT, 0, NO_CARD),
    (45, 2, "Village", GREY, N_, VILLAGE, Cost((W,)), MOVEMENT, 0, NO_CARD),
    (46, 2, "Field", GREEN, N_, PRODUCTION, FREE, PRODUCE, G, NO_CARD),
    (47, 2, "Field", GREEN, N_, PRODUCTION, FREE, PRODUCE, G, NO_CARD),
    (48, 2, "Iona Abbey", YELLOW, RD, ABBEY, Cost((W, S, SH)), CHOSEN_CUBE, 0, IONA_ABBEY),
    (49, 2, "Fair (4)", BROWN, RD, CRAFT, Cost((W,)), FAIR, 4, NO_CARD),
    (50, 2, "Sheep pasture", GREEN, R_, PRODUCTION, FREE, PRODUCE, SH, NO_CARD),
    (51, 3, "Cawdor Castle", GREY, N_, CASTLE, Cost((W, S, C)), MOVEMENT, 0, CAWDOR_CASTLE),
    (52, 3, "Loch Shiel", BLUE, R_, LOCH, FREE, NOTHING, 0, LOCH_SHIEL),  # OP-13: a blue loch
    (53, 3, "Forest", YELLOW, N_, PRODUCTION, FREE, PRODUCE, W, NO_CARD),
    (54, 3, "Field", GREEN, N_, PRODUCTION, FREE, PRODUCE, G, NO_CARD),  # OP-13: a field
    (55, 3, "Fair (5)", BROWN, RD, CRAFT, Cost((W,)), FAIR, 5, NO_CARD),
    (56, 3, "Grocer", BROWN, N_, CRAFT, Cost((S,)), GROCER, 0, NO_CARD),
    (57, 3, "Sheep pasture", GREEN, N_, PRODUCTION, FREE, PRODUCE, SH, NO_CARD),
    (58, 3, "Village", GREY, R_, VILLAGE, Cost((W,)), MOVEMENT, 0, NO_CARD),
    (59, 3, "Distillery", YELLOW, RD, CRAFT, Cost((S,)), DISTILLERY, 0, NO_CARD),
    (60, 3, "Loch Oich", BLUE, R_, LOCH, Cost(different=2), NOTHING, 0, LOCH_OICH),
    (61, 3, "Village", GREY, RD, VILLAGE, Cost((S,)), MOVEMENT, 0, NO_CARD),
    (62, 3, "Village", GREY, N_, VILLAGE, Cost((S,)), MOVEMENT, 0, NO_CARD),
    (63, 3, "Tavern", BROWN, N_, CRAFT, Cost(whisky=1), TAVERN, 4, NO_CARD),
    (64, 3, "Donan Castle", GREY, RD, CASTLE, Cost((W, S, G)), MOVEMENT, 0, DONAN_CASTLE),
    (65, 3, "Cattle pasture", GREEN, N_, PRODUCTION, FREE, PRODUCE, C, NO_CARD),
    (66, 3, "Bridge", BROWN, R_, CRAFT, FREE, BRIDGE, 0, NO_CARD),
    (67, 3, "Quarry", YELLOW, RD, PRODUCTION, FREE, PRODUCE, S, NO_CARD),
)
TILES_CONFIRMED: Final = False  # OP-12: single-source data, to check against a physical copy

STACK_TILES: Final = len(_TILE_ROWS)  # 67


def _tile(row: tuple[int, int, str, int, int, int, Cost, int, int, int]) -> Tile:
    number, stack, name, border, edge, family, cost, effect, arg, card = row
    clans = 1 if family in (VILLAGE, CASTLE) else 0
    clans += CARD_EXTRA_CLAN.get(card, 0)
    whisky = (1 if effect == DISTILLERY else 0) + CARD_WHISKY.get(card, 0)
    return Tile(number, stack, name, border, edge, family, cost, effect, arg, card, clans, whisky)


# Index i of TILES is tile number i + 1; the start village of seat s is index STACK_TILES + s.
TILES: Final[tuple[Tile, ...]] = tuple(_tile(row) for row in _TILE_ROWS) + tuple(
    Tile(STACK_TILES + 1 + seat, -1, "Start village", GREY, BOTH, VILLAGE, FREE, MOVEMENT, 0, NO_CARD, 1, 0)
    for seat in range(MAX_PLAYERS)
)
STACK_CONTENTS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, tile in enumerate(TILES) if tile.stack == stack) for stack in range(STACKS)
)
CARD_TILE: Final = {tile.card: i for i, tile in enumerate(TILES) if tile.card != NO_CARD}


def start_village(seat: int) -> int:
    """The tile index of a seat's start village."""
    return STACK_TILES + seat


def _check_tables() -> None:
    assert [len(s) for s in STACK_CONTENTS] == [8, 23, 19, 17], "stack sizes of §7.2"
    assert [t.number for t in TILES] == list(range(1, STACK_TILES + MAX_PLAYERS + 1))
    assert sorted(CARD_TILE) == list(range(len(CARD_NAMES)))


_check_tables()

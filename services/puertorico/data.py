"""Puerto Rico's static facts: goods, tiles, roles, buildings, setup per player count, and the
named defaults for the points the rules leave open.

Source: shared/rules/puerto_rico.md (§1 components, §2 setup, §4-§5 roles and buildings, §6
Expansion I, §11 open points), itself drawn from the alea 2002 rulebook and the original texts.
"""

from __future__ import annotations

from typing import Final, NamedTuple

# Goods. The index of a good is also its price at the trading house (§1.1).
CORN: Final = 0
INDIGO: Final = 1
SUGAR: Final = 2
TOBACCO: Final = 3
COFFEE: Final = 4
GOODS: Final = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
GOOD_NAMES: Final = ("corn", "indigo", "sugar", "tobacco", "coffee")
PRICE: Final = (0, 1, 2, 3, 4)

# Island tiles: a plantation's index is its good's index.
QUARRY: Final = 5
FOREST: Final = 6
TILE_KINDS: Final = 7
CIRCLE_TILES: Final = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY)
TILE_NAMES: Final = (
    "corn plantation",
    "indigo plantation",
    "sugar plantation",
    "tobacco plantation",
    "coffee plantation",
    "quarry",
    "forest",
)
ISLAND_SPACES: Final = 12
CITY_SPACES: Final = 12

# Roles.
SETTLER: Final = 0
MAYOR: Final = 1
BUILDER: Final = 2
CRAFTSMAN: Final = 3
TRADER: Final = 4
CAPTAIN: Final = 5
PROSPECTOR: Final = 6
PROSPECTOR_2: Final = 7
NO_ROLE: Final = -1
ROLE_NAMES: Final = (
    "settler",
    "mayor",
    "builder",
    "craftsman",
    "trader",
    "captain",
    "prospector",
    "prospector",
)


class BuildingInfo(NamedTuple):
    """One row of the building table (§1.2, §6.1)."""

    name: str
    cost: int
    vp: int
    circles: int
    col: int
    copies: int
    copies_2p: int
    spaces: int
    good: int  # the good a production building makes; -1 for violet buildings
    large_production: bool
    expansion: bool

    @property
    def violet(self) -> bool:
        """Whether this is a violet (non-production) building."""
        return self.good < 0


def _production(name: str, good: int, cost: int, vp: int, circles: int, large: bool) -> BuildingInfo:
    return BuildingInfo(name, cost, vp, circles, vp, 4 if not large else 3, 2, 1, good, large, False)


def _violet(
    name: str,
    cost: int,
    vp: int,
    *,
    circles: int = 1,
    col: int | None = None,
    large: bool = False,
    expansion: bool = False,
) -> BuildingInfo:
    return BuildingInfo(
        name,
        cost,
        vp,
        circles,
        vp if col is None else col,
        1 if large else 2,
        1,
        2 if large else 1,
        -1,
        False,
        expansion,
    )


BUILDINGS: Final[tuple[BuildingInfo, ...]] = (
    _production("small indigo plant", INDIGO, 1, 1, 1, False),
    _production("small sugar mill", SUGAR, 2, 1, 1, False),
    _production("indigo plant", INDIGO, 3, 2, 3, True),
    _production("sugar mill", SUGAR, 4, 2, 3, True),
    _production("tobacco storage", TOBACCO, 5, 3, 3, True),
    _production("coffee roaster", COFFEE, 6, 3, 2, True),
    _violet("small market", 1, 1),
    _violet("hacienda", 2, 1),
    _violet("construction hut", 2, 1),
    _violet("small warehouse", 3, 1),
    _violet("hospice", 4, 2),
    _violet("office", 5, 2),
    _violet("large market", 5, 2),
    _violet("large warehouse", 6, 2),
    _violet("factory", 7, 3),
    _violet("university", 8, 3),
    _violet("harbor", 8, 3),
    _violet("wharf", 9, 3),
    _violet("guild hall", 10, 4, large=True),
    _violet("residence", 10, 4, large=True),
    _violet("fortress", 10, 4, large=True),
    _violet("customs house", 10, 4, large=True),
    _violet("city hall", 10, 4, large=True),
    # Expansion I (§6.1): rows only; their effects come with the expansion.
    _violet("aqueduct", 1, 1, expansion=True),
    _violet("forest house", 2, 1, expansion=True),
    _violet("black market", 2, 1, expansion=True),
    _violet("storehouse", 3, 1, expansion=True),
    _violet("guesthouse", 4, 2, circles=2, expansion=True),
    _violet("trading post", 5, 2, expansion=True),
    _violet("church", 5, 2, expansion=True),
    _violet("small wharf", 6, 2, expansion=True),
    _violet("lighthouse", 7, 3, expansion=True),
    _violet("specialty factory", 8, 3, expansion=True),
    _violet("library", 8, 3, expansion=True),
    _violet("union hall", 9, 3, expansion=True),
    _violet("statue", 10, 8, circles=0, col=4, large=True, expansion=True),
    _violet("cloister", 10, 4, large=True, expansion=True),
)
BUILDING_IDS: Final = {info.name: index for index, info in enumerate(BUILDINGS)}
BASE_BUILDINGS: Final = tuple(i for i, info in enumerate(BUILDINGS) if not info.expansion)
# Each building's circles and city spaces, by id (what the hot paths look up).
BUILDING_CIRCLES: Final = tuple(info.circles for info in BUILDINGS)
BUILDING_CITY_SPACES: Final = tuple(info.spaces for info in BUILDINGS)

SMALL_INDIGO_PLANT: Final = BUILDING_IDS["small indigo plant"]
SMALL_SUGAR_MILL: Final = BUILDING_IDS["small sugar mill"]
INDIGO_PLANT: Final = BUILDING_IDS["indigo plant"]
SUGAR_MILL: Final = BUILDING_IDS["sugar mill"]
TOBACCO_STORAGE: Final = BUILDING_IDS["tobacco storage"]
COFFEE_ROASTER: Final = BUILDING_IDS["coffee roaster"]
SMALL_MARKET: Final = BUILDING_IDS["small market"]
HACIENDA: Final = BUILDING_IDS["hacienda"]
CONSTRUCTION_HUT: Final = BUILDING_IDS["construction hut"]
SMALL_WAREHOUSE: Final = BUILDING_IDS["small warehouse"]
HOSPICE: Final = BUILDING_IDS["hospice"]
OFFICE: Final = BUILDING_IDS["office"]
LARGE_MARKET: Final = BUILDING_IDS["large market"]
LARGE_WAREHOUSE: Final = BUILDING_IDS["large warehouse"]
FACTORY: Final = BUILDING_IDS["factory"]
UNIVERSITY: Final = BUILDING_IDS["university"]
HARBOR: Final = BUILDING_IDS["harbor"]
WHARF: Final = BUILDING_IDS["wharf"]
GUILD_HALL: Final = BUILDING_IDS["guild hall"]
RESIDENCE: Final = BUILDING_IDS["residence"]
FORTRESS: Final = BUILDING_IDS["fortress"]
CUSTOMS_HOUSE: Final = BUILDING_IDS["customs house"]
CITY_HALL: Final = BUILDING_IDS["city hall"]
AQUEDUCT: Final = BUILDING_IDS["aqueduct"]
FOREST_HOUSE: Final = BUILDING_IDS["forest house"]
BLACK_MARKET: Final = BUILDING_IDS["black market"]
STOREHOUSE: Final = BUILDING_IDS["storehouse"]
GUESTHOUSE: Final = BUILDING_IDS["guesthouse"]
TRADING_POST: Final = BUILDING_IDS["trading post"]
CHURCH: Final = BUILDING_IDS["church"]
SMALL_WHARF: Final = BUILDING_IDS["small wharf"]
LIGHTHOUSE: Final = BUILDING_IDS["lighthouse"]
SPECIALTY_FACTORY: Final = BUILDING_IDS["specialty factory"]
LIBRARY: Final = BUILDING_IDS["library"]
UNION_HALL: Final = BUILDING_IDS["union hall"]
STATUE: Final = BUILDING_IDS["statue"]
CLOISTER: Final = BUILDING_IDS["cloister"]

# The production buildings of each good, small first (§1.3).
PRODUCTION_BUILDINGS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(i for i, info in enumerate(BUILDINGS) if info.good == good) for good in GOODS
)

# Craftsman phase: doubloons the factory pays by number of kinds produced (§4.4).
FACTORY_PAY: Final = (0, 0, 1, 2, 3, 5)
# Trader phase: market bonuses (§4.5).
SMALL_MARKET_BONUS: Final = 1
LARGE_MARKET_BONUS: Final = 2
TRADING_HOUSE_CAPACITY: Final = 4
# Captain phase storage (§4.6 step 5): kinds per warehouse, single goods on the windrose.
WAREHOUSE_KINDS: Final = ((SMALL_WAREHOUSE, 1), (LARGE_WAREHOUSE, 2))
WINDROSE_GOODS: Final = 1
# Final scoring (§5): residence bonus by filled island spaces; guild hall per production building.
RESIDENCE_BONUS: Final = {12: 7, 11: 6, 10: 5}
RESIDENCE_MIN_BONUS: Final = 4
GUILD_HALL_SMALL: Final = 1
GUILD_HALL_LARGE: Final = 2
FORTRESS_COLONISTS_PER_VP: Final = 3
CUSTOMS_HOUSE_VP_PER_VP: Final = 4


class Setup(NamedTuple):
    """Setup facts for one player count (§2.1)."""

    doubloons: int
    vp_pool: int
    colonist_supply: int
    colonist_ship: int
    ships: tuple[int, ...]
    roles: tuple[int, ...]
    picks_per_round: int
    starting_plantations: tuple[int, ...]
    plantations: tuple[int, ...]  # per good, before the starting plantations are dealt
    quarries: int
    goods: tuple[int, ...]  # per good


_FULL_PLANTATIONS: Final = (10, 12, 11, 9, 8)
_FULL_GOODS: Final = (10, 11, 11, 9, 9)
_BASE_ROLES: Final = (SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN)

SETUPS: Final[dict[int, Setup]] = {
    2: Setup(
        3,
        65,
        40,
        2,
        (4, 6),
        (*_BASE_ROLES, PROSPECTOR),
        6,
        (INDIGO, CORN),
        tuple(n - 3 for n in _FULL_PLANTATIONS),
        5,
        tuple(n - 2 for n in _FULL_GOODS),
    ),
    3: Setup(
        2, 75, 55, 3, (4, 5, 6), _BASE_ROLES, 3, (INDIGO, INDIGO, CORN), _FULL_PLANTATIONS, 8, _FULL_GOODS
    ),
    4: Setup(
        3,
        100,
        75,
        4,
        (5, 6, 7),
        (*_BASE_ROLES, PROSPECTOR),
        4,
        (INDIGO, INDIGO, CORN, CORN),
        _FULL_PLANTATIONS,
        8,
        _FULL_GOODS,
    ),
    5: Setup(
        4,
        122,
        95,
        5,
        (6, 7, 8),
        (*_BASE_ROLES, PROSPECTOR, PROSPECTOR_2),
        5,
        (INDIGO, INDIGO, INDIGO, CORN, CORN),
        _FULL_PLANTATIONS,
        8,
        _FULL_GOODS,
    ),
}
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5

# Expansion I (§6). Building sets (option `buildings`).
BUILDING_SET_BASE: Final = "base"
BUILDING_SET_DRAFT: Final = "draft"
BUILDING_SET_RANDOM: Final = "random"
BUILDING_SETS: Final = (BUILDING_SET_BASE, BUILDING_SET_DRAFT, BUILDING_SET_RANDOM)
PRODUCTION_IDS: Final = tuple(i for i, info in enumerate(BUILDINGS) if not info.violet)
# Draft (§6.3): violet slots per cost; the candidates of a slot are the violet buildings of its cost.
DRAFT_SLOTS: Final = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}
DRAFT_CANDIDATES: Final = {
    cost: tuple(i for i, info in enumerate(BUILDINGS) if info.violet and info.cost == cost)
    for cost in DRAFT_SLOTS
}
DRAFT_PICKS: Final = sum(DRAFT_SLOTS.values())
# Effects (§6.2).
AQUEDUCT_PLANTS: Final = (
    (INDIGO, INDIGO_PLANT),
    (SUGAR, SUGAR_MILL),
)  # the large plant each aqueduct good needs
AQUEDUCT_GOODS: Final = 1
FOREST_DISCOUNT_PER: Final = 2  # forests per doubloon of builder discount
BLACK_MARKET_COLONIST: Final = 0
BLACK_MARKET_GOOD: Final = 1
BLACK_MARKET_VP: Final = 2  # one of each item at most per build
STOREHOUSE_SINGLES: Final = 3
GUESTHOUSE_WINDOW_ROLES: Final = (SETTLER, BUILDER, CRAFTSMAN, TRADER, CAPTAIN)  # OP-13 window (2)
CHURCH_VP_BY_COL: Final = (0, 0, 1, 1, 2)  # by the column of the building just built (index = Col)
SMALL_WHARF_GOODS_PER_VP: Final = 2
LIGHTHOUSE_DOUBLOONS: Final = 1
LIGHTHOUSE_CAPTAIN_DOUBLOONS: Final = 1
CLOISTER_KINDS: Final = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY, FOREST)  # OP-11
CLOISTER_SET_SIZE: Final = 3
CLOISTER_TABLE: Final = (0, 1, 3, 6, 10)  # OP-11: VP by number of sets; more sets score the last value

# Open points (§11): the defaults, as named constants and options. Each point the rules mark
# UNCONFIRMED (OP-1, 3, 5-11, 20) is also a game option (a field of state.Config) whose default is
# the constant here.
VP_POOL_5P_CHOICES: Final = (122, 126)  # OP-1: 122 is the default (2002 edition)
DEFAULT_VP_POOL_5P: Final = 122
FINAL_TIE_RULE: Final = "shared"  # OP-2: a tie after doubloons + goods is a shared victory
BANK_UNLIMITED: Final = True  # OP-17: the doubloon bank never runs out
AUTO_PRODUCTION: Final = True  # OP-21: craftsman production is resolved automatically
RANDOM_FIRST_GOVERNOR: Final = True  # §2.2 and §10: the first governor is a uniformly random seat
SMALL_WHARF_ROUNDING_CHOICES: Final = ("floor", "ceil")
SMALL_WHARF_ROUNDING: Final = "floor"  # OP-3: VP = goods // 2 (option `small_wharf_rounding`)
SMALL_WHARF_COUNTS_AS_LOAD: Final = True  # OP-4: captain privilege, harbor and lighthouse apply to it
LIGHTHOUSE_CAPTAIN_NEEDS_LOAD: Final = (
    False  # OP-5: the captain's extra doubloon comes whether or not they ship
)
LIGHTHOUSE_COUNTS_PRIVATE_SHIPS: Final = True  # OP-6: wharf and small-wharf shipments pay the lighthouse
SPECIALTY_FACTORY_COUNTS_CORN: Final = False  # OP-7: corn does not count for the specialty factory
LIBRARY_CRAFTSMAN_DISTINCT: Final = True  # OP-8: the library's two extra goods are of different kinds
LIBRARY_MULTIPLIER_CHOICES: Final = (1, 2, 3)
LIBRARY_MULTIPLIER: Final = 2  # OP-9: a library owner's privileges are doubled (option `library_multiplier`)
DRAFT_HACIENDA_FOREST_EXCLUSIVE: Final = True  # OP-10: hacienda and forest house exclude each other
CLOISTER_COUNTS_UNOCCUPIED: Final = True  # OP-11: cloister tiles count occupied or not
# OP-11 (option `cloister_kinds`): the tile kinds that form cloister sets, by choice.
CLOISTER_KIND_SETS: Final = {"all": CLOISTER_KINDS, "plantations": GOODS}
CLOISTER_KINDS_CHOICES: Final = tuple(CLOISTER_KIND_SETS)
DEFAULT_CLOISTER_KINDS: Final = "all"
AQUEDUCT_LARGE_FIRST: Final = True  # OP-12: production is credited to the large plant first
GUESTHOUSE_WINDOWS: Final = ("own_step", "role_start", "final")  # OP-13: when guests may move
BLACK_MARKET_COLONIST_SOURCE: Final = "any"  # OP-14: any colonist of the owner may be returned
TRADING_POST_IGNORES_HOUSE: Final = True  # OP-15: the trading post works when the trading house is full
FOREST_DISCOUNT_NEEDS_OCCUPIED: Final = True  # OP-16: the forest discount needs an occupied forest house
SPECIALTY_COUNTS_AQUEDUCT: Final = True  # OP-19: the aqueduct's good counts for the specialty factory
VP_TRIGGER_ANY_PHASE: Final = True  # OP-20: an empty pool outside the captain phase fires trigger (c)

# Engine choices where a decision can never help the decider (documented in docs/games/puertorico.md).
STORAGE_KEEPS_MAXIMUM: Final = True  # storage only asks which goods to keep when not all of them fit
AUTO_RESOLVE_FORCED: Final = True  # a decision with a single legal action is taken automatically

"""Puerto Rico's static facts: goods, tiles, roles, buildings, setup per player count, and the
named defaults for the points the rules leave open.

Source: shared/rules/puerto_rico.md (§1 components, §2 setup, §4-§5 roles and buildings, §6
Expansion I, §11 open points), itself drawn from the alea 2002 rulebook and the original texts.
"""

from __future__ import annotations

from typing import NamedTuple

# Goods. The index of a good is also its price at the trading house (§1.1).
CORN, INDIGO, SUGAR, TOBACCO, COFFEE = range(5)
GOODS = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE)
GOOD_NAMES = ("corn", "indigo", "sugar", "tobacco", "coffee")
PRICE = (0, 1, 2, 3, 4)

# Island tiles: a plantation's index is its good's index.
QUARRY = 5
FOREST = 6
TILE_KINDS = 7
CIRCLE_TILES = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY)
TILE_NAMES = (
    "corn plantation",
    "indigo plantation",
    "sugar plantation",
    "tobacco plantation",
    "coffee plantation",
    "quarry",
    "forest",
)
ISLAND_SPACES = 12
CITY_SPACES = 12

# Roles.
SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN, PROSPECTOR, PROSPECTOR_2 = range(8)
NO_ROLE = -1
ROLE_NAMES = ("settler", "mayor", "builder", "craftsman", "trader", "captain", "prospector", "prospector")


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


BUILDINGS: tuple[BuildingInfo, ...] = (
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
BUILDING_IDS = {info.name: index for index, info in enumerate(BUILDINGS)}
BASE_BUILDINGS = tuple(i for i, info in enumerate(BUILDINGS) if not info.expansion)
# Each building's circles and city spaces, by id (what the hot paths look up).
BUILDING_CIRCLES = tuple(info.circles for info in BUILDINGS)
BUILDING_CITY_SPACES = tuple(info.spaces for info in BUILDINGS)

SMALL_INDIGO_PLANT = BUILDING_IDS["small indigo plant"]
SMALL_SUGAR_MILL = BUILDING_IDS["small sugar mill"]
INDIGO_PLANT = BUILDING_IDS["indigo plant"]
SUGAR_MILL = BUILDING_IDS["sugar mill"]
TOBACCO_STORAGE = BUILDING_IDS["tobacco storage"]
COFFEE_ROASTER = BUILDING_IDS["coffee roaster"]
SMALL_MARKET = BUILDING_IDS["small market"]
HACIENDA = BUILDING_IDS["hacienda"]
CONSTRUCTION_HUT = BUILDING_IDS["construction hut"]
SMALL_WAREHOUSE = BUILDING_IDS["small warehouse"]
HOSPICE = BUILDING_IDS["hospice"]
OFFICE = BUILDING_IDS["office"]
LARGE_MARKET = BUILDING_IDS["large market"]
LARGE_WAREHOUSE = BUILDING_IDS["large warehouse"]
FACTORY = BUILDING_IDS["factory"]
UNIVERSITY = BUILDING_IDS["university"]
HARBOR = BUILDING_IDS["harbor"]
WHARF = BUILDING_IDS["wharf"]
GUILD_HALL = BUILDING_IDS["guild hall"]
RESIDENCE = BUILDING_IDS["residence"]
FORTRESS = BUILDING_IDS["fortress"]
CUSTOMS_HOUSE = BUILDING_IDS["customs house"]
CITY_HALL = BUILDING_IDS["city hall"]
AQUEDUCT = BUILDING_IDS["aqueduct"]
FOREST_HOUSE = BUILDING_IDS["forest house"]
BLACK_MARKET = BUILDING_IDS["black market"]
STOREHOUSE = BUILDING_IDS["storehouse"]
GUESTHOUSE = BUILDING_IDS["guesthouse"]
TRADING_POST = BUILDING_IDS["trading post"]
CHURCH = BUILDING_IDS["church"]
SMALL_WHARF = BUILDING_IDS["small wharf"]
LIGHTHOUSE = BUILDING_IDS["lighthouse"]
SPECIALTY_FACTORY = BUILDING_IDS["specialty factory"]
LIBRARY = BUILDING_IDS["library"]
UNION_HALL = BUILDING_IDS["union hall"]
STATUE = BUILDING_IDS["statue"]
CLOISTER = BUILDING_IDS["cloister"]

# The production buildings of each good, small first (§1.3).
PRODUCTION_BUILDINGS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i, info in enumerate(BUILDINGS) if info.good == good) for good in GOODS
)

# Craftsman phase: doubloons the factory pays by number of kinds produced (§4.4).
FACTORY_PAY = (0, 0, 1, 2, 3, 5)
# Trader phase: market bonuses (§4.5).
SMALL_MARKET_BONUS = 1
LARGE_MARKET_BONUS = 2
TRADING_HOUSE_CAPACITY = 4
# Captain phase storage (§4.6 step 5): kinds per warehouse, single goods on the windrose.
WAREHOUSE_KINDS = ((SMALL_WAREHOUSE, 1), (LARGE_WAREHOUSE, 2))
WINDROSE_GOODS = 1
# Final scoring (§5): residence bonus by filled island spaces; guild hall per production building.
RESIDENCE_BONUS = {12: 7, 11: 6, 10: 5}
RESIDENCE_MIN_BONUS = 4
GUILD_HALL_SMALL, GUILD_HALL_LARGE = 1, 2
FORTRESS_COLONISTS_PER_VP = 3
CUSTOMS_HOUSE_VP_PER_VP = 4


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


_FULL_PLANTATIONS = (10, 12, 11, 9, 8)
_FULL_GOODS = (10, 11, 11, 9, 9)
_BASE_ROLES = (SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN)

SETUPS: dict[int, Setup] = {
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
MIN_PLAYERS, MAX_PLAYERS = 2, 5

# Expansion I (§6). Building sets (option `buildings`).
BUILDING_SET_BASE, BUILDING_SET_DRAFT, BUILDING_SET_RANDOM = "base", "draft", "random"
BUILDING_SETS = (BUILDING_SET_BASE, BUILDING_SET_DRAFT, BUILDING_SET_RANDOM)
PRODUCTION_IDS = tuple(i for i, info in enumerate(BUILDINGS) if not info.violet)
# Draft (§6.3): violet slots per cost; the candidates of a slot are the violet buildings of its cost.
DRAFT_SLOTS = {1: 1, 2: 2, 3: 1, 4: 1, 5: 2, 6: 1, 7: 1, 8: 2, 9: 1, 10: 5}
DRAFT_CANDIDATES = {
    cost: tuple(i for i, info in enumerate(BUILDINGS) if info.violet and info.cost == cost)
    for cost in DRAFT_SLOTS
}
DRAFT_PICKS = sum(DRAFT_SLOTS.values())
# Effects (§6.2).
AQUEDUCT_PLANTS = ((INDIGO, INDIGO_PLANT), (SUGAR, SUGAR_MILL))  # the large plant each aqueduct good needs
AQUEDUCT_GOODS = 1
FOREST_DISCOUNT_PER = 2  # forests per doubloon of builder discount
BLACK_MARKET_COLONIST, BLACK_MARKET_GOOD, BLACK_MARKET_VP = range(3)  # one of each item at most per build
STOREHOUSE_SINGLES = 3
GUESTHOUSE_WINDOW_ROLES = (SETTLER, BUILDER, CRAFTSMAN, TRADER, CAPTAIN)  # OP-13 window (2)
CHURCH_VP_BY_COL = (0, 0, 1, 1, 2)  # by the column of the building just built (index = Col)
SMALL_WHARF_GOODS_PER_VP = 2
LIGHTHOUSE_DOUBLOONS = 1
LIGHTHOUSE_CAPTAIN_DOUBLOONS = 1
CLOISTER_KINDS = (CORN, INDIGO, SUGAR, TOBACCO, COFFEE, QUARRY, FOREST)  # OP-11
CLOISTER_SET_SIZE = 3
CLOISTER_TABLE = (0, 1, 3, 6, 10)  # OP-11: VP by number of sets; more sets score the last value

# Open points (§11): the defaults, as named constants and options. Each point the rules mark
# UNCONFIRMED (OP-1, 3, 5-11, 20) is also a game option (a field of state.Config) whose default is
# the constant here.
VP_POOL_5P_CHOICES = (122, 126)  # OP-1: 122 is the default (2002 edition)
DEFAULT_VP_POOL_5P = 122
FINAL_TIE_RULE = "shared"  # OP-2: a tie after doubloons + goods is a shared victory
BANK_UNLIMITED = True  # OP-17: the doubloon bank never runs out
AUTO_PRODUCTION = True  # OP-21: craftsman production is resolved automatically
RANDOM_FIRST_GOVERNOR = True  # §2.2 and §10: the first governor is a uniformly random seat
SMALL_WHARF_ROUNDING_CHOICES = ("floor", "ceil")
SMALL_WHARF_ROUNDING = "floor"  # OP-3: VP = goods // 2 (option `small_wharf_rounding`)
SMALL_WHARF_COUNTS_AS_LOAD = True  # OP-4: captain privilege, harbor and lighthouse apply to it
LIGHTHOUSE_CAPTAIN_NEEDS_LOAD = False  # OP-5: the captain's extra doubloon comes whether or not they ship
LIGHTHOUSE_COUNTS_PRIVATE_SHIPS = True  # OP-6: wharf and small-wharf shipments pay the lighthouse
SPECIALTY_FACTORY_COUNTS_CORN = False  # OP-7: corn does not count for the specialty factory
LIBRARY_CRAFTSMAN_DISTINCT = True  # OP-8: the library's two extra goods are of different kinds
LIBRARY_MULTIPLIER_CHOICES = (1, 2, 3)
LIBRARY_MULTIPLIER = 2  # OP-9: a library owner's privileges are doubled (option `library_multiplier`)
DRAFT_HACIENDA_FOREST_EXCLUSIVE = True  # OP-10: hacienda and forest house exclude each other
CLOISTER_COUNTS_UNOCCUPIED = True  # OP-11: cloister tiles count occupied or not
# OP-11 (option `cloister_kinds`): the tile kinds that form cloister sets, by choice.
CLOISTER_KIND_SETS = {"all": CLOISTER_KINDS, "plantations": GOODS}
CLOISTER_KINDS_CHOICES = tuple(CLOISTER_KIND_SETS)
DEFAULT_CLOISTER_KINDS = "all"
AQUEDUCT_LARGE_FIRST = True  # OP-12: production is credited to the large plant first
GUESTHOUSE_WINDOWS = ("own_step", "role_start", "final")  # OP-13: when guests may move
BLACK_MARKET_COLONIST_SOURCE = "any"  # OP-14: any colonist of the owner may be returned
TRADING_POST_IGNORES_HOUSE = True  # OP-15: the trading post works when the trading house is full
FOREST_DISCOUNT_NEEDS_OCCUPIED = True  # OP-16: the forest discount needs an occupied forest house
SPECIALTY_COUNTS_AQUEDUCT = True  # OP-19: the aqueduct's good counts for the specialty factory
VP_TRIGGER_ANY_PHASE = True  # OP-20: an empty pool outside the captain phase fires trigger (c)

# Engine choices where a decision can never help the decider (documented in docs/games/puertorico.md).
STORAGE_KEEPS_MAXIMUM = True  # storage only asks which goods to keep when not all of them fit
AUTO_RESOLVE_FORCED = True  # a decision with a single legal action is taken automatically

"""Native game state: plain Python lists and ints, copied explicitly, never shared between states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Self

from services.common.rng import Rng
from services.puertorico.data import (
    BUILDING_SET_BASE,
    BUILDINGS,
    CIRCLE_TILES,
    DEFAULT_CLOISTER_KINDS,
    DEFAULT_VP_POOL_5P,
    DRAFT_HACIENDA_FOREST_EXCLUSIVE,
    GUESTHOUSE,
    LIBRARY_CRAFTSMAN_DISTINCT,
    LIBRARY_MULTIPLIER,
    LIGHTHOUSE_CAPTAIN_NEEDS_LOAD,
    LIGHTHOUSE_COUNTS_PRIVATE_SHIPS,
    NO_ROLE,
    SMALL_WHARF_ROUNDING,
    SPECIALTY_FACTORY_COUNTS_CORN,
    VP_TRIGGER_ANY_PHASE,
)

# The decision the acting seat faces (mirrors the protobuf Step enum, minus its zero value).
CHOOSE_ROLE: Final = 1
HACIENDA_STEP: Final = 2
TAKE_TILE: Final = 3
HOSPICE_STEP: Final = 4
MAYOR_PRIVILEGE: Final = 5
PLACE_COLONIST: Final = 6
BUILD: Final = 7
UNIVERSITY_STEP: Final = 8
CRAFTSMAN_PRIVILEGE: Final = 9
SELL: Final = 10
LOAD: Final = 11
STORE: Final = 12
GAME_OVER: Final = 13
DRAFT_COST: Final = 14
DRAFT_BUILDING: Final = 15
HACIENDA_PLACE: Final = 16
LIBRARY_TILE: Final = 17
BLACK_MARKET_STEP: Final = 18
BLACK_MARKET_COLONIST_STEP: Final = 19
SMALL_WHARF_STEP: Final = 20
GUESTS: Final = 21
LAST_STEP: Final = GUESTS

# Game-end triggers (§7.1), numbered like the protobuf EndTrigger enum.
TRIGGER_COLONISTS: Final = 1
TRIGGER_CITY: Final = 2
TRIGGER_VP_POOL: Final = 3


@dataclass(frozen=True)
class Config:
    """The game options (see GameInfo.options)."""

    public_vp: bool = False
    vp_pool_5p: int = DEFAULT_VP_POOL_5P
    buildings: str = BUILDING_SET_BASE
    # Expansion I open points the rules mark UNCONFIRMED (§11); the defaults are the rules' DEFAULTs.
    small_wharf_rounding: str = SMALL_WHARF_ROUNDING  # OP-3
    lighthouse_captain_needs_load: bool = LIGHTHOUSE_CAPTAIN_NEEDS_LOAD  # OP-5
    lighthouse_counts_private_ships: bool = LIGHTHOUSE_COUNTS_PRIVATE_SHIPS  # OP-6
    specialty_factory_counts_corn: bool = SPECIALTY_FACTORY_COUNTS_CORN  # OP-7
    library_craftsman_distinct: bool = LIBRARY_CRAFTSMAN_DISTINCT  # OP-8
    library_multiplier: int = LIBRARY_MULTIPLIER  # OP-9
    draft_hacienda_forest_exclusive: bool = DRAFT_HACIENDA_FOREST_EXCLUSIVE  # OP-10
    cloister_kinds: str = DEFAULT_CLOISTER_KINDS  # OP-11
    vp_trigger_any_phase: bool = VP_TRIGGER_ANY_PHASE  # OP-20


class Player:
    """One player's board: doubloons, VP chips, goods, island, city and San Juan."""

    __slots__ = (
        "buildings",
        "doubloons",
        "forests",
        "goods",
        "occupied",
        "san_juan",
        "small_wharf_used",
        "tiles",
        "vp",
        "wharf_used",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self) -> None:
        self.doubloons = 0
        self.vp = 0
        self.goods = [0, 0, 0, 0, 0]
        self.tiles = [0, 0, 0, 0, 0, 0, 0]  # count per tile kind (plantations, quarry, forest)
        self.occupied = [0, 0, 0, 0, 0, 0]  # colonists per circle tile kind
        self.buildings: dict[int, int] = {}  # building -> colonists, in the order built
        self.san_juan = 0
        self.wharf_used = False
        self.small_wharf_used = False
        self.forests = [0, 0, 0, 0, 0]  # the hidden plantation kind of each forest, per good

    def copy(self) -> Player:
        """An independent copy."""
        other = Player.__new__(Player)
        other.doubloons = self.doubloons
        other.vp = self.vp
        other.goods = self.goods[:]
        other.tiles = self.tiles[:]
        other.occupied = self.occupied[:]
        other.buildings = self.buildings.copy()
        other.san_juan = self.san_juan
        other.wharf_used = self.wharf_used
        other.small_wharf_used = self.small_wharf_used
        other.forests = self.forests[:]
        return other

    def has(self, building: int) -> bool:
        """Whether the building is in the city and occupied (only occupied buildings work)."""
        return self.buildings.get(building, 0) > 0

    def island_used(self) -> int:
        """Filled island spaces."""
        return sum(self.tiles)

    def city_used(self) -> int:
        """Filled city spaces (a large building fills 2)."""
        return sum(BUILDINGS[b].spaces for b in self.buildings)

    def colonists(self) -> int:
        """Every colonist on the board, San Juan included."""
        return self.san_juan + sum(self.occupied) + sum(self.buildings.values())

    def circles(self) -> int:
        """Every circle on the board: island tiles (not forests) and buildings."""
        return sum(self.tiles[t] for t in CIRCLE_TILES) + sum(BUILDINGS[b].circles for b in self.buildings)

    def guests(self) -> int:
        """Colonists on the guesthouse (guests, who may move at the OP-13 windows)."""
        return self.buildings.get(GUESTHOUSE, 0)

    def empty_building_circles(self) -> int:
        """Empty circles on buildings (what the colonist ship refill counts)."""
        return sum(BUILDINGS[b].circles - c for b, c in self.buildings.items())


class State:
    """The whole game. `legal` caches the acting seat's legal actions and is never serialized."""

    __slots__ = (
        "actor",
        "black_market_items",
        "captain_loaded",
        "colonist_moves",
        "colonist_ship",
        "colonist_supply",
        "config",
        "craftsman_produced",
        "draft_cost",
        "draft_picks",
        "end_triggers",
        "face_up_plantations",
        "goods_supply",
        "governor",
        "hacienda_tile",
        "just_built",
        "legal",
        "n",
        "passes_in_row",
        "pending_build",
        "pending_price",
        "picks",
        "plantation_discards",
        "plantation_stack",
        "players",
        "privilege_goods_left",
        "quarries",
        "rng",
        "role",
        "role_doubloons",
        "role_selector",
        "role_taken",
        "role_turn",
        "roles",
        "round",
        "ship_cap",
        "ship_count",
        "ship_good",
        "singles_kept",
        "small_wharf_goods",
        "step",
        "stock",
        "tile_taken",
        "trading_house",
        "vp_pool",
        "warehoused",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self, config: Config, n: int, rng: Rng) -> None:
        self.config = config
        self.n = n
        self.rng = rng
        self.round = 1
        self.governor = 0
        self.roles: list[int] = []
        self.role_doubloons: list[int] = []
        self.role_taken: list[bool] = []
        self.picks = 0
        self.role = NO_ROLE
        self.role_selector = 0
        self.role_turn = 0
        self.step = CHOOSE_ROLE
        self.actor = 0
        self.players = [Player() for _ in range(n)]
        self.plantation_stack: list[int] = []  # face-down plantations; drawn from the end
        self.face_up_plantations: list[int] = []
        self.plantation_discards: list[int] = []
        self.quarries = 0
        self.colonist_supply = 0
        self.colonist_ship = 0
        self.colonist_moves: list[tuple[int, int]] = []  # mayor: (from, to) spaces moved this turn
        self.vp_pool = 0
        self.goods_supply = [0, 0, 0, 0, 0]
        self.trading_house: list[int] = []  # the trading house
        self.ship_cap: list[int] = []
        self.ship_good: list[int] = []  # -1 while empty
        self.ship_count: list[int] = []
        self.stock = [0] * len(BUILDINGS)  # copies for sale
        self.end_triggers: list[int] = []
        self.passes_in_row = 0
        self.captain_loaded = False
        self.tile_taken = -1
        self.just_built = -1
        self.craftsman_produced: list[int] = []
        self.warehoused: list[int] = []
        self.singles_kept = [0, 0, 0, 0, 0]
        self.draft_picks: list[int] = []  # violet buildings drafted, in pick order
        self.draft_cost = 0  # the cost of the slot the drafting seat chose; 0 before it chooses
        self.hacienda_tile = -1  # a tile drawn with the hacienda and seen only by its drawer
        self.pending_build = -1  # the building being paid for with the black market
        self.pending_price = 0  # its price before black market items, fixed when it was chosen
        self.black_market_items: list[int] = []
        self.small_wharf_goods = [0, 0, 0, 0, 0]
        self.privilege_goods_left = 0
        self.legal: list | None = None  # type: ignore[type-arg]

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.config = self.config
        other.n = self.n
        other.rng = self.rng.copy()
        other.round = self.round
        other.governor = self.governor
        other.roles = self.roles  # fixed for the whole game, never mutated
        other.role_doubloons = self.role_doubloons[:]
        other.role_taken = self.role_taken[:]
        other.picks = self.picks
        other.role = self.role
        other.role_selector = self.role_selector
        other.role_turn = self.role_turn
        other.step = self.step
        other.actor = self.actor
        other.players = [p.copy() for p in self.players]
        other.plantation_stack = self.plantation_stack[:]
        other.face_up_plantations = self.face_up_plantations[:]
        other.plantation_discards = self.plantation_discards[:]
        other.quarries = self.quarries
        other.colonist_supply = self.colonist_supply
        other.colonist_ship = self.colonist_ship
        other.colonist_moves = self.colonist_moves[:]
        other.vp_pool = self.vp_pool
        other.goods_supply = self.goods_supply[:]
        other.trading_house = self.trading_house[:]
        other.ship_cap = self.ship_cap  # fixed for the whole game, never mutated
        other.ship_good = self.ship_good[:]
        other.ship_count = self.ship_count[:]
        other.stock = self.stock[:]
        other.end_triggers = self.end_triggers[:]
        other.passes_in_row = self.passes_in_row
        other.captain_loaded = self.captain_loaded
        other.tile_taken = self.tile_taken
        other.just_built = self.just_built
        other.craftsman_produced = self.craftsman_produced[:]
        other.warehoused = self.warehoused[:]
        other.singles_kept = self.singles_kept[:]
        other.draft_picks = self.draft_picks[:]
        other.draft_cost = self.draft_cost
        other.hacienda_tile = self.hacienda_tile
        other.pending_build = self.pending_build
        other.pending_price = self.pending_price
        other.black_market_items = self.black_market_items[:]
        other.small_wharf_goods = self.small_wharf_goods[:]
        other.privilege_goods_left = self.privilege_goods_left
        other.legal = self.legal
        return other

    @property
    def expansion(self) -> bool:
        """Whether Expansion I buildings may be in play."""
        return self.config.buildings != BUILDING_SET_BASE

    @property
    def terminal(self) -> bool:
        """Whether the game is over."""
        return self.step == GAME_OVER

"""Native game state: plain lists, ints and bools, copied explicitly, never shared between states.

Attribute names are those of the protobuf fields (boardgame.assyria.v1.Table, Player) and every id
is its protobuf number: hexes by hex number (services.assyria.board), cards by card kind
(services.assyria.cards), foods, dignitaries and steps by their enum numbers, seats from 0, -1 for
"nobody". Decks are drawn from their end.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Self

from services.assyria.board import HEX_COUNT
from services.assyria.data import ASSUR_2P_RULE, FED_STATUS_LASTS, FEEDING, START_PLOW, UNUSED_PLOWS
from services.common.rng import Rng

# The decision the acting seat faces (the protobuf Step enum, minus its zero value).
START_SPACE: Final = 1
DRAFT: Final = 2
HARVEST: Final = 3
PLACE_HUTS: Final = 4
FEED: Final = 5
WELLS: Final = 6
ACTIONS: Final = 7
GAME_OVER: Final = 8

# OP-23 (the protobuf FedStatusLasts enum), OP-18 (UnusedPlows) and OP-24 (Feeding).
FED_TURN: Final = 1
FED_REIGN: Final = 2
UNUSED_PLOWS_STACK: Final = 1
UNUSED_PLOWS_REMOVED: Final = 2
FEEDING_COMPULSORY: Final = 1
FEEDING_OPTIONAL: Final = 2
NOBODY: Final = -1


@dataclass(frozen=True)
class Config:
    """The game options; every other open point is a named constant of data.py."""

    fed_status_lasts: int = FED_TURN if FED_STATUS_LASTS == "turn" else FED_REIGN  # OP-23
    assur_2p_rule: bool = ASSUR_2P_RULE  # OP-5
    start_plow: bool = START_PLOW  # OP-18
    unused_plows: int = UNUSED_PLOWS_STACK if UNUSED_PLOWS == "stack" else UNUSED_PLOWS_REMOVED  # OP-18
    feeding: int = FEEDING_COMPULSORY if FEEDING == "compulsory" else FEEDING_OPTIONAL  # OP-24


class Player:
    """One player's tracks, stock and hand."""

    __slots__ = ("camels", "hand", "huts", "offerings", "plow", "score")

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self) -> None:
        self.camels = 0
        self.score = 0
        self.offerings = 0
        self.huts = 0  # huts in stock
        self.hand: list[int] = []  # food cards held, as card kinds
        self.plow = False  # holds a plow card

    def copy(self) -> Player:
        """An independent copy."""
        other = Player.__new__(Player)
        other.camels = self.camels
        other.score = self.score
        other.offerings = self.offerings
        other.huts = self.huts
        other.hand = self.hand[:]
        other.plow = self.plow
        return other


class State:
    """The whole game. `legal` caches the acting seat's legal actions and is never serialized."""

    __slots__ = (
        "actor",
        "assur_cards",
        "assur_higher",
        "assur_lower",
        "assur_middle",
        "column_seats",
        "config",
        "draft_cards",
        "expansion_card",
        "expansion_deck",
        "fed",
        "feeding_food",
        "feeding_symbols",
        "food_bought",
        "food_deck",
        "food_discard",
        "hut_seats",
        "huts_to_place",
        "legal",
        "n",
        "offered_this_turn",
        "order_position",
        "players",
        "plow_bought",
        "plow_stack",
        "raised",
        "reign",
        "rng",
        "sowing_row_1",
        "sowing_row_2",
        "step",
        "turn",
        "turn_order",
        "wells",
        "wells_supply",
        "ziggurat_heights",
        "ziggurat_seats",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self, config: Config, n: int, rng: Rng) -> None:
        self.config = config
        self.n = n
        self.rng = rng
        self.step = START_SPACE
        self.actor = 0
        self.legal: list | None = None  # type: ignore[type-arg]
        self.turn = 1
        self.reign = 1
        self.turn_order: list[int] = list(range(n))
        self.order_position = 0
        self.expansion_card = 0
        self.assur_cards: list[int] = []
        self.expansion_deck: list[int] = []
        self.food_deck: list[int] = []
        self.food_discard: list[int] = []
        self.draft_cards: list[int] = []
        self.sowing_row_1: list[int] = []
        self.sowing_row_2: list[int] = []
        self.column_seats: list[int] = []
        self.hut_seats = [NOBODY] * HEX_COUNT
        self.fed = [False] * HEX_COUNT
        self.ziggurat_seats = [NOBODY] * HEX_COUNT
        self.ziggurat_heights = [0] * HEX_COUNT
        self.raised = [False] * HEX_COUNT  # gained a piece this turn (OP-15)
        self.wells: list[int] = []  # site numbers, in building order
        self.wells_supply = 0
        self.assur_higher: list[int] = []  # seats on the spaces, from the top
        self.assur_middle: list[int] = []
        self.assur_lower: list[int] = []
        self.plow_stack = 0
        self.players = [Player() for _ in range(n)]
        self.clear_turn_progress()

    def clear_turn_progress(self) -> None:
        """Forget what the acting player did in the expansion or actions step that ended."""
        self.huts_to_place = 0
        self.feeding_food = 0  # the food of the card being used (WILD: any hut); 0: none
        self.feeding_symbols = 0  # symbols left on it
        self.offered_this_turn = 0
        self.plow_bought = False
        self.food_bought = False

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.config = self.config
        other.n = self.n
        other.rng = self.rng.copy()
        other.step = self.step
        other.actor = self.actor
        other.legal = self.legal
        other.turn = self.turn
        other.reign = self.reign
        other.turn_order = self.turn_order[:]
        other.order_position = self.order_position
        other.expansion_card = self.expansion_card
        other.assur_cards = self.assur_cards[:]
        other.expansion_deck = self.expansion_deck[:]
        other.food_deck = self.food_deck[:]
        other.food_discard = self.food_discard[:]
        other.draft_cards = self.draft_cards[:]
        other.sowing_row_1 = self.sowing_row_1[:]
        other.sowing_row_2 = self.sowing_row_2[:]
        other.column_seats = self.column_seats[:]
        other.hut_seats = self.hut_seats[:]
        other.fed = self.fed[:]
        other.ziggurat_seats = self.ziggurat_seats[:]
        other.ziggurat_heights = self.ziggurat_heights[:]
        other.raised = self.raised[:]
        other.wells = self.wells[:]
        other.wells_supply = self.wells_supply
        other.assur_higher = self.assur_higher[:]
        other.assur_middle = self.assur_middle[:]
        other.assur_lower = self.assur_lower[:]
        other.plow_stack = self.plow_stack
        other.players = [p.copy() for p in self.players]
        other.huts_to_place = self.huts_to_place
        other.feeding_food = self.feeding_food
        other.feeding_symbols = self.feeding_symbols
        other.offered_this_turn = self.offered_this_turn
        other.plow_bought = self.plow_bought
        other.food_bought = self.food_bought
        return other

    @property
    def terminal(self) -> bool:
        """Whether the game is over."""
        return self.step == GAME_OVER

    def assur(self, dignitary: int) -> list[int]:
        """The seats at a dignitary (Dignitary number), from the top space down."""
        return (self.assur_higher, self.assur_middle, self.assur_lower)[dignitary - 1]

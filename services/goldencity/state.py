"""Native game state: plain lists and ints, copied explicitly, never shared between states.

Every class mirrors a message of boardgame.goldencity.v1 (its attributes are the message's fields,
by the same names; ids and enums are the proto numbers), plus a few slots the engine keeps beside
them (`n`, the legal-action memo `legal`, the data set's lookup `tables`). Cards in a list: the top
of a deck or stack is its last element.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Self

from services.common.rng import Rng
from services.goldencity import rules
from services.goldencity.tables import Tables

# The decision the acting seat faces (the protobuf Step enum, minus its zero value).
BID: Final = 1
BUILD: Final = 2
PAY: Final = 3
CHOOSE_GOODS_CARD: Final = 4
CHOOSE_BONUS_CARD: Final = 5
DISCARD: Final = 6
GAME_OVER: Final = 7


@dataclass(frozen=True)
class Config:
    """The game options: the data set and the open points of §13 that a table may choose."""

    data_set: str = ""  # empty: the service's configured set (GOLDENCITY_DATA_SET, else v0)
    rebid: int = rules.DEFAULT_REBID  # OP-1
    bonus_card_take: int = rules.DEFAULT_BONUS_CARD_TAKE  # OP-2
    bonus_cards_public: bool = rules.BONUS_CARDS_PUBLIC  # OP-3
    inner_cost: int = rules.DEFAULT_INNER_COST  # OP-4
    joker: int = rules.DEFAULT_JOKER  # OP-7
    public_hands: bool = rules.PUBLIC_HANDS  # OP-20
    start_seat: int = rules.RANDOM_START_SEAT  # OP-24


@dataclass(frozen=True)
class DataSet:
    """Which data set a game plays with, and whether it is a reconstruction (§12.1)."""

    name: str
    data_version: str
    reconstruction: bool


class Pair:
    """A landscape pair on display and the bid hand on it (NOBODY: free)."""

    __slots__ = ("bid_seat", "cards")

    def __init__(self, cards: list[int], bid_seat: int = rules.NOBODY) -> None:
        self.cards = cards
        self.bid_seat = bid_seat

    def copy(self) -> Pair:
        """An independent copy."""
        return Pair(self.cards[:], self.bid_seat)


class Cards:
    """Landscape cards held (a player's hand)."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[int] | None = None) -> None:
        self.cards = [] if cards is None else cards


class BonusCards:
    """Bonus cards held."""

    __slots__ = ("cards",)

    def __init__(self, cards: list[int] | None = None) -> None:
        self.cards = [] if cards is None else cards


class Player:
    """One player's holdings; `houses` and `black_houses` are place ids in build order."""

    __slots__ = (
        "black_houses",
        "black_houses_left",
        "bonus_cards",
        "bonus_points",
        "coins",
        "goods_cards",
        "hand",
        "houses",
        "houses_left",
        "keys",
        "letters",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self, coins: int = 0, houses_left: int = 0, black_houses_left: int = 0) -> None:
        self.coins = coins
        self.letters = 0
        self.keys = 0
        self.hand = Cards()
        self.goods_cards: list[int] = []
        self.bonus_cards = BonusCards()
        self.houses: list[int] = []
        self.black_houses: list[int] = []
        self.houses_left = houses_left
        self.black_houses_left = black_houses_left
        self.bonus_points = 0

    def copy(self) -> Player:
        """An independent copy."""
        other = Player.__new__(Player)
        other.coins = self.coins
        other.letters = self.letters
        other.keys = self.keys
        other.hand = Cards(self.hand.cards[:])
        other.goods_cards = self.goods_cards[:]
        other.bonus_cards = BonusCards(self.bonus_cards.cards[:])
        other.houses = self.houses[:]
        other.black_houses = self.black_houses[:]
        other.houses_left = self.houses_left
        other.black_houses_left = self.black_houses_left
        other.bonus_points = self.bonus_points
        return other

    def has_house(self, place: int) -> bool:
        """Whether any of the player's houses, coloured or black, stands on `place`."""
        return place in self.houses or place in self.black_houses

    def houses_built(self) -> int:
        """Houses on the board, black ones included."""
        return len(self.houses) + len(self.black_houses)


class State:
    """The whole game."""

    __slots__ = (
        "actor",
        "bid_cursor",
        "bonus_chooser",
        "bonus_supply",
        "building_black",
        "building_place",
        "builds",
        "config",
        "data_set",
        "displacement",
        "goods_deck",
        "goods_display",
        "key_supply",
        "landscape_deck",
        "landscape_discard",
        "last_round",
        "legal",
        "n",
        "owed",
        "pairs",
        "players",
        "rng",
        "round",
        "scored_cards",
        "scoring_card",
        "scoring_stack",
        "start_player",
        "step",
        "tables",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self, config: Config, tables: Tables, n: int, rng: Rng) -> None:
        data = tables.data
        self.config = config
        self.tables = tables
        self.data_set = DataSet(data.name, data.data_version, data.reconstruction)
        self.n = n
        self.rng = rng
        self.round = 0
        self.step = BID
        self.actor = 0
        self.start_player = 0
        self.players: list[Player] = []
        self.pairs: list[Pair] = []
        self.displacement = 0  # D of §4.3
        self.bid_cursor = 0  # the seat whose own bid turn started the current displacement chain
        self.scoring_card = 0  # the card revealed this round (0: none)
        self.scoring_stack: list[int] = []
        self.scored_cards: list[int] = []  # out of the game
        self.landscape_deck: list[int] = []
        self.landscape_discard: list[int] = []
        self.goods_deck: list[int] = []
        self.goods_display: list[int] = []
        self.bonus_supply: list[int] = []
        self.bonus_chooser = rules.NOBODY
        self.key_supply = rules.KEY_CARDS
        self.builds = 0  # houses the actor built this turn
        self.building_place = rules.NO_PLACE  # the place being paid for (STEP_PAY)
        self.building_black = False
        self.owed = 0  # cards still owed for it
        self.last_round = False  # someone built their last house: this round is the last
        self.legal: list | None = None  # type: ignore[type-arg]

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.config = self.config
        other.tables = self.tables
        other.data_set = self.data_set
        other.n = self.n
        other.rng = self.rng.copy()
        other.round = self.round
        other.step = self.step
        other.actor = self.actor
        other.start_player = self.start_player
        other.players = [p.copy() for p in self.players]
        other.pairs = [p.copy() for p in self.pairs]
        other.displacement = self.displacement
        other.bid_cursor = self.bid_cursor
        other.scoring_card = self.scoring_card
        other.scoring_stack = self.scoring_stack[:]
        other.scored_cards = self.scored_cards[:]
        other.landscape_deck = self.landscape_deck[:]
        other.landscape_discard = self.landscape_discard[:]
        other.goods_deck = self.goods_deck[:]
        other.goods_display = self.goods_display[:]
        other.bonus_supply = self.bonus_supply[:]
        other.bonus_chooser = self.bonus_chooser
        other.key_supply = self.key_supply
        other.builds = self.builds
        other.building_place = self.building_place
        other.building_black = self.building_black
        other.owed = self.owed
        other.last_round = self.last_round
        other.legal = self.legal
        return other

    @property
    def terminal(self) -> bool:
        """Whether the game is over."""
        return self.step == GAME_OVER

    def next_seat(self, seat: int) -> int:
        """The seat clockwise after `seat`."""
        return (seat + 1) % self.n

    def placed(self, seat: int) -> bool:
        """Whether `seat`'s bid hand is on a pair."""
        return any(pair.bid_seat == seat for pair in self.pairs)

"""The Golden City's rule constants (rules §1-§8) and the DEFAULT of every open point of §13 that is
not a game option (the options are `services.goldencity.state.Config`'s fields, with the defaults
named here). Nothing here names a place, card or goods kind: those are data (§12)."""

from __future__ import annotations

from typing import Final

from services.goldencity.vocabulary import Landscape, PlaceKind

MIN_PLAYERS: Final = 2  # 2: the variant of §7 (UNCONFIRMED, OP-11)
MAX_PLAYERS: Final = 4

# §1 components.
LANDSCAPE_CARDS_PER_KIND: Final = 10
KEY_CARDS: Final = 6
# §3 setup.
START_COINS: Final = 3
HOUSES: Final = {2: 18, 3: 18, 4: 16}  # coloured houses per player
BLACK_HOUSES_2P: Final = 2  # §7: the 2-player variant's black houses
START_HAND: Final = (Landscape.COAST,)  # plus one random card from the deck
START_HAND_RANDOM_CARDS: Final = 1
GOODS_DISPLAY: Final = 3  # face-up goods cards
CARDS_PER_PAIR: Final = 2
# §4 rounds: at most one per scoring card.
BUILDS_PER_TURN: Final = 2

# §5 costs: what a place costs in cards of which landscape, before jokers.
COAST_COST: Final = 1  # 1 Coast card
INLAND_COST: Final = 2  # 2 cards of the place's landscape
OUTER_COST: Final = 2  # OP-5: 2 cards of the quarter's landscape, jokers allowed
JOKER_CARDS: Final = 2  # a joker pair replaces 1 required card (§5, ruling 5)

# OP-6: city letters by how many houses the part already holds (1st builder, 2nd, later 0).
CITY_LETTERS: Final = {PlaceKind.CITY_OUTER: (5, 3), PlaceKind.CITY_INNER: (10, 6)}

HAND_LIMIT: Final = 5  # OP-8: landscape cards only, checked at round end, the owner discards
MAJORITY_BONUS: Final = 2  # OP-9: the data's scoring cards carry it (`majority_bonus`); v0 uses 2
MIN_BUILDS: Final = 0  # OP-14: building is optional
CITY_NEEDS_CONNECTION: Final = True  # OP-15
BONUS_CARD_NEXT_HOUSE: Final = True  # OP-16: a bonus gained by the first house serves the second
UNLIMITED_SUPPLY: Final = True  # OP-18: coins and letters never run out
PUBLIC_VP: Final = True  # OP-19: letters (VP) are public
KEY_RETURNS: Final = True  # OP-21: a spent key goes back to the key supply
PAIRS_PER_ROUND: Final = "players"  # OP-11: one pair per player, so 2 in the 2-player variant
DISPLACEMENT_RESETS: Final = True  # OP-26: the displacement counter is 0 at each round's start
DISPLACEMENT_PAYEE: Final = "bank"  # OP-27: displacement coins go to the bank
ONLY_COLOURED_HOUSES_END: Final = True  # OP-23: in 2p only the coloured houses trigger the end
TIEBREAK: Final = ("houses built", "coins")  # OP-10: then shared

# Option defaults (each a field of Config).
REBID_IMMEDIATE: Final = 1
REBID_NEXT_TURN: Final = 2  # OP-1
BONUS_CARD_CHOOSE: Final = 1
BONUS_CARD_DRAW: Final = 2  # OP-2
INNER_COST_KEY: Final = 1
INNER_COST_KEY_PLUS_OUTER_COST: Final = 2  # OP-4
JOKER_IDENTICAL_PAIR: Final = 1
JOKER_ANY_PAIR: Final = 2  # OP-7
DEFAULT_REBID: Final = REBID_NEXT_TURN  # S004 is explicit; LUDO's and DND's `immediate` is the option
DEFAULT_BONUS_CARD_TAKE: Final = BONUS_CARD_CHOOSE
DEFAULT_INNER_COST: Final = INNER_COST_KEY
DEFAULT_JOKER: Final = JOKER_IDENTICAL_PAIR
BONUS_CARDS_PUBLIC: Final = False  # OP-3
PUBLIC_HANDS: Final = False  # OP-20
RANDOM_START_SEAT: Final = -1  # OP-24: no seat set, so a random one

# Trading-house colours (§1), by seat: the 2-player variant's seats take two non-black colours and
# the black houses stay for the variant (§7).
HOUSE_COLOURS: Final = ("light blue", "red", "white", "black")
BLACK_HOUSE_COLOUR: Final = "black"

AUTO_RESOLVE_FORCED: Final = True  # a decision with a single legal action is taken by the engine
NOBODY: Final = -1  # no seat (a free pair, nobody choosing a bonus card)
NO_PLACE: Final = 0  # place ids count from 1

"""The Golden City's fixed vocabulary, as enums numbered from 1 (0 stays free for a proto's
`*_UNSPECIFIED`): the landscapes of the components (§1), the kinds of board node, the compass
points, the place bonuses and what bonus cards pay for. What a data set may vary (places, roads,
areas, goods kinds and cards) is data, not listed here.

A data file spells each member by its name in lower case (`file_name`), except the compass points,
which it writes as printed (`N`, `NE`, ..., `C`)."""

from __future__ import annotations

from enum import IntEnum
from typing import Final


class Landscape(IntEnum):
    """A landscape card's kind (§1); the four that are not coast are also the island's regions and
    the city's quarters (§2)."""

    COAST = 1
    MEADOW = 2
    FOREST = 3
    DESERT = 4
    MOUNTAINS = 5


QUARTER_LANDSCAPES: Final = (Landscape.MEADOW, Landscape.FOREST, Landscape.DESERT, Landscape.MOUNTAINS)


class PlaceKind(IntEnum):
    """What a board node is (§12.2 `kind`): a coastal place, an inland place, or a city part."""

    COAST = 1
    INLAND = 2
    CITY_OUTER = 3
    CITY_INNER = 4


CITY_PARTS: Final = frozenset({PlaceKind.CITY_OUTER, PlaceKind.CITY_INNER})


class Compass(IntEnum):
    """Where a node lies (§12.2 `compass`); C is the centre."""

    N = 1
    NE = 2
    E = 3
    SE = 4
    S = 5
    SW = 6
    W = 7
    NW = 8
    C = 9


class BonusType(IntEnum):
    """The one-time bonus printed on a place (§5, §12.2 `bonus.type`)."""

    COINS = 1
    LANDSCAPE_CARD = 2
    KEY = 3
    BONUS_CARD = 4
    GOODS_CARD = 5
    LETTERS = 6
    NONE = 7


class BonusCardKind(IntEnum):
    """What a bonus card counts at the end (§6.3, §12.6 `kind`)."""

    PER_HOUSE_IN_AREA = 1
    PER_ITEM = 2


class Item(IntEnum):
    """What a `per_item` bonus card counts (§12.6 `item`); `goods_symbol:<kind>` is GOODS_SYMBOL
    with a goods kind."""

    KEY = 1
    GOODS_SYMBOL = 2
    GOODS_CARD = 3
    COIN = 4


def file_name(member: IntEnum) -> str:
    """How a data file spells `member`."""
    return member.name if isinstance(member, Compass) else member.name.lower()

"""Events the engine emits: one NamedTuple per kind, converted to protobuf only at the service edge.
Cards are proto numbers. A LandscapeDrawn or BonusCardTaken whose `public` is false is seen only by
its seat (hands and bonus cards are secret, OP-20 and OP-3)."""

from __future__ import annotations

from typing import Final, NamedTuple

# What a seat gained something for (the protobuf Reason enum).
FROM_PLACE: Final = 1
FROM_CITY: Final = 2


class GameStarted(NamedTuple):
    start_player: int
    data_set: str
    reconstruction: bool


class RoundStarted(NamedTuple):
    round: int
    start_player: int
    scoring_card: int
    scoring_card_name: str  # as the data set names it


class PairsLaidOut(NamedTuple):
    pairs: tuple[tuple[int, ...], ...]


class DeckReshuffled(NamedTuple):
    cards: int


class BidPlaced(NamedTuple):
    seat: int
    pair: int
    paid: int
    displaced: int  # the displaced seat, or -1


class PairTaken(NamedTuple):
    seat: int
    cards: tuple[int, ...]


class HouseBuilt(NamedTuple):
    seat: int
    place: int
    black: bool
    place_name: str  # as the data set names it


class CardsPaid(NamedTuple):
    seat: int
    cards: tuple[int, ...]


class KeySpent(NamedTuple):
    seat: int


class CoinsGained(NamedTuple):
    seat: int
    amount: int


class LettersGained(NamedTuple):
    seat: int
    amount: int
    reason: int


class KeyTaken(NamedTuple):
    seat: int


class LandscapeDrawn(NamedTuple):
    seat: int
    card: int
    public: bool


class GoodsCardTaken(NamedTuple):
    seat: int
    card: int


class BonusCardTaken(NamedTuple):
    seat: int
    card: int
    public: bool


class BonusLost(NamedTuple):
    seat: int
    bonus: int  # BonusType: the supply was empty (ruling 6)


class TurnEnded(NamedTuple):
    seat: int


class SeatScored(NamedTuple):
    seat: int
    houses: int
    goods: int
    house_points: int
    goods_points: int
    house_majority: int
    goods_majority: int


class CardScored(NamedTuple):
    card: int
    seats: tuple[SeatScored, ...]


class CardDiscarded(NamedTuple):
    seat: int
    card: int


class SeatFinal(NamedTuple):
    seat: int
    letters: int
    bonus_points: int
    total: int
    bonus_cards: tuple[int, ...]


class GameEnded(NamedTuple):
    seats: tuple[SeatFinal, ...]
    winners: tuple[int, ...]

"""Scoring (§6, rulings 8-9, OP-9, OP-10): the round's scoring card (houses in its area and symbols of
its goods kind, each times its value, plus the majority bonus to a sole leader with at least one),
the bonus cards at the end (§6.3), and the final ranking with its tie-break."""

from __future__ import annotations

from typing import Final

from services.common.game import Scores, ranked_scores
from services.goldencity import events as ev
from services.goldencity.labels import CATALOGS
from services.goldencity.records import BonusCard
from services.goldencity.state import Player, State
from services.goldencity.vocabulary import BonusCardKind, Item

# The tie-break (OP-10): houses built, then coins, as one number (coins stay below this).
TIEBREAK_HOUSES: Final = 1_000_000
# The score lines' labels, messages of the catalogs.
LETTERS: Final = CATALOGS.message("goldencity.score.letters")
BONUS_CARDS: Final = CATALOGS.message("goldencity.score.bonus_cards")


def houses_in(player: Player, places: frozenset[int]) -> int:
    """The player's houses, black ones included, on the places of an area."""
    return sum(1 for p in player.houses if p in places) + sum(1 for p in player.black_houses if p in places)


def goods_symbols(state: State, player: Player, goods: int | None) -> int:
    """Symbols of a goods kind (None: of every kind) on the goods cards the player holds (OP-17)."""
    symbols = state.tables.goods_symbols
    return sum(1 for card in player.goods_cards for kind in symbols[card] if goods is None or kind == goods)


def _sole_leader(values: list[int]) -> int:
    """The seat with strictly the most, at least 1, or -1 (ruling 9)."""
    best = max(values)
    if best < 1 or values.count(best) > 1:
        return -1
    return values.index(best)


def score_card(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Score the revealed card for every player and take it out of the game."""
    card = state.tables.scoring_cards[state.scoring_card]
    assert card is not None
    places = state.tables.area_places[card.area]
    houses = [houses_in(p, places) for p in state.players]
    goods = [goods_symbols(state, p, card.goods) for p in state.players]
    house_leader, goods_leader = _sole_leader(houses), _sole_leader(goods)
    scored = []
    for seat, player in enumerate(state.players):
        line = ev.SeatScored(
            seat=seat,
            houses=houses[seat],
            goods=goods[seat],
            house_points=houses[seat] * card.house_points,
            goods_points=goods[seat] * card.goods_points,
            house_majority=card.majority_bonus if seat == house_leader else 0,
            goods_majority=card.majority_bonus if seat == goods_leader else 0,
        )
        player.letters += line.house_points + line.goods_points + line.house_majority + line.goods_majority
        scored.append(line)
    events.append(ev.CardScored(state.scoring_card, tuple(scored)))
    state.scored_cards.append(state.scoring_card)
    state.scoring_card = 0


def bonus_card_points(state: State, player: Player, card: BonusCard) -> int:
    """What one bonus card pays its holder (§6.3, §12.6)."""
    if card.kind == BonusCardKind.PER_HOUSE_IN_AREA:
        assert card.area is not None
        return card.points * houses_in(player, state.tables.area_places[card.area])
    item = card.item
    if item == Item.KEY:
        count = player.keys
    elif item == Item.GOODS_SYMBOL:
        count = goods_symbols(state, player, card.goods)
    elif item == Item.GOODS_CARD:
        count = len(player.goods_cards)
    else:
        count = player.coins
    return card.points * count


def score_bonus_cards(state: State) -> None:
    """Every player's bonus cards, at the end of the game."""
    cards = state.tables.bonus_cards
    for player in state.players:
        total = 0
        for number in player.bonus_cards.cards:
            card = cards[number]
            assert card is not None
            total += bonus_card_points(state, player, card)
        player.bonus_points = total


def tiebreak(player: Player) -> int:
    """Houses built, then coins (OP-10)."""
    return player.houses_built() * TIEBREAK_HOUSES + player.coins


def final_scores(state: State) -> Scores:
    """Letters plus bonus-card points (those only once the game is over), ranked with the tie-break."""
    rows = [
        (
            p.letters + p.bonus_points,
            ((LETTERS, p.letters), (BONUS_CARDS, p.bonus_points)),
            tiebreak(p),
        )
        for p in state.players
    ]
    return ranked_scores(rows, state.terminal)


def game_ended(state: State) -> ev.GameEnded:
    """The GameEnded event of a finished game."""
    scores = final_scores(state)
    return ev.GameEnded(
        tuple(
            ev.SeatFinal(s, p.letters, p.bonus_points, p.letters + p.bonus_points, tuple(p.bonus_cards.cards))
            for s, p in enumerate(state.players)
        ),
        scores.winners,
    )

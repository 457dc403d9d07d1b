"""Bot knowledge for The Golden City: a greedy policy that reads only what the seat may see, and a
determinization that resamples exactly what the seat's view hides (the landscape deck's order and the
hands it may not see, the bonus cards it may not see with the supply it is not choosing from, each
scoring-card group's order, the goods deck's order, the RNG), keeping every count it can see."""

from __future__ import annotations

from typing import Final

from services.common.rng import Rng
from services.goldencity import actions as act
from services.goldencity.bidding import price
from services.goldencity.building import city_letters
from services.goldencity.engine import legal_now
from services.goldencity.landscapes import counts
from services.goldencity.records import ScoringCard
from services.goldencity.rules import NOBODY
from services.goldencity.scoring import bonus_card_points
from services.goldencity.state import State
from services.goldencity.visibility import bonus_cards_visible, hand_visible
from services.goldencity.vocabulary import BonusType, Landscape

# What a place bonus is worth to the greedy policy, per unit of its amount.
BONUS_WORTH: Final = {
    BonusType.COINS: 0.8,
    BonusType.LETTERS: 1.0,
    BonusType.KEY: 4.0,
    BonusType.BONUS_CARD: 4.0,
    BonusType.GOODS_CARD: 3.0,
    BonusType.LANDSCAPE_CARD: 1.0,
    BonusType.NONE: 0.0,
}
HOUSE_WORTH: Final = 3.0  # a house scores again in later rounds and opens roads
CARD_WORTH: Final = 1.0  # a landscape card in hand


def _remaining_cards(state: State) -> list[ScoringCard]:
    """The scoring cards still to score, this round's included: public (every other one was scored)."""
    scored = set(state.scored_cards)
    return [c for c in state.tables.scoring_cards if c is not None and c.id not in scored]


def _build_value(state: State, place: int, remaining: list[ScoringCard]) -> float:
    tables = state.tables
    value = HOUSE_WORTH + len(tables.neighbours[place]) * 0.3
    if tables.is_city(place):
        value += city_letters(state, place)
    else:
        kind, amount = tables.bonus[place]
        worth = BONUS_WORTH[BonusType(kind)]
        if kind == BonusType.GOODS_CARD:
            worth += sum(c.goods_points for c in remaining) / max(1, len(tables.goods_symbols) - 1)
        value += worth * amount
    for card in remaining:
        if place in tables.area_places[card.area]:
            value += card.house_points * (2.0 if card.id == state.scoring_card else 1.0)
    return value


def _goods_value(state: State, card: int, remaining: list[ScoringCard]) -> float:
    kinds = state.tables.goods_symbols[card]
    return sum(
        c.goods_points * (2.0 if c.id == state.scoring_card else 1.0) for c in remaining if c.goods in kinds
    )


def _pair_value(state: State, seat: int, cards: list[int]) -> float:
    have = counts(state.players[seat].hand.cards)
    value = 0.0
    for card in cards:
        value += CARD_WORTH + (0.5 if card == Landscape.COAST and have[card] == 0 else 0.0)
        value += 0.3 if have[card] % 2 == 1 else 0.0  # completes a pair
    return value


def _pay_value(state: State, seat: int, action: act.Action) -> float:
    have = counts(state.players[seat].hand.cards)
    if action.kind == act.PAY_CARD:
        return 10.0
    return float(have[action.a] + have[action.b])


def _bonus_card_value(state: State, seat: int, card: int) -> float:
    record = state.tables.bonus_cards[card]
    assert record is not None
    return bonus_card_points(state, state.players[seat], record) + record.points


def heuristic_action(state: State, seat: int, rng: Rng) -> act.Action:
    """Build wherever it pays most, bid for the best free pair, pay with single cards first."""
    legal = legal_now(state)
    kind = legal[0].kind
    if kind == act.BID:
        free = [a for a in legal if state.pairs[a.a].bid_seat == NOBODY]
        options = free or legal
        return max(
            options,
            key=lambda a: _pair_value(state, seat, state.pairs[a.a].cards) - (a not in free) * price(state),
        )
    if kind == act.BUILD:
        builds = [a for a in legal if a.kind == act.BUILD]
        if not builds:
            return legal[-1]
        remaining = _remaining_cards(state)
        return max(builds, key=lambda a: _build_value(state, a.a, remaining) + rng.below(100) / 1000)
    if kind in (act.PAY_CARD, act.PAY_PAIR):
        return max(legal, key=lambda a: _pay_value(state, seat, a))
    if kind == act.CHOOSE_GOODS_CARD:
        remaining = _remaining_cards(state)
        return max(legal, key=lambda a: _goods_value(state, a.a, remaining))
    if kind == act.CHOOSE_BONUS_CARD:
        return max(legal, key=lambda a: _bonus_card_value(state, seat, a.a))
    if kind == act.DISCARD:
        have = counts(state.players[seat].hand.cards)
        return max(legal, key=lambda a: (have[a.a] % 2 == 1, have[a.a], a.a != Landscape.COAST))
    return legal[rng.below(len(legal))]


def determinize(state: State, seat: int | None, rng: Rng) -> State:
    """A copy with everything `seat` (None: a spectator) may not see resampled from what it sees."""
    world = state.copy()
    hidden_hands = [s for s in range(world.n) if not hand_visible(state, seat, s)]
    pool = list(world.landscape_deck)
    for s in hidden_hands:
        pool += world.players[s].hand.cards
    pool.sort()
    rng.shuffle(pool)
    for s in hidden_hands:
        size = len(world.players[s].hand.cards)
        world.players[s].hand.cards = sorted(pool[:size])
        del pool[:size]
    world.landscape_deck = pool
    hidden_bonus = [s for s in range(world.n) if not bonus_cards_visible(state, seat, s)]
    supply_hidden = seat is None or seat != world.bonus_chooser
    cards = list(world.bonus_supply) if supply_hidden else []
    for s in hidden_bonus:
        cards += world.players[s].bonus_cards.cards
    cards.sort()
    rng.shuffle(cards)
    if supply_hidden:
        size = len(world.bonus_supply)
        world.bonus_supply = cards[:size]
        del cards[:size]
    for s in hidden_bonus:
        size = len(world.players[s].bonus_cards.cards)
        world.players[s].bonus_cards.cards = cards[:size]
        del cards[:size]
    backs = world.tables.scoring_cards
    stack: list[int] = []
    for back in sorted({backs[c].back for c in world.scoring_stack}, reverse=True):  # type: ignore[union-attr]
        group = sorted(c for c in world.scoring_stack if backs[c].back == back)  # type: ignore[union-attr]
        rng.shuffle(group)
        stack += group
    world.scoring_stack = stack
    goods = sorted(world.goods_deck)
    rng.shuffle(goods)
    world.goods_deck = goods
    world.rng = Rng(rng.next64(), rng.next64())
    world.legal = None
    return world

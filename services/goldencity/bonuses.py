"""Place bonuses (§5, ruling 6): taken at once by whoever builds on the place. A goods card is chosen
from the face-up ones; a bonus card is chosen from the supply (OP-2 `choose`, the supply shown to the
chooser only) or drawn from its shuffled stack (`draw`). An empty supply gives nothing."""

from __future__ import annotations

from services.goldencity import events as ev
from services.goldencity import landscapes
from services.goldencity.actions import CHOOSE_BONUS_CARD, CHOOSE_GOODS_CARD, Action, action
from services.goldencity.rules import BONUS_CARD_DRAW, NOBODY
from services.goldencity.state import CHOOSE_BONUS_CARD as STEP_CHOOSE_BONUS
from services.goldencity.state import CHOOSE_GOODS_CARD as STEP_CHOOSE_GOODS
from services.goldencity.state import State
from services.goldencity.vocabulary import BonusType


def take(state: State, place: int, events: list) -> bool:  # type: ignore[type-arg]
    """Give the actor the bonus of `place`; returns whether a choice is now due (the step is set)."""
    seat = state.actor
    player = state.players[seat]
    kind, amount = state.tables.bonus[place]
    if kind == BonusType.COINS:
        player.coins += amount
        events.append(ev.CoinsGained(seat, amount))
    elif kind == BonusType.LETTERS:
        player.letters += amount
        events.append(ev.LettersGained(seat, amount, ev.FROM_PLACE))
    elif kind == BonusType.LANDSCAPE_CARD:
        card = landscapes.draw(state, events)
        if card is None:
            events.append(ev.BonusLost(seat, kind))
        else:
            player.hand.cards.append(card)
            events.append(ev.LandscapeDrawn(seat, card, state.config.public_hands))
    elif kind == BonusType.KEY:
        if state.key_supply:
            state.key_supply -= 1
            player.keys += 1
            events.append(ev.KeyTaken(seat))
        else:
            events.append(ev.BonusLost(seat, kind))
    elif kind == BonusType.GOODS_CARD:
        if state.goods_display:
            state.step = STEP_CHOOSE_GOODS
            return True
        events.append(ev.BonusLost(seat, kind))
    elif kind == BonusType.BONUS_CARD:
        if not state.bonus_supply:
            events.append(ev.BonusLost(seat, kind))
        elif state.config.bonus_card_take == BONUS_CARD_DRAW:
            _gain_bonus_card(state, state.bonus_supply.pop(), events)
        else:
            state.bonus_chooser = seat
            state.step = STEP_CHOOSE_BONUS
            return True
    return False


def legal_goods(state: State) -> list[Action]:
    """Each face-up goods card."""
    return [action(CHOOSE_GOODS_CARD, card) for card in sorted(state.goods_display)]


def play_goods(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Take the goods card and refill the display from the goods deck while it lasts."""
    state.goods_display.remove(action.a)
    state.players[state.actor].goods_cards.append(action.a)
    events.append(ev.GoodsCardTaken(state.actor, action.a))
    if state.goods_deck:
        state.goods_display.append(state.goods_deck.pop())


def legal_bonus(state: State) -> list[Action]:
    """Each bonus card left in the supply."""
    return [action(CHOOSE_BONUS_CARD, card) for card in sorted(state.bonus_supply)]


def play_bonus(state: State, action: Action, events: list) -> None:  # type: ignore[type-arg]
    """Take the chosen bonus card; the supply is hidden again."""
    state.bonus_supply.remove(action.a)
    state.bonus_chooser = NOBODY
    _gain_bonus_card(state, action.a, events)


def _gain_bonus_card(state: State, card: int, events: list) -> None:  # type: ignore[type-arg]
    state.players[state.actor].bonus_cards.cards.append(card)
    events.append(ev.BonusCardTaken(state.actor, card, state.config.bonus_cards_public))

"""Compulsory feeding (OP-24, §4 phase 2b): while a held card or the plow can feed an unfed hut the
player must play one, choosing only which card feeds which hut; with `feeding = optional` the player
may stop and let the unfed huts starve. Each a concrete position, every way of feeding played out."""

from __future__ import annotations

from services.assyria import actions as act
from services.assyria import engine, expansion
from services.assyria.cards import card_of
from services.assyria.data import HUTS_PER_COLOUR, Food
from services.assyria.state import FEED, FEEDING_OPTIONAL, Config, State
from tests.assyria.scenario import expanding, hut, table

SALT, GRAPES = Food.SALT, Food.GRAPES
GIVE_UP = (act.END_FEEDING_ACTION, act.CLOSE_CARD_ACTION)


def feeding(config: Config | None = None, *, cards: tuple[int, ...] = (), plow: bool = False) -> State:
    """Seat 0 at its resupply with these cards (and the plow), before any unfed huts are added."""
    state = expanding(table(2, config=config), 0)
    state.players[0].hand = list(cards)
    state.players[0].plow = plow
    state.step = FEED
    return state


def endings(state: State) -> list[tuple[list[list[act.Action]], State]]:
    """Every way seat 0's feeding can be played from `state`: the legal actions met at each of its
    decisions, and the state once its feeding (and the famine after it) is over."""
    legal = engine.legal_now(state)
    if state.step != FEED or state.actor != 0:
        return [([], state)]
    found = []
    for action in legal:
        after, _ = engine.apply(state, 0, action)
        found.extend(([legal, *seen], end) for seen, end in endings(after))
    return found


def test_op24_two_salt_huts_a_salt_card_and_a_plow_both_huts_must_be_fed() -> None:
    state = feeding(cards=(card_of(SALT, 2),), plow=True)
    huts = [hut(state, 0, 1, 4), hut(state, 0, 2, -1)]  # two unfed salt huts
    ways = endings(state)
    assert engine.legal_now(state) == [act.Action(act.PLAY_CARD, card_of(SALT, 2)), act.PLAY_PLOW_ACTION]
    assert len(ways) == 4  # the card or the plow first, then which hut it feeds
    for decisions, end in ways:
        assert not any(give_up in legal for legal in decisions for give_up in GIVE_UP), decisions
        assert [end.hut_seats[h] for h in huts] == [0, 0] and end.players[0].huts == HUTS_PER_COLOUR - 2
        assert end.players[0].hand == []
    assert sorted(end.players[0].plow for _, end in ways) == [False, False, True, True]


def test_op24_with_optional_feeding_the_player_may_stop_and_the_huts_starve() -> None:
    state = feeding(Config(feeding=FEEDING_OPTIONAL), cards=(card_of(SALT, 2),), plow=True)
    huts = [hut(state, 0, 1, 4), hut(state, 0, 2, -1)]
    assert act.END_FEEDING_ACTION in engine.legal_now(state)
    engine.play(state, 0, act.END_FEEDING_ACTION)
    assert [state.hut_seats[h] for h in huts] == [-1, -1] and state.players[0].huts == HUTS_PER_COLOUR
    assert state.players[0].hand == [card_of(SALT, 2)] and state.players[0].plow


def test_op24_a_lone_usable_card_the_plow_included_is_played_by_itself() -> None:
    state = feeding(plow=True)
    h = hut(state, 0, 1, 4)
    events: list = []  # type: ignore[type-arg]
    expansion.after_placing(state, events)
    engine.settle(state, events)  # no decision is asked of seat 0
    assert state.actor != 0 or state.step != FEED
    assert state.hut_seats[h] == 0 and not state.players[0].plow and state.plow_stack == 1


def test_op24_a_card_feeds_as_many_matching_huts_as_it_has_symbols() -> None:
    state = feeding(cards=(card_of(SALT, 3),))
    huts = [hut(state, 0, 1, 4), hut(state, 0, 2, -1)]
    engine.settle(state, [])  # the lone card is played by itself
    assert state.feeding_symbols == 3
    assert engine.legal_now(state) == [act.Action(act.FEED_HUT, h) for h in sorted(huts)]  # no leaving it


def test_op24_cards_feeding_fewer_huts_than_are_unfed_the_player_chooses_and_the_rest_starve() -> None:
    state = feeding(cards=(card_of(SALT, 1),))
    salt = [hut(state, 0, 1, 4), hut(state, 0, 2, -1)]
    grapes = hut(state, 0, 0, 2)
    ways = endings(state)
    assert [decisions for decisions, _ in ways] == [
        [[act.Action(act.PLAY_CARD, card_of(SALT, 1))], [act.Action(act.FEED_HUT, h) for h in sorted(salt)]]
    ] * 2
    for (_, end), fed in zip(ways, sorted(salt), strict=True):
        kept = [h for h in (*salt, grapes) if end.hut_seats[h] == 0]  # the other two starve
        assert kept == [fed] and end.players[0].huts == HUTS_PER_COLOUR - 1

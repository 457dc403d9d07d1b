"""Expansion I building sets (shared/rules/puerto_rico.md §6.3 draft, §6.4 random set, OP-10).

The draft is played as legal actions: a seat picks the cost of an open slot, then a building of
that cost; the engine takes either decision by itself when it has one option only.
"""

from __future__ import annotations

import pytest
from boardgame.puertorico.v1 import puertorico_pb2 as pb

from services.common.errors import MalformedRequest
from services.puertorico import GAME, engine
from services.puertorico.actions import DRAFT_ACTION, DRAFT_COST_ACTION, ROLE
from services.puertorico.codec import CODEC
from services.puertorico.data import (
    BUILDING_SET_BASE,
    BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM,
    BUILDINGS,
    CONSTRUCTION_HUT,
    DRAFT_CANDIDATES,
    DRAFT_PICKS,
    DRAFT_SLOTS,
    FOREST_HOUSE,
    GUILD_HALL,
    HACIENDA,
    PRODUCTION_IDS,
    SMALL_MARKET,
    STATUE,
)
from services.puertorico.events import DraftPicked
from services.puertorico.labels import label
from services.puertorico.setup import new_game
from services.puertorico.state import CHOOSE_ROLE, DRAFT_BUILDING, DRAFT_COST, Config, State
from tests.puertorico.scenario import legal, of_type, play

DRAFT = Config(buildings=BUILDING_SET_DRAFT)


def draft_game(n: int = 4, seed: bytes = b"draft") -> tuple[State, list]:  # type: ignore[type-arg]
    state, events = new_game(n, DRAFT, seed)
    engine.settle(state, events)
    return state, events


def pick(state: State, building: int) -> list:  # type: ignore[type-arg]
    """The acting seat drafts `building` (cost, then building, where those are choices)."""
    events = []
    if state.step == DRAFT_COST:
        events += play(state, state.actor, DRAFT_COST_ACTION[BUILDINGS[building].cost])
    if state.step == DRAFT_BUILDING:
        events += play(state, state.actor, DRAFT_ACTION[building])
    return events


def test_draft_starts_with_the_governor_choosing_a_cost() -> None:
    """§6.3 step 4: from the governor; only production buildings are for sale until the draft ends."""
    state, _ = draft_game()
    assert state.step == DRAFT_COST and state.actor == state.governor
    assert legal(state) == {DRAFT_COST_ACTION[cost] for cost in DRAFT_SLOTS}
    assert {b for b, copies in enumerate(state.stock) if copies} == set(PRODUCTION_IDS)
    assert label(state, DRAFT_COST_ACTION[10]) == "Fill a violet slot of cost 10 (5 slots of that cost)"


def test_a_pick_is_a_cost_then_a_building_of_that_cost() -> None:
    state, _ = draft_game()
    governor = state.governor
    play(state, governor, DRAFT_COST_ACTION[2])
    assert state.step == DRAFT_BUILDING and state.actor == governor
    assert legal(state) == {DRAFT_ACTION[b] for b in DRAFT_CANDIDATES[2]}
    events = play(state, governor, DRAFT_ACTION[HACIENDA])
    assert of_type(events, DraftPicked) == [DraftPicked(governor, HACIENDA)]
    assert state.step == DRAFT_COST and state.actor == (governor + 1) % 4
    assert state.stock[HACIENDA] == 2  # a small building comes as a pair


def test_hacienda_and_forest_house_exclude_each_other() -> None:
    """OP-10: once the hacienda is drafted the forest house is gone (and the other way round)."""
    state, _ = draft_game()
    pick(state, HACIENDA)
    play(state, state.actor, DRAFT_COST_ACTION[2])
    assert DRAFT_ACTION[FOREST_HOUSE] not in legal(state)
    assert DRAFT_ACTION[CONSTRUCTION_HUT] in legal(state)


def test_a_full_cost_group_is_closed() -> None:
    """The single cost-1 slot: once filled, cost 1 is no longer offered and the other candidate is out."""
    state, _ = draft_game()
    pick(state, SMALL_MARKET)
    assert DRAFT_COST_ACTION[1] not in legal(state)


def test_draft_runs_to_seventeen_slots_then_the_governor_chooses_a_role() -> None:
    """§6.3 step 5: 12 small and 5 large slots; then the game starts with the governor."""
    state, _ = draft_game(3)
    governor = state.governor
    pickers = []
    while state.step != CHOOSE_ROLE:
        pickers.append(state.actor)
        options = sorted(legal(state))
        play(state, state.actor, options[-1])
        if state.step == DRAFT_BUILDING:
            play(state, state.actor, sorted(legal(state))[0])
    assert len(state.draft_picks) == DRAFT_PICKS == 17
    assert len(pickers) == 17
    assert pickers[:4] == [governor, (governor + 1) % 3, (governor + 2) % 3, governor]
    assert state.actor == governor and ROLE[0] in legal(state)
    violet = [b for b, copies in enumerate(state.stock) if copies and BUILDINGS[b].violet]
    assert sorted(violet) == sorted(state.draft_picks)
    for cost, slots in DRAFT_SLOTS.items():
        assert sum(1 for b in violet if BUILDINGS[b].cost == cost) == slots


def test_two_players_draft_single_copies() -> None:
    """§2.3: with 2 players small violet buildings are placed singly."""
    state, _ = draft_game(2)
    pick(state, SMALL_MARKET)
    pick(state, STATUE)
    assert (state.stock[SMALL_MARKET], state.stock[STATUE]) == (1, 1)


def test_random_set_is_a_legal_seeded_set() -> None:
    """§6.4: per cost group as many kinds as slots, never hacienda with forest house; same seed, same set."""
    sets = []
    for index in range(40):
        state, _ = new_game(4, Config(buildings=BUILDING_SET_RANDOM), f"random-{index}".encode())
        violet = [b for b, copies in enumerate(state.stock) if copies and BUILDINGS[b].violet]
        for cost, slots in DRAFT_SLOTS.items():
            assert sum(1 for b in violet if BUILDINGS[b].cost == cost) == slots
        assert not (HACIENDA in violet and FOREST_HOUSE in violet)
        assert state.step == CHOOSE_ROLE
        assert all(state.stock[b] == (1 if BUILDINGS[b].spaces == 2 else 2) for b in violet)
        sets.append(tuple(violet))
    again, _ = new_game(4, Config(buildings=BUILDING_SET_RANDOM), b"random-0")
    assert tuple(b for b, c in enumerate(again.stock) if c and BUILDINGS[b].violet) == sets[0]
    assert len(set(sets)) > 10
    assert any(GUILD_HALL not in s for s in sets) and any(STATUE in s for s in sets)


@pytest.mark.parametrize(
    ("choice", "native"),
    [
        (pb.BUILDING_SET_UNSPECIFIED, BUILDING_SET_BASE),
        (pb.BUILDING_SET_DRAFT, BUILDING_SET_DRAFT),
        (pb.BUILDING_SET_RANDOM, BUILDING_SET_RANDOM),
    ],
)
def test_building_set_option(choice: int, native: str) -> None:
    assert CODEC.config_from_proto(pb.Config(buildings=choice)).buildings == native  # type: ignore[arg-type]
    option = next(o for o in GAME.info.options if o.name == "buildings")
    assert option.choices == (BUILDING_SET_BASE, BUILDING_SET_DRAFT, BUILDING_SET_RANDOM)
    assert option.default == BUILDING_SET_BASE


def test_draft_state_round_trips_and_forged_states_are_refused() -> None:
    state, _ = draft_game()
    pick(state, HACIENDA)
    play(state, state.actor, DRAFT_COST_ACTION[2])
    message = CODEC.state_to_proto(state)
    assert CODEC.state_to_proto(CODEC.state_from_proto(message)) == message

    both = pb.State()
    both.CopyFrom(message)
    both.table.draft_picks.append(FOREST_HOUSE + 1)
    with pytest.raises(MalformedRequest):
        CODEC.state_from_proto(both)

    base, _ = new_game(4, Config(), b"base")
    forged = CODEC.state_to_proto(base)
    forged.table.buildings_for_sale.add(building=STATUE + 1, count=1)
    with pytest.raises(MalformedRequest):
        CODEC.state_from_proto(forged)


def test_forest_kinds_must_match_the_forest_count() -> None:
    state, _ = new_game(4, Config(buildings=BUILDING_SET_RANDOM), b"forests")
    state.players[1].tiles[6] = 2
    state.players[1].forests = [1, 0, 0, 1, 0]
    message = CODEC.state_to_proto(state)
    assert CODEC.state_from_proto(message).players[1].forests == [1, 0, 0, 1, 0]
    message.forests[1].corn = 0
    with pytest.raises(MalformedRequest):
        CODEC.state_from_proto(message)

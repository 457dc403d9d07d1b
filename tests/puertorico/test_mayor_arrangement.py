"""The mayor's rearrangement (§4.2 step 3, ruling 11) played as decisions, and its protobuf form.

A player rearranges from their current arrangement: the colonists in San Juan are placed first, then
the player moves one colonist at a time or keeps the arrangement. The rules file must hold exactly:
every arrangement it allows can be reached and no other, San Juan keeps colonists only when no circle
is empty, and a player with at least as many colonists as circles has nothing to decide.
"""

from __future__ import annotations

from itertools import product
from typing import Any

import pytest

from services.common.errors import IllegalAction, MalformedRequest
from services.common.rng import Rng
from services.puertorico import codec, engine
from services.puertorico.actions import (
    BUILDING_SPACE,
    MOVE,
    MOVE_FROM,
    ON_BUILDING,
    ON_TILE,
    PASS_ACTION,
    PLACE,
    SPACES,
)
from services.puertorico.bot import heuristic_action
from services.puertorico.codec import CODEC
from services.puertorico.data import (
    BUILDINGS,
    COFFEE,
    COFFEE_ROASTER,
    CONSTRUCTION_HUT,
    CORN,
    FOREST,
    GUESTHOUSE,
    HACIENDA,
    INDIGO,
    MAYOR,
    SMALL_INDIGO_PLANT,
    SMALL_MARKET,
    STATUE,
    SUGAR,
    SUGAR_MILL,
)
from services.puertorico.events import ColonistsArranged
from services.puertorico.mayor import colonists_on
from services.puertorico.state import CHOOSE_ROLE, PLACE_COLONIST, State
from tests.puertorico.scenario import (
    blank_game,
    choose_role,
    expansion_game,
    legal,
    of_type,
    play,
    set_player,
)

MARKET = BUILDING_SPACE + SMALL_MARKET
PLANT = BUILDING_SPACE + SMALL_INDIGO_PLANT
MILL = BUILDING_SPACE + SUGAR_MILL
TURN_LIMIT = 20  # far beyond the rule's bound in these small boards


def arrangement(state: State, seat: int) -> tuple[tuple[int, ...], tuple[tuple[int, int], ...], int]:
    """Where a seat's colonists are: per tile kind, per building, and in San Juan."""
    player = state.players[seat]
    return tuple(player.occupied), tuple(sorted(player.buildings.items())), player.san_juan


def mayor_turn(ship: int = 2, **board: Any) -> State:
    """A 2-player mayor phase in which seat 0 (the mayor, declining the privilege) arranges `board`."""
    state = blank_game(2)
    state.colonist_ship = ship
    set_player(state, 0, **board)
    choose_role(state, 0, MAYOR)
    play(state, 0, PASS_ACTION)
    return state


def test_ruling_11_rearranging_starts_from_the_current_arrangement() -> None:
    """§4.2 step 3, ruling 11: the new colonist is placed on an empty circle while the others stay put,
    so keeping an arrangement costs one decision per new colonist and one to keep it."""
    state = mayor_turn(
        tiles={CORN: (2, 1), INDIGO: (1, 1)}, buildings={SMALL_INDIGO_PLANT: 1, SMALL_MARKET: 0}
    )
    assert (state.step, state.actor) == (PLACE_COLONIST, 0)
    assert arrangement(state, 0) == ((1, 1, 0, 0, 0, 0), ((SMALL_INDIGO_PLANT, 1), (SMALL_MARKET, 0)), 1)
    assert legal(state) == {ON_TILE[CORN], ON_BUILDING[SMALL_MARKET]}  # only the empty circles
    play(state, 0, ON_BUILDING[SMALL_MARKET])
    assert state.step == PLACE_COLONIST and PASS_ACTION in legal(state)
    events = play(state, 0, PASS_ACTION)
    assert of_type(events, ColonistsArranged)[0] == ColonistsArranged(0, 0)
    assert arrangement(state, 0) == ((1, 1, 0, 0, 0, 0), ((SMALL_INDIGO_PLANT, 1), (SMALL_MARKET, 1)), 0)
    assert state.step == CHOOSE_ROLE


def test_ruling_11_a_colonist_moves_only_once_san_juan_is_empty() -> None:
    """Ruling 11: San Juan may hold colonists only when no circle is empty, so it is emptied first and
    keeping the arrangement is refused until then."""
    state = mayor_turn(4, tiles={CORN: (1, 1), SUGAR: 2}, buildings={SMALL_MARKET: 0})
    assert arrangement(state, 0)[2] == 2
    assert legal(state) == {ON_TILE[SUGAR], ON_BUILDING[SMALL_MARKET]}
    for refused in (PASS_ACTION, MOVE[CORN, SUGAR]):
        with pytest.raises(IllegalAction):
            play(state, 0, refused)
    play(state, 0, ON_TILE[SUGAR])
    play(state, 0, ON_TILE[SUGAR])
    assert legal(state) == {PASS_ACTION, *(MOVE[a, MARKET] for a in (CORN, SUGAR))}


def test_no_colonist_is_moved_onto_a_space_one_was_moved_off_this_turn() -> None:
    """The bound on a turn: once a colonist leaves a space, no move brings one back to it this turn, so
    the colonists cannot be moved back and forth for ever; a colonist just moved may move on."""
    state = mayor_turn(
        0, tiles={CORN: (1, 1), INDIGO: (1, 1)}, buildings={SMALL_INDIGO_PLANT: 0, SMALL_MARKET: 0}
    )
    assert legal(state) == {PASS_ACTION, *(MOVE[a, b] for a in (CORN, INDIGO) for b in (PLANT, MARKET))}
    play(state, 0, MOVE[CORN, PLANT])
    assert legal(state) == {PASS_ACTION, MOVE[INDIGO, MARKET], MOVE[PLANT, MARKET]}  # not onto the corn
    play(state, 0, MOVE[PLANT, MARKET])
    assert state.step == CHOOSE_ROLE  # nowhere left to move to: keeping is taken by itself
    assert arrangement(state, 0)[:2] == ((0, 1, 0, 0, 0, 0), ((SMALL_INDIGO_PLANT, 0), (SMALL_MARKET, 1)))
    assert state.colonist_moves == []  # forgotten with the turn: the state stays a consistent one
    assert CODEC.state_from_proto(CODEC.state_to_proto(state)).colonist_moves == []


def test_the_legal_actions_list_tiles_first_then_buildings_by_id_and_moves_by_source() -> None:
    """The order clients, bots and seeded playouts see: spaces are tiles in tile order, then buildings by
    id whatever the order they were built in (a building without circles is no space), and moves go
    source by source, each to every target but itself."""
    built_out_of_order = {SMALL_MARKET: 0, SUGAR_MILL: 1, SMALL_INDIGO_PLANT: 0, STATUE: 0}
    state = expansion_game(2)  # with the statue, which has no circle
    state.colonist_ship = 1
    set_player(state, 0, tiles={SUGAR: (1, 0), CORN: (2, 1)}, buildings=built_out_of_order)
    choose_role(state, 0, MAYOR)
    play(state, 0, PASS_ACTION)
    places = [ON_TILE[CORN], ON_TILE[SUGAR], ON_BUILDING[SMALL_INDIGO_PLANT], ON_BUILDING[SUGAR_MILL]]
    assert engine.legal_actions(state, 0) == [*places, ON_BUILDING[SMALL_MARKET]]
    play(state, 0, ON_BUILDING[SMALL_MARKET])
    sources, targets = [CORN, MILL, MARKET], [CORN, SUGAR, PLANT, MILL]
    moves = [MOVE[a, b] for a in sources for b in targets if a != b]
    assert engine.legal_actions(state, 0) == [PASS_ACTION, *moves]
    play(state, 0, MOVE[MARKET, CORN])
    moves = [MOVE[a, b] for a in [CORN, MILL] for b in [SUGAR, PLANT, MILL] if a != b]
    assert engine.legal_actions(state, 0) == [PASS_ACTION, *moves]  # none back onto the market


def test_the_space_tables_hold_the_actions_of_each_space() -> None:
    """PLACE and MOVE_FROM, the mayor's look-up tables by space number, agree with place and MOVE."""
    for space in SPACES:
        tile = space < BUILDING_SPACE
        assert PLACE[space] == (ON_TILE[space] if tile else ON_BUILDING[space - BUILDING_SPACE])
    for source, row in enumerate(MOVE_FROM):
        assert [target for target, move in enumerate(row) if move] == [
            target for target in SPACES if (source, target) in MOVE
        ]
        assert all(move is None or move is MOVE[source, target] for target, move in enumerate(row))
    assert FOREST not in SPACES and not any(MOVE_FROM[FOREST])  # a forest holds no colonist


def _expected_arrangements(capacities: dict[int, int], colonists: int) -> set[tuple[int, ...]]:
    """Every way to put `colonists` on circles of these capacities with none left in San Juan (§4.2)."""
    spaces = sorted(capacities)
    return {
        counts for counts in product(*(range(capacities[s] + 1) for s in spaces)) if sum(counts) == colonists
    }


def _reachable(state: State, spaces: list[int]) -> tuple[set[tuple[int, ...]], int]:
    """The arrangements seat 0 can end its turn with, and the most decisions any turn took."""
    finals: set[tuple[int, ...]] = set()
    longest = 0
    stack: list[tuple[State, int]] = [(state, 0)]
    while stack:
        current, decisions = stack.pop()
        assert decisions <= TURN_LIMIT, "a turn that does not end"
        if current.step != PLACE_COLONIST or current.actor != 0:
            player = current.players[0]
            assert player.san_juan == 0
            finals.add(tuple(colonists_on(player, s) for s in spaces))
            longest = max(longest, decisions)
            continue
        for action in engine.legal_actions(current, 0):
            after, _ = engine.apply(current, 0, action)
            stack.append((after, decisions + 1))
    return finals, longest


@pytest.mark.parametrize(
    ("tiles", "buildings", "capacities"),
    [
        # 2 colonists placed, 1 arrives: 3 colonists for 5 circles.
        (
            {CORN: (2, 1), INDIGO: 1},
            {SMALL_INDIGO_PLANT: 0, SMALL_MARKET: 1},
            {CORN: 2, INDIGO: 1, PLANT: 1, MARKET: 1},
        ),
        # A 3-circle building: 2 placed, 1 arrives: 3 colonists for 6 circles.
        ({SUGAR: (2, 1)}, {SUGAR_MILL: 1, SMALL_MARKET: 0}, {SUGAR: 2, MILL: 3, MARKET: 1}),
    ],
    ids=["single-circles", "sugar-mill"],
)
def test_ruling_11_every_arrangement_the_rules_allow_is_reachable_and_no_other(
    tiles: dict[int, tuple[int, int]], buildings: dict[int, int], capacities: dict[int, int]
) -> None:
    """§4.2 step 3: a player freely rearranges all of their colonists; with fewer colonists than circles
    none may stay in San Juan. Every decision sequence ends, in at most one decision per colonist of
    San Juan, one per empty circle and one to keep."""
    state = mayor_turn(tiles=tiles, buildings=buildings)
    colonists, circles = state.players[0].colonists(), state.players[0].circles()
    assert (colonists, circles) == (3, sum(capacities.values()))
    finals, longest = _reachable(state, sorted(capacities))
    assert finals == _expected_arrangements(capacities, colonists)
    assert longest <= 1 + (circles - 2) + 1


def test_ruling_30_a_colonist_waiting_in_san_juan_is_placed_at_the_next_mayor() -> None:
    """Ruling 30 (hospice + forest) and the university's statue colonist (§4.3) leave a colonist in San
    Juan; at the next mayor phase it is placed like a new one, the others staying where they are."""
    state = mayor_turn(0, tiles={CORN: (1, 1), INDIGO: 1}, buildings={SMALL_MARKET: 0}, san_juan=1)
    assert legal(state) == {ON_TILE[INDIGO], ON_BUILDING[SMALL_MARKET]}
    play(state, 0, ON_TILE[INDIGO])
    play(state, 0, PASS_ACTION)
    assert arrangement(state, 0) == ((1, 1, 0, 0, 0, 0), ((SMALL_MARKET, 0),), 0)


def test_ruling_11_as_many_colonists_as_circles_fill_them_all_without_a_decision() -> None:
    """Ruling 11: with no fewer colonists than circles every circle is filled, the rest stay in San Juan."""
    state = blank_game(2)
    state.colonist_ship = 2
    set_player(state, 1, tiles={CORN: (1, 1)}, buildings={SUGAR_MILL: 1}, san_juan=2)
    choose_role(state, 0, MAYOR)
    events = play(state, 0, PASS_ACTION)
    assert ColonistsArranged(1, 1) in events
    assert arrangement(state, 1) == ((1, 0, 0, 0, 0, 0), ((SUGAR_MILL, 3),), 1)


def test_guesthouse_circles_take_colonists_and_guests_move_like_any_colonist() -> None:
    """§6.2 guesthouse: in the mayor phase colonists may be placed on its 2 circles as guests, and its
    circles count for the San Juan rule; a guest is rearranged like any other colonist."""
    state = expansion_game(2)
    state.colonist_ship = 2
    set_player(state, 0, tiles={CORN: (1, 0)}, buildings={GUESTHOUSE: 1})
    choose_role(state, 0, MAYOR)
    play(state, 0, PASS_ACTION)
    assert legal(state) == {ON_TILE[CORN], ON_BUILDING[GUESTHOUSE]}
    play(state, 0, ON_BUILDING[GUESTHOUSE])
    guesthouse = BUILDING_SPACE + GUESTHOUSE
    assert legal(state) == {PASS_ACTION, MOVE[guesthouse, CORN]}
    play(state, 0, MOVE[guesthouse, CORN])
    assert arrangement(state, 0)[:2] == ((1, 0, 0, 0, 0, 0), ((GUESTHOUSE, 1),))


# --- The heuristic bot ---------------------------------------------------------------------------


def test_the_heuristic_moves_a_colonist_to_work_and_then_keeps_the_arrangement() -> None:
    """The greedy bot moves the small market's colonist to the empty coffee roaster (coffee is then
    produced), after which every move loses and it keeps the arrangement."""
    state = mayor_turn(0, tiles={COFFEE: (1, 1)}, buildings={SMALL_MARKET: 1, COFFEE_ROASTER: 0})
    rng = Rng.from_seed(b"mayor heuristic")
    first = heuristic_action(state, 0, rng)
    assert first == MOVE[MARKET, BUILDING_SPACE + COFFEE_ROASTER]
    play(state, 0, first)
    assert state.step == PLACE_COLONIST  # coffee -> small market is still legal, and worse
    assert heuristic_action(state, 0, rng) == PASS_ACTION


@pytest.mark.parametrize("seed", range(8))
def test_the_heuristic_keeps_an_arrangement_no_move_improves(seed: int) -> None:
    """Moving the small market's colonist to the hacienda or the construction hut changes nothing the
    bot values: it keeps the arrangement rather than spend decisions on neutral moves."""
    state = mayor_turn(0, buildings={SMALL_MARKET: 1, HACIENDA: 0, CONSTRUCTION_HUT: 0})
    assert len(legal(state)) == 3
    assert heuristic_action(state, 0, Rng.from_seed(f"keep {seed}".encode())) == PASS_ACTION


# --- The protobuf form -------------------------------------------------------------------------


def test_a_move_and_the_moves_of_the_turn_convert_both_ways() -> None:
    """ColonistMove names its source and destination; the turn's moves travel in the state."""
    state = mayor_turn(0, tiles={CORN: (2, 2)}, buildings={SMALL_MARKET: 0, SUGAR_MILL: 0})
    move = MOVE[CORN, MARKET]
    message = CODEC.action_to_proto(move)
    assert message.move_colonist.source.tile == CORN + 1
    assert message.move_colonist.destination.building == SMALL_MARKET + 1
    assert CODEC.action_from_proto(message) == move
    play(state, 0, move)
    assert state.colonist_moves == [(CORN, MARKET)]
    encoded = CODEC.state_to_proto(state)
    decoded = CODEC.state_from_proto(encoded)
    assert decoded.colonist_moves == [(CORN, MARKET)]
    assert set(engine.legal_actions(decoded, 0)) == legal(state)
    assert MOVE[MARKET, CORN] not in legal(state)


def test_malformed_moves_are_refused() -> None:
    """A move to its own space or naming no circle space is malformed (INVALID_ARGUMENT), not illegal."""
    for source, destination in (
        ({"tile": CORN + 1}, {"tile": CORN + 1}),
        ({"tile": FOREST + 1}, {"tile": 1}),
    ):
        message = codec.pb.Action(
            move_colonist=codec.pb.ColonistMove(
                source=codec.pb.ColonistTarget(**source), destination=codec.pb.ColonistTarget(**destination)
            )
        )
        with pytest.raises(MalformedRequest):
            CODEC.action_from_proto(message)
    empty = codec.pb.Action(move_colonist=codec.pb.ColonistMove())
    with pytest.raises(MalformedRequest):
        CODEC.action_from_proto(empty)
    beyond = codec.pb.ColonistTarget(building=len(BUILDINGS) + 1)
    with pytest.raises(MalformedRequest):
        CODEC.action_from_proto(codec.pb.Action(place_colonist=beyond))


@pytest.mark.parametrize(
    ("forge", "reason"),
    [
        ("san juan", "colonist moves outside the mayor"),
        ("moved back", "colonist move"),
        ("source full", "colonist move"),
        ("forest", "colonist move space"),  # a tile kind, but no colonist's space
    ],
)
def test_a_forged_list_of_moves_is_refused(forge: str, reason: str) -> None:
    """The turn's moves must belong to the mayor's arranging player and obey the move rule."""
    state = mayor_turn(0, tiles={CORN: (2, 2)}, buildings={SMALL_MARKET: 0, SUGAR_MILL: 0})
    play(state, 0, MOVE[CORN, MARKET])
    message = CODEC.state_to_proto(state)
    moves = message.table.colonist_moves
    if forge == "san juan":
        message.table.players[0].san_juan = 1
    elif forge == "moved back":
        moves.add().CopyFrom(codec.pb.ColonistMove(source=moves[0].destination, destination=moves[0].source))
    elif forge == "forest":
        moves[0].source.tile = FOREST + 1
    else:
        message.table.players[0].island[0].occupied = 2
    with pytest.raises(MalformedRequest, match=reason):
        CODEC.state_from_proto(message)

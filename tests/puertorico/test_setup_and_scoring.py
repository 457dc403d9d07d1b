"""Setup per player count (shared/rules/puerto_rico.md §2), the round structure (§3) and the final
score with its tie-break (§7.2)."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import pytest

from services.puertorico.actions import ROLE
from services.puertorico.data import (
    BASE_BUILDINGS,
    BUILDER,
    BUILDINGS,
    CAPTAIN,
    CITY_HALL,
    COFFEE,
    CORN,
    CRAFTSMAN,
    INDIGO,
    MAYOR,
    PROSPECTOR,
    PROSPECTOR_2,
    QUARRY,
    SETTLER,
    SUGAR,
    TOBACCO,
    TRADER,
)
from services.puertorico.events import GameEnded, RoundEnded
from services.puertorico.scoring import final_scores
from services.puertorico.setup import new_game
from services.puertorico.state import CHOOSE_ROLE, TRIGGER_CITY, Config
from tests.puertorico.scenario import blank_game, choose_role, legal, of_type, play, set_player

BASE_ROLES = [SETTLER, MAYOR, BUILDER, CRAFTSMAN, TRADER, CAPTAIN]


class Row(NamedTuple):
    """One column of the §2.1 table. Plantations and goods are (coffee, tobacco, corn, sugar, indigo)."""

    doubloons: int
    vp_pool: int
    colonists: tuple[int, int]  # supply, on the ship
    ships: list[int]
    roles: list[int]
    start: list[int]  # starting plantations in seat order from the governor
    plantations: tuple[int, ...]
    quarries: int
    goods: tuple[int, ...]


FULL_PLANTATIONS, FULL_GOODS = (8, 9, 10, 11, 12), (9, 9, 10, 11, 11)
SETUP_TABLE = {
    2: Row(
        doubloons=3,
        vp_pool=65,
        colonists=(40, 2),
        ships=[4, 6],
        roles=[*BASE_ROLES, PROSPECTOR],
        start=[INDIGO, CORN],
        plantations=(5, 6, 7, 8, 9),
        quarries=5,
        goods=(7, 7, 8, 9, 9),
    ),
    3: Row(
        doubloons=2,
        vp_pool=75,
        colonists=(55, 3),
        ships=[4, 5, 6],
        roles=BASE_ROLES,
        start=[INDIGO, INDIGO, CORN],
        plantations=FULL_PLANTATIONS,
        quarries=8,
        goods=FULL_GOODS,
    ),
    4: Row(
        doubloons=3,
        vp_pool=100,
        colonists=(75, 4),
        ships=[5, 6, 7],
        roles=[*BASE_ROLES, PROSPECTOR],
        start=[INDIGO, INDIGO, CORN, CORN],
        plantations=FULL_PLANTATIONS,
        quarries=8,
        goods=FULL_GOODS,
    ),
    5: Row(
        doubloons=4,
        vp_pool=122,
        colonists=(95, 5),
        ships=[6, 7, 8],
        roles=[*BASE_ROLES, PROSPECTOR, PROSPECTOR_2],
        start=[INDIGO, INDIGO, INDIGO, CORN, CORN],
        plantations=FULL_PLANTATIONS,
        quarries=8,
        goods=FULL_GOODS,
    ),
}
TABLE_ORDER = (COFFEE, TOBACCO, CORN, SUGAR, INDIGO)


def by_table_order(per_good: list[int] | Counter[int]) -> tuple[int, ...]:
    """Per-good counts in the rules table's order: coffee, tobacco, corn, sugar, indigo."""
    return tuple(per_good[good] for good in TABLE_ORDER)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [b"setup-a", b"setup-b", b"setup-c"])
def test_setup_per_player_count(n: int, seed: bytes) -> None:
    """§2.1 and §2.2: the table per player count, and the starting plantations in seat order."""
    row = SETUP_TABLE[n]
    state, _ = new_game(n, Config(), seed)
    governor = state.governor
    assert (state.step, state.actor, state.round, state.picks) == (CHOOSE_ROLE, governor, 1, 0)
    assert [p.doubloons for p in state.players] == [row.doubloons] * n
    assert [p.vp for p in state.players] == [0] * n
    assert state.vp_pool == row.vp_pool
    assert (state.colonist_supply, state.colonist_ship) == row.colonists
    assert state.ship_cap == row.ships
    assert state.ship_good == [-1] * len(row.ships)
    assert state.ship_count == [0] * len(row.ships)
    assert sorted(state.roles) == sorted(row.roles)
    assert state.role_doubloons == [0] * len(row.roles)
    assert sorted(legal(state)) == sorted(ROLE[r] for r in row.roles)
    assert len(state.face_up_plantations) == n + 1
    assert (state.quarries, state.plantation_discards, state.trading_house) == (row.quarries, [], [])
    assert by_table_order(state.goods_supply) == row.goods
    # Starting plantations, one each in seat order from the governor, face up and unoccupied.
    for turn, tile in enumerate(row.start):
        player = state.players[(governor + turn) % n]
        expected = [0] * len(player.tiles)
        expected[tile] = 1
        assert player.tiles == expected
        assert sum(player.occupied) == player.san_juan == player.colonists() == 0
        assert player.buildings == {}
        assert player.goods == [0, 0, 0, 0, 0]
    # Every plantation in the game is on a board, face up or in the stack.
    tiles = Counter(state.plantation_stack) + Counter(state.face_up_plantations)
    for player in state.players:
        tiles.update({tile: count for tile, count in enumerate(player.tiles) if count})
    assert QUARRY not in tiles
    assert by_table_order(tiles) == row.plantations
    # Buildings for sale: §1.2 copies (2p: 2 per production building, 1 per violet); no Expansion I.
    for building, info in enumerate(BUILDINGS):
        if building not in BASE_BUILDINGS:
            expected_copies = 0
        elif n == 2:
            expected_copies = 1 if info.violet else 2
        elif info.violet:
            expected_copies = 1 if info.spaces == 2 else 2
        else:
            expected_copies = 3 if info.large_production else 4
        assert state.stock[building] == expected_copies, info.name


def test_setup_five_players_vp_pool_option_126() -> None:
    """OP-1: the 5-player pool is 122 by default, 126 with the option."""
    assert new_game(5, Config(), b"vp")[0].vp_pool == 122
    assert new_game(5, Config(vp_pool_5p=126), b"vp")[0].vp_pool == 126
    assert new_game(4, Config(vp_pool_5p=126), b"vp")[0].vp_pool == 100


def test_setup_first_governor_is_random() -> None:
    """§2.2 step 1: the governor is chosen at random, so every seat is governor for some seed."""
    governors = {new_game(4, Config(), b"governor %d" % i)[0].governor for i in range(60)}
    assert governors == {0, 1, 2, 3}


@pytest.mark.parametrize(
    ("n", "picks"),
    [
        (3, [CRAFTSMAN, TRADER, CAPTAIN]),
        (4, [PROSPECTOR, CRAFTSMAN, TRADER, CAPTAIN]),
        (5, [PROSPECTOR, PROSPECTOR_2, CRAFTSMAN, TRADER, CAPTAIN]),
    ],
)
def test_round_one_role_each_unused_roles_get_a_doubloon_governor_passes(n: int, picks: list[int]) -> None:
    """§3: selection goes clockwise from the governor, one role each; at round end every role not
    taken (3 of them with 3-5 players) gets 1 doubloon, which accumulates over rounds, and the
    governor card passes clockwise."""
    governor = 1
    state = blank_game(n, governor=governor)
    unused = [r for r in state.roles if r not in picks]
    assert len(unused) == 3
    for round_number in (1, 2):
        for number, role in enumerate(picks):
            seat = (governor + number) % n
            assert (state.step, state.actor) == (CHOOSE_ROLE, seat)
            assert ROLE[role] in legal(state)
            events = play(state, seat, ROLE[role])  # blank boards: nothing to decide in these roles
            if number < len(picks) - 1:
                assert ROLE[role] not in legal(state)  # taken this round: not available again
        governor = (governor + 1) % n
        assert of_type(events, RoundEnded) == [RoundEnded(round_number, governor)]
        assert state.role_doubloons == [round_number if r in unused else 0 for r in state.roles]
        assert (state.governor, state.round, state.actor) == (governor, round_number + 1, governor)
        assert sorted(legal(state)) == sorted(ROLE[r] for r in state.roles)  # every role is back


@pytest.mark.parametrize(
    ("doubloons", "goods", "winners", "ranks"),
    [
        ([3, 2, 9], [{CORN: 1}, {CORN: 1}, {}], (0,), [1, 2, 3]),  # 3 + 1 beats 2 + 1
        ([2, 2, 9], [{CORN: 1}, {SUGAR: 1}, {}], (0, 1), [1, 1, 3]),  # still tied: shared victory (OP-2)
        ([1, 3, 9], [{CORN: 2, COFFEE: 1}, {}, {}], (0,), [1, 2, 3]),  # 1 + 3 goods beats 3 doubloons
    ],
)
def test_final_score_tie_break_on_doubloons_plus_goods(
    doubloons: list[int], goods: list[dict[int, int]], winners: tuple[int, ...], ranks: list[int]
) -> None:
    """§7.2: the highest score wins (seat 2's 9 doubloons do not matter); a tie goes to the most
    doubloons + goods, 1 good counting as 1 doubloon; still tied is a shared victory (OP-2)."""
    state = blank_game(3, governor=0)
    set_player(state, 0, vp=7, doubloons=doubloons[0], goods=goods[0])
    set_player(state, 1, vp=3, doubloons=doubloons[1], goods=goods[1], buildings={CITY_HALL: 0})  # 3 + 4
    set_player(state, 2, vp=6, doubloons=doubloons[2], goods=goods[2])
    state.end_triggers = [TRIGGER_CITY]  # fired earlier in the round
    # The last role of the round: nothing to produce, the round ends and with it the game.
    events = choose_role(state, 2, CRAFTSMAN)
    assert state.terminal
    assert of_type(events, GameEnded) == [GameEnded((7, 7, 6), winners)]
    scores = final_scores(state)
    assert scores.final
    assert scores.winners == winners
    assert [s.rank for s in scores.seats] == ranks
    assert [s.tiebreak for s in scores.seats] == [
        d + sum(g.values()) for d, g in zip(doubloons, goods, strict=True)
    ]

"""Rules the engine implements that no other scenario checked (shared/rules/puerto_rico.md).

Hidden VP chips and the `public_vp` option (§9), the storehouse stacking with the warehouses (§6.2),
a guest moving onto a plantation or a quarry (§6.2, OP-13) and the black market's VP item (OP-14).
Each test sets up a position with `tests.puertorico.scenario` and drives the real engine.
"""

from __future__ import annotations

import pytest

from services.puertorico.actions import (
    BUILD_ACTION,
    GUEST_TILE,
    MARKET_COLONIST_ACTION,
    MARKET_GOOD_ACTION,
    MARKET_VP_ACTION,
    PASS_ACTION,
    SINGLE_ACTION,
    WAREHOUSE_ACTION,
)
from services.puertorico.codec import CODEC
from services.puertorico.data import (
    BLACK_MARKET,
    BUILDER,
    CAPTAIN,
    COFFEE,
    CORN,
    CRAFTSMAN,
    GUESTHOUSE,
    INDIGO,
    LARGE_WAREHOUSE,
    OFFICE,
    QUARRY,
    SMALL_MARKET,
    SMALL_WAREHOUSE,
    STOREHOUSE,
    SUGAR,
    TOBACCO,
)
from services.puertorico.events import VP_CAPTAIN, VP_SHIPPING, GoodsDiscarded, GuestMoved, VpReceived
from services.puertorico.state import BLACK_MARKET_STEP, BUILD, CHOOSE_ROLE, GUESTS, STORE, Config, State
from tests.puertorico.scenario import (
    blank_game,
    choose_role,
    expansion_game,
    finish_role,
    legal,
    of_type,
    play,
    set_player,
    set_ship,
)

VP_CHIPS = {0: 3, 1: 0, 2: 7, 3: 1}


def shown_vp(state: State, seat: int | None) -> dict[int, int]:
    """The VP chips `seat`'s view shows (None: a spectator), by seat."""
    return {entry.seat: entry.vp_chips for entry in CODEC.view_to_proto(state, seat).vp_chips}


def vp_game(*, public_vp: bool) -> State:
    state = blank_game(config=Config(public_vp=public_vp))
    for seat, vp in VP_CHIPS.items():
        set_player(state, seat, vp=vp)
    return state


# --- Hidden VP chips and the public_vp option (§9) ---------------------------------------------


def test_public_vp_shows_every_seats_chips_to_everyone() -> None:
    """§9, option `public_vp`: every seat and a spectator see every seat's VP chips."""
    state = vp_game(public_vp=True)
    for viewer in (0, 1, 2, 3, None):
        assert shown_vp(state, viewer) == VP_CHIPS
    assert [len(view.vp_chips) for view in CODEC.views_to_proto(state)] == [4] * 5


def test_vp_chips_are_hidden_from_other_seats_by_default() -> None:
    """§9 DEFAULT: chips are kept face down; a seat sees only its own, a spectator none."""
    state = vp_game(public_vp=False)
    for seat, vp in VP_CHIPS.items():
        assert shown_vp(state, seat) == {seat: vp}
    assert shown_vp(state, None) == {}
    assert [{e.seat for e in view.vp_chips} for view in CODEC.views_to_proto(state)] == [
        {0},
        {1},
        {2},
        {3},
        set(),
    ]


@pytest.mark.parametrize(
    ("public_vp", "audience"), [(True, ()), (False, (1,))], ids=["public_vp", "hidden-default"]
)
def test_vp_awarded_for_a_load_is_seen_by_its_owner_only_unless_public(
    public_vp: bool, audience: tuple[int, ...]
) -> None:
    """§9: VP amounts awarded to a player appear only in that player's view (visible_to = owner);
    with `public_vp` everyone sees them (visible_to empty). The load itself is public."""
    state = blank_game(config=Config(public_vp=public_vp))
    set_player(state, 1, goods={CORN: 2})
    events = choose_role(state, 1, CAPTAIN)
    events += finish_role(state)
    awarded = of_type(events, VpReceived)
    assert [(e.seat, e.amount, e.reason) for e in awarded] == [(1, 2, VP_SHIPPING), (1, 1, VP_CAPTAIN)]
    assert [CODEC.event_to_proto(e)[2] for e in awarded] == [audience, audience]
    assert all(CODEC.event_to_proto(e)[2] == () for e in events if not isinstance(e, VpReceived))


# --- Storehouse with warehouses (§4.6 step 5, §6.2) ----------------------------------------------


def block_ships(state: State) -> None:
    """Fill every cargo ship of a 4-player game, so nobody can load a cargo ship."""
    set_ship(state, 5, INDIGO, 5)
    set_ship(state, 6, TOBACCO, 6)
    set_ship(state, 7, COFFEE, 7)


@pytest.mark.parametrize(
    ("warehouses", "goods", "choices", "kept"),
    [
        (
            {SMALL_WAREHOUSE: 1},
            {CORN: 3, INDIGO: 2, SUGAR: 1, TOBACCO: 1, COFFEE: 1},
            [
                WAREHOUSE_ACTION[CORN],
                SINGLE_ACTION[INDIGO],
                SINGLE_ACTION[INDIGO],
                SINGLE_ACTION[SUGAR],
                SINGLE_ACTION[TOBACCO],
            ],
            [3, 2, 1, 1, 0],
        ),
        (
            {SMALL_WAREHOUSE: 1, LARGE_WAREHOUSE: 1},
            {CORN: 3, INDIGO: 3, SUGAR: 3, TOBACCO: 3, COFFEE: 2},
            [
                WAREHOUSE_ACTION[CORN],
                WAREHOUSE_ACTION[INDIGO],
                WAREHOUSE_ACTION[SUGAR],
                SINGLE_ACTION[TOBACCO],
                SINGLE_ACTION[TOBACCO],
                SINGLE_ACTION[TOBACCO],
            ],
            [3, 3, 3, 3, 1],
        ),
    ],
    ids=["small-warehouse", "both-warehouses"],
)
def test_storehouse_stacks_with_the_warehouses(
    warehouses: dict[int, int],
    goods: dict[int, int],
    choices: list,
    kept: list[int],  # type: ignore[type-arg]
) -> None:
    """§6.2 storehouse: 3 more singles on top of the windrose good, and this stacks with the warehouses:
    small warehouse -> 1 kind + 4 singles; both warehouses -> 3 kinds + 4 singles. The rest is lost."""
    state = expansion_game()
    block_ships(state)
    set_player(state, 0, goods=goods, buildings={STOREHOUSE: 1, **warehouses})
    choose_role(state, 1, CAPTAIN)
    events: list = []  # type: ignore[type-arg]
    for action in choices:
        assert state.step == STORE and state.actor == 0
        assert action in legal(state)
        events += play(state, 0, action)
    assert state.step == CHOOSE_ROLE
    assert state.players[0].goods == kept
    lost = tuple(goods.get(good, 0) - count for good, count in enumerate(kept))
    assert [e.goods for e in of_type(events, GoodsDiscarded) if e.seat == 0] == [lost]


def test_storehouse_and_both_warehouses_keep_everything_without_asking() -> None:
    """3 kinds in the warehouses and 4 singles hold 3 + 3 + 3 + 2 + 2 goods: nothing is lost, and with
    no choice to make the player is not asked."""
    state = expansion_game()
    block_ships(state)
    goods = {CORN: 3, INDIGO: 3, SUGAR: 3, TOBACCO: 2, COFFEE: 2}
    set_player(state, 0, goods=goods, buildings={STOREHOUSE: 1, SMALL_WAREHOUSE: 1, LARGE_WAREHOUSE: 1})
    events = choose_role(state, 1, CAPTAIN)
    assert state.step == CHOOSE_ROLE
    assert state.players[0].goods == [3, 3, 3, 2, 2]
    assert not of_type(events, GoodsDiscarded)


# --- Guesthouse: a guest onto a plantation or a quarry (§6.2, OP-13) ----------------------------


def test_guest_moves_onto_a_plantation_and_produces_at_once() -> None:
    """§6.2 guesthouse: a guest may move to an empty plantation circle and works there at once
    (OP-13 window 2: at the start of the craftsman, before production)."""
    state = expansion_game()
    set_player(state, 0, tiles={CORN: (2, 1)}, buildings={GUESTHOUSE: 1})
    choose_role(state, 1, CRAFTSMAN)
    assert state.step == GUESTS and state.actor == 0
    assert legal(state) == {PASS_ACTION, GUEST_TILE[CORN]}
    events = play(state, 0, GUEST_TILE[CORN])
    assert of_type(events, GuestMoved) == [GuestMoved(0, CORN, -1)]
    player = state.players[0]
    assert (player.buildings[GUESTHOUSE], player.occupied[CORN], player.goods[CORN]) == (0, 2, 2)


@pytest.mark.parametrize("move", [True, False], ids=["guest-on-quarry", "declined"])
def test_guest_moves_onto_a_quarry_and_lowers_the_price(move: bool) -> None:
    """§6.2 guesthouse: a guest may move to an empty quarry, which then takes 1 off a Col-1 price
    (small market, cost 1: affordable with 0 doubloons only with the manned quarry)."""
    state = expansion_game()
    set_player(state, 0, doubloons=0, tiles={QUARRY: 1}, buildings={GUESTHOUSE: 1})
    choose_role(state, 1, BUILDER)
    assert state.step == GUESTS and state.actor == 0
    assert legal(state) == {PASS_ACTION, GUEST_TILE[QUARRY]}
    play(state, 0, GUEST_TILE[QUARRY] if move else PASS_ACTION)
    assert state.players[0].occupied[QUARRY] == int(move)
    while state.actor != 0:
        play(state, state.actor, PASS_ACTION)
    assert state.step == BUILD
    assert (BUILD_ACTION[SMALL_MARKET] in legal(state)) is move
    if move:
        play(state, 0, BUILD_ACTION[SMALL_MARKET])
        assert SMALL_MARKET in state.players[0].buildings and state.players[0].doubloons == 0


# --- Black market: the VP item needs a VP held (OP-14) ------------------------------------------


@pytest.mark.parametrize(("vp", "vp_item"), [(0, False), (1, True)], ids=["no-vp", "one-vp"])
def test_black_market_offers_the_vp_item_only_with_a_vp_held(vp: int, vp_item: bool) -> None:
    """OP-14: the VP item needs >= 1 VP held; the colonist and good items are offered either way."""
    state = expansion_game()
    set_player(state, 0, doubloons=3, vp=vp, goods={CORN: 1}, buildings={BLACK_MARKET: 1}, san_juan=1)
    choose_role(state, 1, BUILDER)
    while state.actor != 0:
        play(state, state.actor, PASS_ACTION)
    play(state, 0, BUILD_ACTION[OFFICE])  # price 5 > 3 doubloons: items must be returned
    assert state.step == BLACK_MARKET_STEP
    expected = {MARKET_COLONIST_ACTION, MARKET_GOOD_ACTION[CORN]} | ({MARKET_VP_ACTION} if vp_item else set())
    assert legal(state) == expected


@pytest.mark.parametrize(("vp", "affordable"), [(0, False), (1, True)], ids=["no-vp", "one-vp"])
def test_black_market_reach_counts_the_vp_only_when_held(vp: int, affordable: bool) -> None:
    """OP-14: office (5) with 2 doubloons, a good and a colonist needs the VP item too: buildable only
    with a VP to return."""
    state = expansion_game()
    set_player(state, 0, doubloons=2, vp=vp, goods={CORN: 1}, buildings={BLACK_MARKET: 1}, san_juan=1)
    choose_role(state, 1, BUILDER)
    while state.actor != 0:
        play(state, state.actor, PASS_ACTION)
    assert (BUILD_ACTION[OFFICE] in legal(state)) is affordable

"""Readable set-up of concrete Puerto Rico positions for the rule scenario tests.

A scenario starts from a real `setup.new_game` (so supplies, ships, stock and roles are those of
the player count) with every board cleared, then pokes only the fields that describe the position
(goods, tiles, buildings, ships, supplies, ...). From there the tests drive the real engine through
its public API: `engine.play` and `engine.legal_actions`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from services.puertorico import engine
from services.puertorico.actions import PASS_ACTION, ROLE, Action
from services.puertorico.data import BUILDING_SET_RANDOM, BUILDINGS, CIRCLE_TILES, FOREST
from services.puertorico.draft import copies
from services.puertorico.setup import new_game
from services.puertorico.state import CHOOSE_ROLE, GAME_OVER, Config, State

SEED = b"rule scenarios"
E = TypeVar("E")


def blank_game(n: int = 4, *, governor: int = 0, config: Config | None = None, seed: bytes = SEED) -> State:
    """A new `n`-player game with empty boards (no tiles, no doubloons) and `governor` about to choose."""
    state, _ = new_game(n, config or Config(), seed)
    for player in state.players:
        player.doubloons = 0
        player.tiles = [0] * len(player.tiles)
        player.occupied = [0] * len(player.occupied)
    state.governor = governor
    state.actor = governor
    state.step = CHOOSE_ROLE
    state.legal = None
    return state


def expansion_game(n: int = 4, *, governor: int = 0, seed: bytes = SEED) -> State:
    """`blank_game` with the Expansion I rules on and every building, base and new, for sale."""
    state = blank_game(n, governor=governor, config=Config(buildings=BUILDING_SET_RANDOM), seed=seed)
    state.stock = [copies(building, n) for building in range(len(BUILDINGS))]
    return state


def set_player(
    state: State,
    seat: int,
    *,
    goods: Mapping[int, int] | None = None,
    doubloons: int | None = None,
    vp: int | None = None,
    tiles: Mapping[int, int | tuple[int, int]] | None = None,
    buildings: Mapping[int, int] | None = None,
    san_juan: int | None = None,
    forests: Mapping[int, int] | None = None,
) -> None:
    """Set parts of one board. `tiles` maps a tile kind to a count, or to (count, occupied);
    `forests` maps a plantation kind to the number of forests of that hidden kind."""
    player = state.players[seat]
    if goods is not None:
        player.goods = [goods.get(good, 0) for good in range(len(player.goods))]
    if doubloons is not None:
        player.doubloons = doubloons
    if vp is not None:
        player.vp = vp
    if tiles is not None:
        player.tiles = [0] * len(player.tiles)
        player.occupied = [0] * len(player.occupied)
        for tile, value in tiles.items():
            count, occupied = value if isinstance(value, tuple) else (value, 0)
            assert occupied == 0 or tile in CIRCLE_TILES, "only tiles with a circle can be occupied"
            player.tiles[tile] = count
            if occupied:
                player.occupied[tile] = occupied
    if buildings is not None:
        player.buildings = dict(buildings)
    if san_juan is not None:
        player.san_juan = san_juan
    if forests is not None:
        player.forests = [forests.get(good, 0) for good in range(len(player.forests))]
        player.tiles[FOREST] = sum(player.forests)
    state.legal = None


def ship_of(state: State, capacity: int) -> int:
    """The index of the cargo ship with `capacity` holds."""
    return state.ship_cap.index(capacity)


def set_ship(state: State, capacity: int, good: int, count: int) -> None:
    """Put `count` goods of `good` on the `capacity`-hold ship."""
    ship = ship_of(state, capacity)
    state.ship_good[ship] = good
    state.ship_count[ship] = count
    state.legal = None


def choose_role(state: State, seat: int, role: int) -> list[Any]:
    """Make `seat` the chooser (keeping the governor, so picks = seats since the governor) and take `role`."""
    state.step = CHOOSE_ROLE
    state.picks = (seat - state.governor) % state.n
    state.actor = seat
    state.legal = None
    return engine.play(state, seat, ROLE[role])


def legal(state: State, seat: int | None = None) -> set[Action]:
    """The legal actions of `seat` (default: the acting seat), as a set."""
    return set(engine.legal_actions(state, state.actor if seat is None else seat))


def play(state: State, seat: int, action: Action) -> list[Any]:
    """`engine.play`, for symmetry with the other helpers."""
    return engine.play(state, seat, action)


def finish_role(state: State) -> list[Any]:
    """Pass whenever passing is legal (else take the first legal action) until the next role choice."""
    events: list[Any] = []
    while state.step not in (CHOOSE_ROLE, GAME_OVER):
        actions = engine.legal_actions(state, state.actor)
        action = PASS_ACTION if PASS_ACTION in actions else actions[0]
        events.extend(engine.play(state, state.actor, action))
    return events


def of_type(events: Iterable[Any], kind: type[E]) -> list[E]:
    """The events of one kind, in order."""
    return [event for event in events if isinstance(event, kind)]

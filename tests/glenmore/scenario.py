"""Readable set-up of concrete Glen More positions for the rule scenario tests.

A scenario starts from a real `setup.new_game` (so stacks, coins and market are those of the player
count), then pokes only what describes the position: territories, cubes, the tiles ahead of the
acting figure. From there the tests drive the real engine through `engine.play` and
`engine.legal_actions`, so the engine's own auto-resolution of single-option decisions applies.
"""

from __future__ import annotations

from collections.abc import Mapping

from services.common.rng import Rng
from services.glenmore import actions as act
from services.glenmore import engine
from services.glenmore.actions import Action
from services.glenmore.data import DIE_FACES, DIE_PLAYER_COUNTS, TILES
from services.glenmore.setup import new_game
from services.glenmore.state import ACTIVATE, CHOOSE_TILE, DIE, PLACE_TILE, Config, State, figure
from services.glenmore.territory import ORIGIN, cell

SEED = b"glen more scenarios"


def tile(name: str, *, edge: int | None = None, stack: int | None = None, nth: int = 0) -> int:
    """The index of the `nth` stack tile called `name` (with `edge` and from `stack`, if given)."""
    found = [
        i
        for i, t in enumerate(TILES)
        if t.stack >= 0
        and t.name == name
        and (edge is None or t.edge == edge)
        and (stack is None or t.stack == stack)
    ]
    return found[nth]


def blank_game(n: int = 4, *, seed: bytes = SEED, config: Config | None = None) -> State:
    """A new `n`-player game whose territories hold only their start villages (one clan member each)."""
    state, _ = new_game(n, config or Config(), seed)
    for player in state.players:
        assert player.cells == [ORIGIN]
    return state


def set_track(state: State, seat: int, ahead: list[int]) -> None:
    """Make `seat` the rearmost figure with the tiles `ahead` in front of it, then the other figures."""
    others = [figure(s) for s in range(state.n) if s != seat]
    if state.n in DIE_PLAYER_COUNTS:
        others.append(DIE)
    state.track = [figure(seat), *ahead, *others]
    state.actor = seat
    state.step = CHOOSE_TILE
    state.clear_turn()
    state.legal = None


def put(
    state: State,
    seat: int,
    tile_index: int,
    x: int,
    y: int,
    *,
    clans: int = 0,
    cubes: Mapping[int, int] | None = None,
) -> int:
    """Put a tile into a territory as if placed earlier; returns its slot."""
    player = state.players[seat]
    slot = player.add_tile(tile_index, cell(x, y), clans)
    for kind, count in (cubes or {}).items():
        for _ in range(count):
            player.add_cube(slot, kind)
    card = TILES[tile_index].card
    if card >= 0:
        player.cards.append(card)
    state.legal = None
    return slot


def cubes_at(state: State, seat: int, x: int, y: int) -> list[int]:
    """The cubes (per kind) on the tile at (x, y)."""
    player = state.players[seat]
    slot = player.grid[cell(x, y)]
    return player.cubes[5 * slot : 5 * slot + 5]


def clans_at(state: State, seat: int, x: int, y: int) -> int:
    """Clan members on the tile at (x, y)."""
    player = state.players[seat]
    return player.clans[player.grid[cell(x, y)]]


def legal(state: State) -> list[Action]:
    """The acting seat's legal actions."""
    return engine.legal_actions(state, state.actor)


def play(state: State, action: Action) -> list:  # type: ignore[type-arg]
    """Play `action` for the acting seat (forced follow-ups are taken by the engine)."""
    return engine.play(state, state.actor, action)


def of_kind(actions: list[Action], kind: int) -> list[Action]:
    """The actions of one kind."""
    return [a for a in actions if a.kind == kind]


def activating(state: State, seat: int, x: int, y: int) -> None:
    """Put `seat` in the activation step of a turn whose new tile is the one at (x, y)."""
    set_track(state, seat, [])
    player = state.players[seat]
    c = cell(x, y)
    state.tile = player.tiles[player.grid[c]]
    state.placed = True
    state.cell = c
    state.step = ACTIVATE
    state.legal = None


def activation_cells(actions: list[Action]) -> set[tuple[int, int]]:
    """The cells that some legal Activate action names."""
    return {(a.a, a.b) for a in actions if a.kind == act.ACTIVATE}


def take_and_place(state: State, tile_index: int, x: int, y: int) -> list:  # type: ignore[type-arg]
    """Take a tile of the track and place it at (x, y) (the engine places it when that is the only cell)."""
    events = play(state, act.Action(act.TAKE_TILE, tile_index))
    if state.step == PLACE_TILE:
        events += play(state, act.Action(act.PLACE_TILE, x, y))
    player = state.players[state.actor] if state.placed else None
    assert player is None or state.cell == cell(x, y)
    return events


def rng_rolling(roll: int) -> Rng:
    """A generator whose first die roll is `roll`."""
    for key in range(1000):
        rng = Rng(key)
        if DIE_FACES[rng.copy().below(len(DIE_FACES))] == roll:
            return rng
    raise AssertionError(f"no generator below key 1000 rolls {roll} first")

"""Native game state: plain Python lists and ints, copied explicitly, never shared between states.

Cells of a territory are ints (`territory.cell(x, y)`) so that neighbours are additions. The track
is the chain of §3 of the rules: `track[0]` is the rearmost figure; entries >= 0 are tile indices,
`figure(seat)` marks a player's figure and `DIE` the die figure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Self

from services.common.rng import Rng
from services.glenmore.data import MAX_PLAYERS, PUBLIC_VP, STACKS

# The decision the acting seat faces (mirrors the protobuf Step enum, minus its zero value).
CHOOSE_TILE: Final = 1
PLACE_TILE: Final = 2
PAY: Final = 3
CHOOSE_CUBE: Final = 4
ACTIVATE: Final = 5
MOVE: Final = 6
GAME_OVER: Final = 7

# What a payment in progress is for (the protobuf PaymentPurpose enum).
NO_PAYMENT: Final = 0
PAY_FOR_TILE: Final = 1
PAY_FOR_ACTIVATION: Final = 2

# Why cubes are being chosen (the protobuf CubePurpose enum).
NO_CUBE_CHOICE: Final = 0
CUBES_LOCH_LOCHY: Final = 1
CUBES_LOCH_SHIEL: Final = 2

DIE: Final = -1 - MAX_PLAYERS
NO_CELL: Final = -1


def figure(seat: int) -> int:
    """The chain entry of a seat's figure."""
    return -1 - seat


def figure_seat(entry: int) -> int:
    """The seat of a figure's chain entry (the die has none: MAX_PLAYERS)."""
    return -1 - entry


@dataclass(frozen=True)
class Config:
    """The game options (every other open point is a constant of data.py)."""

    public_vp: bool = PUBLIC_VP  # OP-23: off, a seat sees only its own VP until the game ends


class Player:
    """One player: holdings, and the territory as parallel lists indexed by placement order."""

    __slots__ = (
        "cards",
        "cells",
        "chieftains",
        "clans",
        "coins",
        "cubes",
        "grid",
        "load",
        "own",
        "scoring_vp",
        "tiles",
        "vp",
        "whisky",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self) -> None:
        self.coins = 0
        self.vp = 0
        self.scoring_vp = 0
        self.whisky = 0
        self.chieftains = 0
        self.tiles: list[int] = []  # tile index per territory slot, in placement order
        self.cells: list[int] = []  # cell per slot
        self.grid: dict[int, int] = {}  # cell -> slot
        self.cubes: list[int] = []  # 5 counts per slot, flat
        self.load: list[int] = []  # cubes per slot
        self.own = [0, 0, 0, 0, 0]  # cubes per kind over the whole territory
        self.clans: list[int] = []  # clan members per slot
        self.cards: list[int] = []  # special-location cards, in the order taken

    def copy(self) -> Player:
        """An independent copy."""
        other = Player.__new__(Player)
        other.coins = self.coins
        other.vp = self.vp
        other.scoring_vp = self.scoring_vp
        other.whisky = self.whisky
        other.chieftains = self.chieftains
        other.tiles = self.tiles[:]
        other.cells = self.cells[:]
        other.grid = self.grid.copy()
        other.cubes = self.cubes[:]
        other.load = self.load[:]
        other.own = self.own[:]
        other.clans = self.clans[:]
        other.cards = self.cards[:]
        return other

    def add_tile(self, tile: int, cell: int, clans: int = 0) -> int:
        """Put a tile on a cell; returns its slot."""
        slot = len(self.tiles)
        self.tiles.append(tile)
        self.cells.append(cell)
        self.grid[cell] = slot
        self.cubes.extend((0, 0, 0, 0, 0))
        self.load.append(0)
        self.clans.append(clans)
        return slot

    def set_territory(self, territory: Iterable[tuple[int, int, int, Sequence[int]]]) -> None:
        """This territory in place of the player's, one (tile, cell, clan members, 5 cube counts)
        per slot in placement order, with what it derives (grid, load, own)."""
        self.tiles, self.cells, self.grid, self.cubes = [], [], {}, []
        self.load, self.own, self.clans = [], [0, 0, 0, 0, 0], []
        for tile, cell, clans, cubes in territory:
            slot = self.add_tile(tile, cell, clans)
            self.cubes[5 * slot : 5 * slot + 5] = cubes
            self.load[slot] = sum(cubes)
            for kind, count in enumerate(cubes):
                self.own[kind] += count

    def territory(self, at: Callable[[int], Any]) -> list[tuple[int, Any, int, list[int]]]:
        """The territory as `set_territory` takes it, each cell as `at` gives it (its coordinates)."""
        cubes, clans = self.cubes, self.clans
        return [
            (tile, at(cell), clans[slot], cubes[5 * slot : 5 * slot + 5])
            for slot, (tile, cell) in enumerate(zip(self.tiles, self.cells))  # noqa: B905 (equal lengths)
        ]

    def add_cube(self, slot: int, kind: int) -> None:
        """One cube of `kind` onto a slot (the caller checks the cap)."""
        self.cubes[5 * slot + kind] += 1
        self.load[slot] += 1
        self.own[kind] += 1

    def remove_cube(self, slot: int, kind: int) -> None:
        """One cube of `kind` off a slot (the caller checks there is one)."""
        self.cubes[5 * slot + kind] -= 1
        self.load[slot] -= 1
        self.own[kind] -= 1

    def clan_total(self) -> int:
        """Clan members in the territory."""
        return sum(self.clans)


class State:
    """The whole game. `legal` caches the acting seat's legal actions and is never serialized.

    Its attributes are named as the fields of the Table, Turn and Payment messages that hold them
    (a State is one Table, its Turn and the Turn's Payment, flat for the engine's speed)."""

    __slots__ = (
        "activate_all",
        "activated",
        "activation_cell",
        "activation_count",
        "actor",
        "any_cubes",
        "cell",
        "clan_member",
        "config",
        "cube_purpose",
        "cubes_to_choose",
        "different_cubes",
        "discarded_tiles",
        "kinds_paid",
        "last_die_roll",
        "legal",
        "loch_ness_ready",
        "loch_ness_used",
        "market",
        "movement_points",
        "n",
        "placed",
        "players",
        "purpose",
        "resources",
        "rng",
        "scorings_done",
        "stacks",
        "start_player",
        "step",
        "tile",
        "track",
        "track_space",
    )

    def __new__(cls, *args: object, **kwargs: object) -> Self:
        # A blank instance for copy() and the codec, which set every field: compiled (mypyc), a class
        # without its own __new__ would run __init__ here.
        return super().__new__(cls)

    def __init__(self, config: Config, n: int, rng: Rng) -> None:
        self.config = config
        self.n = n
        self.rng = rng
        self.step = CHOOSE_TILE
        self.actor = 0
        self.start_player = 0
        self.track: list[int] = []
        self.track_space = 0
        self.stacks: list[list[int]] = [[] for _ in range(STACKS)]  # drawn from the end
        self.market = [0, 0, 0, 0, 0]  # filled slots per resource
        self.players = [Player() for _ in range(n)]
        self.scorings_done = 0
        self.discarded_tiles: list[int] = []
        self.last_die_roll = 0
        self.legal: list | None = None  # type: ignore[type-arg]
        self.clear_turn()

    def clear_turn(self) -> None:
        """Forget the progress of the turn that ended."""
        self.tile = -1
        self.placed = False
        self.cell = NO_CELL
        self.clear_payment()
        self.cubes_to_choose = 0
        self.cube_purpose = NO_CUBE_CHOICE
        self.activate_all = False
        self.loch_ness_ready = False
        self.loch_ness_used = False
        self.activated = 0  # bitmask over the actor's territory slots
        self.movement_points = 0

    def activated_cells(self) -> list[int]:
        """The cells of the actor's activated tiles, in slot order."""
        activated = self.activated
        return [cell for slot, cell in enumerate(self.players[self.actor].cells) if activated >> slot & 1]

    def clear_payment(self) -> None:
        """No payment in progress."""
        self.purpose = NO_PAYMENT
        self.resources: list[int] = []
        self.different_cubes = 0
        self.kinds_paid: list[int] = []
        self.any_cubes = 0
        self.clan_member = False
        self.activation_cell = NO_CELL
        self.activation_count = 0

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.config = self.config
        other.n = self.n
        other.rng = self.rng.copy()
        other.step = self.step
        other.actor = self.actor
        other.start_player = self.start_player
        other.track = self.track[:]
        other.track_space = self.track_space
        other.stacks = [stack[:] for stack in self.stacks]
        other.market = self.market[:]
        other.players = [p.copy() for p in self.players]
        other.scorings_done = self.scorings_done
        other.discarded_tiles = self.discarded_tiles[:]
        other.last_die_roll = self.last_die_roll
        other.legal = self.legal
        other.tile = self.tile
        other.placed = self.placed
        other.cell = self.cell
        other.purpose = self.purpose
        other.resources = self.resources[:]
        other.different_cubes = self.different_cubes
        other.kinds_paid = self.kinds_paid[:]
        other.any_cubes = self.any_cubes
        other.clan_member = self.clan_member
        other.activation_cell = self.activation_cell
        other.activation_count = self.activation_count
        other.cubes_to_choose = self.cubes_to_choose
        other.cube_purpose = self.cube_purpose
        other.activate_all = self.activate_all
        other.loch_ness_ready = self.loch_ness_ready
        other.loch_ness_used = self.loch_ness_used
        other.activated = self.activated
        other.movement_points = self.movement_points
        return other

    @property
    def terminal(self) -> bool:
        """Whether the game is over."""
        return self.step == GAME_OVER

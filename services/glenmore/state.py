"""Native game state: plain Python lists and ints, copied explicitly, never shared between states.

Cells of a territory are ints (`territory.cell(x, y)`) so that neighbours are additions. The track
is the chain of §3 of the rules: `chain[0]` is the rearmost figure; entries >= 0 are tile indices,
`figure(seat)` marks a player's figure and `DIE` the die figure.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.common.rng import Rng
from services.glenmore.data import MAX_PLAYERS, PUBLIC_VP, STACKS

# The decision the acting seat faces (mirrors the protobuf Step enum, minus its zero value).
CHOOSE_TILE, PLACE_TILE, PAY, CHOOSE_CUBE, ACTIVATE, MOVE, GAME_OVER = range(1, 8)

# What a payment in progress is for (the protobuf PaymentPurpose enum).
NO_PAYMENT, PAY_FOR_TILE, PAY_FOR_ACTIVATION = 0, 1, 2

# Why cubes are being chosen (the protobuf CubePurpose enum).
NO_CUBE_CHOICE, CUBES_LOCH_LOCHY, CUBES_LOCH_SHIEL = 0, 1, 2

DIE = -1 - MAX_PLAYERS
NO_CELL = -1


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
    """The whole game. `legal` caches the acting seat's legal actions and is never serialized."""

    __slots__ = (
        "act_cell",
        "act_count",
        "activate_all",
        "activated",
        "actor",
        "chain",
        "choose_left",
        "choose_purpose",
        "config",
        "discarded",
        "last_die",
        "legal",
        "market",
        "moves",
        "n",
        "ness_ready",
        "ness_used",
        "pay_any",
        "pay_clan",
        "pay_cubes",
        "pay_different",
        "pay_purpose",
        "pay_used",
        "players",
        "rng",
        "scorings_done",
        "stacks",
        "start_player",
        "step",
        "t_cell",
        "t_placed",
        "t_tile",
        "track_space",
    )

    def __init__(self, config: Config, n: int, rng: Rng) -> None:
        self.config = config
        self.n = n
        self.rng = rng
        self.step = CHOOSE_TILE
        self.actor = 0
        self.start_player = 0
        self.chain: list[int] = []
        self.track_space = 0
        self.stacks: list[list[int]] = [[] for _ in range(STACKS)]  # drawn from the end
        self.market = [0, 0, 0, 0, 0]  # filled slots per resource
        self.players = [Player() for _ in range(n)]
        self.scorings_done = 0
        self.discarded: list[int] = []
        self.last_die = 0
        self.legal: list | None = None  # type: ignore[type-arg]
        self.clear_turn()

    def clear_turn(self) -> None:
        """Forget the progress of the turn that ended."""
        self.t_tile = -1
        self.t_placed = False
        self.t_cell = NO_CELL
        self.clear_payment()
        self.choose_left = 0
        self.choose_purpose = NO_CUBE_CHOICE
        self.activate_all = False
        self.ness_ready = False
        self.ness_used = False
        self.activated = 0  # bitmask over the actor's territory slots
        self.moves = 0

    def clear_payment(self) -> None:
        """No payment in progress."""
        self.pay_purpose = NO_PAYMENT
        self.pay_cubes: list[int] = []
        self.pay_different = 0
        self.pay_used: list[int] = []
        self.pay_any = 0
        self.pay_clan = False
        self.act_cell = NO_CELL
        self.act_count = 0

    def copy(self) -> State:
        """An independent copy."""
        other = State.__new__(State)
        other.config = self.config
        other.n = self.n
        other.rng = self.rng.copy()
        other.step = self.step
        other.actor = self.actor
        other.start_player = self.start_player
        other.chain = self.chain[:]
        other.track_space = self.track_space
        other.stacks = [stack[:] for stack in self.stacks]
        other.market = self.market[:]
        other.players = [p.copy() for p in self.players]
        other.scorings_done = self.scorings_done
        other.discarded = self.discarded[:]
        other.last_die = self.last_die
        other.legal = self.legal
        other.t_tile = self.t_tile
        other.t_placed = self.t_placed
        other.t_cell = self.t_cell
        other.pay_purpose = self.pay_purpose
        other.pay_cubes = self.pay_cubes[:]
        other.pay_different = self.pay_different
        other.pay_used = self.pay_used[:]
        other.pay_any = self.pay_any
        other.pay_clan = self.pay_clan
        other.act_cell = self.act_cell
        other.act_count = self.act_count
        other.choose_left = self.choose_left
        other.choose_purpose = self.choose_purpose
        other.activate_all = self.activate_all
        other.ness_ready = self.ness_ready
        other.ness_used = self.ness_used
        other.activated = self.activated
        other.moves = self.moves
        return other

    @property
    def terminal(self) -> bool:
        """Whether the game is over."""
        return self.step == GAME_OVER

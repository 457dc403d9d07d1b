"""The rondel as a chain (§3): moving figures, discarding passed tiles, refilling, the die (§10)."""

from __future__ import annotations

from services.glenmore import events as ev
from services.glenmore.data import DIE_FACES, TRACK_LENGTH, TRACK_SPACES
from services.glenmore.state import State


def _drop_front(state: State) -> None:
    del state.track[0]
    state.track_space = (state.track_space + 1) % TRACK_SPACES


def discard_passed(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Remove the tiles lying behind the rearmost figure: every figure has passed them."""
    chain = state.track
    while chain and chain[0] >= 0:
        tile = chain[0]
        _drop_front(state)
        state.discarded_tiles.append(tile)
        events.append(ev.TileDiscarded(tile, ev.DISCARD_PASSED))


def advance(state: State, position: int, events: list) -> int:  # type: ignore[type-arg]
    """Move the rearmost figure onto the tile at chain `position`; returns that tile."""
    chain = state.track
    tile = chain[position]
    chain[position] = chain[0]
    _drop_front(state)
    discard_passed(state, events)
    return tile


def first_tile(state: State) -> int:
    """The chain position of the first tile ahead of the rearmost figure."""
    for position, entry in enumerate(state.track):
        if entry >= 0:
            return position
    raise AssertionError("no tile on the track")


def refill(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Draw from the lowest non-empty stack until the chain is full or the stacks are empty (OP-3)."""
    chain = state.track
    drawn = []
    stack_number = 0
    while len(chain) < TRACK_LENGTH:
        while stack_number < len(state.stacks) and not state.stacks[stack_number]:
            stack_number += 1
        if stack_number == len(state.stacks):
            break
        tile = state.stacks[stack_number].pop()
        chain.append(tile)
        drawn.append(tile)
    if drawn:
        events.append(ev.TilesDrawn(tuple(drawn)))


def die_turn(state: State, events: list) -> None:  # type: ignore[type-arg]
    """Roll the die; its figure moves to the N-th tile ahead (the last if fewer), which leaves the game."""
    roll = DIE_FACES[state.rng.below(len(DIE_FACES))]
    state.last_die_roll = roll
    events.append(ev.DieRolled(roll))
    ahead = [position for position, entry in enumerate(state.track) if entry >= 0]
    position = ahead[min(roll, len(ahead)) - 1]
    tile = state.track[position]
    state.track[position] = state.track[0]
    _drop_front(state)
    state.discarded_tiles.append(tile)
    events.append(ev.TileDiscarded(tile, ev.DISCARD_DIE))
    discard_passed(state, events)

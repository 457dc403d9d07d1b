"""Every title's undo barriers against its replays, and the check seen to fail on a wrong declaration."""

from __future__ import annotations

from typing import Any

import pytest

from services.common.barriers import Barrier
from services.common.game import Game
from services.common.rng import Rng
from tests.conformance.barriers import check_barriers, declared_by_engine
from tests.conformance.drivers import Case, Pool

SEEDS = (b"barriers-1", b"barriers-2")


def test_barriers_declared_by_the_engine_hold(pool: Pool, case: Case, game: Game) -> None:
    """No decision a title lets its seat undo draws, hands over or shows the seat anything hidden."""
    for seed in SEEDS:
        check_barriers(game, pool.trace("inprocess", case, seed), Rng(7))


def never(game: Game, state: Any, seat: int, action: Any) -> frozenset[Barrier]:
    """A declaration that lets every decision be undone."""
    return frozenset()


def hand_over_only(game: Game, state: Any, seat: int, action: Any) -> frozenset[Barrier]:
    """The engine's declaration without its chance draws and reveals."""
    return declared_by_engine(game, state, seat, action) & {Barrier.HAND_OVER}


def test_the_check_fails_when_nothing_is_a_barrier(pool: Pool, case: Case, game: Game) -> None:
    """A turn that passes to another seat is caught in every title."""
    with pytest.raises(AssertionError, match="acting seats changed"):
        check_barriers(game, pool.trace("inprocess", case, SEEDS[0]), Rng(7), never)


def test_the_check_catches_draws_and_reveals_left_out(pool: Pool, game_name: str, game: Game) -> None:
    """Some game of each title draws from the generator or reveals within a turn, and is caught."""
    counts = sorted(game.info.player_counts)
    caught = []
    for players in counts:
        for seed in SEEDS:
            try:
                check_barriers(
                    game, pool.trace("inprocess", Case(game_name, players), seed), Rng(7), hand_over_only
                )
            except AssertionError as failure:
                caught.append(str(failure))
    assert caught, (
        f"{game_name}: no decision within a turn draws or reveals in {len(counts) * len(SEEDS)} games"
    )


def test_some_decisions_are_undoable(pool: Pool, game_name: str, game: Game) -> None:
    """Each title has decisions within a turn its seat may take back (else undo would never apply)."""
    players = game.info.min_players
    undoable = sum(
        check_barriers(game, pool.trace("inprocess", Case(game_name, players), seed), Rng(7))
        for seed in SEEDS
    )
    assert undoable > 0

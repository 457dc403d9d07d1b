"""Every title's undo barriers against its replays, and the check seen to fail on a wrong declaration."""

from __future__ import annotations

from typing import Any

import pytest
from boardgame.rules.v1 import rules_pb2

from services.common.barriers import Barrier, decision_barriers
from services.common.game import Game
from services.common.rng import Rng
from tests.conformance.barriers import Declared, check_barriers, declared_by_engine
from tests.conformance.drivers import SEEDS, Case, Pool

SEEDS_OVER_GRPC = SEEDS["grpc"]  # the playouts the rest of the suite traces over gRPC
SERVED = {
    rules_pb2.UNDO_BARRIER_HAND_OVER: Barrier.HAND_OVER,
    rules_pb2.UNDO_BARRIER_CHANCE: Barrier.CHANCE,
    rules_pb2.UNDO_BARRIER_REVEAL: Barrier.REVEAL,
}


BARRIER_SEEDS = (b"barriers-1", b"barriers-2")


def test_barriers_declared_by_the_engine_hold(pool: Pool, case: Case, game: Game) -> None:
    """No decision a title lets its seat undo draws, hands over or shows the seat anything hidden."""
    for seed in BARRIER_SEEDS:
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
        check_barriers(game, pool.trace("inprocess", case, BARRIER_SEEDS[0]), Rng(7), never)


def test_the_check_catches_draws_and_reveals_left_out(pool: Pool, game_name: str, game: Game) -> None:
    """Some game of each title draws from the generator or reveals within a turn, and is caught."""
    counts = sorted(game.info.player_counts)
    caught = []
    for players in counts:
        for seed in BARRIER_SEEDS:
            try:
                check_barriers(
                    game, pool.trace("inprocess", Case(game_name, players), seed), Rng(7), hand_over_only
                )
            except AssertionError as failure:
                caught.append(str(failure))
    assert caught, (
        f"{game_name}: no decision within a turn draws or reveals in {len(counts) * len(BARRIER_SEEDS)} games"
    )


def test_some_decisions_are_undoable(pool: Pool, game_name: str, game: Game) -> None:
    """Each title has decisions within a turn its seat may take back (else undo would never apply)."""
    players = game.info.min_players
    undoable = sum(
        check_barriers(game, pool.trace("inprocess", Case(game_name, players), seed), Rng(7))
        for seed in BARRIER_SEEDS
    )
    assert undoable > 0


def served_from(reasons: dict[int, frozenset[Barrier]]) -> Declared:
    """The declaration a rules service served, by the state each decision was taken in."""
    return lambda _game, state, _seat, _action: reasons[id(state)]


def test_a_rules_service_serves_every_barrier_the_check_finds(pool: Pool, case: Case, game: Game) -> None:
    """Over gRPC, ApplyAction reports each decision the independent check (`decision_barriers`,
    probes included) calls a barrier as one, and the decisions it serves as undoable pass the suite's
    own check (tests/conformance/barriers.py); each reply says one thing: reasons, or undoable."""
    for seed in SEEDS_OVER_GRPC:
        served, native = pool.trace("grpc", case, seed), pool.trace("inprocess", case, seed)
        assert [s.choice for s in served.steps] == [s.choice for s in native.steps]
        reasons = {}
        for remote, step in zip(served.steps, native.steps, strict=True):
            barriers, undoable = remote.outcome.undo_barriers, remote.outcome.undoable
            assert barriers is not None and undoable is not None
            where = f"{case}, seed {seed!r}, decision {step.index} by seat {step.seat}"
            assert undoable == (not barriers), f"{where}: undoable {undoable} with reasons {barriers}"
            assert rules_pb2.UNDO_BARRIER_UNSPECIFIED not in barriers, where
            action = step.legal[step.choice].action
            after, events = game.apply(step.state, step.seat, action)
            required = decision_barriers(game, step.state, after, step.seat, events, action)
            assert barriers or not required, (
                f"{where}: served as undoable, but {sorted(b.value for b in required)}"
            )
            reasons[id(step.state)] = frozenset(SERVED[value] for value in barriers)
        check_barriers(game, native, Rng(7), served_from(reasons))


def test_the_served_barriers_leave_each_title_decisions_to_undo(
    pool: Pool, game_name: str, game: Game
) -> None:
    """Serving barriers cheaply takes little undo away: most decisions the check lets a seat undo are
    served as undoable (a forced decision of another seat on the way is served as a hand-over)."""
    allowed = served = 0
    for seed in SEEDS_OVER_GRPC:
        case = Case(game_name, game.info.min_players)
        for remote, step in zip(
            pool.trace("grpc", case, seed).steps, pool.trace("inprocess", case, seed).steps, strict=True
        ):
            action = step.legal[step.choice].action
            after, events = game.apply(step.state, step.seat, action)
            if not decision_barriers(game, step.state, after, step.seat, events, action):
                allowed += 1
                served += bool(remote.outcome.undoable)
    assert allowed > 0 and served >= 0.95 * allowed, (
        f"{served} of {allowed} undoable decisions served as such"
    )

"""What reporting undo barriers costs a rules call: `python -m bench.undo [--json FILE] [--baseline FILE]`.

For each title it plays one seeded random game at the reference player count and times, at every
decision, a whole ApplyAction with every view (`include_views`, as the live path asks for it) through
the real `RulesServicer`, from request bytes to reply bytes, each request carrying the State bytes the
call before returned (as the gateway sends them, so the state cache is used as it is live); and, in
turn with it on the same request, the same call by a servicer whose barriers are switched off (every
decision served undoable, no trace of the rules' forced decisions), so that both meet the same load.
It also times, on the same decisions, the served barriers alone (`services.common.undo.Classifier`)
and the independent check (`services.common.barriers.decision_barriers`, the conformance suite's).

It only uses the registry and the servicer, so it also runs copied into an older checkout (without
barriers: no figures but the call's): `--json FILE` there writes the figures that `--baseline FILE`
here puts beside its own.
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import grpc
from boardgame.rules.v1 import rules_pb2

from bench import reference_players, table
from services.common import registry
from services.common.game import AnyGame
from services.common.playout import choose_random, default_config
from services.common.rng import Rng
from services.common.servicer import RulesServicer, pack

T = TypeVar("T")
ROUNDS = 3  # times the game is timed; the figures are over every decision of every round
SEED = b"bench-undo"


@dataclass(frozen=True)
class Cost:
    """Microseconds per decision of one title's game (mean and median): the whole call, the same call
    with the barriers switched off, the served barriers alone and the independent check (None where
    the checkout lacks barriers)."""

    game: str
    players: int
    decisions: int
    call_mean_us: float
    call_p50_us: float
    bare_mean_us: float | None
    bare_p50_us: float | None
    served_mean_us: float | None
    served_p50_us: float | None
    check_mean_us: float | None
    check_p50_us: float | None


def _optional(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _timed(call: Callable[..., T], *args: Any) -> tuple[float, T]:
    """Microseconds `call(*args)` took, and its result."""
    start = time.perf_counter_ns()
    result = call(*args)
    return (time.perf_counter_ns() - start) / 1000, result


def _call(servicer: RulesServicer, request: bytes) -> rules_pb2.ApplyActionResponse:
    """A whole ApplyAction as a gRPC server runs it: parse the request, call, serialize the reply."""
    context = cast(grpc.ServicerContext, None)  # only a failing call needs one
    reply = servicer.ApplyAction(rules_pb2.ApplyActionRequest.FromString(request), context)
    return rules_pb2.ApplyActionResponse.FromString(reply.SerializeToString())


class _Undoable:
    """A classifier that serves every decision as undoable, at no cost."""

    def barriers(self, *_: Any) -> tuple[int, ...]:
        return ()


def bare(game: AnyGame) -> RulesServicer | None:
    """A servicer of `game` with its undo barriers switched off (None in a checkout without them)."""
    servicer = RulesServicer(game)
    if not hasattr(servicer, "_undo"):
        return None
    servicer._undo = _Undoable()  # type: ignore[assignment]
    servicer._traced = None
    return servicer


def measure(game: AnyGame, players: int) -> Cost:
    """Time every decision of the title's seeded random game, ROUNDS times."""
    undo, barriers = _optional("services.common.undo"), _optional("services.common.barriers")
    servicer, without = RulesServicer(game), bare(game)
    classifier = undo.Classifier(game) if undo is not None else None
    calls: list[float] = []
    bare_calls: list[float] = []
    served: list[float] = []
    checked: list[float] = []
    decisions = 0
    for _ in range(ROUNDS + 1):  # the first round warms up
        state, _ = game.new_game(players, default_config(game), SEED)
        state_any = pack(game.state_to_proto(state))
        rng = Rng.from_seed(SEED + game.info.name.encode())
        times: tuple[list[float], list[float], list[float], list[float]] = ([], [], [], [])
        while not game.is_terminal(state):
            seat, action = choose_random(game, state, rng)
            request = rules_pb2.ApplyActionRequest(
                state=state_any, seat=seat, action=pack(game.action_to_proto(action)), include_views=True
            ).SerializeToString()
            first = len(times[0]) % 2 == 1  # the two calls go first in turn
            if without is not None and first:
                times[3].append(_timed(_call, without, request)[0])
            took, reply = _timed(_call, servicer, request)
            times[0].append(took)
            if without is not None and not first:
                times[3].append(_timed(_call, without, request)[0])
            traced = getattr(game, "apply_traced", None)  # None in a checkout older than it
            if traced is not None:
                after, events, others = traced(state, seat, action)
            else:
                (after, events), others = game.apply(state, seat, action), frozenset()
            if classifier is not None:
                inputs = (
                    seat,
                    game.acting_seats(state),
                    game.acting_seats(after),
                    bool(others),
                    [game.encode_event(event)[2] for event in events],
                    game.seat_count(state),
                )
                times[1].append(_timed(classifier.barriers, state_any.value, reply.state.value, *inputs)[0])
            if barriers is not None:
                check = barriers.decision_barriers
                times[2].append(_timed(check, game, state, after, seat, events, action)[0])
            state, state_any = after, reply.state
        if decisions:
            calls += times[0]
            served += times[1]
            checked += times[2]
            bare_calls += times[3]
        decisions = len(times[0])
    return Cost(
        game.info.name,
        players,
        decisions,
        statistics.fmean(calls),
        statistics.median(calls),
        statistics.fmean(bare_calls) if bare_calls else None,
        statistics.median(bare_calls) if bare_calls else None,
        statistics.fmean(served) if served else None,
        statistics.median(served) if served else None,
        statistics.fmean(checked) if checked else None,
        statistics.median(checked) if checked else None,
    )


def _figure(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def cost_table(costs: list[Cost], baseline: dict[str, dict[str, Any]] | None = None) -> str:
    """The figures per title, with a baseline's whole call beside them when given."""
    rows = []
    for cost in costs:
        before = (baseline or {}).get(cost.game)
        rows.append(
            [
                cost.game,
                cost.players,
                cost.decisions,
                *(() if baseline is None else (_figure(before["call_mean_us"] if before else None),)),
                _figure(cost.bare_mean_us),
                _figure(cost.call_mean_us),
                *(() if baseline is None else (_figure(before["call_p50_us"] if before else None),)),
                _figure(cost.bare_p50_us),
                _figure(cost.call_p50_us),
                _figure(cost.served_mean_us),
                _figure(cost.served_p50_us),
                _figure(cost.check_mean_us),
                _figure(cost.check_p50_us),
            ]
        )
    headers = [
        "game",
        "players",
        "decisions",
        *(() if baseline is None else ("baseline mean",)),
        "off mean",
        "call mean",
        *(() if baseline is None else ("baseline p50",)),
        "off p50",
        "call p50",
        "served mean",
        "served p50",
        "check mean",
        "check p50",
    ]
    return table(
        "undo barriers: us per decision of one seeded random game (ApplyAction with every view, barriers"
        " switched off and on; the served barriers alone; the independent check)",
        headers,
        rows,
    )


def main(argv: list[str] | None = None) -> int:
    """Measure every title (or --game), print the table; write or compare with a JSON file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="a title to measure (default: every title)")
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument("--baseline", type=Path, help="a --json file of another checkout to compare with")
    args = parser.parse_args(argv)
    games = [registry.get(name) for name in args.game] if args.game else list(registry.games().values())
    costs = [measure(game, reference_players(game)) for game in games]
    baseline = json.loads(args.baseline.read_text()) if args.baseline else None
    print(cost_table(costs, baseline))
    if args.json:
        args.json.write_text(json.dumps({cost.game: asdict(cost) for cost in costs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

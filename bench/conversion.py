"""Where a rules call's time goes, in-process: the engine's `apply` next to the conversions around it.

On mid-game states of seeded random playouts, it times one at a time: the engine's `apply` (on a
state just decoded, as a rules call without the cache meets it), the encoding of the new state
(`encode_state`), the decoding of the request's state (`decode_state`, or parsing and
`state_from_proto` in a checkout older than it), every
seat's and the spectator's View (`encode_views`; in a checkout older than them, the messages
serialized), and
a whole ApplyAction with `include_views` through the real `RulesServicer`, from request bytes to
response bytes as a gRPC server would, with the state cache on and off. With the cache on, each
timed request carries the State bytes that the call before it returned, as the gateway sends them.

It only uses the game's record and the servicer, so it also runs copied to an older checkout (with
`bench.reference_players`): `python -m bench.conversion --json FILE` there writes the figures that
`python -m bench --conversion-baseline FILE` (or `python -m bench.conversion --baseline FILE`)
compares with.
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
from typing import Any, cast

import grpc
from boardgame.rules.v1 import rules_pb2

from bench import pin_to_cpu, reference_players, table, usable_cpus, verdict
from services.common import registry
from services.common.game import Game
from services.common.playout import choose_random, default_config
from services.common.rng import Rng
from services.common.servicer import RulesServicer, pack

STRIDE = 5  # take every fifth decision of a game's middle third
ROUNDS = 3  # times each sample is timed, per figure
# A whole call with the cache off should cost at most this share of the baseline's.
CALL_TARGET_SHARE = 0.5
# The figures, as (key, column heading) in table order.
FIGURES = (
    ("apply_us", "apply us"),
    ("encode_us", "encode us"),
    ("decode_us", "decode us"),
    ("views_us", "views us"),
    ("call_cached_us", "call, cache on us"),
    ("call_uncached_us", "call, cache off us"),
)
TARGET_FIGURE = "call_uncached_us"


@dataclass(frozen=True)
class Conversion:
    """Median microseconds of each part of a rules call for one game, and its codec's size."""

    game: str
    players: int
    samples: int
    apply_us: float
    encode_us: float
    decode_us: float
    views_us: float
    call_cached_us: float
    call_uncached_us: float
    cache_used: bool
    codec_lines: int | None

    @property
    def apply_share(self) -> float:
        """The engine's share of a whole call with the cache off."""
        return self.apply_us / self.call_uncached_us


@dataclass(frozen=True)
class Sample:
    """A mid-game decision: the request that led to the state, and the one that acts on it."""

    previous: bytes  # the ApplyActionRequest whose reply is the sampled state
    seat: int
    action: Any


def codec_lines(game_name: str) -> int | None:
    """The line count of the game's `codec.py`, next to its package module in the registry (None
    if it has none)."""
    for module_name in registry.GAME_MODULES:
        module = importlib.import_module(module_name)
        if module.GAME.info.name == game_name and module.__file__:
            codec = Path(module.__file__).parent / "codec.py"
            return len(codec.read_text().splitlines()) if codec.exists() else None
    return None


def _request(state: Any, seat: int, action: Any, game: Game, include_views: bool) -> bytes:
    return rules_pb2.ApplyActionRequest(
        state=pack(game.state_to_proto(state)),
        seat=seat,
        action=pack(game.action_to_proto(action)),
        include_views=include_views,
    ).SerializeToString()


def mid_game_samples(game: Game, players: int, count: int) -> list[Sample]:
    """`count` decisions from the middle third of seeded random games, every STRIDE-th one."""
    config = default_config(game)
    rng = Rng.from_seed(f"bench-conversion-{game.info.name}-{players}".encode())
    samples: list[Sample] = []
    number = 0
    while len(samples) < count:
        state, _ = game.new_game(players, config, f"bench-conversion-{number}".encode())
        number += 1
        steps: list[tuple[Any, int, Any]] = []
        while not game.is_terminal(state):
            seat, action = choose_random(game, state, rng)
            steps.append((game.copy_state(state), seat, action))
            game.play(state, seat, action)
        third = len(steps) // 3
        for index in range(max(third, 1), len(steps) - third, STRIDE):
            before, previous_seat, previous_action = steps[index - 1]
            _, seat, action = steps[index]
            previous = _request(before, previous_seat, previous_action, game, include_views=True)
            samples.append(Sample(previous, seat, action))
    return samples[:count]


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter_ns()
    call()
    return (time.perf_counter_ns() - start) / 1000


def _call(servicer: RulesServicer, request: bytes) -> bytes:
    """A whole ApplyAction as a gRPC server runs it: parse the request, call, serialize the reply."""
    # A servicer's methods need a context only to end a call that fails, and none of these does.
    context = cast(grpc.ServicerContext, None)
    parsed = rules_pb2.ApplyActionRequest.FromString(request)
    return cast(bytes, servicer.ApplyAction(parsed, context).SerializeToString())


def _time_sample(
    game: Game, cached: RulesServicer, uncached: RulesServicer, sample: Sample
) -> dict[str, float]:
    """Each figure, in microseconds, of one sampled decision."""
    # As the gateway does: the state the previous call returned, sent back as it came.
    reply = rules_pb2.ApplyActionResponse.FromString(_call(cached, sample.previous))
    request = rules_pb2.ApplyActionRequest(
        state=reply.state,
        seat=sample.seat,
        action=pack(game.action_to_proto(sample.action)),
        include_views=True,
    ).SerializeToString()
    state_class = game.messages.state
    state_bytes = reply.state.value
    new_state, _ = game.apply(
        game.state_from_proto(state_class.FromString(state_bytes)), sample.seat, sample.action
    )
    fresh = game.state_from_proto(state_class.FromString(state_bytes))
    encode, views = _writers(game)
    new_bytes = encode(new_state)
    # The spec's `decode_state`, or, in a checkout older than it, the message parsed and read.
    decode = getattr(game, "decode_state", None) or (
        lambda data: game.state_from_proto(state_class.FromString(data))
    )
    return {
        "call_cached_us": _timed(lambda: _call(cached, request)),
        "call_uncached_us": _timed(lambda: _call(uncached, request)),
        "apply_us": _timed(lambda: game.apply(fresh, sample.seat, sample.action)),
        "encode_us": _timed(lambda: encode(new_state)),
        "decode_us": _timed(lambda: decode(state_bytes)),
        "views_us": _timed(lambda: views(new_state, new_bytes)),
    }


def _writers(game: Game) -> tuple[Callable[[Any], bytes], Callable[[Any, bytes], Any]]:
    """The state's and the views' bytes as the servicer writes them: the spec's `encode_state` and
    `encode_views`, or, in a checkout older than them, its messages serialized."""
    encode = getattr(game, "encode_state", None)
    views = getattr(game, "encode_views", None)
    if encode is not None and views is not None:
        return encode, views

    def serialized_views(state: Any, _: bytes) -> list[bytes]:
        message = game.state_to_proto(state)
        return [view.SerializeToString(deterministic=True) for view in game.views_to_proto(state, message)]

    return (lambda state: game.state_to_proto(state).SerializeToString(deterministic=True)), serialized_views


def measure_conversion(game: Game, players: int, samples: int) -> Conversion:
    """Time each part of a rules call, and whole calls with the cache on and off, on mid-game states."""
    cached = RulesServicer(game)
    uncached = RulesServicer(game, state_cache=0)
    chosen = mid_game_samples(game, players, samples)
    for sample in chosen:  # warm up
        _time_sample(game, cached, uncached, sample)
    times: dict[str, list[float]] = {key: [] for key, _ in FIGURES}
    for _ in range(ROUNDS):
        for sample in chosen:
            for key, value in _time_sample(game, cached, uncached, sample).items():
                times[key].append(value)
    medians = {key: statistics.median(values) for key, values in times.items()}
    return Conversion(
        game=game.info.name,
        players=players,
        samples=len(chosen),
        cache_used=bool(getattr(game, "exact_state_round_trip", False)),
        codec_lines=codec_lines(game.info.name),
        **medians,
    )


def conversion_table(results: list[Conversion]) -> str:
    """Table (c2): the median of each part of a rules call per game, its apply share, its codec size."""
    rows = [
        [
            result.game,
            result.players,
            result.samples,
            *(f"{getattr(result, key):,.0f}" for key, _ in FIGURES),
            f"{result.apply_share:.0%}",
            "yes" if result.cache_used else "no",
            result.codec_lines if result.codec_lines is not None else "-",
        ]
        for result in results
    ]
    headers = [
        "game",
        "players",
        "samples",
        *(heading for _, heading in FIGURES),
        "apply share",
        "cache used",
        "codec lines",
    ]
    return table(
        "(c2) where a rules call's time goes, in-process (median us; a call has every view)", headers, rows
    )


def baseline_table(results: list[Conversion], baseline: dict[str, dict[str, Any]], source: str) -> str:
    """Each figure next to the same figure of a baseline run (`write_json`'s file), as now / baseline."""
    rows = []
    for result in results:
        before = baseline.get(result.game)
        if before is None:
            continue
        for key, heading in FIGURES:
            now, then = getattr(result, key), before[key]
            target = CALL_TARGET_SHARE if key == TARGET_FIGURE else None
            ratio = now / then
            rows.append(
                [
                    result.game,
                    heading.removesuffix(" us"),
                    f"{now:,.0f}",
                    f"{then:,.0f}",
                    f"{ratio:.2f}",
                    f"<= {target:g}" if target is not None else "-",
                    verdict(ratio <= target if target is not None else None),
                ]
            )
        if result.codec_lines is not None and before.get("codec_lines"):
            ratio = result.codec_lines / before["codec_lines"]
            rows.append(
                [
                    result.game,
                    "codec lines",
                    result.codec_lines,
                    before["codec_lines"],
                    f"{ratio:.2f}",
                    "-",
                    "-",
                ]
            )
    headers = ["game", "figure", "now", "baseline", "now/baseline", "target", "meets"]
    return table(f"(c2') table (c2) against the baseline {source}", headers, rows)


def write_json(results: list[Conversion], path: str) -> None:
    """Write the figures by game, for another run's `--conversion-baseline`."""
    Path(path).write_text(json.dumps({r.game: asdict(r) for r in results}, indent=2) + "\n")


def read_json(path: str) -> dict[str, dict[str, Any]]:
    """The figures `write_json` wrote, by game."""
    return cast(dict[str, dict[str, Any]], json.loads(Path(path).read_text()))


def report(games: list[Game], samples: int, json_out: str | None, baseline: str | None) -> str:
    """Measure every game, write the JSON if asked, and the table (with the baseline's if given)."""
    results = [measure_conversion(game, reference_players(game), samples) for game in games]
    if json_out:
        write_json(results, json_out)
    text = conversion_table(results)
    if baseline:
        text += "\n\n" + baseline_table(results, read_json(baseline), baseline)
    return text


def main(argv: list[str] | None = None) -> int:
    """Only table (c2): `python -m bench.conversion [--samples N] [--json FILE] [--baseline FILE]`."""
    parser = argparse.ArgumentParser(prog="python -m bench.conversion", description=__doc__)
    parser.add_argument("--samples", type=int, default=200, help="mid-game states per game (200)")
    parser.add_argument("--game", action="append", help="only this registered game (repeatable)")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--baseline", help="compare with the figures of this file")
    args = parser.parse_args(argv)
    cpus = usable_cpus()
    pin_to_cpu(cpus[0] if cpus else None)
    games = [registry.get(name) for name in args.game or list(registry.games())]
    print(report(games, args.samples, args.json, args.baseline))
    return 0


if __name__ == "__main__":
    sys.exit(main())

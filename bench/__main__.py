"""Run the benchmarks and print plain-text tables: `python -m bench [--seconds S] [--game NAME] ...`."""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

from bench import (
    EXAMPLE_CONFIG_MIN_SHARE,
    REFERENCE_PLAYERS,
    conversion,
    pin_to_cpu,
    reference_players,
    table,
    usable_cpus,
    verdict,
)
from bench.latency import measure_latency, median, percentile
from bench.playouts import PlayoutRate, measure_playouts
from bench.sizes import measure_sizes
from bench.sizes import median as median_bytes
from bench.workers import strength_table, worker_tables
from services.common import registry
from services.common.game import Game


def playout_table(games: list[Game], seconds: float) -> str:
    """Table (a): random playouts in-process, per game and player count."""
    rows = []
    for game in games:
        reference_rate = None
        for players in game.info.player_counts:
            rate = measure_playouts(game, players, seconds)
            if players == reference_players(game):
                reference_rate = rate.games_per_second
            target = game.targets.games_per_second_4p if players == REFERENCE_PLAYERS else None
            rows.append(_playout_row(game.info.name, players, rate, target))
        for config_name, message in game.example_configs:
            players = reference_players(game)
            rate = measure_playouts(game, players, seconds, message)
            share = EXAMPLE_CONFIG_MIN_SHARE * reference_rate if reference_rate else None
            rows.append(_playout_row(f"{game.info.name} [{config_name}]", players, rate, share))
    headers = ["game", "players", "games", "steps/game", "games/s", "steps/s", "target", "meets"]
    return table("(a) random playouts in-process, one core", headers, rows)


def _playout_row(name: str, players: int, rate: PlayoutRate, target: float | None) -> list[object]:
    return [
        name,
        players,
        rate.games,
        f"{rate.steps / rate.games:.0f}",
        f"{rate.games_per_second:,.1f}",
        f"{rate.steps_per_second:,.0f}",
        f">= {target:,.1f}" if target else "-",
        verdict(rate.games_per_second >= target if target else None),
    ]


def latency_table(games: list[Game], calls: int, server_cpu: int | None) -> str:
    """Table (b): ApplyAction over gRPC on loopback next to an echo of the same bytes."""
    rows = []
    for game in games:
        players = reference_players(game)
        result = measure_latency(game, players, calls, server_cpu)
        target = game.targets.apply_over_echo_p50
        apply_p50, echo_p50 = median(result.apply_us), median(result.echo_us)
        ratio = apply_p50 / echo_p50
        rows.append(
            [
                game.info.name,
                players,
                len(result.apply_us),
                median_bytes(result.payload_bytes),
                f"{apply_p50:.0f}",
                f"{percentile(result.apply_us, 0.99):.0f}",
                f"{echo_p50:.0f}",
                f"{percentile(result.echo_us, 0.99):.0f}",
                f"{ratio:.2f}",
                f"{percentile(result.apply_us, 0.99) / percentile(result.echo_us, 0.99):.2f}",
                f"<= {target:g}" if target is not None else "-",
                verdict(ratio <= target if target is not None else None),
            ]
        )
    headers = [
        "game",
        "players",
        "calls",
        "payload B",
        "apply p50 us",
        "apply p99 us",
        "echo p50 us",
        "echo p99 us",
        "p50 ratio",
        "p99 ratio",
        "target",
        "meets",
    ]
    return table("(b) ApplyAction over gRPC on loopback vs echo of the same payload", headers, rows)


def size_table(games: list[Game], playouts: int) -> str:
    """Table (c): serialized state and view sizes mid-game."""
    rows = []
    for game in games:
        players = reference_players(game)
        sizes = measure_sizes(game, players, playouts)
        target = game.targets.state_bytes_4p if players == REFERENCE_PLAYERS else None
        for what, values, limit in (
            ("state, mid-game", sizes.mid_state, target),
            ("state, whole game", sizes.all_states, None),
            ("spectator view, mid-game", sizes.mid_view, None),
        ):
            rows.append(
                [
                    game.info.name,
                    players,
                    what,
                    len(values),
                    median_bytes(values),
                    max(values),
                    f"<= {limit}" if limit is not None else "-",
                    verdict(max(values) <= limit if limit is not None else None),
                ]
            )
    headers = ["game", "players", "message", "samples", "median B", "max B", "target (max)", "meets"]
    return table(f"(c) serialized sizes over {playouts} random games", headers, rows)


def main(argv: list[str] | None = None) -> int:
    """Run every benchmark on the chosen games and print the tables."""
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--seconds", type=float, default=4.0, help="time per playout row (default 4)")
    parser.add_argument("--calls", type=int, default=2000, help="ApplyAction calls to time (default 2000)")
    parser.add_argument("--playouts", type=int, default=20, help="games for the size table (default 20)")
    parser.add_argument("--game", action="append", help="only this registered game (repeatable)")
    parser.add_argument("--conversion-samples", type=int, default=200, help="states per game (200)")
    parser.add_argument("--conversion-json", help="write the conversion figures to this file")
    parser.add_argument("--conversion-baseline", help="compare the conversion figures with this file")
    parser.add_argument("--skip-conversion", action="store_true", help="skip the conversion table")
    parser.add_argument("--skip-grpc", action="store_true", help="skip the gRPC latency table")
    parser.add_argument(
        "--skip-search-speed", action="store_true", help="skip the search bot's speed against its baseline"
    )
    parser.add_argument("--search-iterations", type=int, help="iterations a search in table s (300)")
    parser.add_argument("--skip-gateway", action="store_true", help="skip the gateway load table")
    parser.add_argument("--skip-pipeline", action="store_true", help="skip the live path vs its baseline")
    parser.add_argument("--durability-commits", type=int, default=2000, help="commits per fsync policy")
    parser.add_argument("--skip-durability", action="store_true", help="skip the fsync policy table")
    parser.add_argument("--browser-moves", type=int, default=300, help="moves per transport (300)")
    parser.add_argument("--skip-browser", action="store_true", help="skip the browser transport table")
    parser.add_argument("--bot-games", type=int, default=100, help="heuristic vs random games (100)")
    parser.add_argument("--search-games", type=int, default=40, help="search vs heuristic games (40)")
    parser.add_argument("--search-ms", type=float, default=200, help="search budget per move (200 ms)")
    parser.add_argument("--latency-games", type=int, default=3, help="all-bot games timed per title (3)")
    parser.add_argument("--selfplay-games", type=int, default=40, help="games on the workers (40)")
    parser.add_argument("--skip-workers", action="store_true", help="skip the bot and worker tables")
    parser.add_argument("--skip-memory", action="store_true", help="skip the Redis memory per game table")
    parser.add_argument("--skip-capacity", action="store_true", help="skip the capacity tables")
    parser.add_argument("--skip-players", action="store_true", help="skip the my-games and inbox table")
    parser.add_argument("--skip-matchmaking", action="store_true", help="skip the matchmaker table")
    parser.add_argument(
        "--strength-games", type=int, default=10, help="games per strength-table pairing (10)"
    )
    parser.add_argument(
        "--competition", help="checkout of a title's outside competition (bench/<title>/competition.py)"
    )
    parser.add_argument(
        "--skip-strength", action="store_true", help="skip the strength tables (bench.strength)"
    )
    parser.add_argument(
        "--levels-games", type=int, default=4, help="self-play games per title of the bot levels (4)"
    )
    parser.add_argument(
        "--skip-levels", action="store_true", help="skip the bot levels' ratings (bench.levels)"
    )
    parser.add_argument("--skip-undo", action="store_true", help="skip the undo barriers' cost (bench.undo)")
    parser.add_argument(
        "--skip-replay", action="store_true", help="skip the replay steps' cost (bench.replay)"
    )
    parser.add_argument(
        "--skip-boards", action="store_true", help="skip the web boards' draw times (bench.boards)"
    )
    args = parser.parse_args(argv)

    names = args.game or list(registry.games())
    games = [registry.get(name) for name in names]
    cpus = usable_cpus()
    client_cpu = cpus[0] if cpus else None
    server_cpu = cpus[1] if len(cpus) > 1 else client_cpu
    pin_to_cpu(client_cpu)
    pinning = (
        f"benchmark on CPU {client_cpu}, gRPC server process on CPU {server_cpu}"
        if cpus
        else "CPU affinity unsupported: not pinned"
    )
    machine = (
        f"python {platform.python_version()} on {platform.machine()}, {len(cpus) or os.cpu_count()} CPUs"
    )
    print(f"{machine}; {pinning}")
    started = time.perf_counter()
    print()
    print(playout_table(games, args.seconds))
    if not args.skip_search_speed:
        from bench import search as search_speed

        iterations = args.search_iterations or search_speed.ITERATIONS
        print()
        print(search_speed.measure(names, iterations=iterations))
    if not args.skip_grpc:
        print()
        print(latency_table(games, args.calls, server_cpu))
    print()
    print(size_table(games, args.playouts))
    print()
    if not args.skip_conversion:
        print(
            conversion.report(games, args.conversion_samples, args.conversion_json, args.conversion_baseline)
        )
        print()
    if not args.skip_gateway:
        from bench.gateway import measure as measure_gateway

        print(measure_gateway())
        print()
    if not args.skip_pipeline:
        from bench.pipeline import measure as measure_pipeline

        print(measure_pipeline())
        print()
    if not args.skip_durability:
        from bench.durability import measure as measure_durability

        print(measure_durability(args.durability_commits))
        print()
    if not args.skip_browser:
        from bench.browser import measure as measure_browser

        print(measure_browser(args.browser_moves))
        print()
    if not args.skip_workers:
        print(strength_table(names, args.bot_games, args.search_games, args.search_ms / 1000))
        print()
        print(worker_tables(names, args.latency_games, args.selfplay_games))
        print()
    if not args.skip_strength:
        from bench.strength import main as strength_main

        options = ["--competition", args.competition] if args.competition else []
        options += ["--games", str(args.strength_games), "--search-seconds", str(args.search_ms / 1000)]
        strength_main([*options, "--competition-search-seconds", "1", *(f"--title={n}" for n in names)])
        print()
    if not args.skip_undo:
        from bench import undo

        print(undo.cost_table([undo.measure(game, reference_players(game)) for game in games]))
        print()
    if not args.skip_replay:
        from bench import replay

        print(replay.measure(registry.get(replay.TITLE).info.max_players, seed=1, jumps=200))
        print()
    if not args.skip_boards:
        from bench import boards

        print(boards.measure(names))
        print()
    if not args.skip_levels:
        from bench.levels import measure as measure_levels

        print(measure_levels(names, args.levels_games))
        print()
    if not args.skip_memory:
        from bench.memory import measure as measure_memory

        print(measure_memory(names))
        print()
    if not args.skip_capacity:
        from bench.capacity import measure as measure_capacity

        print(measure_capacity())
        print()
    if not args.skip_players:
        from bench.players import measure as measure_players

        print(measure_players())
        print()
    if not args.skip_matchmaking:
        from bench.matchmaking import measure as measure_matchmaking

        print(measure_matchmaking())
        print()
    print(f"total {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The web client's drawn boards in a browser: how soon a move's board is on screen, per title.

    python -m bench.boards [--title T ...] [--locale zh_Hant]

Processes, each a throwaway of its own with the settings a user gets: a redis-server, every
registered title's rules service, a gateway with its browser listener serving the built web client
(`make setup`), and a Celery worker (`python -m workers`, beat included) playing the bots; no
PostgreSQL, so finished games stay in Redis. For each title (every registered one, or --title), the
web client's own driver `clients/web/test/board-play.mjs` (E2E_PLAY=1) plays a whole two-seat game
in headless Chromium set to --locale against a random bot, clicking a marked place of the drawn board
at each decision (the labelled list only where the board marks none), one decision at a time. The
page times each decision; the columns, in milliseconds:

- arrival: from the arrival of the last chunk of the response that brought the move (the watch
  stream's or SubmitAction's, as the page's fetch reads it) to the frame after the next version's
  board is in the document: decoding it, the page's update and the board drawn, up to the frame.
  Neither the network nor the server is in it. The target (TARGET_DRAW_MS) holds its max.
- click: from the click to that same frame: the page's click handling, SubmitAction's round trip
  over Connect (gateway, rules service, Redis) and the drawing. The target holds its median.
- floor (its own row): SubmitAction's round trip alone over Connect from a Python client, no page
  (`bench.browser`'s timing, on 4-player games of the first registered title, paced under the rate
  limits), on the same gateway in the same run: the part of a click's figure no page work removes.

"on board %" is the share of decisions clicked on the drawn board; "timed", the decisions whose board
was timed from a response's arrival.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import uvloop

from bench import table, unpin, verdict
from bench.browser import _submit_times
from bench.gateway import _wait_serving, start_rules
from bench.latency import percentile
from deploy import throwaway
from deploy.local import WorkerPing
from deploy.web_driver import WEB_CLIENT, run_driver
from services.common import registry

TARGET_DRAW_MS = 1000.0  # a move's board on screen (the click's, median) under a second after it arrives
HEADERS = [
    "title",
    "decisions",
    "on board %",
    "timed",
    "arrival p50 ms",
    "arrival p95 ms",
    "arrival max ms",
    "click p50 ms",
    "click max ms",
    "target (arrival max, click p50)",
    "meets",
]
DRIVER = WEB_CLIENT / "test" / "board-play.mjs"
LOCALES = sorted(path.stem for path in (WEB_CLIENT / "locale").glob("*.po"))
DEFAULT_LOCALE = "zh_Hant"  # the language the browser test plays its whole games in
PLAY_TIMEOUT_SECONDS = 420.0  # a whole game, on a loaded two-core machine
WORKER_READY_SECONDS = 60.0
FLOOR_MOVES = 100  # SubmitAction round trips over Connect for the floor
P50: Callable[[list[float]], float] = statistics.median
P95: Callable[[list[float]], float] = partial(percentile, fraction=0.95)
MAX: Callable[[list[float]], float] = max


def play(web_url: str, title: str, locale: str) -> dict[str, Any]:
    """The driver's report of a whole game of `title` played on the board in a browser set to `locale`."""
    with tempfile.TemporaryDirectory(prefix=f"bench-boards-{title}-") as out:
        env = {
            "E2E_URL": web_url + "/",
            "E2E_TITLE": title,
            "E2E_OUT": out,
            "E2E_PLAY": "1",
            "E2E_PLAY_LOCALE": locale,
        }
        return run_driver(DRIVER, env, PLAY_TIMEOUT_SECONDS)


def wait_for_worker(redis_url: str) -> None:
    """Wait until the worker started by `deploy.throwaway.start_worker_process` answers a ping."""
    ping = WorkerPing({"REDIS_URL": redis_url}, f"celery@{socket.gethostname()}")
    deadline = time.monotonic() + WORKER_READY_SECONDS
    while not ping():
        if time.monotonic() > deadline:
            raise RuntimeError("the worker did not start")
        time.sleep(0.2)


def title_row(title: str, report: dict[str, Any]) -> list[object]:
    """A title's row from the driver's report (figures of whatever was timed, NO if the game failed)."""
    decisions = report["decisions"]
    times = report["drawMs"] or []
    arrivals = [time["arrival"] for time in times if time["arrival"] is not None]
    clicks = [time["click"] for time in times]
    failed = bool(report["errors"]) or report["finalStatus"] != "finished"
    meets = (
        None
        if not arrivals or not clicks
        else max(arrivals) < TARGET_DRAW_MS and statistics.median(clicks) < TARGET_DRAW_MS
    )
    return [
        title,
        decisions,
        f"{report['boardClicks'] / decisions * 100:.0f}" if decisions else "-",
        len(arrivals),
        *(_ms(arrivals, figure) for figure in (P50, P95, MAX)),
        *(_ms(clicks, figure) for figure in (P50, MAX)),
        f"< {TARGET_DRAW_MS:.0f}",
        "NO" if failed else verdict(meets),
    ]


def _ms(values: list[float], figure: Callable[[list[float]], float]) -> str:
    return f"{figure(values):.0f}" if values else "-"


def measure(titles: list[str] | None = None, locale: str = DEFAULT_LOCALE) -> str:
    """Start the processes, play each title's game in Chromium, and return the table."""
    unpin()
    titles = titles or list(registry.games())
    reports: dict[str, dict[str, Any]] = {}
    with throwaway.redis_server() as redis_url:
        rules_addresses = [f"127.0.0.1:{throwaway.free_port()}" for _ in registry.GAME_MODULES]
        rules = [
            start_rules(address, module)
            for address, module in zip(rules_addresses, registry.GAME_MODULES, strict=True)
        ]
        web_address = f"127.0.0.1:{throwaway.free_port()}"
        gateway_port = throwaway.free_port()
        gateway_address = f"127.0.0.1:{gateway_port}"
        gateway = throwaway.start_gateway_process(
            redis_url, ",".join(rules_addresses), gateway_port, env={"WEB_ADDRESS": web_address}
        )
        worker = throwaway.start_worker_process(redis_url, ",".join(rules_addresses))
        try:
            for address in rules_addresses:
                _wait_serving(address)
            throwaway.gateway_serving(gateway, gateway_address)
            wait_for_worker(redis_url)
            web_url = f"http://{web_address}"
            _, floor = uvloop.run(_submit_times(gateway_address, web_url, FLOOR_MOVES))
            for title in titles:
                reports[title] = play(web_url, title, locale)
        finally:
            throwaway.stop_worker_process(worker)
            throwaway.stop_worker_process(gateway)
            for process in rules:
                process.terminate()
                process.wait(30)
    for title, report in reports.items():
        for error in report["errors"]:
            print(f"{title}: {error}", file=sys.stderr)
    rows = [title_row(title, report) for title, report in reports.items()]
    floor_row = f"floor: SubmitAction alone, Connect ({len(floor)} calls)"
    rows.append([floor_row, "-", "-", "-", "-", "-", "-", _ms(floor, P50), _ms(floor, MAX), "-", "-"])
    return table(
        f"(g2) web client: a move's board on screen, a whole game per title in headless Chromium ({locale})",
        HEADERS,
        rows,
    )


def main(argv: list[str] | None = None) -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(prog="python -m bench.boards", description=__doc__)
    parser.add_argument("--title", action="append", choices=list(registry.games()), help="repeatable")
    parser.add_argument("--locale", default=DEFAULT_LOCALE, choices=LOCALES, help=f"({DEFAULT_LOCALE})")
    args = parser.parse_args(argv)
    print(measure(args.title, args.locale))


if __name__ == "__main__":
    main()

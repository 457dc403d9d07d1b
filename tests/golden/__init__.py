"""Golden playthroughs: one seeded random game per registered game and player count, as readable text.

Each file `tests/golden/<game>-<n>p.txt` starts with every view after setup: the spectator's
(`view`, what everyone sees) and, per seat, what that seat's view shows beyond it (`seat N view`). Then
every decision: step, seat and the chosen action's label; indented below it the labels of every legal
action of each seat to act, the texts of the events it caused (with the seats that alone see one),
and what changed in the spectator's view and in each seat's own part (views rendered by
`tests.golden.views`); last, the final scores. So a leak or a wrong label shows up as a diff.
`test_golden.py` replays them in memory and diffs; `python -m tests.golden --regenerate`
(`make golden`) rewrites them when a change of behaviour is intended. Nothing here names a specific
game.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

from services.common import registry
from services.common.game import Game
from services.common.playout import choose_random, default_config
from services.common.rng import Rng
from tests.golden.views import Lines, beyond, changes, flatten

GOLDEN_DIR = Path(__file__).resolve().parent
EVENT_INDENT = " " * 8


def _suffix(config: str) -> str:
    return f"-{config}" if config else ""


def golden_seed(game_name: str, player_count: int, config: str = "") -> bytes:
    """The game seed of a golden playthrough (`config`: the name of an example config, "" for defaults)."""
    return f"golden-{game_name}-{player_count}p{_suffix(config)}".encode()


def golden_path(game_name: str, player_count: int, config: str = "") -> Path:
    """Where the golden playthrough of `game_name` with `player_count` seats (and `config`) is stored."""
    return GOLDEN_DIR / f"{game_name}-{player_count}p{_suffix(config)}.txt"


def cases() -> list[tuple[str, int, str]]:
    """Every (game name, player count, config name) with a golden playthrough: all supported counts,
    with the default options ("") and with each of the game's named example configs."""
    return [
        (name, count, config)
        for name, game in registry.games().items()
        for config in ("", *(config_name for config_name, _ in game.example_configs))
        for count in game.info.player_counts
    ]


def _event_lines(game: Game, events: Iterable[Any]) -> list[str]:
    lines = []
    for event in events:
        _, text, visible_to = game.event_to_proto(event)
        audience = f"[seen by {', '.join(str(seat) for seat in visible_to)}] " if visible_to else ""
        lines.append(f"{EVENT_INDENT}{audience}{text}")
    return lines


def _views(game: Game, state: Any) -> list[Lines]:
    """The spectator's view lines, then per seat what its view shows beyond the spectator's."""
    *seats, spectator = game.views_to_proto(state)
    return [flatten(spectator), *(beyond(view, spectator) for view in seats)]


def _view_label(index: int) -> str:
    return "view" if index == 0 else f"seat {index - 1} view"


def _view_lines(views: list[Lines]) -> list[str]:
    return [
        f"{EVENT_INDENT}{_view_label(index)}  {line}"
        for index, lines in enumerate(views)
        for line in [f"{path}: {value}" for path, value in lines.items()] or ["(the spectator's)"]
    ]


def _change_lines(before: list[Lines], after: list[Lines]) -> list[str]:
    return [
        f"{EVENT_INDENT}{_view_label(index)}  {change}"
        for index, (old, new) in enumerate(zip(before, after, strict=True))
        for change in changes(old, new)
    ]


def _legal_lines(game: Game, state: Any) -> list[str]:
    return [
        f"{EVENT_INDENT}legal for seat {seat}: "
        + " | ".join(game.label(state, action) for action in game.legal_actions(state, seat))
        for seat in game.acting_seats(state)
    ]


def _score_lines(game: Game, state: Any) -> list[str]:
    scores = game.scores(state)
    lines = [f"final: {'yes' if scores.final else 'no'}"]
    for seat in scores.seats:
        items = " + ".join(f"{label} {points}" for label, points in seat.items)
        lines.append(f"seat {seat.seat}: {seat.total} ({items}); tiebreak {seat.tiebreak}; rank {seat.rank}")
    lines.append(f"winners: {', '.join(str(seat) for seat in scores.winners) or 'none'}")
    return lines


def render(game: Game, player_count: int, config: str = "") -> str:
    """The golden playthrough text of `game` with `player_count` seats (and example config `config`),
    played now in memory."""
    info = game.info
    seed = golden_seed(info.name, player_count, config)
    rng = Rng.from_seed(b"golden-choices:" + seed)
    native = game.config_from_proto(dict(game.example_configs)[config]) if config else default_config(game)
    state, events = game.new_game(player_count, native, seed)
    options = f"example config {config!r}" if config else "default options"
    lines = [
        f"# {info.display_name} ({info.name}), {player_count} players, seed {seed.decode()!r}, "
        f"{options}, uniformly random legal actions.",
        "# Regenerate on purpose with `make golden` (python -m tests.golden --regenerate).",
        "# Below each decision: every legal action of each seat to act, the events, the views' changes.",
        "setup",
        *_event_lines(game, events),
    ]
    views = _views(game, state)
    lines.extend(_view_lines(views))
    step = 0
    while not game.is_terminal(state) and step < info.max_game_length:
        step += 1
        legal = _legal_lines(game, state)
        seat, action = choose_random(game, state, rng)
        lines.append(f"{step:5d}  seat {seat}  {game.label(state, action)}")
        lines.extend(legal)
        lines.extend(_event_lines(game, game.play(state, seat, action)))
        views, before = _views(game, state), views
        lines.extend(_change_lines(before, views))
    outcome = "over" if game.is_terminal(state) else "NOT over"
    lines.append(f"{outcome} after {step} decisions")
    lines.extend(_score_lines(game, state))
    return "\n".join(lines) + "\n"


@cache
def rendered(game_name: str, player_count: int, config: str = "") -> str:
    """`render` of the registered game `game_name`, once per process (the tests read each twice)."""
    return render(registry.get(game_name), player_count, config)


def expected() -> dict[Path, str]:
    """Every golden file's path and the text it should hold, rendered now."""
    return {
        golden_path(name, count, config): rendered(name, count, config) for name, count, config in cases()
    }


def stale_files(paths: Sequence[Path]) -> list[Path]:
    """Golden-looking text files in the golden folder that no registered case produces."""
    wanted = set(paths)
    return sorted(path for path in GOLDEN_DIR.glob("*-*p*.txt") if path not in wanted)

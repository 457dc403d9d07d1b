"""The engines compiled with mypyc (deploy/compile.py, services/common/compiled.py): which modules the
rule picks, a build that is current and used, an edited source that runs from source (never an old
compiled module in its place), a machine without a C compiler told so and running every module from
source, and the same bytes from the compiled engines as from their sources."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from deploy import compile as build
from services.common import compiled, registry
from services.common.compiled import PURE_ENV, SUFFIX, Finder, Group

ROOT = compiled.ROOT
GROUPS = build.groups()
TITLE_GROUPS = [group for group in GROUPS if group.name != build.SHARED_GROUP]


def needs_build() -> None:
    """Fail unless the build is current where it can be made; skip where it cannot (no compiler)."""
    why = build.cannot_compile()
    if why is not None:
        pytest.skip(f"nothing is compiled here: {why}")
    assert build.current(GROUPS), "the compiled modules are not current: run `make setup`"


def run(code: str, cwd: Path = ROOT, pure: bool = False) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter (from `cwd`, first on its path), the build on or off."""
    env = {key: value for key, value in os.environ.items() if key != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_every_title_has_its_group_of_rules_modules_and_none_of_its_boundary() -> None:
    assert [group.name for group in TITLE_GROUPS] == [
        module.rsplit(".", 1)[1] for module in registry.GAME_MODULES
    ]
    for package, group in zip(registry.GAME_MODULES, TITLE_GROUPS, strict=True):
        assert f"{package}.engine" in group.modules and f"{package}.state" in group.modules
        for role in ("__init__", "__main__", "game", "codec", "labels", "title_data"):
            assert f"{package}.{role}" not in group.modules, f"{package}.{role} is the service's boundary"
        for module in group.modules:
            assert not build.crosses_boundary(build.source(module)), module
        assert group.needs == (build.SHARED_GROUP,), "a title's rules call the shared modules, no other title"
    shared = next(group for group in GROUPS if group.name == build.SHARED_GROUP)
    assert set(build.SHARED) == set(shared.modules) and "workers.bots.search" in shared.modules
    assert shared.needs == ()


def test_the_build_is_current_and_every_group_is_used() -> None:
    needs_build()
    modules = [module for group in GROUPS for module in group.modules]
    done = run(
        "import importlib, json\n"
        "from services.common import compiled\n"
        f"files = [importlib.import_module(name).__file__ for name in {modules!r}]\n"
        "print(json.dumps([compiled.describe(), files]))\n"
    )
    said, files = json.loads(done.stdout)
    assert said == f"engines compiled with mypyc ({', '.join(group.name for group in GROUPS)})"
    # Beside its source, as mypyc names a compiled module's file (the build itself is elsewhere).
    assert files == [str(ROOT / (module.replace(".", "/") + SUFFIX)) for module in modules]
    assert done.stderr == ""


def copy_tree(into: Path) -> None:
    """The packages a title's engine imports, and the build, copied under `into`."""
    for package in ("services", "workers", "i18n"):
        shutil.copytree(ROOT / package, into / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(compiled.LIB, into / compiled.LIB.relative_to(ROOT))


def test_an_edited_source_runs_from_source_and_says_so(tmp_path: Path) -> None:
    """The build lives off the import path and is used only while the sources it was compiled from
    are unchanged: an edited engine module runs as written (its whole group, which calls itself
    directly), with a warning that names the file and `make setup`; the other groups stay compiled."""
    needs_build()
    copy_tree(tmp_path)
    group = TITLE_GROUPS[0]
    engine = f"{registry.GAME_MODULES[0]}.engine"
    probe = (
        "import sys, warnings\n"
        "warnings.simplefilter('always')\n"
        f"import {engine}, workers.bots.search\n"
        "from services.common import compiled\n"
        f"print({engine}.__file__)\n"
        "print(sys.modules['workers.bots.search'].__file__)\n"
        "print(compiled.describe())\n"
    )
    unchanged = run(probe, cwd=tmp_path).stdout.splitlines()
    assert unchanged[0] == str(tmp_path / (engine.replace(".", "/") + SUFFIX))
    edited = build.source(engine).relative_to(ROOT)
    with (tmp_path / edited).open("a") as source:
        source.write("\nEDITED_HERE = True  # not compiled\n")
    done = run(probe + f"print({engine}.EDITED_HERE)\n", cwd=tmp_path)
    lines = done.stdout.splitlines()
    assert lines[0] == str(tmp_path / edited) and lines[-1] == "True"
    assert lines[1].endswith(SUFFIX), "the shared group, unchanged, stays compiled"
    assert f"from source: {group.name} (`make setup` compiles them)" in lines[2]
    assert f"{edited} changed since the engines were compiled" in done.stderr
    assert "`make setup`" in done.stderr and "StaleBuild" in done.stderr


def test_without_a_compiler_set_up_says_so_and_everything_runs_from_source(tmp_path: Path) -> None:
    needs_build()
    copy_tree(tmp_path)
    (tmp_path / "deploy").mkdir()
    for name in ("__init__.py", "compile.py"):
        shutil.copy(ROOT / "deploy" / name, tmp_path / "deploy" / name)
    engine = f"{registry.GAME_MODULES[0]}.engine"
    with (tmp_path / build.source(engine).relative_to(ROOT)).open("a") as source:
        source.write("\n# edited: to compile again\n")
    env = {key: value for key, value in os.environ.items() if key != PURE_ENV}
    command = [sys.executable, "-m", "deploy.compile"]
    env["CC"] = str(tmp_path / "no-such-compiler")
    done = subprocess.run(command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        f"deploy.compile: cannot compile the engines here, no C compiler ({env['CC']}; Debian's "
        "build-essential has one): they run as pure Python (slower)\n"
    )
    said = run(
        f"import {engine}\nfrom services.common import compiled\nprint(compiled.describe())\n", cwd=tmp_path
    )
    assert said.stdout == "engines in pure Python (no compiled build)\n" and said.stderr == ""


def test_a_group_whose_needed_group_changed_runs_from_source(tmp_path: Path) -> None:
    """A group calls into the groups it needs directly: it is used only while they are current too."""
    (tmp_path / "a.py").write_text("A = 1\n")
    (tmp_path / "b.py").write_text("B = 1\n")
    lib = tmp_path / "lib"
    for name in ("one__mypyc", "two__mypyc", "one", "two"):
        (lib / (name + SUFFIX)).parent.mkdir(parents=True, exist_ok=True)
        (lib / (name + SUFFIX)).write_bytes(b"")
    one = Group("one", ("one",), {"a.py": compiled.digest(tmp_path / "a.py")})
    two = Group("two", ("two",), {"b.py": compiled.digest(tmp_path / "b.py")}, needs=("one",))
    assert Finder(tmp_path, lib, [one, two]).usable("two")
    (tmp_path / "a.py").write_text("A = 2\n")
    finder = Finder(tmp_path, lib, [one, two])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert finder.find_spec("two") is None and finder.find_spec("one__mypyc") is None
    assert [str(warning.message).split(" since")[0] for warning in caught] == ["a.py changed"]
    assert finder.find_spec("elsewhere") is None
    (lib / ("one" + SUFFIX)).unlink()
    (tmp_path / "a.py").write_text("A = 1\n")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert not Finder(tmp_path, lib, [one, two]).usable("two")
    assert [str(warning.message).split(" since")[0] for warning in caught] == ["one missing from the build"]


PLAY = """
import hashlib, json
from services.common import compiled, registry
from services.common.playout import default_config
from services.common.rng import Rng
from workers.bots import heuristic
from workers.bots.search import Budget, search_action

digests = {}
for name, game in registry.games().items():
    digest = hashlib.sha256()
    for seed in range(3):
        players = game.info.player_counts[seed % len(game.info.player_counts)]
        rng = Rng(seed)
        state, events = game.new_game(players, default_config(game), b"compiled-%d" % seed)
        while True:
            digest.update(game.encode_state(state))
            for event in events:
                digest.update(repr(game.encode_event(event)).encode())
            if game.is_terminal(state):
                break
            seat = game.acting_seats(state)[0]
            legal = game.legal_actions(state, seat)
            if len(legal) > 1 and rng.below(8) == 0:
                for choice in (
                    search_action(game, state, seat, Rng(seed), Budget(seconds=0, iterations=40)),
                    heuristic.heuristic_action(game, state, seat, Rng(seed)),
                ):
                    digest.update(repr(choice).encode())
            action = legal[rng.below(len(legal))]
            digest.update(repr(action).encode())
            events = game.play(state, seat, action)
        digest.update(repr(game.scores(state)).encode())
    digests[name] = digest.hexdigest()
print(json.dumps([compiled.describe(), digests]))
"""


def test_compiled_and_source_engines_play_the_same_bytes() -> None:
    """Seeded random games of every title (each state's bytes, every action and event), their scores,
    and a search bot's and the heuristic's choices mid-game: the same bytes compiled as from source."""
    needs_build()
    said, fast = json.loads(run(PLAY).stdout)
    pure_said, pure = json.loads(run(PLAY, pure=True).stdout)
    assert said.startswith("engines compiled with mypyc") and "from source" not in said
    assert pure_said == "engines in pure Python (turned off)"
    assert list(fast) == list(registry.games())
    assert fast == pure

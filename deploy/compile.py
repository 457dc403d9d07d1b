"""Compile the engines and the search bot with mypyc (`make setup` and the image build run this).

What is compiled, by one rule: every module of each registered title's package except its
`__init__`, its `__main__` and the modules that import generated message code, gRPC or the message
catalogs (the service's boundary: `game`, `codec`, `labels`, `title_data`), one shared library per
title; and the shared modules of the playouts and the bots in SHARED, one more library. Each build
goes to `build/mypyc/lib` with a manifest of the sources' sha256 (`services.common.compiled` reads
it and uses a group only while its sources are unchanged). A run whose manifest already matches the
sources does nothing; a machine without a C compiler or Python's headers is told so once and runs
every module from source.

    python -m deploy.compile [--force] [--check]   (--check: exit 1 unless the build is current)
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import shutil
import sys
import sysconfig
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

from services.common import compiled
from services.common.compiled import Group
from services.common.registry import GAME_MODULES

ROOT = compiled.ROOT
BUILD = ROOT / "build" / "mypyc"
SHARED_GROUP = "shared"
# The modules every title's playouts and searches run through, besides the titles' own.
SHARED: tuple[str, ...] = (
    "services.common.rng",
    "services.common.decisions",
    "services.common.modular",
    "services.common.playout",
    "workers.bots.knowledge",
    "workers.bots.search",
    "workers.bots.heuristic",
)
# A title's module importing any of these stays source: the service's boundary, not its rules.
BOUNDARY = ("boardgame", "google", "grpc", "i18n")
PACKAGE_FILES = ("__init__.py", "__main__.py")
LIST_NOTE = "warning: Treating generator comprehension as list"


def source(module: str) -> Path:
    """A module's source file."""
    return ROOT / (module.replace(".", "/") + ".py")


def imported(path: Path) -> set[str]:
    """Every module a source imports (for `from a import b`, both a and a.b)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def crosses_boundary(path: Path) -> bool:
    """Whether a module imports generated messages, gRPC or the catalogs."""
    return any(name == root or name.startswith(root + ".") for name in imported(path) for root in BOUNDARY)


def title_modules(package: str) -> tuple[str, ...]:
    """A title package's compiled modules, by the rule above."""
    folder = source(package).with_suffix("")
    return tuple(
        f"{package}.{path.stem}"
        for path in sorted(folder.glob("*.py"))
        if path.name not in PACKAGE_FILES and not crosses_boundary(path)
    )


def groups() -> list[Group]:
    """The build's groups, each with its sources' digests now and the groups its modules import."""
    chosen = [(SHARED_GROUP, SHARED)] + [
        (package.rsplit(".", 1)[1], title_modules(package)) for package in GAME_MODULES
    ]
    owner = {module: name for name, modules in chosen for module in modules}
    found = []
    for name, modules in chosen:
        needs = {owner[other] for module in modules for other in imported(source(module)) if other in owner}
        sources = {
            str(source(module).relative_to(ROOT)): compiled.digest(source(module)) for module in modules
        }
        found.append(Group(name, modules, sources, tuple(sorted(needs - {name}))))
    return found


def cannot_compile() -> str | None:
    """Why this machine cannot compile the modules (no C compiler, no Python headers), or None."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]  # as setuptools
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler}; Debian's build-essential has one)"
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not headers.is_file():
        return f"no Python headers ({headers}; Debian's python3-dev has them)"
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as missing:
        return f"no {missing.name} in this environment (the dev dependencies have it)"
    return None


def current(wanted: Sequence[Group], lib: Path = compiled.LIB) -> bool:
    """Whether the build holds exactly these groups, compiled from these sources, every file there."""
    built = compiled.read_manifest(lib)
    return built == list(wanted) and all(compiled.Finder(ROOT, lib, built).fresh(group) for group in built)


def build(wanted: Sequence[Group], lib: Path = compiled.LIB) -> None:
    """Compile every group into `lib` (its old manifest removed first, the new one written last)."""
    from mypyc.build import mypycify
    from setuptools import setup

    (lib / compiled.MANIFEST_NAME).unlink(missing_ok=True)
    # A running process keeps the library files it loaded: each path gets a copy of its own (same
    # contents and times, so setuptools still skips what is current) before the build writes there.
    for path in lib.rglob("*" + compiled.SUFFIX):
        fresh = path.with_name(path.name + ".new")
        shutil.copy2(path, fresh)
        os.replace(fresh, path)
    files = [[str(source(module).relative_to(ROOT)) for module in group.modules] for group in wanted]
    options = ["--config-file", str(ROOT / "pyproject.toml"), "--cache-dir", str(BUILD / "mypy_cache")]
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said):
            extensions = mypycify(
                [*options, *(path for paths in files for path in paths)],
                opt_level="3",
                separate=[(paths, group.name) for paths, group in zip(files, wanted, strict=True)],
                target_dir=str(BUILD / "c"),
            )
    finally:  # mypyc's messages, but for its note on generators it turns into lists (all consumed whole)
        print("".join(line for line in said.getvalue().splitlines(True) if LIST_NOTE not in line), end="")
    for extension in extensions:  # signed overflow wraps (services/common/rng.py counts on it), as in CPython
        extension.extra_compile_args.append("-fwrapv")
    # setuptools reads the project's metadata from the working directory: the build has none.
    os.chdir(BUILD)
    setup(
        name="boardgame-compiled",
        packages=[],
        py_modules=[],
        ext_modules=extensions,
        script_args=[
            "--quiet",
            "build_ext",
            "--build-lib",
            str(lib),
            "--build-temp",
            str(BUILD / "temp"),
            "--parallel",
            str(os.cpu_count() or 1),
        ],
    )
    os.chdir(ROOT)
    compiled.write_manifest(lib, wanted)


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Compile the engines and the search bot with mypyc.")
    parser.add_argument("--force", action="store_true", help="compile even when the build is current")
    parser.add_argument("--check", action="store_true", help="only say whether the build is current")
    args = parser.parse_args(None if argv is None else list(argv))
    os.chdir(ROOT)
    wanted = groups()
    if current(wanted) and not args.force:
        print("deploy.compile: the compiled modules are current")
        return 0
    if args.check:
        print("deploy.compile: the compiled modules are not current (make setup compiles them)")
        return 1
    why = cannot_compile()
    if why is not None:
        (compiled.LIB / compiled.MANIFEST_NAME).unlink(missing_ok=True)
        print(f"deploy.compile: cannot compile the engines here, {why}: they run as pure Python (slower)")
        return 0
    started = time.monotonic()
    count = sum(len(group.modules) for group in wanted)
    print(f"deploy.compile: compiling {count} modules in {len(wanted)} groups with mypyc", flush=True)
    build(wanted)
    took = time.monotonic() - started
    print(f"deploy.compile: compiled in {took:.0f} s into {compiled.LIB.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

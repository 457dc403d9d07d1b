"""The engines compiled with mypyc, and the import hook that uses them only while they are current.

`python -m deploy.compile` (run by `make setup` and the image build) compiles the hot modules into
extension modules under `build/mypyc/lib`, a directory that is not on the import path, and writes
there a manifest of its groups (each one shared library): the modules it holds, the sha256 of every
source it was compiled from, and the groups its code calls into. `install()` (run by
`services/__init__.py`, before any engine is imported) puts a finder first on `sys.meta_path` that
serves a group's modules from the build only while every source of the group, and of the groups it
needs, is what was compiled; otherwise the sources answer (a warning names the changed files and
`make setup`), so an edited engine always runs as written. A group is all compiled or all source in
a process: its modules call each other directly, not through the import system.

`BOARDGAME_PURE_PYTHON=1` in the environment turns the build off (the tests that compare the two
forms use it).
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
LIB = ROOT / "build" / "mypyc" / "lib"
MANIFEST_NAME = "manifest.json"
PURE_ENV = "BOARDGAME_PURE_PYTHON"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]  # the suffix of this interpreter's extension modules
LIBRARY_SUFFIX = "__mypyc"  # mypyc names a group's shared library <group>__mypyc


class StaleBuild(RuntimeWarning):
    """A compiled group's sources changed since it was built: the sources run instead."""


@dataclass(frozen=True)
class Group:
    """One shared library of the build: its modules, its sources' digests, the groups it calls."""

    name: str
    modules: tuple[str, ...]
    sources: dict[str, str]  # path from the root -> sha256 at build time
    needs: tuple[str, ...] = ()

    @property
    def library(self) -> str:
        """The module name of the group's shared library (imported by its modules' stubs)."""
        return self.name + LIBRARY_SUFFIX

    def to_json(self) -> dict[str, object]:
        """The group's entry in the manifest."""
        return {
            "name": self.name,
            "modules": list(self.modules),
            "sources": self.sources,
            "needs": list(self.needs),
        }

    @classmethod
    def from_json(cls, entry: dict[str, object]) -> Group:
        """A group read back from the manifest."""
        modules, sources, needs = entry["modules"], entry["sources"], entry["needs"]
        assert isinstance(modules, list) and isinstance(sources, dict) and isinstance(needs, list)
        return cls(str(entry["name"]), tuple(map(str, modules)), dict(sources), tuple(map(str, needs)))


def digest(path: Path) -> str:
    """The sha256 of a file's bytes (hex), or "" when it is gone."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return ""


def module_path(lib: Path, module: str) -> Path:
    """Where the build keeps a compiled module's extension file."""
    return lib / (module.replace(".", "/") + SUFFIX)


def read_manifest(lib: Path) -> list[Group]:
    """The build's groups, or none when there is no build for this interpreter."""
    try:
        manifest = json.loads((lib / MANIFEST_NAME).read_text())
    except (FileNotFoundError, ValueError):
        return []
    if manifest.get("suffix") != SUFFIX:
        return []
    return [Group.from_json(entry) for entry in manifest["groups"]]


def write_manifest(lib: Path, groups: Sequence[Group]) -> None:
    """Record a finished build (written last, so a build cut short leaves no manifest)."""
    manifest = {"suffix": SUFFIX, "groups": [group.to_json() for group in groups]}
    (lib / MANIFEST_NAME).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n")


class Loader(importlib.machinery.ExtensionFileLoader):
    """Loads a compiled module; a group's library is given the `__file__` it would have beside the
    sources, from which mypyc derives its modules' `__file__` (so `Path(__file__).parent` is still the
    module's package folder)."""

    def __init__(self, fullname: str, path: str, file: str) -> None:
        super().__init__(fullname, path)
        self.file = file

    def create_module(self, spec: ModuleSpec) -> ModuleType:
        module: ModuleType = super().create_module(spec)
        module.__file__ = self.file
        return module


class Finder(importlib.abc.MetaPathFinder):
    """Serves the build's modules whose group (and every group it needs) is current; None otherwise,
    and the next finder finds the source."""

    def __init__(self, root: Path, lib: Path, groups: Sequence[Group]) -> None:
        self.root, self.lib = root, lib
        self.groups = {group.name: group for group in groups}
        self.owners = {name: group for group in groups for name in (*group.modules, group.library)}
        self.current: dict[str, bool] = {}

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        group = self.owners.get(fullname)
        if group is None or not self.usable(group.name):
            return None
        # mypyc's stubs take their modules' __file__ from their library's; CPython sets a loaded
        # extension's own, so both are given the file they would be beside the sources.
        file = str(
            self.root / (fullname + SUFFIX) if fullname == group.library else module_path(self.root, fullname)
        )
        location = str(module_path(self.lib, fullname))
        return importlib.util.spec_from_file_location(
            fullname, location, loader=Loader(fullname, location, file)
        )

    def usable(self, name: str) -> bool:
        """Whether the group's build is current, and every group it needs is."""
        if name not in self.current:
            group = self.groups.get(name)
            self.current[name] = False  # until shown otherwise (and against cycles)
            self.current[name] = (
                group is not None and self.fresh(group) and all(self.usable(need) for need in group.needs)
            )
        return self.current[name]

    def fresh(self, group: Group) -> bool:
        """Whether every source of the group is what was compiled, and its files are all there."""
        changed = [path for path, sha in group.sources.items() if digest(self.root / path) != sha]
        missing = [
            name
            for name in (*group.modules, group.library)
            if not (
                self.lib / (name + SUFFIX) if name == group.library else module_path(self.lib, name)
            ).is_file()
        ]
        if changed or missing:
            what = (
                f"{', '.join(changed)} changed" if changed else f"{', '.join(missing)} missing from the build"
            )
            warnings.warn(
                f"{what} since the engines were compiled: the {group.name} group runs from its sources "
                "(pure Python, slower) until `make setup` compiles it again",
                StaleBuild,
                stacklevel=2,
            )
            return False
        return True


def install(root: Path = ROOT, lib: Path = LIB) -> Finder | None:
    """Put the build's finder first on `sys.meta_path` (once); None when there is no build or
    BOARDGAME_PURE_PYTHON is set."""
    for finder in sys.meta_path:
        if isinstance(finder, Finder):
            return finder
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return None
    groups = read_manifest(lib)
    if not groups:
        return None
    finder = Finder(root, lib, groups)
    sys.meta_path.insert(0, finder)
    return finder


def describe() -> str:
    """One line on how the engines run in this process: compiled (which groups) or from source."""
    finder = next((finder for finder in sys.meta_path if isinstance(finder, Finder)), None)
    if finder is None:
        why = "turned off" if os.environ.get(PURE_ENV, "") not in ("", "0") else "no compiled build"
        return f"engines in pure Python ({why})"
    used = [name for name in finder.groups if finder.usable(name)]
    stale = [name for name in finder.groups if name not in used]
    line = f"engines compiled with mypyc ({', '.join(used) or 'no group'})"
    return line + (f", from source: {', '.join(stale)} (`make setup` compiles them)" if stale else "")

"""The packages' import graph: the gateway (client servicers) and the workers (tasks and bots) share the
live table (`live/`) and neither imports the other; the live table imports neither. Every import counts,
at module level or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A package -> the packages none of its modules may import.
FORBIDDEN = {
    "gateway": {"workers"},
    "workers": {"gateway"},
    "live": {"gateway", "workers"},
}


def imported_names(source: str, package: str) -> set[str]:
    """The dotted names a module's source imports anywhere in it (under TYPE_CHECKING and inside
    functions included; `from a import b` names both a and a.b; a relative import is of `package`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package if node.level else node.module or ""
            found.update([base, *(f"{base}.{alias.name}" for alias in node.names)])
    return found


def imported_packages(source: str, package: str) -> set[str]:
    """The top-level packages a module's source imports anywhere in it."""
    return {name.split(".")[0] for name in imported_names(source, package)}


def test_the_scan_sees_imports_inside_functions_and_relative_ones() -> None:
    source = "import os\ndef f():\n    from gateway.auth import x\n    import workers.turns\n"
    source += "from . import y\n"
    assert imported_packages(source, "live") == {"os", "gateway", "workers", "live"}


@pytest.mark.parametrize("package", sorted(FORBIDDEN))
def test_a_package_imports_none_of_the_packages_it_must_not(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert modules, f"{package}/ has no modules"
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path.read_text(), package) & FORBIDDEN[package])
        for path in modules
    }
    assert {path: names for path, names in wrong.items() if names} == {}


CYCLE_FREE = ("live", "gateway", "workers")  # inside each, the modules import one another in one direction


def imported_modules(source: str, package: str, modules: set[str]) -> set[str]:
    """The modules of `package` (of those named in `modules`) a module's source imports anywhere in it."""
    parts = (name.split(".") for name in imported_names(source, package))
    return {part[1] for part in parts if part[0] == package and len(part) > 1 and part[1] in modules}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of a graph: its strongly connected sets of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(edges[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            connected = []
            while (top := stack.pop()) != module:
                connected.append(top)
            if connected:
                found.append(sorted([module, *connected]))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_the_cycle_scan_finds_a_cycle_through_a_type_checking_import() -> None:
    sources = {
        "table": "from live.store import GameStore\n",
        "store": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from live import archive\n",
        "archive": "def f():\n    from live.table import Table\n",
        "keys": "",
    }
    edges = {name: imported_modules(source, "live", set(sources)) for name, source in sources.items()}
    assert cycles(edges) == [["archive", "store", "table"]]


@pytest.mark.parametrize("package", CYCLE_FREE)
def test_the_modules_of_a_package_import_each_other_in_one_direction(package: str) -> None:
    paths = {path.stem: path for path in (ROOT / package).glob("*.py") if path.stem != "__init__"}
    edges = {name: imported_modules(path.read_text(), package, set(paths)) for name, path in paths.items()}
    assert cycles(edges) == []

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


def imported_packages(source: str, package: str) -> set[str]:
    """The top-level packages a module's source imports anywhere in it (a relative import is of
    `package`)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add(package if node.level else (node.module or "").split(".")[0])
    return found


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

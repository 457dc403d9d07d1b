"""The benchmarks stand on their own: nothing under bench/ imports from tests/ (the parts both use,
such as a throwaway Redis or worker, live in deploy.throwaway)."""

from __future__ import annotations

import ast
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench"


def imported_modules(path: Path) -> set[str]:
    """Every module a Python file imports, at any depth of its code."""
    modules = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            modules.add(node.module)
    return modules


def test_the_bench_imports_nothing_from_tests() -> None:
    sources = sorted(BENCH.rglob("*.py"))
    assert sources
    offenders = {
        str(path.relative_to(BENCH.parent)): sorted(
            m for m in imported_modules(path) if m.split(".")[0] == "tests"
        )
        for path in sources
    }
    assert {path: found for path, found in offenders.items() if found} == {}

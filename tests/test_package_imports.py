"""The packages' import graph: the gateway (client servicers) and the workers (tasks and bots) share the
live table (`live/`) and neither imports the other; the live table imports neither. Every import counts,
at module level or inside a function.

The clients use the public API alone: `bg` (`cli/`) imports none of the server's packages, and the web
and TypeScript clients' sources (and their builds) import nothing but their own modules, their packages
and the code generated from protos/: a board is drawn from the views and the title's data the catalog
serves (CatalogService.GetTitleData), never from data generated from the rules services' tables."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# A package -> the packages none of its modules may import.
FORBIDDEN = {
    "gateway": {"workers"},
    "workers": {"gateway"},
    "live": {"gateway", "workers"},
    "cli": {"services", "live", "gateway", "workers", "deploy", "bench", "chaos"},
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


# The TypeScript clients: their hand-written sources, and what of their generated folder they may import
# (what protoc-gen-es and proto-loader-gen-types generate from protos/, and the web client's list of it).
CLIENT_SOURCES = {
    "clients/web": ("src", "test"),
    "clients/typescript": ("src",),
}
GENERATED = {
    "clients/web": ("src/gen/boardgame/", "src/gen/files.ts"),
    "clients/typescript": ("src/generated/",),
}
SPECIFIER = re.compile(r"""(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["']([^"']+)["']""")
SERVER_PARTS = re.compile(r"\b(services|deploy|python3?)\b|\.venv|web_boards")


def imported_files(source: str, where: Path, client: Path) -> list[str]:
    """The files of the client (paths relative to it, without extension) that a TypeScript or JavaScript
    source imports; a specifier that is not relative is a package's."""
    found = []
    for specifier in SPECIFIER.findall(source):
        if specifier.startswith("."):
            target = (where.parent / specifier).resolve()
            found.append(
                target.relative_to(client.resolve()).as_posix()
                if target.is_relative_to(client.resolve())
                else str(target)
            )
    return found


def wrong_imports(source: str, where: Path, client: Path, generated: tuple[str, ...]) -> list[str]:
    """What a client source imports that is neither a hand-written module of its own nor generated from
    protos/ (outside the client, or in its generated folder but not from protos/)."""
    wrong = []
    for target in imported_files(source, where, client):
        generated_folder = target.startswith(("src/gen/", "src/generated/"))
        from_protos = any(target.startswith(allowed.removesuffix(".ts")) for allowed in generated)
        if target.startswith("/") or target.startswith("..") or (generated_folder and not from_protos):
            wrong.append(target)
    return wrong


def test_the_client_scan_finds_baked_data_and_reaching_out_of_the_client() -> None:
    client = ROOT / "clients/web"
    where = client / "src/boards/index.ts"
    generated = GENERATED["clients/web"]
    assert wrong_imports('import { BOARDS } from "../gen/boards";', where, client, generated) == [
        "src/gen/boards"
    ]
    outside = 'import x from "../../../../services/some_game/data/map.json";'
    assert wrong_imports(outside, where, client, generated) != []
    fine = 'import { picture } from "./svg";\nimport { X } from "../gen/boardgame/rules/v1/rules_pb";\n'
    fine += 'import { create } from "@bufbuild/protobuf";\nimport { FILES } from "../gen/files";\n'
    assert wrong_imports(fine, where, client, generated) == []
    assert SERVER_PARTS.search("python -m deploy.web_boards src/gen/boards.ts")


@pytest.mark.parametrize("name", sorted(CLIENT_SOURCES))
def test_a_client_imports_nothing_generated_from_the_rules_services(name: str) -> None:
    client = ROOT / name
    sources = [
        path
        for folder in CLIENT_SOURCES[name]
        for path in sorted((client / folder).rglob("*"))
        if path.suffix in (".ts", ".mjs", ".js")
        and not any(path.relative_to(client).as_posix().startswith(g) for g in ("src/gen/", "src/generated/"))
    ]
    sources += sorted(client.glob("*.mjs"))
    assert sources, f"{name} has no sources"
    wrong = {
        str(path.relative_to(ROOT)): wrong_imports(path.read_text(), path, client, GENERATED[name])
        for path in sources
    }
    assert {path: found for path, found in wrong.items() if found} == {}


@pytest.mark.parametrize("name", sorted(CLIENT_SOURCES))
def test_a_clients_build_reads_nothing_of_the_rules_services(name: str) -> None:
    """The build's own files (its scripts, the code generator's settings, the package's scripts) name
    no server package, Python or the board generator: what is bundled comes from protos/ and sources."""
    client = ROOT / name
    builds = [*sorted(client.glob("*.mjs")), *sorted(client.glob("buf.gen.yaml")), client / "package.json"]
    named = {str(path.relative_to(ROOT)): SERVER_PARTS.findall(path.read_text()) for path in builds}
    assert {path: found for path, found in named.items() if found} == {}

"""The tests and the bench name games only through the registry: no registered game's name or
display name appears in their Python files outside that game's own folders (`tests/<game>/`,
`bench/<game>/`)."""

from __future__ import annotations

import re
from pathlib import Path

from services.common import registry

ROOT = Path(__file__).resolve().parents[1]


def test_no_generic_test_or_bench_file_names_a_game() -> None:
    names = {name: (name, game.info.display_name) for name, game in registry.games().items()}
    own_folders = {ROOT / folder / name for name in names for folder in ("tests", "bench")}
    sources = [
        path
        for folder in (ROOT / "tests", ROOT / "bench")
        for path in sorted(folder.rglob("*.py"))
        if not any(own in path.parents for own in own_folders)
    ]
    assert len(sources) > 10
    found = {}
    for path in sources:
        text = path.read_text()
        named = sorted(
            spelling
            for spellings in names.values()
            for spelling in spellings
            if re.search(rf"\b{re.escape(spelling)}\b", text, re.IGNORECASE)
        )
        if named:
            found[str(path.relative_to(ROOT))] = named
    assert found == {}

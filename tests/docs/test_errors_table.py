"""docs/errors.md lists every ErrorInfo reason the code can raise, with the code it is raised with."""

from __future__ import annotations

import re

from tests.docs.reasons import PACKAGES, ROOT, raised_reasons

TABLE = ROOT / "docs" / "errors.md"
ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*([^|]+?)\s*\|", re.MULTILINE)


def documented() -> dict[str, str]:
    """reason -> the code column of its row."""
    rows = ROW.findall(TABLE.read_text())
    reasons = [reason for reason, _ in rows]
    assert len(reasons) == len(set(reasons)), "a reason has two rows"
    return {reason: code.strip("`") for reason, code in rows}


def test_every_raised_reason_has_a_row_with_its_code() -> None:
    table = documented()
    missing = sorted(set(raised_reasons()) - set(table))
    assert not missing, f"reasons the code raises that docs/errors.md does not list: {missing}"
    wrong = {
        reason: (sorted(codes), table[reason])
        for reason, codes in raised_reasons().items()
        if table[reason] not in codes
    }
    assert not wrong, f"reasons listed with another code than the code raises them with: {wrong}"


def test_every_row_names_a_reason_the_code_has() -> None:
    sources = "".join(
        path.read_text()
        for package in PACKAGES
        if (ROOT / package).is_dir()
        for path in (ROOT / package).rglob("*.py")
    )
    raised = raised_reasons()
    stale = [reason for reason in documented() if f'"{reason}"' not in sources and reason not in raised]
    assert not stale, f"docs/errors.md lists reasons no code raises: {stale}"


def test_the_readme_and_the_client_docs_point_to_the_table() -> None:
    for doc in ("README.md", "docs/clients.md"):
        assert "errors.md" in (ROOT / doc).read_text(), f"{doc} does not link docs/errors.md"

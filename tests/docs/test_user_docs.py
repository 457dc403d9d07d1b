"""What users read carries what they need: no pointers to files outside the repository, no ticket
ids where players read option descriptions, and the operator's commands documented."""

from __future__ import annotations

import re

import pytest

from services.common import registry
from tests.docs.reasons import ROOT

USER_DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
OUTSIDE = re.compile(r"\.\./shared|\bshared/(?:rules|seeds)\b")
TICKET_ID = re.compile(r"\bOP-\d+|§\s*\d")


@pytest.mark.parametrize("doc", USER_DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_doc_points_to_nothing_outside_the_repository(doc) -> None:  # type: ignore[no-untyped-def]
    assert not OUTSIDE.findall(doc.read_text()), f"{doc.name} points to files not in the repository"


@pytest.mark.parametrize("doc", sorted((ROOT / "docs" / "games").glob("*.md")), ids=lambda p: p.name)
def test_a_game_page_speaks_to_players_not_in_ticket_ids(doc) -> None:  # type: ignore[no-untyped-def]
    assert not TICKET_ID.findall(doc.read_text()), f"{doc.name} uses rules-file ids a reader does not have"


@pytest.mark.parametrize("title", sorted(registry.games()))
def test_option_descriptions_speak_to_players(title: str) -> None:
    for option in registry.get(title).info.options:
        assert not TICKET_ID.search(option.description), f"{title} {option.name}: {option.description!r}"


def test_the_operator_api_key_command_is_documented() -> None:
    text = "".join(doc.read_text() for doc in USER_DOCS)
    assert "python -m gateway.admin create-api-key" in text

"""The web client's catalogs (clients/web/locale/<locale>.po) hold what its sources look up: every
`t(id, english, args)` of clients/web/src, read with the TypeScript compiler (clients/web/test/
messages.mjs), has a literal id and English pattern, en.po holds that very pattern, and the arguments
the call passes are the pattern's; the other locales hold the same ids with the same argument names,
each pattern parses with ICU; a title's `<title>.<kind>.<key>` terms (`term()`) are in that title's
catalog or the page's. Every registered title's name is a page message (`<title>.web.title`).

A term whose key varies (an enum value, a name of the title's data) is checked here for its kind
only (the title's catalog has messages of that kind); the board tests check each term a drawn board
looks up (tests/workers/test_web_boards.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import icu
import pytest

from i18n.messages import DEFAULT_LOCALE, Catalog, pattern_arguments
from services.common import registry

WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
LOCALES = sorted(path.stem for path in (WEB / "locale").glob("*.po"))
TITLES = list(registry.games())


@pytest.fixture(scope="module")
def calls() -> list[dict[str, Any]]:
    node = shutil.which("node")
    assert node, "node is not installed"
    done = subprocess.run(
        [node, "test/messages.mjs"], cwd=WEB, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    found: list[dict[str, Any]] = json.loads(done.stdout)
    assert len(found) > 100, "the sources look up hardly any message"
    return found


def web_catalog(locale: str) -> Catalog:
    return Catalog.read(WEB / "locale" / f"{locale}.po", locale)


def title_messages(title: str) -> dict[str, str]:
    """A title's English catalog, empty for a title without catalogs."""
    catalogs = registry.get(title).catalogs
    return catalogs.catalogs[DEFAULT_LOCALE].messages if catalogs else {}


def where(call: dict[str, Any]) -> str:
    return f"{call['file']}:{call['line']}"


def test_the_catalogs_are_english_and_chinese() -> None:
    assert LOCALES == ["en", "zh_Hans", "zh_Hant"]


def test_every_message_the_sources_use_is_in_en_po_with_its_english_and_arguments(
    calls: list[dict[str, Any]],
) -> None:
    english = web_catalog(DEFAULT_LOCALE).messages
    problems = []
    for call in (c for c in calls if c["call"] == "t"):
        if call["id"] is None or call["english"] is None:
            problems.append(f"{where(call)}: an id or English pattern that is not one literal string")
        elif english.get(call["id"]) != call["english"]:
            problems.append(
                f"{where(call)}: {call['id']} is {call['english']!r}, en.po has {english.get(call['id'])!r}"
            )
        elif call["args"] is not None and set(call["args"]) != pattern_arguments(call["english"]):
            problems.append(
                f"{where(call)}: {call['id']} passes {sorted(call['args'])}, its pattern takes "
                f"{sorted(pattern_arguments(call['english']))}"
            )
    assert problems == []


def test_en_po_holds_only_messages_the_page_uses(calls: list[dict[str, Any]]) -> None:
    used = {call["id"] for call in calls if call["call"] == "t"}
    names = {f"{title}.web.title" for title in TITLES}  # titleName() looks these up by the title's name
    english = set(web_catalog(DEFAULT_LOCALE).messages)
    assert sorted(names - english) == [], "a title's name is no message of the page"
    assert sorted(english - used - names) == [], "messages no source uses"


@pytest.mark.parametrize("locale", [locale for locale in LOCALES if locale != DEFAULT_LOCALE])
def test_each_locale_holds_the_same_messages_with_the_same_arguments(locale: str) -> None:
    english = web_catalog(DEFAULT_LOCALE).messages
    translated = web_catalog(locale).messages
    assert sorted(set(english) - set(translated)) == [], f"missing from {locale}.po"
    assert sorted(set(translated) - set(english)) == [], f"in {locale}.po, not in en.po"
    differ = {
        id: (sorted(pattern_arguments(pattern)), sorted(pattern_arguments(translated[id])))
        for id, pattern in english.items()
        if pattern_arguments(pattern) != pattern_arguments(translated[id])
    }
    assert differ == {}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_pattern_parses(locale: str) -> None:
    broken = {}
    for id, pattern in web_catalog(locale).messages.items():
        try:
            icu.MessageFormat(pattern, icu.Locale(locale))
        except icu.ICUError as error:
            broken[id] = f"{pattern!r}: {error}"
    assert broken == {}


def test_each_term_the_boards_look_up_is_in_its_titles_catalog_or_the_pages(
    calls: list[dict[str, Any]],
) -> None:
    page = web_catalog(DEFAULT_LOCALE).messages
    problems = []
    for call in (c for c in calls if c["call"] == "term"):
        title, kind, key = call["title"], call["kind"], call["key"]
        if title is None and (kind, key) == ("web", "title"):
            continue  # a title's name: checked above
        if title not in TITLES or kind is None:
            problems.append(f"{where(call)}: a term of {title!r}, kind {kind!r}: no literal title and kind")
            continue
        messages = {**title_messages(title), **page}
        if key is not None and f"{title}.{kind}.{key}" not in messages:
            problems.append(f"{where(call)}: {title}.{kind}.{key} is in no catalog")
        if key is None and not any(id.startswith(f"{title}.{kind}.") for id in messages):
            problems.append(f"{where(call)}: {title}'s catalogs have no {title}.{kind}.* message")
    assert problems == []

"""Catalogs of ICU MessageFormat patterns read from gettext `.po` files (Babel), and the formatting
of a Text with one (PyICU, CLDR plural rules).

A Text names a catalog message (its template id) and gives its arguments by name: numbers, literals
(given as is), terms (the id of another message without arguments, rendered in the same locale) and
nested Texts (lists)."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import icu
from babel.messages.pofile import read_po
from boardgame.rules.v1 import rules_pb2

DEFAULT_LOCALE = "en"
LOCALE_TAG = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,4}$")


@dataclass(frozen=True)
class Term:
    """An argument naming another catalog message (a game term), rendered in the reader's language."""

    id: str


Value = int | str | Term | rules_pb2.Text
"""An argument's value: a number, a literal string, a term, or a nested Text."""


def text(template: str, **arguments: Value) -> rules_pb2.Text:
    """The Text of a template with its arguments (a `Message` carries one beside its English)."""
    return rules_pb2.Text(template=template, arguments=[argument(name, v) for name, v in arguments.items()])


def argument(name: str, value: Value) -> rules_pb2.Argument:
    """One named Argument of a Text."""
    if isinstance(value, bool):
        raise TypeError(f"argument {name}: a boolean is no message value (use a select on a number)")
    if isinstance(value, int):
        return rules_pb2.Argument(name=name, number=value)
    if isinstance(value, Term):
        return rules_pb2.Argument(name=name, term=value.id)
    if isinstance(value, str):
        return rules_pb2.Argument(name=name, literal=value)
    return rules_pb2.Argument(name=name, text=value)


class Message(str):
    """An English text (the str itself) with the Text it renders, and that Text's serialized bytes."""

    __slots__ = ("text", "wire")
    text: rules_pb2.Text
    wire: bytes

    def __new__(cls, english: str, message: rules_pb2.Text) -> Message:
        made = super().__new__(cls, english)
        made.text = message
        made.wire = message.SerializeToString(deterministic=True)
        return made

    def __reduce__(self) -> tuple[type[Message], tuple[str, rules_pb2.Text]]:
        return Message, (str(self), self.text)


def locale_for(tag: str, offered: Iterable[str]) -> str:
    """The offered locale nearest a BCP 47 tag or gettext name ("zh-TW" -> "zh_Hant", "zh-CN" ->
    "zh_Hans", "en-US" -> "en"), DEFAULT_LOCALE when none is near or the tag is empty.
    Raises ValueError for a tag that is no locale."""
    offered = list(offered)
    if not tag:
        return DEFAULT_LOCALE
    if not LOCALE_TAG.match(tag):
        raise ValueError(f"{tag!r} is not a locale (expected a tag such as en, zh-TW or zh_Hant)")
    locale = icu.Locale.forLanguageTag(tag.replace("_", "-"))
    language = locale.getLanguage()
    if not language:
        raise ValueError(f"{tag!r} is not a locale (expected a tag such as en, zh-TW or zh_Hant)")
    likely = icu.Locale(locale.getName()).addLikelySubtags()
    for candidate in (f"{language}_{likely.getScript()}", language):
        if candidate in offered:
            return candidate
    return DEFAULT_LOCALE


@dataclass
class Catalog:
    """One locale's messages of one domain (a title, or the shared texts): id -> ICU pattern."""

    locale: str
    messages: dict[str, str]
    _formats: dict[str, icu.MessageFormat] = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, path: Path, locale: str) -> Catalog:
        """The catalog of a `.po` file (msgid: the message id, msgstr: its pattern)."""
        with path.open("rb") as po:
            catalog = read_po(po, locale=locale)
        messages = {str(m.id): str(m.string) for m in catalog if m.id and m.string}
        return cls(locale, messages)

    @property
    def digest(self) -> str:
        """Hex SHA-256 of the messages, stable while they are unchanged."""
        data = json.dumps(self.messages, sort_keys=True, ensure_ascii=False).encode()
        return hashlib.sha256(data).hexdigest()

    def pattern(self, template: str) -> str:
        """The pattern of a message id. Raises KeyError for an id the catalog lacks."""
        return self.messages[template]

    def render(self, message: rules_pb2.Text) -> str:
        """A Text in this catalog's language."""
        names: list[str] = []
        values: list[icu.Formattable] = []
        for arg in message.arguments:
            kind = arg.WhichOneof("value")
            names.append(arg.name)
            if kind == "number":
                values.append(icu.Formattable(arg.number))
            elif kind == "term":
                values.append(icu.Formattable(self.render(rules_pb2.Text(template=arg.term))))
            elif kind == "text":
                values.append(icu.Formattable(self.render(arg.text)))
            else:
                values.append(icu.Formattable(arg.literal))
        fmt = self._formats.get(message.template)
        if fmt is None:
            fmt = self._formats[message.template] = icu.MessageFormat(
                self.pattern(message.template), icu.Locale(self.locale)
            )
        return str(fmt.format(names, values))


def pattern_arguments(pattern: str) -> set[str]:
    """The top-level argument names of an ICU pattern (for checking catalogs against each other)."""
    names: set[str] = set()
    depth = 0
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "{":
            if depth % 2 == 0:
                match = re.match(r"\{\s*([A-Za-z_][A-Za-z0-9_]*)", pattern[i:])
                if match:
                    names.add(match.group(1))
            depth += 1
        elif char == "}":
            depth -= 1
        i += 1
    return names


@dataclass
class Domain:
    """A domain's catalogs, one `<locale>.po` per locale in a folder; English is the source."""

    name: str
    folder: Path
    catalogs: dict[str, Catalog] = field(default_factory=dict)
    _english: dict[tuple[str, tuple[tuple[str, object], ...]], Message] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for po in sorted(self.folder.glob("*.po")):
            self.catalogs[po.stem] = Catalog.read(po, po.stem)
        if DEFAULT_LOCALE not in self.catalogs:
            raise FileNotFoundError(f"{self.folder} has no {DEFAULT_LOCALE}.po")

    @property
    def locales(self) -> list[str]:
        """The locales offered, English first."""
        return [DEFAULT_LOCALE, *sorted(set(self.catalogs) - {DEFAULT_LOCALE})]

    def catalog(self, tag: str) -> Catalog:
        """The catalog nearest a locale tag (ValueError for a malformed one)."""
        return self.catalogs[locale_for(tag, self.catalogs)]

    def message(self, template: str, **arguments: Value) -> Message:
        """The English Message of a template with its arguments, remembered (texts recur)."""
        key = (template, tuple(arguments.items()))
        try:
            return self._english[key]
        except KeyError:
            pass
        except TypeError:  # a nested Text: not hashable
            key = ()  # type: ignore[assignment]
        made = text(template, **arguments)
        english = Message(self.catalogs[DEFAULT_LOCALE].render(made), made)
        if key:
            if len(self._english) >= 8192:
                self._english.clear()
            self._english[key] = english
        return english


def merged(catalogs: Mapping[str, Catalog], locale: str) -> Catalog:
    """One catalog of several domains' catalogs of a locale (ids are prefixed by domain)."""
    messages: dict[str, str] = {}
    for catalog in catalogs.values():
        messages.update(catalog.messages)
    return Catalog(locale, messages)

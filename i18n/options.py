"""The catalog messages of a title's lobby options (docs/translations.md): `<title>.option.<name>` is
the option's label, `<title>.option.<name>.help` its description (the GameOption's `description` is
that message in English, and its `message` the Text), and `<title>.option.<name>.<choice>` each
listed choice in words. Labels and choices take no arguments."""

from __future__ import annotations

from i18n.messages import Domain, Message, Value

HELP = "help"
"""The last part of a description's id; no choice may be named so."""


def label_id(title: str, option: str) -> str:
    """The id of an option's label."""
    return f"{title}.option.{option}"


def help_id(title: str, option: str) -> str:
    """The id of an option's description."""
    return f"{label_id(title, option)}.{HELP}"


def choice_id(title: str, option: str, choice: str) -> str:
    """The id of one of an option's choices in words."""
    return f"{label_id(title, option)}.{choice}"


def described(catalogs: Domain, option: str, **arguments: Value) -> Message:
    """An option's description: its help message in English (carrying its Text), from the title's
    catalogs (`catalogs.name` is the title)."""
    return catalogs.message(help_id(catalogs.name, option), **arguments)

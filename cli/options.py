"""A title's lobby options as `bg titles` lists them: each option's name, raw choices and default (what
`--option NAME VALUE` takes), its label and description in the reader's language, and each choice in
words, from the title's catalog (the ids of `i18n.options`); the description alone, in English, for a
title without a catalog."""

from __future__ import annotations

from boardgame.rules.v1 import rules_pb2

from cli.client import Client
from i18n.options import choice_id, label_id

INDENT = "  "  # the description and the choices, under their option's line


def option_lines(client: Client, info: rules_pb2.GameInfo) -> list[str]:
    """The lines of every option of a title."""
    lines = []
    for option in info.options:
        raw = f"{option.name} = {'|'.join(option.choices) or 'any'} (default {option.default_value})"
        label = client.term(info.name, rules_pb2.Text(template=label_id(info.name, option.name)))
        description = client.words(info.name, option.description, option.message)
        if label is None:
            lines.append(f"{raw}: {description}")
            continue
        lines += [f"{raw}: {label}", f"{INDENT}{description}"]
        for choice in option.choices:
            words = client.term(info.name, rules_pb2.Text(template=choice_id(info.name, option.name, choice)))
            if words is not None:
                lines.append(f"{INDENT}{choice}: {words}")
    return lines

"""The live table's own event texts (a seat changing hands, a decision taken back), each a message of
its catalogs (live/locale/<locale>.po, ids `game.*`), which the gateway serves merged into every
title's catalog (CatalogService.GetCatalog), so that a client renders them as it renders the title's."""

from __future__ import annotations

import hashlib
from pathlib import Path

from boardgame.rules.v1 import rules_pb2

from i18n.messages import Domain, Value

CATALOGS = Domain("game", Path(__file__).parent / "locale")
"""The live table's catalogs: every event text it words itself is one of their messages."""


def event(template: str, **arguments: Value) -> rules_pb2.Event:
    """An Event for everyone: its English text and its Text."""
    message = CATALOGS.message(template, **arguments)
    return rules_pb2.Event(text=str(message), message=message.text)


def merged(title: rules_pb2.GetCatalogResponse) -> rules_pb2.GetCatalogResponse:
    """A title's catalog with the live table's messages of the same locale added (their ids do not
    overlap), under a digest of both."""
    own = CATALOGS.catalog(title.locale)
    messages = {**own.messages, **title.messages}
    digest = hashlib.sha256(f"{title.digest}:{own.digest}".encode()).hexdigest()
    return rules_pb2.GetCatalogResponse(
        locale=title.locale, messages=messages, digest=digest, locales=title.locales
    )

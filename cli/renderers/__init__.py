"""The renderer of each title: the module `cli.renderers.<title>` when there is one, found by the
title's name alone, else the generic fallback of `cli.render`.

A renderer module has one function, `blocks(view, game, data) -> list[Block]`: the title's View
message (unpacked from `GameView.view`) drawn as blocks, with the GameView for seat names and the
title's static data (its TitleData message, from CatalogService.GetTitleData) for what the view
names by number. A renderer draws from those alone: `bg` imports nothing of the rules services. A
title whose data `bg` cannot read is shown by the generic fallback.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache

from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.message import Message

from cli.render import Block, generic_blocks, unpack

Renderer = Callable[[Message, gateway_pb2.GameView, Message], list[Block]]


@cache
def renderer(title: str) -> Renderer:
    """The title's own renderer, or the generic one."""
    if title.isidentifier() and importlib.util.find_spec(f"{__name__}.{title}") is not None:
        found: Renderer = importlib.import_module(f"{__name__}.{title}").blocks
        return found
    return generic_blocks


def table_blocks(game: gateway_pb2.GameView, data: Message | None) -> list[Block]:
    """The table of a game view, as blocks, drawn by its title's renderer from the view and `data`,
    the title's static data (None when it could not be had: then field by field)."""
    view = unpack(game.view)
    if view is None:
        return []
    if data is None:
        return generic_blocks(view, game)
    return renderer(game.title)(view, game, data)

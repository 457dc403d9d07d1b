"""The renderer of each title: the module `cli.renderers.<title>` when there is one, found by the
title's name alone, else the generic fallback of `cli.render`.

A renderer module has one function, `blocks(view, game) -> list[Block]`: the title's View message
(unpacked from `GameView.view`) drawn as blocks, with the GameView for seat names.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from functools import cache

from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.message import Message

from cli.render import Block, generic_blocks, unpack

Renderer = Callable[[Message, gateway_pb2.GameView], list[Block]]


@cache
def renderer(title: str) -> Renderer:
    """The title's own renderer, or the generic one."""
    if title.isidentifier() and importlib.util.find_spec(f"{__name__}.{title}") is not None:
        found: Renderer = importlib.import_module(f"{__name__}.{title}").blocks
        return found
    return generic_blocks


def table_blocks(game: gateway_pb2.GameView) -> list[Block]:
    """The table of a game view, as blocks, drawn by its title's renderer."""
    view = unpack(game.view)
    if view is None:
        return []
    return renderer(game.title)(view, game)

"""Lobby option strings become the right native Config, for every option of every registered game.

No gateway process is needed: `build_config` turns the lobby's option strings into the title's packed
Config message, which the rules service then reads with the game's codec.
"""

from __future__ import annotations

from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2

from live.games import build_config
from services.common import registry
from services.common.game import Game
from services.common.servicer import info_to_proto

OPTIONS = [
    (name, option.name, choice)
    for name, game in registry.games().items()
    for option in game.info.options
    for choice in option.choices
]


def lobby_config(game: Game, **options: str) -> Any:
    """The native Config a lobby of `game` with these option strings starts its game with."""
    info = info_to_proto(game.info, game)
    values = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in options.items()]
    message = game.messages.config()
    assert build_config(info, values).Unpack(message)
    return game.config_from_proto(message)


@pytest.mark.parametrize(("title", "option", "choice"), OPTIONS, ids=[":".join(case) for case in OPTIONS])
def test_each_choice_of_an_option_reaches_the_engine(title: str, option: str, choice: str) -> None:
    """A choice gives the default config only if it is the default, and no two choices give the same
    config (so a "false" for an option that defaults to true is not lost on the way)."""
    game = registry.get(title)
    spec = next(o for o in game.info.options if o.name == option)
    chosen = lobby_config(game, **{option: choice})
    assert (chosen == lobby_config(game)) is (choice == spec.default)
    others = [lobby_config(game, **{option: other}) for other in spec.choices if other != choice]
    assert chosen not in others


@pytest.mark.parametrize("title", list(registry.games()))
def test_every_default_choice_from_a_lobby_is_the_native_default(title: str) -> None:
    """Setting each option to its listed default gives the same config as setting nothing."""
    game = registry.get(title)
    defaults = {option.name: option.default for option in game.info.options}
    assert (
        lobby_config(game, **defaults) == lobby_config(game) == game.config_from_proto(game.messages.config())
    )

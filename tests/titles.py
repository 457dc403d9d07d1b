"""The games as generic tests name them, only through the registry: TITLE (and GAME), the game that
tests needing one game (any game) play, is the first registered; `example_lobbies` lists every game's
defaults and example configs as lobby options."""

from __future__ import annotations

from boardgame.gateway.v1 import gateway_pb2
from google.protobuf.message import Message

from live.games import build_config
from services.common import registry
from services.common.game import Game
from services.common.servicer import info_to_proto

TITLE: str = next(iter(registry.games()))
GAME: Game = registry.get(TITLE)


def lobby_options(game: Game, config: Message) -> dict[str, str]:
    """The lobby option strings (name -> choice) a lobby of `game` takes to start with `config`: for
    each field `config` sets, the choice of that option whose Config sets the field the same way."""
    info = info_to_proto(game.info, game)
    chosen = {}
    for field, value in config.ListFields():
        option = next(option for option in game.info.options if option.name == field.name)
        for choice in option.choices:
            built = game.messages.config()
            build_config(info, [gateway_pb2.GameOptionValue(name=field.name, value=choice)]).Unpack(built)
            if getattr(built, field.name) == value:
                chosen[field.name] = choice
                break
        else:
            raise ValueError(f"no choice of {game.info.name}'s option {field.name!r} gives {value!r}")
    return chosen


def example_lobbies() -> list[tuple[str, str, dict[str, str]]]:
    """(title, example config name, lobby options) of every registered game's example configs
    (`Game.example_configs`), after (title, "", {}) for each game's defaults."""
    defaults: list[tuple[str, str, dict[str, str]]] = [(name, "", {}) for name in registry.games()]
    examples = [
        (name, config_name, lobby_options(game, config))
        for name, game in registry.games().items()
        for config_name, config in game.example_configs
    ]
    return [*defaults, *examples]

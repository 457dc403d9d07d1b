"""Lobby option strings for Puerto Rico's open-point options become the right native Config.

No gateway process is needed: `build_config` turns the lobby's option strings into the title's packed
Config message, which the rules service then reads with its codec.
"""

from __future__ import annotations

import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.puertorico.v1 import puertorico_pb2 as pb

from gateway.games import build_config
from services.common.servicer import info_to_proto
from services.puertorico import GAME, codec
from services.puertorico.state import Config


def lobby_config(**options: str) -> Config:
    """The native Config a lobby with these option strings starts its game with."""
    info = info_to_proto(GAME.info, GAME)
    values = [gateway_pb2.GameOptionValue(name=name, value=value) for name, value in options.items()]
    message = pb.Config()
    assert build_config(info, values).Unpack(message)
    return codec.config_from_proto(message)


@pytest.mark.parametrize(("value", "native"), [("false", False), ("true", True)])
def test_optional_boolean_option_from_a_lobby(value: str, native: bool) -> None:
    """`lighthouse_counts_private_ships` defaults to true: "false" must still reach the engine."""
    assert lobby_config(lighthouse_counts_private_ships=value).lighthouse_counts_private_ships is native


def test_enum_int_and_plain_boolean_options_from_a_lobby() -> None:
    config = lobby_config(
        small_wharf_rounding="ceil",
        cloister_kinds="plantations",
        library_multiplier="3",
        specialty_factory_counts_corn="true",
        vp_trigger_any_phase="false",
    )
    assert (config.small_wharf_rounding, config.cloister_kinds, config.library_multiplier) == (
        "ceil",
        "plantations",
        3,
    )
    assert config.specialty_factory_counts_corn and not config.vp_trigger_any_phase


def test_every_default_choice_from_a_lobby_is_the_native_default() -> None:
    """Setting each option to its listed default gives the same config as setting nothing."""
    defaults = {option.name: option.default for option in GAME.info.options}
    assert lobby_config(**defaults) == lobby_config() == Config()

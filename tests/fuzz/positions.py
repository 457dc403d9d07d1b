"""Real positions of every registered game to forge from: for each player count (and example config),
the state after a few random playouts of different lengths, with a legal action of a seat that acts.
Built in this process with the engine; the fuzz sends them over gRPC."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from google.protobuf import message

from services.common import registry
from services.common.game import AnyGame
from services.common.playout import continue_playout
from services.common.rng import Rng

PLAYOUT_STEPS = (0, 7, 30, 120, None)  # decisions played before the position; None: to the end


@dataclass(frozen=True)
class Position:
    """One state of a title: its State bytes, the seat shown (one that acts, else 0), the bytes of
    one of that seat's legal actions (empty once the game is over), and its player count."""

    title: str
    player_count: int
    state: bytes
    seat: int
    action: bytes


def _configs(game: AnyGame) -> list[message.Message]:
    return [game.messages.config(), *(config for _, config in game.example_configs)]


@cache
def positions(title: str) -> tuple[Position, ...]:
    """Positions of `title` at every player count and config, early, middle, late and over."""
    game = registry.get(title)
    found = []
    for config_message in _configs(game):
        config = game.config_from_proto(config_message)
        for player_count in game.info.player_counts:
            seed = f"fuzz {title} {player_count}".encode()
            start, _ = game.new_game(player_count, config, seed)
            for index, steps in enumerate(PLAYOUT_STEPS):
                rng = Rng.from_seed(seed + bytes([index]))
                state = continue_playout(game, start, rng=rng, max_steps=steps).state
                acting = game.acting_seats(state)
                seat = acting[0] if acting else 0
                legal = game.legal_actions(state, seat) if acting else []
                action = game.action_to_proto(legal[0]).SerializeToString() if legal else b""
                state_bytes = game.state_to_proto(state).SerializeToString(deterministic=True)
                found.append(Position(title, player_count, state_bytes, seat, action))
    return tuple(found)


def message_type_names() -> list[str]:
    """The full names of every registered game's messages, to mistake one for another."""
    names = []
    for game in registry.games().values():
        messages = game.messages
        names += [
            m.DESCRIPTOR.full_name
            for m in (messages.config, messages.state, messages.action, messages.view, messages.event)
        ]
    return names

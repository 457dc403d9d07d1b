"""Every registered title as an OpenSpiel Python game, `boardgame_<title>`, over either backend.

`pyspiel.load_game("boardgame_puertorico", {"players": 3, "seed": 7})` plays on the engine in this
process; with `"rules_address": "host:port"` it plays on that rules service. The game is sequential
(the seat that acts is the current player); chance is the rules' own seeded RNG (sampled
stochastic): the `seed` parameter decides every draw, so a game's history replays it exactly and
another seed gives another deal. Actions are indices into the title's action space
(`research.actions`), observations its encoded View (`research.observation`): a seat's View for a
player's observer, the spectator's for a public one. Returns are 1 for each winner and -1 for the
others.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
import pyspiel
from google.protobuf import text_format

from research.environment import Position, TitleRules, returns
from services.common import registry

PREFIX = "boardgame_"


def game_type(title: str) -> pyspiel.GameType:
    """The OpenSpiel GameType of a registered title."""
    info = registry.get(title).info
    stochastic = pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    return pyspiel.GameType(
        short_name=PREFIX + title,
        long_name=info.display_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=stochastic if info.has_chance else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if info.has_hidden_information
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players,
        min_num_players=info.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={
            "players": info.min_players,
            "seed": 0,
            "rules_address": "",
            "max_steps": 0,
            "options": "",
        },
    )


def parsed(options: str) -> dict[str, str]:
    """The `options` game parameter, `name=choice` pairs separated by commas (OpenSpiel's parameters
    are scalars), as a mapping; ValueError for a pair without its `=`."""
    pairs = [pair.strip() for pair in options.split(",") if pair.strip()]
    if bad := [pair for pair in pairs if "=" not in pair]:
        raise ValueError(f"the options parameter takes name=choice pairs, not {', '.join(bad)}")
    return {name.strip(): choice.strip() for name, _, choice in (pair.partition("=") for pair in pairs)}


class TitleGame(pyspiel.Game):
    """A title's games for a number of players, from one seed."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        game_type = self.GAME_TYPE
        title = game_type.short_name.removeprefix(PREFIX)
        spec = game_type.parameter_specification
        self.player_count = int(params.get("players", spec["players"]))
        self.seed = int(params.get("seed", spec["seed"]))
        options = str(params.get("options", spec["options"]))
        self.rules = TitleRules(
            title, str(params.get("rules_address", spec["rules_address"])), options=parsed(options)
        )
        info = self.rules.backend.info
        self.max_steps = int(params.get("max_steps", spec["max_steps"])) or info.max_game_length
        if self.player_count not in info.player_counts:
            raise ValueError(f"{title} plays with {info.min_players} to {info.max_players} players")
        game_info = pyspiel.GameInfo(
            num_distinct_actions=self.rules.actions.size,
            max_chance_outcomes=0,
            num_players=self.player_count,
            min_utility=-1.0,
            max_utility=1.0,
            max_game_length=min(self.max_steps, info.max_game_length),
        )
        super().__init__(game_type, game_info, params)

    GAME_TYPE: pyspiel.GameType

    def new_initial_state(self) -> TitleState:
        """The game of this seed."""
        return TitleState(self, self.rules.new_game(self.player_count, self.seed.to_bytes(8, "big")))

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> ViewObserver:
        """A player's View (or the spectator's, for a public-only observer) as tensor and text."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        public = iig_obs_type is not None and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        return ViewObserver(self.rules, public)


class TitleState(pyspiel.State):
    """A state of a title's game: the backend's state, which no move changes in place."""

    def __init__(self, game: TitleGame, state: Any) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.max_steps = game.max_steps
        self.position = Position(self.rules, state)

    @property
    def state(self) -> Any:
        """The backend's state."""
        return self.position.state

    def _seat(self) -> int | None:
        """The seat that acts, None once the game is over or `max_steps` moves were made."""
        return None if len(self.history()) >= self.max_steps else self.rules.acting_seat(self.state)

    def current_player(self) -> int:
        """The seat that acts, or TERMINAL."""
        seat = self._seat()
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        """The indices of the player's legal actions."""
        if player != self._seat():
            return []
        return self.rules.actions.indices(self.rules.legal(self.state, player))

    def _apply_action(self, action: int) -> None:
        """The acting seat takes the legal action at `action`."""
        seat = self._seat()
        assert seat is not None, "the game is over"
        self.position = Position(self.rules, self.rules.step(self.state, seat, action))

    def _action_to_string(self, player: int, action: int) -> str:
        """The action's label when it is legal now, else its index."""
        if player == self.rules.acting_seat(self.state):
            legal = self.rules.legal(self.state, player)
            if 0 <= action < len(legal):
                return self.rules.backend.label(self.state, player, legal[action])
        return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._seat() is None

    def returns(self) -> list[float]:
        """1 for each winner, -1 for the others, once over; zeros before (and when cut short)."""
        outcome = self.rules.backend.outcome(self.state)
        return returns(outcome, self.get_game().num_players())

    def __str__(self) -> str:
        """The title, the moves made, who acts and the SHA-256 of the State's bytes (short: OpenSpiel
        prints states often; an observation string shows a view)."""
        digest = hashlib.sha256(self.rules.backend.serialize(self.state)).hexdigest()[:16]
        return (
            f"{self.rules.title} after {len(self.history())} moves, seat {self._seat()} acts, state {digest}"
        )


class ViewObserver:
    """OpenSpiel's observer interface over a title's encoded View."""

    def __init__(self, rules: TitleRules, public: bool) -> None:
        self.rules = rules
        self.public = public
        self.tensor = np.zeros(rules.encoder.size, np.float32)
        self.dict = {"view": self.tensor}

    def _viewer(self, player: int) -> int | None:
        return None if self.public else player

    def set_from(self, state: TitleState, player: int) -> None:
        """The tensor of `player`'s view of `state`."""
        self.tensor[:] = self.rules.observation(state.state, self._viewer(player))

    def string_from(self, state: TitleState, player: int) -> str:
        """`player`'s View as protobuf text."""
        view = self.rules.backend.view(state.state, self._viewer(player))
        return text_format.MessageToString(view, as_one_line=True)


def register(title: str) -> str:
    """Register `title` with OpenSpiel (once) and return the name to load it by."""
    name = PREFIX + title
    if name not in pyspiel.registered_names():
        kind = game_type(title)
        game_class = type(f"{title.title()}Game", (TitleGame,), {"GAME_TYPE": kind})
        pyspiel.register_game(kind, game_class)
    return name


def register_all() -> list[str]:
    """Register every registered title; the names to load them by."""
    return [register(title) for title in registry.games()]

"""A title as a PettingZoo AEC environment: seats take turns as agents `seat_0`, `seat_1`, ...

Each agent observes a dict of `observation` (its View encoded by `research.observation`) and
`action_mask` (1 at the index of each of its legal actions, `research.actions`; all 0 when it does not
act). A game over gives each agent a reward of 1 if it won (ties share the win) or -1, and
`max_steps` decisions without an end truncates the game. `reset(seed=...)` reproduces a game: the
seed decides every chance draw, through the rules' seeded RNG.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from google.protobuf import text_format
from gymnasium import spaces
from pettingzoo import AECEnv

from research.backend import Options
from research.environment import TitleRules, returns

ObsType = dict[str, np.ndarray]


class TitleEnv(AECEnv[str, ObsType, int]):
    """One title's games for `players` seats, on its engine in this process or on the rules service
    at `rules_address`."""

    metadata = {"render_modes": ["ansi"], "name": "boardgame_v0", "is_parallelizable": False}

    def __init__(
        self,
        title: str,
        players: int | None = None,
        rules_address: str = "",
        max_steps: int | None = None,
        render_mode: str | None = None,
        action_count: int | None = None,
        options: Options | None = None,
    ) -> None:
        super().__init__()
        self.rules = TitleRules(title, rules_address, action_count, options)
        info = self.rules.backend.info
        self.player_count = players or info.min_players
        if self.player_count not in info.player_counts:
            raise ValueError(f"{title} plays with {info.min_players} to {info.max_players} players")
        self.max_steps = max_steps or info.max_game_length
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"{title}_v0"}
        self.possible_agents = [f"seat_{seat}" for seat in range(self.player_count)]
        observation = spaces.Box(-np.inf, np.inf, (self.rules.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (self.rules.actions.size,), np.int8)
        self._observation_space = spaces.Dict({"observation": observation, "action_mask": mask})
        self._action_space = spaces.Discrete(self.rules.actions.size)
        self._seeds = random.Random()
        self.state: Any = None
        self.steps = 0

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The same dict space for every agent."""
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """Indices into the title's action space."""
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; with `seed`, this game and those of later unseeded resets are reproducible."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.state = self.rules.new_game(self.player_count, self._seeds.randbytes(16))
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        seat = self.rules.acting_seat(self.state)
        if seat is None:
            self._finish()
        else:
            self.agent_selection = self.possible_agents[seat]

    def _finish(self) -> None:
        outcome = self.rules.backend.outcome(self.state)
        for agent, reward in zip(self.agents, returns(outcome, self.player_count), strict=True):
            self.rewards[agent] = reward
            self.terminations[agent] = True

    def observe(self, agent: str) -> ObsType:
        """The agent's encoded view and action mask."""
        seat = self.possible_agents.index(agent)
        acting = self.rules.acting_seat(self.state) == seat and agent in self.agents
        legal = self.rules.legal(self.state, seat) if acting else ()
        return {
            "observation": self.rules.observation(self.state, seat),
            "action_mask": self.rules.actions.mask(legal),
        }

    def step(self, action: int | None) -> None:
        """The selected agent takes the legal action at index `action` (None once it is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} acts now: None is not an action")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.state = self.rules.step(self.state, self.possible_agents.index(agent), int(action))
        self.steps += 1
        self._select()
        if not any(self.terminations.values()) and self.steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if any(self.terminations.values()) or any(self.truncations.values()):
            self.agent_selection = self.agents[0]

    def legal_labels(self) -> list[str]:
        """The selected agent's legal actions as labels, by index."""
        seat = self.possible_agents.index(self.agent_selection)
        return self.rules.labels(self.state, seat)

    def render(self) -> str | None:
        """With render_mode "ansi": the spectator's View as protobuf text."""
        if self.render_mode != "ansi":
            return None
        return text_format.MessageToString(self.rules.backend.view(self.state, None))

    def close(self) -> None:
        """Nothing to release."""
        return None


def env(title: str, **kwargs: Any) -> TitleEnv:
    """The AEC environment of `title` (see TitleEnv for the arguments)."""
    return TitleEnv(title, **kwargs)

"""A training loop example: a linear softmax policy learned with REINFORCE against random opponents.

    python -m research.reinforce --title goldencity --episodes 2000

Each episode is one game of the PettingZoo environment with the learner on one seat (the seats taken
in turn) and uniform random legal choices on the others. The policy scores every action index as a
linear function of the learner's observation (squashed by sign(x)·log(1 + |x|), as counts and scores
range widely), masks the illegal ones and samples from the softmax. After the game, each of its
decisions moves the weights along the gradient of its log-probability, scaled by the game's return
(+1 won, -1 lost) less a running mean of the returns (a baseline that lowers the variance). The win
rate against random opponents, with the policy's greedy choices, is measured before and after.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

import numpy as np

from research.pettingzoo_env import TitleEnv

LEARNING_RATE = 0.001
BASELINE_DECAY = 0.99  # the weight of the running mean's past in each update
EVALUATION_GAMES = 200


def features(observation: np.ndarray) -> np.ndarray:
    """The observation squashed into a range a linear policy can weigh, with a constant 1 appended."""
    return np.append(np.sign(observation) * np.log1p(np.abs(observation)), 1.0).astype(np.float32)


@dataclass
class LinearPolicy:
    """Action scores `weights @ features(observation)`, softmax over the legal indices."""

    weights: np.ndarray
    rng: np.random.Generator = field(default_factory=np.random.default_rng)

    @classmethod
    def zeros(cls, env: TitleEnv, seed: int) -> LinearPolicy:
        """The uniform policy over the legal actions of `env`'s title."""
        return cls(
            np.zeros((env.rules.actions.size, env.rules.encoder.size + 1), np.float32),
            np.random.default_rng(seed),
        )

    def probabilities(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """The softmax of the legal actions' scores (0 for the illegal ones)."""
        scores = np.where(mask.astype(bool), self.weights @ x, -np.inf)
        scores -= scores.max()
        exp = np.exp(scores)
        return exp / exp.sum()

    def choose(self, x: np.ndarray, mask: np.ndarray, greedy: bool) -> int:
        """A legal index: the most probable (greedy) or a sample."""
        p = self.probabilities(x, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(len(p), p=p))


def play(
    env: TitleEnv, policy: LinearPolicy, seat: int, seed: int, greedy: bool
) -> tuple[float, list[tuple[np.ndarray, np.ndarray, int]]]:
    """One game with the policy on `seat` and random legal choices elsewhere: the seat's return and
    the policy's decisions (features, mask, index)."""
    env.reset(seed=seed)
    others = np.random.default_rng(seed)
    learner = env.possible_agents[seat]
    decisions = []
    result = 0.0
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if agent == learner:
            result = float(reward)  # the last one, as the game ends, is the seat's return
        action = None
        if not (terminated or truncated):
            mask = observation["action_mask"]
            if agent == learner:
                x = features(observation["observation"])
                action = policy.choose(x, mask, greedy)
                decisions.append((x, mask, action))
            else:
                action = int(others.choice(np.flatnonzero(mask)))
        env.step(action)
    return result, decisions


def win_rate(env: TitleEnv, policy: LinearPolicy, games: int, first_seed: int) -> float:
    """The share of `games` the policy's greedy choices win (a shared win counts), seats in turn."""
    won = 0
    for game in range(games):
        result, _ = play(env, policy, game % env.player_count, first_seed + game, greedy=True)
        won += result > 0
    return won / games


def train(env: TitleEnv, policy: LinearPolicy, episodes: int, first_seed: int) -> list[float]:
    """REINFORCE over `episodes` games, seats in turn; each episode's return."""
    baseline = 0.0
    returns = []
    for episode in range(episodes):
        result, decisions = play(env, policy, episode % env.player_count, first_seed + episode, greedy=False)
        advantage = result - baseline
        baseline = BASELINE_DECAY * baseline + (1 - BASELINE_DECAY) * result
        update(policy, decisions, advantage)
        returns.append(result)
    return returns


def update(
    policy: LinearPolicy, decisions: list[tuple[np.ndarray, np.ndarray, int]], advantage: float
) -> None:
    """Move the weights along each decision's gradient of log p(action), times the advantage."""
    for x, mask, action in decisions:
        gradient = -policy.probabilities(x, mask)
        gradient[action] += 1.0  # d log p(action) / d scores
        policy.weights += LEARNING_RATE * advantage * np.outer(gradient, x)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--title", default="goldencity")
    parser.add_argument("--players", type=int, default=None, help="seats (the title's fewest)")
    parser.add_argument("--episodes", type=int, default=2000)
    parser.add_argument("--evaluation-games", type=int, default=EVALUATION_GAMES)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    env = TitleEnv(args.title, players=args.players)
    policy = LinearPolicy.zeros(env, args.seed)
    evaluation_seed = 10**6  # games the training never sees
    before = win_rate(env, policy, args.evaluation_games, evaluation_seed)
    returns = train(env, policy, args.episodes, args.seed)
    after = win_rate(env, policy, args.evaluation_games, evaluation_seed)
    tail = returns[-min(len(returns), 200) :]
    print(f"{args.title}, {env.player_count} players, {args.episodes} episodes against random opponents")
    print(
        f"greedy win rate over {args.evaluation_games} unseen games: before {before:.0%}, after {after:.0%}"
    )
    print(f"mean return of the last {len(tail)} training games: {np.mean(tail):+.2f}")


if __name__ == "__main__":
    main()

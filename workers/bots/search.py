"""The search bot: Monte Carlo tree search over determinized hidden information (single-observer
information-set MCTS), using the engine in-process.

Each iteration samples a world consistent with the bot's view (`knowledge.determinize`), walks one
tree shared by every world (a child's availability counts the iterations where its action was legal,
so UCB treats actions that exist only in some worlds fairly), adds one node, finishes the game with
random moves up to a depth, and backs up a reward for every seat. A node picks its child by the
reward of the seat acting there (max^n for more than two players). When the game has its own
heuristic, its choice at the root starts with `prior_visits` won visits (progressive bias), so the
search departs from it only on evidence. The move played is the root's most visited action. The
budget is a time limit, a number of iterations, or both.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from services.common.game import AnyGame
from services.common.rng import Rng
from workers.bots.knowledge import determinize

EXPLORATION: Final = 0.7
MARGIN_SCALE_FRACTION: Final = 1 / 50  # of the game's score range: the margin worth about 0.73 of a win


@dataclass(frozen=True)
class Budget:
    """How long the search bot thinks per move: seconds, iterations (0: no limit), or both; how deep
    playouts go; and how many iterations' worth of wins the game's heuristic choice starts with."""

    seconds: float = 1.0
    iterations: int = 0
    rollout_depth: int = 200
    prior_visits: int = 10


class Node:
    """Statistics of one action sequence from the root, over every world it was reached in."""

    __slots__ = ("available", "children", "rewards", "visits")

    def __init__(self, seats: int) -> None:
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.available = 1
        self.rewards = [0.0] * seats


def rewards(game: AnyGame, state: Any, seats: int) -> list[float]:
    """Every seat's reward in [0, 1]: by rank at the end, else by its score lead now."""
    scores = game.scores(state)
    if game.is_terminal(state) and seats > 1:
        return [(seats - s.rank) / (seats - 1) for s in scores.seats]
    scale = max(1.0, (game.info.max_score - game.info.min_score) * MARGIN_SCALE_FRACTION)
    totals = [s.total for s in scores.seats]
    result = []
    for seat, total in enumerate(totals):
        others = [t for s, t in enumerate(totals) if s != seat]
        lead = total - (max(others) if others else 0)
        result.append(1 / (1 + math.exp(-lead / scale)))
    return result


def rollout(game: AnyGame, world: Any, rng: Rng, depth: int) -> None:
    """Play `world` on in place with random legal moves of the first acting seat, for at most `depth`
    moves or until the game ends (one `rng.below` draw per move): the game's `rollout`."""
    game.rollout(world, rng, depth)


def _select(node: Node, actions: Sequence[Any], seat: int) -> tuple[Any, Node]:
    children, log, sqrt = node.children, math.log, math.sqrt
    best_action, best_child, best_value = None, None, float("-inf")
    for action in actions:
        child = children[action]
        visits = child.visits
        value = child.rewards[seat] / visits + EXPLORATION * sqrt(log(child.available) / visits)
        if value > best_value:
            best_action, best_child, best_value = action, child, value
    assert best_child is not None
    return best_action, best_child


def iterate(game: AnyGame, root: Node, state: Any, seat: int, rng: Rng, budget: Budget) -> None:
    """One iteration: determinize, select, expand, roll out, back up."""
    seats = len(root.rewards)
    world = determinize(game, state, seat, rng)
    is_terminal, acting_seats, legal_now, advance = (
        game.is_terminal,
        game.acting_seats,
        game.legal_now,
        game.advance,
    )
    node, path = root, [root]
    while not is_terminal(world):
        actor = acting_seats(world)[0]
        actions = legal_now(world)
        children = node.children
        untried = []
        for action in actions:
            child = children.get(action)
            if child is None:
                untried.append(action)
            else:
                child.available += 1
        if untried:
            action = untried[rng.below(len(untried))]
            child = children[action] = Node(seats)
            advance(world, action)
            path.append(child)
            break
        action, node = _select(node, actions, actor)
        advance(world, action)
        path.append(node)
    rollout(game, world, rng, budget.rollout_depth)
    result = rewards(game, world, seats)
    for visited in path:
        visited.visits += 1
        totals = visited.rewards
        for s in range(seats):
            totals[s] += result[s]


def search_action(game: AnyGame, state: Any, seat: int, rng: Rng, budget: Budget) -> Any:
    """The root's most visited action after searching within `budget`."""
    actions = list(game.legal_actions(state, seat))
    if not actions:
        raise ValueError(f"seat {seat} has no legal action")
    if len(actions) == 1:
        return actions[0]
    root = Node(len(game.scores(state).seats))
    if budget.prior_visits > 0:
        policy = game.heuristic_action
        if policy is not None:
            favourite = root.children[policy(state, seat, rng)] = Node(len(root.rewards))
            favourite.visits = budget.prior_visits
            favourite.rewards[seat] = float(budget.prior_visits)
    deadline = time.perf_counter() + budget.seconds if budget.seconds > 0 else math.inf
    done = 0
    while (budget.iterations <= 0 or done < budget.iterations) and time.perf_counter() < deadline:
        iterate(game, root, state, seat, rng, budget)
        done += 1
    visited = [(root.children[a].visits, -i, a) for i, a in enumerate(actions) if a in root.children]
    if not visited:
        return actions[0]
    return max(visited)[2]

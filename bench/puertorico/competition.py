"""Puerto Rico in lockstep with the IEEE CoG Puerto Rico AI competition's engine, for its agents.

One game is played in both engines at once: the same 3 seats, the same governor and starting
plantations, and the competition engine's plantation draws imposed on ours (its stack and face-up
tiles copied into our state's public fields after every step, once the two pools of tiles are seen to
hold the same tiles). Every decision is mapped between their action ids and our `Action` values, and at
every decision both engines must offer the same legal actions and agree on the state (money, VP,
goods, island, city, supplies, ships, trading house); a difference stops the game with a `Mismatch`
naming the state, both action lists and the rule in question.

The two engines cut some decisions differently; these are translated, not compared action by action:

- Mayor: we rearrange from the current arrangement (place the new colonists, then move one colonist
  at a time or keep), they take every colonist back and place each one. The seat's player arranges
  in its own engine and the resulting arrangement is played into the other.
- Storage after the captain: we warehouse kinds, then keep single goods; they name the windrose and
  warehouse goods in any order and pass. The goods kept are carried over the same way.
- Hacienda: we ask first (draw or not), they offer the draw beside the face-up tiles.
- Steps they take for the player: the mayor's privilege colonist, the hospice's and the university's
  colonist (ours may decline them; rules §4.1, §4.2, §5 "may"), and every decision with one legal
  action. We take the same (never declining) and count each as a finding of kind `optional`.

The competition's code is never copied here: it is imported from a checkout given by the user
(`--competition DIR` or `PR_COMPETITION_DIR`). Its `agents` package is loaded without its
`__init__` (which imports torch for an agent we do not use).
"""

from __future__ import annotations

import importlib
import os
import random
import sys
import time
import types
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from services.common import registry
from services.common.playout import default_config
from services.common.rng import Rng
from services.puertorico import actions as A
from services.puertorico import state as S
from workers.bots import SEARCH, Budget, choose_action

ENV_VAR = "PR_COMPETITION_DIR"
REPOSITORY = "https://github.com/dae-hany/PuertoRico_AI_Competition"
HOW_TO_GET = (
    f"clone {REPOSITORY} (git clone {REPOSITORY} DIR) and pass --competition DIR or set {ENV_VAR}=DIR;"
    " its dependencies (numpy, gymnasium, pettingzoo) are in the dev extras"
)
PLAYERS = 3
MOVE_SECONDS = 1.0  # the competition's per-move limit: an overrun plays a random legal action
BASE_BUILDINGS = 23

# Their Good order is coffee, tobacco, corn, sugar, indigo; ours corn, indigo, sugar, tobacco, coffee.
THEIR_GOOD_TO_OURS = (4, 3, 0, 2, 1)
OUR_GOOD_TO_THEIRS = tuple(THEIR_GOOD_TO_OURS.index(g) for g in range(5))
THEIR_TILE_TO_OURS = (*THEIR_GOOD_TO_OURS, 5)  # plantations as goods, then the quarry (5 in both)
OUR_TILE_TO_THEIRS = (*OUR_GOOD_TO_THEIRS, 5)
THEIR_AGENTS = {
    "actionvalue": ("agents.action_value_agent", "ActionValueAgent"),
    "shippingrush": ("agents.shipping_rush_agent", "ShippingRushAgent"),
    "mcts": ("agents.mcts_agent", "MctsAgent"),
    "random": ("agents.random_agent", "RandomAgent"),
}


OPPONENTS = "the AI competition's agents"
"""Whom the strength table's rows play (`bench.strength` reads this module's upper-case names)."""
AGENTS = ("mcts", "actionvalue", "shippingrush")  # MCTS first: the target is against it
TARGETS = {(SEARCH, "mcts"): 0.60}  # a win rate, at least, of one of ours against two of theirs


class MissingCompetition(RuntimeError):
    """No checkout of the competition's repository was given or found."""


@dataclass
class Mismatch:
    """A decision where the two engines disagree: what they offer or what they hold."""

    rule: str
    detail: str
    state: str
    ours: list[str] = field(default_factory=list)
    theirs: list[str] = field(default_factory=list)

    def report(self) -> str:
        """A readable report: the rule, the state and both action lists."""
        return (
            f"{self.rule}: {self.detail}\n  state: {self.state}\n"
            f"  ours:   {', '.join(self.ours) or '-'}\n  theirs: {', '.join(self.theirs) or '-'}"
        )


@dataclass
class Outcome:
    """One game's end: the scores in both engines, or the mismatch that stopped it."""

    seats: tuple[str, ...]
    our_scores: list[tuple[int, int]] | None
    their_scores: list[tuple[int, int]] | None
    winners: list[int]
    decisions: int
    timeouts: list[int]  # per seat, their moves over the time limit (replaced by a random legal one)
    chosen: list[int]  # per seat, the moves their agent chose (0 for ours)
    findings: Counter[str]
    mismatch: Mismatch | None = None


def competition_dir(given: str | None = None) -> Path:
    """The competition checkout: `given`, else $PR_COMPETITION_DIR; MissingCompetition otherwise."""
    path = given or os.environ.get(ENV_VAR)
    if not path:
        raise MissingCompetition(f"no checkout of the Puerto Rico AI competition: {HOW_TO_GET}")
    root = Path(path)
    if (
        not (root / "puerto_rico" / "engine.py").is_file()
        or not (root / "agents" / "mcts_agent.py").is_file()
    ):
        raise MissingCompetition(f"{root} is not a checkout of the Puerto Rico AI competition: {HOW_TO_GET}")
    return root


def load(root: Path) -> types.SimpleNamespace:
    """Import the competition's engine and agents from `root`."""
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if "agents" not in sys.modules:
        package = types.ModuleType("agents")
        package.__path__ = [str(root / "agents")]
        sys.modules["agents"] = package
    env = importlib.import_module("puerto_rico.env")
    model = importlib.import_module("puerto_rico.forward_model")
    constants = importlib.import_module("puerto_rico.constants")
    agents = {name: getattr(importlib.import_module(mod), cls) for name, (mod, cls) in THEIR_AGENTS.items()}
    return types.SimpleNamespace(env=env, model=model, c=constants, agents=agents)


def their_action_to_ours(action: int) -> A.Action | None:
    """Our Action for one of their action ids outside the mayor's (None for those and 105)."""
    if 0 <= action <= 7:
        return A.ROLE[action]
    if 8 <= action <= 12:
        return A.PLANTATION[THEIR_TILE_TO_OURS[action - 8]]
    if action == 13:
        return A.QUARRY_ACTION
    if action == 15:
        return A.PASS_ACTION
    if 16 <= action <= 38:
        return A.BUILD_ACTION[action - 16]
    if 39 <= action <= 43:
        return A.SELL_ACTION[THEIR_GOOD_TO_OURS[action - 39]]
    if 44 <= action <= 58:
        ship, good = divmod(action - 44, 5)
        return A.LOAD_ACTION[THEIR_GOOD_TO_OURS[good]][ship]
    if 59 <= action <= 63:
        return A.WHARF_ACTION[THEIR_GOOD_TO_OURS[action - 59]]
    if 93 <= action <= 97:
        return A.BONUS[THEIR_GOOD_TO_OURS[action - 93]]
    return None


def our_action_to_theirs(action: A.Action) -> int:
    """Their action id for one of our Actions (those outside the translated steps)."""
    kind = action.kind
    if kind == A.CHOOSE_ROLE:
        return action.arg
    if kind == A.TAKE_PLANTATION:
        return 8 + OUR_TILE_TO_THEIRS[action.arg]
    if kind == A.TAKE_QUARRY:
        return 13
    if kind == A.PASS:
        return 15
    if kind == A.BUILD:
        return 16 + action.arg
    if kind == A.SELL:
        return 39 + OUR_GOOD_TO_THEIRS[action.arg]
    if kind == A.LOAD:
        return 44 + action.arg2 * 5 + OUR_GOOD_TO_THEIRS[action.arg]
    if kind == A.SHIP_WITH_WHARF:
        return 59 + OUR_GOOD_TO_THEIRS[action.arg]
    if kind == A.CRAFTSMAN_BONUS:
        return 93 + OUR_GOOD_TO_THEIRS[action.arg]
    raise ValueError(f"no competition action for {action}")


class Controller:
    """Who plays a seat: one of our bots on our state, or one of their agents on theirs."""

    ours: bool = True
    name: str = "?"


class OurBot(Controller):
    def __init__(self, strength: str, budget: Budget, seed: int) -> None:
        self.name, self.budget, self.rng = strength, budget, Rng.from_seed(f"bench-{seed}".encode())
        self.strength = strength

    def act(self, game: Any, state: Any, seat: int) -> Any:
        return choose_action(game, state, seat, self.strength, self.rng, self.budget)


class TheirAgent(Controller):
    ours = False

    def __init__(
        self,
        lib: types.SimpleNamespace,
        name: str,
        seed: int,
        move_seconds: float = MOVE_SECONDS,
        **options: Any,
    ) -> None:
        cls = lib.agents[name]
        self.name = name
        self.move_seconds = move_seconds  # 0: no limit, the agent's own choice always kept
        self.agent = cls(seed=seed, **options) if name == "mcts" else _construct(cls, seed)
        import numpy as np

        self.np, self.fallback = np, np.random.default_rng(seed)

    def act(self, model: Any) -> tuple[int, bool]:
        """Their agent's action under the competition's rule (at MOVE_SECONDS): an overrun plays a random
        legal action instead."""
        mask = model.action_mask()
        start = time.perf_counter()
        action = int(self.agent.act(model.observation(), mask))
        legal = self.np.flatnonzero(mask)
        overran = self.move_seconds > 0 and time.perf_counter() - start > self.move_seconds
        if overran or mask[action] != 1:
            return int(self.fallback.choice(legal)), True
        return action, False


def _construct(cls: Any, seed: int) -> Any:
    try:
        return cls(seed=seed)
    except TypeError:
        return cls()


class Lockstep:
    """One 3-player base game in both engines."""

    def __init__(self, lib: types.SimpleNamespace, seed: int, controllers: list[Controller]) -> None:
        self.lib, self.c = lib, lib.c
        self.game = registry.get("puertorico")
        self.controllers = controllers
        random.seed(seed)
        import numpy as np

        np.random.seed(seed % 2**32)
        env = lib.env.PuertoRicoEnv(num_players=PLAYERS)
        env.reset(seed=seed)
        self.model = lib.model.ForwardModel(env)
        self.their = env.unwrapped.game
        governor = self.their.governor_idx
        config = default_config(self.game)
        for attempt in range(1000):  # our seed with the same first governor; the draws are theirs
            state, _ = self.game.new_game(PLAYERS, config, f"lockstep-{seed}-{attempt}".encode())
            if state.governor == governor:
                break
        self.state = state
        self.findings: Counter[str] = Counter()
        self.decisions = 0
        self.timeouts = [0] * PLAYERS
        self.chosen = [0] * PLAYERS
        for i, c in enumerate(controllers):
            if not c.ours:
                c.agent.on_game_start(self.model)  # type: ignore[attr-defined]
                del i
        self._sync_chance()

    # ---- reading both engines ---------------------------------------------------------------
    def _their_legal(self) -> list[int]:
        return [int(a) for a in self.lib.env.np.flatnonzero(self.model.action_mask())]

    def _digest_ours(self) -> dict[str, Any]:
        st = self.state
        out: dict[str, Any] = {
            "vp pool": st.vp_pool,
            "colonist supply": st.colonist_supply,
            "colonist ship": st.colonist_ship,
            "goods supply": tuple(st.goods_supply),
            "quarries": st.quarries,
            "ships": tuple(
                sorted(
                    zip(
                        st.ship_cap,
                        st.ship_count,
                        [g if c else -1 for g, c in zip(st.ship_good, st.ship_count, strict=True)],
                        strict=True,
                    )
                )
            ),
            "trading house": tuple(sorted(st.trading_house)),
            "stock": tuple(st.stock[:BASE_BUILDINGS]),
        }
        for i, p in enumerate(st.players):
            out[f"seat {i}"] = (
                p.doubloons,
                p.vp,
                tuple(p.goods),
                tuple(p.tiles[:6]),
                tuple(sorted(p.buildings)),
                p.colonists(),
            )
        return out

    def _digest_theirs(self) -> dict[str, Any]:
        g, c = self.their, self.c
        out: dict[str, Any] = {
            "vp pool": max(g.vp_chips, 0),  # theirs goes below 0 once the last chip is gone; ours stops
            "colonist supply": g.colonists_supply,
            "colonist ship": g.colonists_ship,
            "goods supply": tuple(g.goods_supply[c.Good(OUR_GOOD_TO_THEIRS[k])] for k in range(5)),
            "quarries": g.quarry_stack,
            "ships": tuple(
                sorted(
                    (
                        s.capacity,
                        s.current_load,
                        THEIR_GOOD_TO_OURS[s.good_type] if s.good_type is not None and s.current_load else -1,
                    )
                    for s in g.cargo_ships
                )
            ),
            "trading house": tuple(sorted(THEIR_GOOD_TO_OURS[x] for x in g.trading_house)),
            "stock": tuple(g.building_supply.get(c.BuildingType(b), 0) for b in range(BASE_BUILDINGS)),
        }
        for i, p in enumerate(g.players):
            tiles = [0] * 6
            for t in p.island_board:
                tiles[THEIR_TILE_TO_OURS[int(t.tile_type)]] += 1
            out[f"seat {i}"] = (
                p.doubloons,
                p.vp_chips,
                tuple(p.goods[c.Good(OUR_GOOD_TO_THEIRS[k])] for k in range(5)),
                tuple(tiles),
                tuple(
                    sorted(
                        int(b.building_type) for b in p.city_board if int(b.building_type) < BASE_BUILDINGS
                    )
                ),
                p.total_colonists_owned,
            )
        return out

    def _describe(self) -> str:
        st = self.state
        return (
            f"round {st.round}, our step {st.step} actor {st.actor} role {st.role}; their phase "
            f"{self.their.current_phase!r} player {self.their.current_player_idx}; "
            f"ours {self._digest_ours()}"
        )

    def _labels(self, actions: list[Any]) -> list[str]:
        return [
            self.game.label(self.state, a)
            if a in self.game.legal_actions(self.state, self.state.actor)
            else str(a)
            for a in actions
        ]

    # ---- chance ------------------------------------------------------------------------------
    def _sync_chance(self) -> None:
        """Their plantation stack and face-up tiles into our state, once both pools hold the same tiles."""
        st, g = self.state, self.their
        ours = (
            Counter(st.plantation_stack) + Counter(st.face_up_plantations) + Counter(st.plantation_discards)
        )
        theirs = Counter(
            THEIR_TILE_TO_OURS[int(t)]
            for t in [*g.plantation_stack, *g.face_up_plantations, *g.plantation_discard]
        )
        if ours != theirs:
            raise _Stop(
                Mismatch(
                    "§1 plantation supply",
                    f"pools differ: ours {dict(ours)}, theirs {dict(theirs)}",
                    self._describe(),
                )
            )
        st.plantation_stack = [THEIR_TILE_TO_OURS[int(t)] for t in g.plantation_stack]
        st.face_up_plantations = sorted(THEIR_TILE_TO_OURS[int(t)] for t in g.face_up_plantations)
        st.plantation_discards = [THEIR_TILE_TO_OURS[int(t)] for t in g.plantation_discard]
        st.legal = None

    # ---- stepping ----------------------------------------------------------------------------
    def _apply_ours(self, action: Any) -> None:
        self.state, _ = self.game.apply(self.state, self.state.actor, action)

    def _apply_theirs(self, action: int) -> None:
        self.model.step(action)
        if self.model.env.unwrapped.infos.get("player_0", {}).get("error"):
            raise _Stop(
                Mismatch(
                    "their engine refused",
                    self.model.env.unwrapped.infos["player_0"]["error"],
                    self._describe(),
                    theirs=[str(action)],
                )
            )

    def _their_choice(self, seat: int) -> int:
        action, timed_out = self.controllers[seat].act(self.model)  # type: ignore[attr-defined]
        self.timeouts[seat] += timed_out
        self.chosen[seat] += 1
        return action

    def _our_choice(self, seat: int) -> Any:
        return self.controllers[seat].act(self.game, self.state, seat)  # type: ignore[attr-defined]

    def play(self) -> Outcome:
        """Play to the end; a mismatch ends the game early and is in the outcome."""
        mismatch = None
        try:
            while not (self.game.is_terminal(self.state) and self.model.is_terminal()):
                self._decision()
                self._sync_chance()
        except _Stop as stop:
            mismatch = stop.mismatch
        return self._outcome(mismatch)

    def _outcome(self, mismatch: Mismatch | None) -> Outcome:
        theirs = [(s[0], s[1]) for s in self.their.get_scores()]
        ours = None
        winners: list[int] = []
        if mismatch is None:
            scores = self.game.scores(self.state)
            ours = [(seat.total, seat.tiebreak) for seat in scores.seats]
            best = max(theirs)
            winners = [i for i, s in enumerate(theirs) if s == best]
            if sorted(scores.winners) != winners:
                mismatch = Mismatch(
                    "§7.2 final scores",
                    f"winners differ: ours {sorted(scores.winners)} {ours}, theirs {winners} {theirs}",
                    self._describe(),
                )
        return Outcome(
            tuple(c.name for c in self.controllers),
            ours,
            theirs,
            winners,
            self.decisions,
            self.timeouts,
            self.chosen,
            self.findings,
            mismatch,
        )

    def _check_state(self) -> None:
        ours, theirs = self._digest_ours(), self._digest_theirs()
        diff = [f"{k}: ours {ours[k]} theirs {theirs[k]}" for k in ours if ours[k] != theirs[k]]
        if diff:
            raise _Stop(Mismatch("state diverged", "; ".join(diff), self._describe()))

    def _decision(self) -> None:
        st = self.state
        seat = st.actor
        step = st.step
        if step in OPTIONAL:
            self.findings[f"optional: ours may decline the {OPTIONAL[step][1]}, theirs always takes it"] += 1
            self._apply_ours(OPTIONAL[step][0])
            return
        if (
            self.their.current_phase == self.c.Phase.CAPTAIN_STORE
            and not self.model.is_terminal()
            and (step != S.STORE or self.model.current_player() != seat)
        ):
            # Ours asks only a player with goods at risk; theirs also one whose goods all fit, in
            # any order: the goods kept are the same, so theirs is played to what ours kept.
            self.findings["storage: theirs asks a player whose goods all fit"] += 1
            self._impose_store(self.model.current_player(), None)
            return
        if (
            self.their.current_phase == self.c.Phase.MAYOR
            and not self.model.is_terminal()
            and (step != S.PLACE_COLONIST or self.model.current_player() != seat)
        ):
            # Ours asks only a player with a choice of arrangement; theirs also one whose colonists
            # have one kind of space to go to: theirs is placed as ours stands.
            self.findings["mayor: theirs asks a player whose arrangement is forced"] += 1
            self._arrange_theirs(self.model.current_player())
            return
        # Only now: either engine may have steps left that the other took for the player or skipped.
        if self.game.is_terminal(st) != self.model.is_terminal():
            raise _Stop(
                Mismatch(
                    "§7 game end",
                    f"ours over: {self.game.is_terminal(st)}, theirs over: {self.model.is_terminal()}",
                    self._describe(),
                )
            )
        self._check_state()
        ours = list(self.game.legal_actions(st, seat))
        if step == S.PLACE_COLONIST:
            self._mayor(seat)
            return
        if step == S.STORE:
            self._store(seat)
            return
        their_seat = self.model.current_player()
        their = self._their_legal()
        if step == S.HACIENDA_STEP:
            self._hacienda(seat, their)
            return
        mapped = sorted({their_action_to_ours(a) for a in their if a != 105} - {None})  # type: ignore[type-var]
        if len(ours) == 1 and (their_seat != seat or mapped != ours):
            self.findings["forced: one legal action, which their environment plays itself"] += 1
            self._apply_ours(ours[0])
            return
        if their_seat != seat or sorted(ours) != mapped:
            raise _Stop(
                Mismatch(
                    _rule(step),
                    f"seat {seat} (theirs: {their_seat}) offered different actions",
                    self._describe(),
                    [self.game.label(st, a) for a in ours],
                    [_their_name(a) for a in their],
                )
            )
        self.decisions += 1
        if self.controllers[seat].ours:
            action = self._our_choice(seat)
            self._apply_ours(action)
            self._apply_theirs(our_action_to_theirs(action))
        else:
            their_action = self._their_choice(seat)
            self._apply_theirs(their_action)
            ours_action = their_action_to_ours(their_action)
            assert ours_action is not None
            self._apply_ours(ours_action)

    def _hacienda(self, seat: int, their: list[int]) -> None:
        if (105 in their) != (A.HACIENDA_ACTION in self.game.legal_actions(self.state, seat)):
            detail = (
                "the draw is offered by one engine only (their face-down stack"
                f" {len(self.their.plantation_stack)}, their discards {len(self.their.plantation_discard)})"
            )
            raise _Stop(
                Mismatch(
                    "§4.1 step 2 hacienda",
                    detail,
                    self._describe(),
                    [self.game.label(self.state, a) for a in self.game.legal_actions(self.state, seat)],
                    [_their_name(a) for a in their],
                )
            )
        self.decisions += 1
        if self.controllers[seat].ours:
            action = self._our_choice(seat)
            self._apply_ours(action)
            if action == A.HACIENDA_ACTION:
                self._apply_theirs(105)
        else:
            their_action = self._their_choice(seat)
            if their_action == 105:
                self._apply_ours(A.HACIENDA_ACTION)
                self._apply_theirs(105)
            else:
                self._apply_ours(A.PASS_ACTION)  # the tile itself is the next, compared, decision
                self._sync_chance()
                mapped = their_action_to_ours(their_action)
                if mapped not in self.game.legal_actions(self.state, seat):
                    raise _Stop(
                        Mismatch(
                            "§4.1 settler",
                            "their choice is not ours to take",
                            self._describe(),
                            [],
                            [str(their_action)],
                        )
                    )
                self._apply_theirs(their_action)
                self._apply_ours(mapped)

    # ---- the mayor: whole arrangements carried over ---------------------------------------------
    def _their_arrangement(self, seat: int) -> Counter[int]:
        p = self.their.players[seat]
        counts: Counter[int] = Counter()
        for t in p.island_board:
            if t.is_occupied:
                counts[THEIR_TILE_TO_OURS[int(t.tile_type)]] += 1
        for b in p.city_board:
            if int(b.building_type) < BASE_BUILDINGS and b.colonists:
                counts[A.BUILDING_SPACE + int(b.building_type)] += b.colonists
        return counts

    def _our_arrangement(self, seat: int) -> Counter[int]:
        p = self.state.players[seat]
        counts: Counter[int] = Counter({t: p.occupied[t] for t in range(6) if p.occupied[t]})
        for b, n in p.buildings.items():
            if n:
                counts[A.BUILDING_SPACE + b] += n
        return counts

    def _their_mayor_turn(self, seat: int) -> bool:
        return (
            not self.model.is_terminal()
            and self.their.current_phase == self.c.Phase.MAYOR
            and self.model.current_player() == seat
        )

    def _arrange_theirs(self, seat: int) -> None:
        """Place their colonists of `seat` as ours stand."""
        target = self._our_arrangement(seat)
        while self._their_mayor_turn(seat):
            have = self._their_arrangement(seat)
            need = [space for space in target if target[space] > have[space]]
            legal = self._their_legal()
            ids = [
                120 + OUR_TILE_TO_THEIRS[s] if s < A.BUILDING_SPACE else 140 + s - A.BUILDING_SPACE
                for s in need
            ]
            pick = next((i for i in ids if i in legal), None)
            if pick is None:
                raise _Stop(
                    Mismatch(
                        "§4.2 mayor",
                        f"our arrangement {dict(target)} cannot be placed in theirs",
                        self._describe(),
                        [],
                        [str(a) for a in legal],
                    )
                )
            self._apply_theirs(pick)

    def _mayor(self, seat: int) -> None:
        if not self._their_mayor_turn(seat):
            raise _Stop(Mismatch("§4.2 mayor", f"seat {seat} arranges in ours only", self._describe()))
        self.decisions += 1
        if self.controllers[seat].ours:
            while self.state.step == S.PLACE_COLONIST and self.state.actor == seat:
                self._apply_ours(self._our_choice(seat))
            self._arrange_theirs(seat)
        else:
            while self._their_mayor_turn(seat):
                self._apply_theirs(self._their_choice(seat))
            target = self._their_arrangement(seat)
            while self.state.step == S.PLACE_COLONIST and self.state.actor == seat:
                have = self._our_arrangement(seat)
                legal = self.game.legal_actions(self.state, seat)
                deficit = [s for s in target if target[s] > have[s]]
                surplus = [s for s in have if have[s] > target[s]]
                pick = next((A.PLACE[s] for s in deficit if A.PLACE[s] in legal), None)
                if pick is None:
                    pick = next(
                        (A.MOVE_FROM[a][b] for a in surplus for b in deficit if A.MOVE_FROM[a][b] in legal),
                        None,
                    )
                if pick is None:
                    pick = A.PASS_ACTION
                self._apply_ours(pick)
        if self._our_arrangement(seat) != self._their_arrangement(seat):
            raise _Stop(
                Mismatch(
                    "§4.2 mayor",
                    f"arrangements differ: ours {dict(self._our_arrangement(seat))},"
                    f" theirs {dict(self._their_arrangement(seat))}",
                    self._describe(),
                )
            )

    def _impose_store(self, seat: int, held: list[int] | None) -> None:
        """Play their storage for `seat` to keep what our state kept."""
        kept = self.state.players[seat].goods
        if held is None:
            held = [self.their.players[seat].goods[self.c.Good(OUR_GOOD_TO_THEIRS[g])] for g in range(5)]
        while self._their_store_turn(seat):
            legal = self._their_legal()
            assign = self.their._storage_assignments[seat]
            done = {THEIR_GOOD_TO_OURS[int(x)] for x in assign["warehouses"]}
            if assign["windrose"] is not None:
                done.add(THEIR_GOOD_TO_OURS[int(assign["windrose"])])
            pick = None
            for g in range(5):
                if kept[g] and g not in done:
                    whole, one = 106 + OUR_GOOD_TO_THEIRS[g], 64 + OUR_GOOD_TO_THEIRS[g]
                    if kept[g] == 1 and one in legal:
                        pick = one
                    elif kept[g] == held[g] and whole in legal:
                        pick = whole
                    if pick is not None:
                        break
            if pick is None:
                pick = 15 if 15 in legal else legal[0]
            self._apply_theirs(pick)

    # ---- storage after the captain: the goods kept carried over ---------------------------------
    def _their_store_turn(self, seat: int) -> bool:
        return (
            not self.model.is_terminal()
            and self.their.current_phase == self.c.Phase.CAPTAIN_STORE
            and self.model.current_player() == seat
        )

    def _store(self, seat: int) -> None:
        if not self._their_store_turn(seat):
            raise _Stop(Mismatch("§4.6 storage", f"seat {seat} stores in ours only", self._describe()))
        self.decisions += 1
        c = self.c
        if self.controllers[seat].ours:
            held = self.state.players[seat].goods[:]
            while self.state.step == S.STORE and self.state.actor == seat:
                self._apply_ours(self._our_choice(seat))
            self._impose_store(seat, held)
        else:
            while self._their_store_turn(seat):
                self._apply_theirs(self._their_choice(seat))
            kept = [self.their.players[seat].goods[c.Good(OUR_GOOD_TO_THEIRS[g])] for g in range(5)]
            while self.state.step == S.STORE and self.state.actor == seat:
                legal = self.game.legal_actions(self.state, seat)
                held = self.state.players[seat].goods
                pick = next(
                    (
                        a
                        for a in legal
                        if a.kind == A.STORE_IN_WAREHOUSE and kept[a.arg] and kept[a.arg] == held[a.arg]
                    ),
                    None,
                )
                if pick is None:
                    pick = next((a for a in legal if a.kind == A.KEEP_SINGLE and kept[a.arg]), legal[0])
                self._apply_ours(pick)


OPTIONAL = {
    S.MAYOR_PRIVILEGE: (A.PRIVILEGE_ACTION, "mayor's privilege colonist (§4.2)"),
    S.HOSPICE_STEP: (A.HOSPICE_ACTION, "hospice's colonist (§5)"),
    S.UNIVERSITY_STEP: (A.UNIVERSITY_ACTION, "university's colonist (§5)"),
}


class _Stop(Exception):
    def __init__(self, mismatch: Mismatch) -> None:
        super().__init__(mismatch.report())
        self.mismatch = mismatch


def _their_name(action: int) -> str:
    """Their action id with our reading of it."""
    ours = their_action_to_ours(action)
    if action == 105:
        return "105 (hacienda draw)"
    return f"{action} ({ours})" if ours is not None else str(action)


def _rule(step: int) -> str:
    return {
        S.CHOOSE_ROLE: "§3 role choice",
        S.TAKE_TILE: "§4.1 settler",
        S.BUILD: "§4.3 builder",
        S.CRAFTSMAN_PRIVILEGE: "§4.4 craftsman",
        S.SELL: "§4.5 trader",
        S.LOAD: "§4.6 captain",
    }.get(step, f"step {step}")


def play_game(
    root: str,
    seed: int,
    seats: list[tuple[str, str]],
    search_seconds: float = 1.0,
    their_move_seconds: float = MOVE_SECONDS,
) -> Outcome:
    """One lockstep game; `seats` are (side, name): ("ours", strength) or ("theirs", agent name); their
    moves over `their_move_seconds` are replaced by random ones (0: never)."""
    lib = load(competition_dir(root))
    controllers: list[Controller] = []
    for i, (side, name) in enumerate(seats):
        if side == "ours":
            controllers.append(OurBot(name, Budget(seconds=search_seconds), seed * 10 + i))
        else:
            controllers.append(TheirAgent(lib, name, seed * 10 + i, their_move_seconds))
    return Lockstep(lib, seed, controllers).play()


__all__ = [
    "AGENTS",
    "ENV_VAR",
    "HOW_TO_GET",
    "OPPONENTS",
    "PLAYERS",
    "TARGETS",
    "Mismatch",
    "MissingCompetition",
    "Outcome",
    "competition_dir",
    "play_game",
]

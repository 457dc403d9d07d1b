"""Puerto Rico knowledge for bots: a greedy policy and the determinization of what a seat cannot see.

`determinize(state, seat, rng)` rebuilds the state from the seat's point of view: the plantation stack
is reshuffled from its (deducible) contents, the generator gets a fresh key, the hidden VP chips of the
other seats are estimated from the chips gone from the pool, and the hidden kinds of other seats'
forests and of a tile another seat drew with the hacienda are resampled. The result depends on the
seat's view and `rng` only.

`heuristic_action(state, seat, rng)` judges each legal action by a one-ply look at a determinized
world, valuing a board as its score so far plus its economy (doubloons, goods, working production,
quarries, colonists). A role choice is judged after the whole role is played out greedily by every
seat, as its worth shows only once everybody has used it.
"""

from __future__ import annotations

from typing import Any, Final

from services.common.rng import Rng
from services.puertorico import codec, engine
from services.puertorico.actions import PASS_ACTION, Action
from services.puertorico.data import CORN, GOODS, PRICE, PRODUCTION_BUILDINGS, QUARRY
from services.puertorico.scoring import score_items, tiebreak
from services.puertorico.setup import initial_vp_pool
from services.puertorico.state import CHOOSE_ROLE, PLACE_COLONIST, Config, Player, State

# Worth of economy in VP, tuned by self-play against the random bot.
DOUBLOON: Final = 0.3
GOOD_BASE: Final = 0.3
GOOD_PER_PRICE: Final = 0.15
PRODUCTION_BASE: Final = 0.6
PRODUCTION_PER_PRICE: Final = 0.25
WORKING_QUARRY: Final = 0.6
COLONIST: Final = 0.15
ISLAND_TILE: Final = 0.2
WIN_BONUS: Final = 50.0
ROLE_LOOKAHEAD_STEPS: Final = 60  # decisions played greedily to finish a role being judged
TIE_NOISE: Final = 1e-6
KEEP_ARRANGEMENT: Final = 1e-2  # a mayor's move must gain more than this to be worth a decision


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A copy of `state` with what `seat` cannot see resampled from what it can see."""
    world = state.copy()
    world.plantation_stack = sorted(state.plantation_stack)
    rng.shuffle(world.plantation_stack)
    world.rng = Rng(rng.next64(), rng.next64())
    hidden = [s for s in range(state.n) if not codec.vp_visible(state, seat, s)]
    if hidden:
        shown = sum(p.vp for s, p in enumerate(state.players) if s not in hidden)
        taken = max(0, initial_vp_pool(state.n, state.config) - max(state.vp_pool, 0) - shown)
        share, extra = divmod(taken, len(hidden))
        for index, s in enumerate(hidden):
            world.players[s].vp = share + (1 if index < extra else 0)
    for s, player in enumerate(world.players):
        if s != seat:
            resample_forests(player, rng)
    resample_hacienda_tile(world, seat, rng)
    world.legal = None
    return world


def resample_forests(player: Player, rng: Rng) -> None:
    """Draw the kind of each of `player`'s forests afresh (only their owner sees the kinds)."""
    forests = [0] * len(GOODS)
    for _ in range(sum(player.forests)):
        forests[rng.below(len(GOODS))] += 1
    player.forests = forests


def resample_hacienda_tile(state: State, seat: int | None, rng: Rng) -> None:
    """Draw afresh the kind of a tile drawn with the hacienda, unless `seat` drew it (and so sees it)."""
    if state.hacienda_tile >= 0 and state.actor != seat:
        state.hacienda_tile = rng.below(len(GOODS))


def production(player: Player) -> list[int]:
    """Goods each kind would yield in a craftsman phase now (occupied plantations and plants)."""
    made = [0] * len(GOODS)
    made[CORN] = player.occupied[CORN]
    for good in GOODS:
        if good == CORN:
            continue
        capacity = sum(player.buildings.get(b, 0) for b in PRODUCTION_BUILDINGS[good])
        made[good] = min(player.occupied[good], capacity)
    return made


def board_value(player: Player, config: Config) -> float:
    """A player's score so far plus the worth of their economy, in VP."""
    value = float(sum(points for _, points in score_items(player, config)))
    value += DOUBLOON * player.doubloons
    value += sum(n * (GOOD_BASE + GOOD_PER_PRICE * PRICE[g]) for g, n in enumerate(player.goods))
    value += sum(
        n * (PRODUCTION_BASE + PRODUCTION_PER_PRICE * PRICE[g]) for g, n in enumerate(production(player))
    )
    value += WORKING_QUARRY * player.occupied[QUARRY]
    value += COLONIST * player.colonists()
    value += ISLAND_TILE * player.island_used()
    return value


def margin(state: State, seat: int) -> float:
    """How far `seat` leads the best other seat (negative when behind); a win counts extra at the end."""
    if state.terminal:
        totals = [
            sum(points for _, points in score_items(p, state.config)) + tiebreak(p) / 100
            for p in state.players
        ]
        best_other = max(t for s, t in enumerate(totals) if s != seat)
        return totals[seat] - best_other + (WIN_BONUS if totals[seat] >= best_other else 0.0)
    values = [board_value(p, state.config) for p in state.players]
    return values[seat] - max(v for s, v in enumerate(values) if s != seat)


def _after(world: State, actor: int, action: Action) -> State:
    after = world.copy()
    engine.play(after, actor, action)
    return after


def greedy_action(world: State, actor: int, rng: Rng) -> Action:
    """The legal action whose immediate result gives `actor` the best margin (no lookahead)."""
    legal = engine.legal_actions(world, actor)
    if len(legal) == 1:
        return legal[0]
    keep = KEEP_ARRANGEMENT if world.step == PLACE_COLONIST else 0.0
    return max(
        legal,
        key=lambda a: (
            margin(_after(world, actor, a), actor)
            + TIE_NOISE * rng.below(1000)
            + (keep if a == PASS_ACTION else 0.0)
        ),
    )


def _finish_role(world: State, rng: Rng) -> None:
    """Play greedily for every seat until the next role choice or the end of the game."""
    for _ in range(ROLE_LOOKAHEAD_STEPS):
        if world.terminal or world.step == CHOOSE_ROLE:
            return
        actor = world.actor
        engine.play(world, actor, greedy_action(world, actor, rng))


def _role_value(world: State, seat: int, action: Action, rng: Rng) -> float:
    after = _after(world, seat, action)
    _finish_role(after, rng)
    return margin(after, seat)


def heuristic_action(state: State, seat: int, rng: Rng) -> Any:
    """A greedy choice for `seat`, judged on a determinized world so hidden data never matters."""
    world = determinize(state, seat, rng)
    legal = engine.legal_actions(world, seat)
    if len(legal) <= 1:
        return legal[0] if legal else None
    if world.step == CHOOSE_ROLE:
        return max(legal, key=lambda a: _role_value(world, seat, a, rng) + TIE_NOISE * rng.below(1000))
    return greedy_action(world, seat, rng)

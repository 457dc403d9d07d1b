"""Craftsman phase (§4.4): everyone produces in order from the craftsman; factory; privilege good."""

from __future__ import annotations

from services.puertorico.actions import BONUS, CRAFTSMAN_BONUS, PASS_ACTION, Action
from services.puertorico.data import CORN, FACTORY, FACTORY_PAY, GOODS, PRODUCTION_BUILDINGS
from services.puertorico.events import DOUBLOONS_FACTORY, DoubloonsReceived, GoodsProduced, Passed
from services.puertorico.state import CRAFTSMAN_PRIVILEGE, Player, State

PRIVILEGE_GOODS = 1


def production(player: Player) -> list[int]:
    """What a player's occupied plantations and production circles make, per good (§1.3)."""
    made = [0, 0, 0, 0, 0]
    for good in GOODS:
        plantations = player.occupied[good]
        if not plantations:
            continue
        if good == CORN:
            made[good] = plantations
        else:
            circles = sum(player.buildings.get(b, 0) for b in PRODUCTION_BUILDINGS[good])
            made[good] = min(plantations, circles)
    return made


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Produce for every player; then offer the privilege if the craftsman received something."""
    n = state.n
    supply = state.goods_supply
    for turn in range(n):
        seat = (state.selector + turn) % n
        player = state.players[seat]
        made = production(player)
        received = [min(amount, supply[good]) for good, amount in enumerate(made)]
        if not any(received):
            continue
        for good, amount in enumerate(received):
            supply[good] -= amount
            player.goods[good] += amount
        events.append(GoodsProduced(seat, tuple(received), False))
        kinds = sum(1 for amount in received if amount)
        if player.has(FACTORY) and FACTORY_PAY[kinds]:
            player.doubloons += FACTORY_PAY[kinds]
            events.append(DoubloonsReceived(seat, FACTORY_PAY[kinds], DOUBLOONS_FACTORY))
        if seat == state.selector:
            state.craftsman_produced = [good for good, amount in enumerate(received) if amount]
    if not any(supply[good] for good in state.craftsman_produced):
        state.craftsman_produced = []
        return True
    state.step = CRAFTSMAN_PRIVILEGE
    state.actor = state.selector
    return False


def legal_privilege(state: State) -> list[Action]:
    """One more good of a kind the craftsman received, if the supply has it; or nothing."""
    actions = [BONUS[g] for g in state.craftsman_produced if state.goods_supply[g]]
    actions.append(PASS_ACTION)
    return actions


def play_privilege(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Take the privilege good (it does not count for the factory, ruling 14)."""
    seat = state.selector
    if action.kind == CRAFTSMAN_BONUS:
        good = action.arg
        state.goods_supply[good] -= PRIVILEGE_GOODS
        state.players[seat].goods[good] += PRIVILEGE_GOODS
        made = [0, 0, 0, 0, 0]
        made[good] = PRIVILEGE_GOODS
        events.append(GoodsProduced(seat, tuple(made), True))
    else:
        events.append(Passed(seat, CRAFTSMAN_PRIVILEGE))
    state.craftsman_produced = []
    return True

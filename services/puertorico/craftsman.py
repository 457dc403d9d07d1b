"""Craftsman phase (§4.4): everyone produces in order from the craftsman; factory; privilege good.

Expansion I: the aqueduct and specialty factory after a player's production; a library craftsman
takes two privilege goods of different kinds (OP-8), one decision each.
"""

from __future__ import annotations

from typing import Final

from services.puertorico.actions import BONUS, CRAFTSMAN_BONUS, PASS_ACTION, Action
from services.puertorico.board import privilege
from services.puertorico.data import (
    AQUEDUCT,
    AQUEDUCT_GOODS,
    AQUEDUCT_LARGE_FIRST,
    AQUEDUCT_PLANTS,
    CORN,
    FACTORY,
    FACTORY_PAY,
    GOODS,
    PRODUCTION_BUILDINGS,
    SPECIALTY_COUNTS_AQUEDUCT,
    SPECIALTY_FACTORY,
)
from services.puertorico.events import (
    DOUBLOONS_FACTORY,
    DOUBLOONS_SPECIALTY_FACTORY,
    DoubloonsReceived,
    GoodsProduced,
    Passed,
)
from services.puertorico.state import CRAFTSMAN_PRIVILEGE, Player, State

PRIVILEGE_GOODS: Final = 1


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


def _aqueduct_qualifies(player: Player, good: int, plant: int, received: int) -> bool:
    """Whether the large plant made at least one good (OP-12: production is credited to it first)."""
    on_plant = player.buildings.get(plant, 0)
    if not on_plant or not received:
        return False
    if AQUEDUCT_LARGE_FIRST:
        return True
    small = sum(player.buildings.get(b, 0) for b in PRODUCTION_BUILDINGS[good] if b != plant)
    return received > small


def _expansion_production(state: State, seat: int, received: list[int], events: list) -> None:  # type: ignore[type-arg]
    """Aqueduct goods, then specialty-factory doubloons, right after the player's own production."""
    player = state.players[seat]
    supply = state.goods_supply
    if player.has(AQUEDUCT):
        extra = [0, 0, 0, 0, 0]
        for good, plant in AQUEDUCT_PLANTS:
            if supply[good] and _aqueduct_qualifies(player, good, plant, received[good]):
                extra[good] = AQUEDUCT_GOODS
                supply[good] -= AQUEDUCT_GOODS
                player.goods[good] += AQUEDUCT_GOODS
        if any(extra):
            events.append(GoodsProduced(seat, tuple(extra), False, AQUEDUCT))
            if SPECIALTY_COUNTS_AQUEDUCT:
                received = [a + b for a, b in zip(received, extra, strict=True)]
    if player.has(SPECIALTY_FACTORY):
        counted = received if state.config.specialty_factory_counts_corn else received[CORN + 1 :]
        pay = max(0, max(counted) - 1)
        if pay:
            player.doubloons += pay
            events.append(DoubloonsReceived(seat, pay, DOUBLOONS_SPECIALTY_FACTORY))


def start(state: State, events: list) -> bool:  # type: ignore[type-arg]
    """Produce for every player; then offer the privilege if the craftsman received something."""
    n = state.n
    supply = state.goods_supply
    for turn in range(n):
        seat = (state.role_selector + turn) % n
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
        if state.expansion:
            _expansion_production(state, seat, received, events)
        if seat == state.role_selector:
            state.craftsman_produced = [good for good, amount in enumerate(received) if amount]
    if not any(supply[good] for good in state.craftsman_produced):
        state.craftsman_produced = []
        return True
    state.privilege_goods_left = PRIVILEGE_GOODS * privilege(state, state.role_selector)
    state.step = CRAFTSMAN_PRIVILEGE
    state.actor = state.role_selector
    return False


def legal_privilege(state: State) -> list[Action]:
    """One more good of a kind the craftsman received, if the supply has it; or nothing."""
    actions = [BONUS[g] for g in state.craftsman_produced if state.goods_supply[g]]
    actions.append(PASS_ACTION)
    return actions


def play_privilege(state: State, action: Action, events: list) -> bool:  # type: ignore[type-arg]
    """Take a privilege good (it does not count for the factory, ruling 14); a library gives a second one."""
    seat = state.role_selector
    if action.kind == CRAFTSMAN_BONUS:
        good = action.arg
        state.goods_supply[good] -= 1
        state.players[seat].goods[good] += 1
        made = [0, 0, 0, 0, 0]
        made[good] = 1
        events.append(GoodsProduced(seat, tuple(made), True))
        state.privilege_goods_left -= 1
        if state.config.library_craftsman_distinct:
            state.craftsman_produced.remove(good)
        if state.privilege_goods_left and any(state.goods_supply[g] for g in state.craftsman_produced):
            return False
    else:
        events.append(Passed(seat, CRAFTSMAN_PRIVILEGE))
    state.craftsman_produced = []
    state.privilege_goods_left = 0
    return True

"""The consistency of a native state: what a state must satisfy to be one the rules can reach.

`validate` runs on every state a rules call decodes, so that a forged or damaged state is refused
as MalformedRequest before the engine sees it; what the decoding itself guarantees (declared enum
values, one record per seat, nothing listed twice) is the codec's.
"""

from __future__ import annotations

from operator import itemgetter, le
from typing import Final

from services.common.errors import InvalidConfig, MalformedRequest
from services.common.helpers import MAX_COUNT
from services.puertorico import actions as act
from services.puertorico import builder, draft
from services.puertorico.data import (
    BUILDER,
    BUILDING_CIRCLES,
    BUILDING_CITY_SPACES,
    BUILDING_SET_DRAFT,
    BUILDINGS,
    CAPTAIN,
    CITY_SPACES,
    CRAFTSMAN,
    DRAFT_PICKS,
    DRAFT_SLOTS,
    FOREST,
    GOODS,
    GUESTHOUSE_WINDOW_ROLES,
    ISLAND_SPACES,
    MAX_PLAYERS,
    MAYOR,
    MIN_PLAYERS,
    NO_ROLE,
    SETTLER,
    SETUPS,
    TRADER,
    TRADING_HOUSE_CAPACITY,
)
from services.puertorico.mayor import circles_on, colonists_on
from services.puertorico.setup import check_config
from services.puertorico.state import (
    BLACK_MARKET_COLONIST_STEP,
    BLACK_MARKET_STEP,
    BUILD,
    CHOOSE_ROLE,
    CRAFTSMAN_PRIVILEGE,
    DRAFT_BUILDING,
    DRAFT_COST,
    GAME_OVER,
    GUESTS,
    HACIENDA_PLACE,
    HACIENDA_STEP,
    HOSPICE_STEP,
    LIBRARY_TILE,
    LOAD,
    MAYOR_PRIVILEGE,
    PLACE_COLONIST,
    SELL,
    SMALL_WHARF_STEP,
    STORE,
    TAKE_TILE,
    UNIVERSITY_STEP,
    Player,
    State,
)

# The role being carried out during each step (data from §4).
STEP_ROLE: Final = {
    CHOOSE_ROLE: NO_ROLE,
    HACIENDA_STEP: SETTLER,
    TAKE_TILE: SETTLER,
    HOSPICE_STEP: SETTLER,
    MAYOR_PRIVILEGE: MAYOR,
    PLACE_COLONIST: MAYOR,
    BUILD: BUILDER,
    UNIVERSITY_STEP: BUILDER,
    CRAFTSMAN_PRIVILEGE: CRAFTSMAN,
    SELL: TRADER,
    LOAD: CAPTAIN,
    STORE: CAPTAIN,
    GAME_OVER: NO_ROLE,
    DRAFT_COST: NO_ROLE,
    DRAFT_BUILDING: NO_ROLE,
    HACIENDA_PLACE: SETTLER,
    LIBRARY_TILE: SETTLER,
    BLACK_MARKET_STEP: BUILDER,
    BLACK_MARKET_COLONIST_STEP: BUILDER,
    SMALL_WHARF_STEP: CAPTAIN,
}
# Guests move at the start of these roles, or (no role) before the final score.
GUEST_STEP_ROLES: Final = frozenset((*GUESTHOUSE_WINDOW_ROLES, NO_ROLE))
DRAFT_STEPS: Final = (DRAFT_COST, DRAFT_BUILDING)
MARKET_STEPS: Final = (BLACK_MARKET_STEP, BLACK_MARKET_COLONIST_STEP)
EXPANSION: Final = frozenset(b for b, building in enumerate(BUILDINGS) if building.expansion)
EXPANSION_STOCK: Final = itemgetter(*sorted(EXPANSION))  # the stock of each Expansion I building
# What every state of a player count has (§2.1), as the state holds it.
ROLES_IN_PLAY: Final = {n: list(setup.roles) for n, setup in SETUPS.items()}
CARGO_SHIPS: Final = {n: list(setup.ships) for n, setup in SETUPS.items()}
PLANTATIONS = GOOD_SET = frozenset(GOODS)  # a plantation tile kind is its good's id
VIOLET: Final = frozenset(b for b, building in enumerate(BUILDINGS) if building.violet)


def bad(what: str) -> None:
    """Refuse the state: MalformedRequest ("invalid state: `what`")."""
    raise MalformedRequest(f"invalid state: {what}")


def validate(state: State) -> State:
    """`state`, if it is consistent; else MalformedRequest naming what is not."""
    n = state.n
    if not (MIN_PLAYERS <= n <= MAX_PLAYERS and len(state.players) == n):
        bad("player count, or one player record per seat")
    try:
        check_config(n, state.config)
    except InvalidConfig as error:
        raise MalformedRequest(f"invalid state: {error.message}") from error
    if not (1 <= state.round <= MAX_COUNT):
        bad("round")
    if not (0 <= state.governor < n and 0 <= state.actor < n and 0 <= state.role_selector < n):
        bad("seat out of range")
    if state.roles != ROLES_IN_PLAY[n]:
        bad("roles in play")
    if not (min(state.role_doubloons) >= 0 and max(state.role_doubloons) <= MAX_COUNT):
        bad("doubloons on a role out of range")
    if not (0 <= state.picks <= SETUPS[n].picks_per_round):
        bad("picks")
    step = state.step
    if step == 0:
        bad("step")
    if not (step == GUESTS or state.role == STEP_ROLE[step]):
        bad("step does not belong to the role")
    if not (0 <= state.role_turn <= MAX_COUNT):
        bad("role turn")
    for player in state.players:
        _player(player)
    supply = (state.quarries, state.colonist_supply, state.colonist_ship, state.vp_pool)
    if not (min(supply) >= 0 and max(supply) <= MAX_COUNT):
        bad("supply out of range")
    if not (
        PLANTATIONS.issuperset(state.plantation_stack)
        and PLANTATIONS.issuperset(state.face_up_plantations)
        and PLANTATIONS.issuperset(state.plantation_discards)
    ):
        bad("a tile that is not a plantation among the plantations")
    if not (
        GOOD_SET.issuperset(state.trading_house)
        and GOOD_SET.issuperset(state.craftsman_produced)
        and GOOD_SET.issuperset(state.warehoused)
    ):
        bad("a good that is none")
    if not (0 not in state.end_triggers):
        bad("end trigger")
    if not (state.hacienda_tile < len(GOODS)):
        bad("hacienda tile")
    if not (min(state.goods_supply) >= 0 and max(state.goods_supply) <= MAX_COUNT):
        bad("goods supply out of range")
    if not (min(state.singles_kept) >= 0 and max(state.singles_kept) <= MAX_COUNT):
        bad("kept goods out of range")
    if not (len(state.trading_house) <= TRADING_HOUSE_CAPACITY):
        bad("trading house overfull")
    if state.ship_cap != CARGO_SHIPS[n]:
        bad("cargo ships")
    for capacity, good, count in zip(state.ship_cap, state.ship_good, state.ship_count, strict=True):
        if not (0 <= count <= capacity and (count == 0) == (good < 0)):
            bad("cargo ship load")
    if not (0 <= state.passes_in_row <= MAX_COUNT):
        bad("passes")
    if not (step != HOSPICE_STEP or state.tile_taken >= 0):
        bad("hospice without a new tile")
    if not (step != UNIVERSITY_STEP or state.just_built in state.players[state.actor].buildings):
        bad("university without a new building")
    if state.colonist_moves:
        _colonist_moves(state)
    _expansion(state)
    return state


def _player(player: Player) -> None:
    tiles, occupied, buildings, forests, goods = (
        player.tiles,
        player.occupied,
        player.buildings,
        player.forests,
        player.goods,
    )
    if not (
        0 <= player.doubloons <= MAX_COUNT
        and 0 <= player.vp <= MAX_COUNT
        and 0 <= player.san_juan <= MAX_COUNT
        and min(goods) >= 0
        and max(goods) <= MAX_COUNT
    ):
        bad("holdings out of range")
    if not (min(occupied) >= 0 and all(map(le, occupied, tiles))):
        bad("island occupancy")
    if sum(tiles) > ISLAND_SPACES:
        bad("more than 12 island tiles")
    spaces = 0
    for building, colonists in buildings.items():
        if not (0 <= colonists <= BUILDING_CIRCLES[building]):
            bad("building occupancy")
        spaces += BUILDING_CITY_SPACES[building]
    if spaces > CITY_SPACES:
        bad("more than 12 city spaces")
    if not (min(forests) >= 0 and sum(forests) == tiles[FOREST]):
        bad("forest kinds")


def _colonist_moves(state: State) -> None:
    """The mayor's moves this turn, against the arranging player's board and the move rule."""
    player = state.players[state.actor]
    if not (state.step == PLACE_COLONIST and player.san_juan == 0):
        bad("colonist moves outside the mayor")
    left: set[int] = set()
    for source, destination in state.colonist_moves:
        if not (source in act.SPACES and destination in act.SPACES):
            bad("colonist move space")
        if not (destination not in left):
            bad("colonist moved back")
        # Nothing is moved onto a space moved off, so each such space still has an empty circle.
        if not (
            source != destination
            and colonists_on(player, source) < circles_on(player, source)
            and circles_on(player, destination) > 0
        ):
            bad("colonist move")
        left.add(source)


def _expansion(state: State) -> None:
    """The Expansion I parts: buildings in play, draft, forests, pending choices."""
    step = state.step
    if not state.expansion:
        if any(EXPANSION_STOCK(state.stock)):
            bad("an Expansion I building in a base game")
        for player in state.players:
            if not EXPANSION.isdisjoint(player.buildings):
                bad("an Expansion I building in a base game")
    if not (step != GUESTS or state.role in GUEST_STEP_ROLES):
        bad("guests moving outside their windows")
    picks = state.draft_picks
    drafting_set = state.config.buildings == BUILDING_SET_DRAFT
    if picks or drafting_set:
        if not (VIOLET.issuperset(picks)):
            bad("draft pick")
        if len(set(picks)) != len(picks):
            bad("a building drafted twice")
        if not (all(draft.open_slots(picks, cost) >= 0 for cost in DRAFT_SLOTS)):
            bad("draft slots overfilled")
        if any(draft.excluded(b, picks, state.config) for b in picks):
            bad("exclusive buildings both drafted")
        if not (not picks or drafting_set):
            bad("draft picks without a draft")
    if (step in DRAFT_STEPS) != (drafting_set and len(picks) < DRAFT_PICKS):
        bad("draft step")
    cost = state.draft_cost
    if step == DRAFT_BUILDING:
        if not (cost in DRAFT_SLOTS and draft.open_slots(picks, cost) > 0):
            bad("draft cost")
        if not (bool(draft.candidates(picks, cost, state.config))):
            bad("no building left for the draft slot")
    else:
        if cost != 0:
            bad("draft cost outside the draft")
    if (step == HACIENDA_PLACE) != (state.hacienda_tile >= 0):
        bad("hacienda tile outside its step")
    items = state.black_market_items
    if not (len(set(items)) == len(items) and min(items, default=0) >= 0):
        bad("items")
    if step in MARKET_STEPS:
        if not (state.pending_build >= 0 and state.stock[state.pending_build] > 0):
            bad("black market building")
        if not (state.pending_build not in state.players[state.actor].buildings):
            bad("black market building owned")
        if not (len(items) <= state.pending_price <= MAX_COUNT):
            bad("black market change")
        moves = (
            builder.legal_black_market if step == BLACK_MARKET_STEP else builder.legal_black_market_colonist
        )
        if not (bool(moves(state))):
            bad("black market with nothing to do")
    else:
        if not (state.pending_build < 0 and state.pending_price == 0 and not items):
            bad("black market outside")
    chosen = state.small_wharf_goods
    if step == SMALL_WHARF_STEP:
        held = state.players[state.actor].goods
        if not (all(0 <= c <= h for c, h in zip(chosen, held, strict=True)) and any(held)):
            bad("small wharf goods")
    else:
        if any(chosen):
            bad("small wharf goods outside the small wharf")
    left = state.privilege_goods_left
    if step == CRAFTSMAN_PRIVILEGE:
        if not (1 <= left <= state.config.library_multiplier):
            bad("privilege goods left")
    else:
        if left != 0:
            bad("privilege goods outside the craftsman privilege")

"""Conversion between native state, actions, views and events and the boardgame.puertorico.v1 messages.

Protobuf enums number from 1 (0 is UNSPECIFIED); native ids number from 0, hence the +1/-1.
Decoding checks every value, so a forged or damaged state is refused as MalformedRequest.
"""

from __future__ import annotations

from boardgame.puertorico.v1 import puertorico_pb2 as pb

from services.common.errors import InvalidConfig, MalformedRequest
from services.common.helpers import MAX_COUNT, check_state, counts_ok, rng_from_proto, rng_to_proto
from services.puertorico import actions as act
from services.puertorico import builder, draft, engine
from services.puertorico import events as ev
from services.puertorico.data import (
    BUILDER,
    BUILDING_SET_BASE,
    BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM,
    BUILDINGS,
    CAPTAIN,
    CIRCLE_TILES,
    CITY_SPACES,
    CRAFTSMAN,
    DEFAULT_CLOISTER_KINDS,
    DEFAULT_VP_POOL_5P,
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
    SMALL_WHARF_ROUNDING,
    TILE_KINDS,
    TRADER,
    TRADING_HOUSE_CAPACITY,
)
from services.puertorico.labels import event_text
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
    LAST_STEP,
    LIBRARY_TILE,
    LOAD,
    MAYOR_PRIVILEGE,
    PLACE_COLONIST,
    SELL,
    SMALL_WHARF_STEP,
    STORE,
    TAKE_TILE,
    UNIVERSITY_STEP,
    Config,
    Player,
    State,
)

N_ROLES = 8
N_STEPS = LAST_STEP
N_TRIGGERS = 3
N_MARKET_ITEMS = 3
BUILDING_SETS = {
    pb.BUILDING_SET_UNSPECIFIED: BUILDING_SET_BASE,
    pb.BUILDING_SET_BASE: BUILDING_SET_BASE,
    pb.BUILDING_SET_DRAFT: BUILDING_SET_DRAFT,
    pb.BUILDING_SET_RANDOM: BUILDING_SET_RANDOM,
}
BUILDING_SET_VALUES = {
    BUILDING_SET_BASE: pb.BUILDING_SET_BASE,
    BUILDING_SET_DRAFT: pb.BUILDING_SET_DRAFT,
    BUILDING_SET_RANDOM: pb.BUILDING_SET_RANDOM,
}
SMALL_WHARF_ROUNDINGS = {
    pb.SMALL_WHARF_ROUNDING_UNSPECIFIED: SMALL_WHARF_ROUNDING,
    pb.SMALL_WHARF_ROUNDING_FLOOR: "floor",
    pb.SMALL_WHARF_ROUNDING_CEIL: "ceil",
}
SMALL_WHARF_ROUNDING_VALUES = {"floor": pb.SMALL_WHARF_ROUNDING_FLOOR, "ceil": pb.SMALL_WHARF_ROUNDING_CEIL}
CLOISTER_KINDS_BY_VALUE = {
    pb.CLOISTER_KINDS_UNSPECIFIED: DEFAULT_CLOISTER_KINDS,
    pb.CLOISTER_KINDS_ALL: "all",
    pb.CLOISTER_KINDS_PLANTATIONS: "plantations",
}
CLOISTER_KINDS_VALUES = {"all": pb.CLOISTER_KINDS_ALL, "plantations": pb.CLOISTER_KINDS_PLANTATIONS}
# The boolean open-point options (plain bools default to false, `optional` ones to their constant).
OPTION_FLAGS = (
    "lighthouse_captain_needs_load",
    "lighthouse_counts_private_ships",
    "specialty_factory_counts_corn",
    "library_craftsman_distinct",
    "draft_hacienda_forest_exclusive",
    "vp_trigger_any_phase",
)
DEFAULT_CONFIG = Config()
DRAFT_STEPS = (DRAFT_COST, DRAFT_BUILDING)
MARKET_STEPS = (BLACK_MARKET_STEP, BLACK_MARKET_COLONIST_STEP)

# The role being carried out during each step (data from §4; used to refuse inconsistent states).
STEP_ROLE = {
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
GUEST_STEP_ROLES = frozenset((*GUESTHOUSE_WINDOW_ROLES, NO_ROLE))


def _counts(counts: pb.GoodCounts) -> list[int]:
    return [counts.corn, counts.indigo, counts.sugar, counts.tobacco, counts.coffee]


def _good_counts(goods: list[int] | tuple[int, ...]) -> pb.GoodCounts:
    return pb.GoodCounts(corn=goods[0], indigo=goods[1], sugar=goods[2], tobacco=goods[3], coffee=goods[4])


def _good(value: int, what: str) -> int:
    check_state(1 <= value <= len(GOODS), f"{what} is not a good")
    return value - 1


# Config.


def _flag(message: pb.Config, name: str, default: bool) -> bool:
    """An `optional bool` field: its value when set, else the default."""
    return bool(getattr(message, name)) if message.HasField(name) else default


def config_from_proto(message: pb.Config) -> Config:
    """The native config; unset fields take their defaults."""
    if message.buildings not in BUILDING_SETS:
        raise InvalidConfig(f"building set {message.buildings} is not supported")
    if message.small_wharf_rounding not in SMALL_WHARF_ROUNDINGS:
        raise InvalidConfig(f"small_wharf_rounding {message.small_wharf_rounding} is not supported")
    if message.cloister_kinds not in CLOISTER_KINDS_BY_VALUE:
        raise InvalidConfig(f"cloister_kinds {message.cloister_kinds} is not supported")
    defaults = DEFAULT_CONFIG
    config = Config(
        public_vp=message.public_vp,
        vp_pool_5p=message.vp_pool_5p or DEFAULT_VP_POOL_5P,
        buildings=BUILDING_SETS[message.buildings],
        small_wharf_rounding=SMALL_WHARF_ROUNDINGS[message.small_wharf_rounding],
        lighthouse_captain_needs_load=message.lighthouse_captain_needs_load,
        lighthouse_counts_private_ships=_flag(
            message, "lighthouse_counts_private_ships", defaults.lighthouse_counts_private_ships
        ),
        specialty_factory_counts_corn=message.specialty_factory_counts_corn,
        library_craftsman_distinct=_flag(
            message, "library_craftsman_distinct", defaults.library_craftsman_distinct
        ),
        library_multiplier=message.library_multiplier or defaults.library_multiplier,
        draft_hacienda_forest_exclusive=_flag(
            message, "draft_hacienda_forest_exclusive", defaults.draft_hacienda_forest_exclusive
        ),
        cloister_kinds=CLOISTER_KINDS_BY_VALUE[message.cloister_kinds],
        vp_trigger_any_phase=_flag(message, "vp_trigger_any_phase", defaults.vp_trigger_any_phase),
    )
    check_config(MIN_PLAYERS, config)
    return config


def config_to_proto(config: Config) -> pb.Config:
    """The Config message. The open-point options are written only when they differ from their
    defaults, so a default config encodes exactly as it did before they existed."""
    message = pb.Config(
        public_vp=config.public_vp,
        vp_pool_5p=config.vp_pool_5p,
        buildings=BUILDING_SET_VALUES[config.buildings],
    )
    defaults = DEFAULT_CONFIG
    if config.small_wharf_rounding != defaults.small_wharf_rounding:
        message.small_wharf_rounding = SMALL_WHARF_ROUNDING_VALUES[config.small_wharf_rounding]
    if config.cloister_kinds != defaults.cloister_kinds:
        message.cloister_kinds = CLOISTER_KINDS_VALUES[config.cloister_kinds]
    if config.library_multiplier != defaults.library_multiplier:
        message.library_multiplier = config.library_multiplier
    for name in OPTION_FLAGS:
        value = getattr(config, name)
        if value != getattr(defaults, name):
            setattr(message, name, value)
    return message


# State.

# Decoding a state's encoding gives back an equal state, attribute by attribute, the legal-action memo
# aside (services.common.game.exact_state_round_trip; the conformance suite checks it).
EXACT_STATE_ROUND_TRIP = True


def _player_to_proto(player: Player) -> pb.Player:
    return pb.Player(
        doubloons=player.doubloons,
        goods=_good_counts(player.goods),
        island=[
            pb.IslandTiles(
                tile=kind + 1, count=count, occupied=player.occupied[kind] if kind != FOREST else 0
            )
            for kind, count in enumerate(player.tiles)
            if count
        ],
        city=[pb.CityBuilding(building=b + 1, colonists=c) for b, c in player.buildings.items()],
        san_juan=player.san_juan,
        wharf_used=player.wharf_used,
        small_wharf_used=player.small_wharf_used,
    )


def _table_to_proto(state: State) -> pb.Table:
    return pb.Table(
        config=config_to_proto(state.config),
        player_count=state.n,
        round=state.round,
        governor=state.governor,
        roles=[
            pb.RoleCard(role=role + 1, doubloons=doubloons, taken=taken)
            for role, doubloons, taken in zip(
                state.roles, state.role_doubloons, state.role_taken, strict=True
            )
        ],
        picks=state.picks,
        role=state.role + 1,
        role_selector=state.selector,
        role_turn=state.role_turn,
        step=state.step,
        actor=state.actor,
        players=[_player_to_proto(p) for p in state.players],
        face_up_plantations=[t + 1 for t in state.face_up],
        plantation_discards=[t + 1 for t in state.discards],
        quarries=state.quarries,
        colonist_supply=state.colonist_supply,
        colonist_ship=state.colonist_ship,
        vp_pool=state.vp_pool,
        goods_supply=_good_counts(state.goods_supply),
        trading_house=[g + 1 for g in state.house],
        cargo_ships=[
            pb.CargoShip(capacity=cap, good=good + 1, count=count)
            for cap, good, count in zip(state.ship_cap, state.ship_good, state.ship_count, strict=True)
        ],
        buildings_for_sale=[
            pb.BuildingStock(building=b + 1, count=c) for b, c in enumerate(state.stock) if c
        ],
        end_triggers=state.end_triggers,
        passes_in_row=state.passes_in_row,
        captain_loaded=state.captain_loaded,
        tile_taken=state.tile_taken + 1,
        just_built=state.just_built + 1,
        craftsman_produced=[g + 1 for g in state.craftsman_produced],
        warehoused=[g + 1 for g in state.warehoused],
        singles_kept=_good_counts(state.singles_kept),
        draft_picks=[b + 1 for b in state.draft_picks],
        draft_cost=state.draft_cost,
        pending_build=state.pending_build + 1,
        black_market_items=[item + 1 for item in state.black_market_items],
        small_wharf_goods=_good_counts(state.small_wharf_goods),
        privilege_goods_left=state.privilege_goods_left,
        pending_price=state.pending_price,
        colonist_moves=[
            pb.ColonistMove(source=_target(source), destination=_target(destination))
            for source, destination in state.colonist_moves
        ],
    )


def state_to_proto(state: State) -> pb.State:
    """The State message, hidden parts included."""
    return pb.State(
        table=_table_to_proto(state),
        rng=rng_to_proto(state.rng),
        plantation_stack=[t + 1 for t in state.stack],
        vp_chips=[p.vp for p in state.players],
        forests=[_good_counts(p.forests) for p in state.players] if state.expansion else [],
        hacienda_tile=state.pending_tile + 1,
    )


def _player_from_proto(message: pb.Player, vp: int, player: Player) -> None:
    """Fill a fresh `player` from its message."""
    player.doubloons = message.doubloons
    player.vp = vp
    player.goods = _counts(message.goods)
    check_state(counts_ok(player.doubloons, vp, *player.goods), "holdings out of range")
    for tiles in message.island:
        check_state(1 <= tiles.tile <= TILE_KINDS, "unknown island tile")
        kind = tiles.tile - 1
        check_state(player.tiles[kind] == 0 and tiles.count > 0, "island tiles listed twice or empty")
        check_state(0 <= tiles.occupied <= (0 if kind == FOREST else tiles.count), "island occupancy")
        player.tiles[kind] = tiles.count
        if kind != FOREST:
            player.occupied[kind] = tiles.occupied
    check_state(player.island_used() <= ISLAND_SPACES, "more than 12 island tiles")
    for building in message.city:
        check_state(1 <= building.building <= len(BUILDINGS), "unknown building")
        b = building.building - 1
        check_state(b not in player.buildings, "a building owned twice")
        check_state(0 <= building.colonists <= BUILDINGS[b].circles, "building occupancy")
        player.buildings[b] = building.colonists
    check_state(player.city_used() <= CITY_SPACES, "more than 12 city spaces")
    check_state(counts_ok(message.san_juan), "San Juan out of range")
    player.san_juan = message.san_juan
    player.wharf_used = message.wharf_used
    player.small_wharf_used = message.small_wharf_used


def state_from_proto(message: pb.State) -> State:
    """The native state of a State message; MalformedRequest if it is not a consistent state."""
    table = message.table
    n = table.player_count
    check_state(MIN_PLAYERS <= n <= MAX_PLAYERS, "player count")
    try:
        config = config_from_proto(table.config)
        check_config(n, config)
    except InvalidConfig as error:
        raise MalformedRequest(f"invalid state: {error.message}") from error
    setup = SETUPS[n]
    check_state(len(table.players) == n and len(message.vp_chips) == n, "one player record per seat")
    state = State(config, n, rng_from_proto(message.rng))
    state.round = table.round
    check_state(table.round >= 1 and counts_ok(table.round), "round")
    for seat_field in (table.governor, table.actor, table.role_selector):
        check_state(0 <= seat_field < n, "seat out of range")
    state.governor, state.actor, state.selector = table.governor, table.actor, table.role_selector
    check_state([card.role - 1 for card in table.roles] == list(setup.roles), "roles in play")
    state.roles = list(setup.roles)
    state.role_doubloons = [card.doubloons for card in table.roles]
    state.role_taken = [card.taken for card in table.roles]
    check_state(counts_ok(*state.role_doubloons), "doubloons on a role out of range")
    check_state(0 <= table.picks <= setup.picks_per_round, "picks")
    state.picks = table.picks
    check_state(0 <= table.role <= N_ROLES, "role")
    state.role = table.role - 1
    check_state(1 <= table.step <= N_STEPS, "step")
    state.step = table.step
    check_state(
        state.step == GUESTS or state.role == STEP_ROLE[state.step], "step does not belong to the role"
    )
    check_state(counts_ok(table.role_turn), "role turn")
    state.role_turn = table.role_turn
    for player, player_message, vp in zip(state.players, table.players, message.vp_chips, strict=True):
        _player_from_proto(player_message, vp, player)
    for tiles, name in (
        (message.plantation_stack, "stack"),
        (table.face_up_plantations, "face-up tiles"),
        (table.plantation_discards, "discards"),
    ):
        check_state(all(1 <= t <= len(GOODS) for t in tiles), f"{name} hold a tile that is not a plantation")
    state.stack = [t - 1 for t in message.plantation_stack]
    state.face_up = [t - 1 for t in table.face_up_plantations]
    state.discards = [t - 1 for t in table.plantation_discards]
    for count in (table.quarries, table.colonist_supply, table.colonist_ship, table.vp_pool):
        check_state(counts_ok(count), "supply out of range")
    state.quarries = table.quarries
    state.colonist_supply = table.colonist_supply
    state.colonist_ship = table.colonist_ship
    state.vp_pool = table.vp_pool
    state.goods_supply = _counts(table.goods_supply)
    check_state(counts_ok(*state.goods_supply), "goods supply out of range")
    check_state(len(table.trading_house) <= TRADING_HOUSE_CAPACITY, "trading house overfull")
    state.house = [_good(g, "trading house good") for g in table.trading_house]
    check_state([ship.capacity for ship in table.cargo_ships] == list(setup.ships), "cargo ships")
    state.ship_cap = list(setup.ships)
    for ship in table.cargo_ships:
        check_state(
            0 <= ship.count <= ship.capacity and (ship.count == 0) == (ship.good == 0), "cargo ship load"
        )
        check_state(0 <= ship.good <= len(GOODS), "cargo ship good")
    state.ship_good = [ship.good - 1 for ship in table.cargo_ships]
    state.ship_count = [ship.count for ship in table.cargo_ships]
    for stock in table.buildings_for_sale:
        check_state(1 <= stock.building <= len(BUILDINGS) and stock.count > 0, "buildings for sale")
        state.stock[stock.building - 1] = stock.count
    check_state(all(1 <= t <= N_TRIGGERS for t in table.end_triggers), "end trigger")
    state.end_triggers = list(table.end_triggers)
    check_state(counts_ok(table.passes_in_row), "passes")
    state.passes_in_row = table.passes_in_row
    state.captain_loaded = table.captain_loaded
    check_state(0 <= table.tile_taken <= TILE_KINDS, "tile taken")
    state.tile_taken = table.tile_taken - 1
    check_state(state.step != HOSPICE_STEP or state.tile_taken >= 0, "hospice without a new tile")
    check_state(0 <= table.just_built <= len(BUILDINGS), "building just built")
    state.just_built = table.just_built - 1
    check_state(
        state.step != UNIVERSITY_STEP or state.just_built in state.players[state.actor].buildings,
        "university without a new building",
    )
    state.craftsman_produced = [_good(g, "craftsman good") for g in table.craftsman_produced]
    state.warehoused = [_good(g, "warehoused good") for g in table.warehoused]
    state.singles_kept = _counts(table.singles_kept)
    check_state(counts_ok(*state.singles_kept), "kept goods out of range")
    state.colonist_moves = _colonist_moves(table, state)
    _expansion_from_proto(message, state)
    return state


def _colonist_moves(table: pb.Table, state: State) -> list[tuple[int, int]]:
    """The mayor's moves this turn, checked against the arranging player's board and the move rule."""
    if not table.colonist_moves:
        return []
    player = state.players[state.actor]
    check_state(state.step == PLACE_COLONIST and player.san_juan == 0, "colonist moves outside the mayor")
    moves: list[tuple[int, int]] = []
    for move in table.colonist_moves:
        source, destination = _space(move.source), _space(move.destination)
        if source is None or destination is None:
            raise MalformedRequest("invalid state: colonist move space")
        check_state(destination not in {s for s, _ in moves}, "colonist moved back")
        # Nothing is moved onto a space moved off, so each such space still has an empty circle.
        check_state(
            source != destination
            and colonists_on(player, source) < circles_on(player, source)
            and circles_on(player, destination) > 0,
            "colonist move",
        )
        moves.append((source, destination))
    return moves


def _expansion_from_proto(message: pb.State, state: State) -> None:
    """Read and check the Expansion I parts of a state: buildings in play, draft, forests, pending choices."""
    table = message.table
    step = state.step
    if not state.expansion:
        in_play = [b for b, copies in enumerate(state.stock) if copies]
        in_play.extend(b for p in state.players for b in p.buildings)
        check_state(
            not any(BUILDINGS[b].expansion for b in in_play), "an Expansion I building in a base game"
        )
    check_state(step != GUESTS or state.role in GUEST_STEP_ROLES, "guests moving outside their windows")

    picks = [b - 1 for b in table.draft_picks]
    check_state(all(0 <= b < len(BUILDINGS) and BUILDINGS[b].violet for b in picks), "draft pick")
    check_state(len(set(picks)) == len(picks), "a building drafted twice")
    check_state(all(draft.open_slots(picks, cost) >= 0 for cost in DRAFT_SLOTS), "draft slots overfilled")
    check_state(
        not any(draft.excluded(b, picks, state.config) for b in picks), "exclusive buildings both drafted"
    )
    drafting = state.config.buildings == BUILDING_SET_DRAFT and len(picks) < DRAFT_PICKS
    check_state(not picks or state.config.buildings == BUILDING_SET_DRAFT, "draft picks without a draft")
    check_state((step in DRAFT_STEPS) == drafting, "draft step")
    state.draft_picks = picks
    cost = table.draft_cost
    if step == DRAFT_BUILDING:
        check_state(cost in DRAFT_SLOTS and draft.open_slots(picks, cost) > 0, "draft cost")
        check_state(bool(draft.candidates(picks, cost, state.config)), "no building left for the draft slot")
    else:
        check_state(cost == 0, "draft cost outside the draft")
    state.draft_cost = cost

    forests = list(message.forests)
    check_state(len(forests) in (0, state.n), "one forest record per seat")
    for seat, player in enumerate(state.players):
        kinds = _counts(forests[seat]) if forests else [0, 0, 0, 0, 0]
        check_state(min(kinds) >= 0 and sum(kinds) == player.tiles[FOREST], "forest kinds")
        player.forests = kinds

    check_state(0 <= message.hacienda_tile <= len(GOODS), "hacienda tile")
    state.pending_tile = message.hacienda_tile - 1
    check_state((step == HACIENDA_PLACE) == (state.pending_tile >= 0), "hacienda tile outside its step")

    check_state(0 <= table.pending_build <= len(BUILDINGS), "pending building")
    state.pending_build = table.pending_build - 1
    state.pending_price = table.pending_price
    items = [item - 1 for item in table.black_market_items]
    check_state(all(0 <= item < N_MARKET_ITEMS for item in items) and len(set(items)) == len(items), "items")
    state.black_market_items = items
    if step in MARKET_STEPS:
        actor = state.players[state.actor]
        check_state(
            state.pending_build >= 0 and state.stock[state.pending_build] > 0, "black market building"
        )
        check_state(state.pending_build not in actor.buildings, "black market building owned")
        check_state(len(items) <= state.pending_price <= MAX_COUNT, "black market change")
        moves = (
            builder.legal_black_market if step == BLACK_MARKET_STEP else builder.legal_black_market_colonist
        )
        check_state(bool(moves(state)), "black market with nothing to do")
    else:
        check_state(
            state.pending_build < 0 and state.pending_price == 0 and not items, "black market outside"
        )

    state.small_wharf_goods = _counts(table.small_wharf_goods)
    chosen = state.small_wharf_goods
    if step == SMALL_WHARF_STEP:
        held = state.players[state.actor].goods
        check_state(
            all(0 <= c <= h for c, h in zip(chosen, held, strict=True)) and any(held), "small wharf goods"
        )
    else:
        check_state(not any(chosen), "small wharf goods outside the small wharf")

    left = table.privilege_goods_left
    if step == CRAFTSMAN_PRIVILEGE:
        check_state(1 <= left <= state.config.library_multiplier, "privilege goods left")
    else:
        check_state(left == 0, "privilege goods outside the craftsman privilege")
    state.privilege_goods_left = left


# Actions.


def action_from_proto(message: pb.Action) -> act.Action:
    """The native action; MalformedRequest if no move is set or a value is out of range."""
    move = message.WhichOneof("move")
    if move is None:
        raise MalformedRequest("the action sets no move")
    if move == "choose_role":
        _check_action(1 <= message.choose_role <= N_ROLES, "role")
        return act.ROLE[message.choose_role - 1]
    if move in _GOOD_MOVES:
        value = getattr(message, move)
        _check_action(1 <= value <= len(GOODS), "good")
        return _GOOD_MOVES[move][value - 1]
    if move == "place_colonist":
        return act.place_on(_action_space(message.place_colonist))
    if move == "move_colonist":
        source = _action_space(message.move_colonist.source)
        destination = _action_space(message.move_colonist.destination)
        _check_action(source != destination, "destination (the colonist's own space)")
        return act.MOVE[source, destination]
    if move == "build":
        _check_action(1 <= message.build <= len(BUILDINGS), "building")
        return act.BUILD_ACTION[message.build - 1]
    if move == "load":
        _check_action(1 <= message.load.good <= len(GOODS), "good")
        _check_action(0 <= message.load.ship < act.MAX_SHIPS, "ship")
        return act.LOAD_ACTION[message.load.good - 1][message.load.ship]
    if move == "draft_cost":
        _check_action(message.draft_cost in act.DRAFT_COST_ACTION, "draft cost")
        return act.DRAFT_COST_ACTION[message.draft_cost]
    if move == "draft_building":
        _check_action(1 <= message.draft_building <= len(BUILDINGS), "building")
        return act.DRAFT_ACTION[message.draft_building - 1]
    if move == "place_drawn_tile":
        return act.PLACE_AS_FOREST if message.place_drawn_tile.as_forest else act.PLACE_FACE_UP
    if move == "return_colonist":
        return _return_colonist(message.return_colonist)
    if move == "small_wharf_goods":
        goods = message.small_wharf_goods
        _check_action(1 <= goods.good <= len(GOODS), "good")
        _check_action(goods.count >= 1, "count")
        return act.small_wharf_goods(goods.good - 1, goods.count)
    if move == "move_guest":
        space = _action_space(message.move_guest)
        if space < act.BUILDING_SPACE:
            return act.GUEST_TILE[space]
        return act.GUEST_BUILDING[space - act.BUILDING_SPACE]
    return _EMPTY_MOVES[move]


def _space(target: pb.ColonistTarget) -> int | None:
    """The board space of a ColonistTarget (see actions.SPACES); None if it names no space."""
    which = target.WhichOneof("target")
    if which == "tile" and target.tile - 1 in CIRCLE_TILES:
        return target.tile - 1
    if which == "building" and 1 <= target.building <= len(BUILDINGS):
        return act.BUILDING_SPACE + target.building - 1
    return None


def _action_space(target: pb.ColonistTarget) -> int:
    space = _space(target)
    if space is None:
        raise MalformedRequest("invalid action: tile or building out of range")
    return space


def _target(space: int) -> pb.ColonistTarget:
    if space < act.BUILDING_SPACE:
        return pb.ColonistTarget(tile=space + 1)
    return pb.ColonistTarget(building=space - act.BUILDING_SPACE + 1)


def _return_colonist(place: pb.ColonistLocation) -> act.Action:
    which = place.WhichOneof("place")
    if which == "san_juan":
        return act.RETURN_FROM_SAN_JUAN
    if which == "tile":
        _check_action(place.tile - 1 in CIRCLE_TILES, "tile")
        return act.RETURN_FROM_TILE[place.tile - 1]
    _check_action(which == "building" and 1 <= place.building <= len(BUILDINGS), "building")
    return act.RETURN_FROM_BUILDING[place.building - 1]


def _check_action(condition: bool, what: str) -> None:
    if not condition:
        raise MalformedRequest(f"invalid action: {what} out of range")


_GOOD_MOVES = {
    "take_plantation": act.PLANTATION,
    "craftsman_bonus": act.BONUS,
    "sell": act.SELL_ACTION,
    "ship_with_wharf": act.WHARF_ACTION,
    "store_in_warehouse": act.WAREHOUSE_ACTION,
    "keep_single": act.SINGLE_ACTION,
    "take_forest": act.FOREST_ACTION,
    "black_market_good": act.MARKET_GOOD_ACTION,
    "sell_to_trading_post": act.TRADING_POST_ACTION,
}
_EMPTY_MOVES = {
    "take_quarry": act.QUARRY_ACTION,
    "hacienda_draw": act.HACIENDA_ACTION,
    "hospice_colonist": act.HOSPICE_ACTION,
    "mayor_privilege": act.PRIVILEGE_ACTION,
    "university_colonist": act.UNIVERSITY_ACTION,
    "pass": act.PASS_ACTION,
    "black_market_colonist": act.MARKET_COLONIST_ACTION,
    "black_market_vp": act.MARKET_VP_ACTION,
    "use_small_wharf": act.SMALL_WHARF_ACTION,
    "ship_small_wharf": act.SHIP_SMALL_WHARF_ACTION,
}
_GOOD_KINDS = {table[0].kind: name for name, table in _GOOD_MOVES.items()}
_EMPTY_KINDS = {action.kind: name for name, action in _EMPTY_MOVES.items()}


def action_to_proto(action: act.Action) -> pb.Action:
    """The Action message."""
    kind, arg, arg2 = action
    if kind == act.CHOOSE_ROLE:
        return pb.Action(choose_role=arg + 1)
    if kind in _GOOD_KINDS:
        message = pb.Action()
        setattr(message, _GOOD_KINDS[kind], arg + 1)
        return message
    if kind == act.PLACE_ON_TILE:
        return pb.Action(place_colonist=pb.ColonistTarget(tile=arg + 1))
    if kind == act.PLACE_ON_BUILDING:
        return pb.Action(place_colonist=pb.ColonistTarget(building=arg + 1))
    if kind == act.MOVE_COLONIST:
        return pb.Action(move_colonist=pb.ColonistMove(source=_target(arg), destination=_target(arg2)))
    if kind == act.BUILD:
        return pb.Action(build=arg + 1)
    if kind == act.LOAD:
        return pb.Action(load=pb.Load(good=arg + 1, ship=arg2))
    if kind == act.DRAFT_COST:
        return pb.Action(draft_cost=arg)
    if kind == act.DRAFT_BUILDING:
        return pb.Action(draft_building=arg + 1)
    if kind == act.PLACE_DRAWN_TILE:
        return pb.Action(place_drawn_tile=pb.PlaceDrawnTile(as_forest=bool(arg)))
    if kind == act.RETURN_COLONIST:
        if arg == act.FROM_SAN_JUAN:
            return pb.Action(return_colonist=pb.ColonistLocation(san_juan=pb.SanJuan()))
        if arg == act.FROM_TILE:
            return pb.Action(return_colonist=pb.ColonistLocation(tile=arg2 + 1))
        return pb.Action(return_colonist=pb.ColonistLocation(building=arg2 + 1))
    if kind == act.SMALL_WHARF_GOODS:
        return pb.Action(small_wharf_goods=pb.SmallWharfGoods(good=arg + 1, count=arg2))
    if kind == act.GUEST_TO_TILE:
        return pb.Action(move_guest=pb.ColonistTarget(tile=arg + 1))
    if kind == act.GUEST_TO_BUILDING:
        return pb.Action(move_guest=pb.ColonistTarget(building=arg + 1))
    message = pb.Action()
    getattr(message, _EMPTY_KINDS[kind]).SetInParent()
    return message


# Views.


def vp_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) may see `seat`'s VP chips (hidden by the rules, §9)."""
    return state.config.public_vp or viewer == seat


def view_to_proto(state: State, seat: int | None) -> pb.View:
    """What `seat` may see: the public table, the stack's size, and the VP chips it may see."""
    if seat is not None:
        engine.check_seat(state, seat)
    return _view(state, seat, _table_to_proto(state))


def views_to_proto(state: State, state_message: pb.State | None = None) -> list[pb.View]:
    """Every seat's view, then the spectator's, sharing one conversion of the public table (the
    table of `state_message`, the caller's `state_to_proto(state)`, when it is given)."""
    table = state_message.table if state_message is not None else _table_to_proto(state)
    return [_view(state, seat, table) for seat in [*range(state.n), None]]


def _view(state: State, seat: int | None, table: pb.Table) -> pb.View:
    view = pb.View(
        table=table,
        plantation_stack_size=len(state.stack),
        vp_chips=[
            pb.SeatVp(seat=s, vp_chips=p.vp)
            for s, p in enumerate(state.players)
            if vp_visible(state, seat, s)
        ],
    )
    if seat is not None:
        view.seat = seat
        if state.expansion:
            view.forests.CopyFrom(_good_counts(state.players[seat].forests))
        if state.pending_tile >= 0 and seat == state.actor:
            view.MergeFrom(pb.View(hacienda_tile=state.pending_tile + 1))
    return view


# Events.


def event_to_proto(event: tuple) -> tuple[pb.Event, str, tuple[int, ...]]:  # type: ignore[type-arg]
    """The Event message, its text, and who may see it (VP amounts only their owner, unless public)."""
    message = _EVENT_BUILDERS[type(event)](event)
    visible_to: tuple[int, ...] = ()
    if isinstance(event, ev.VpReceived) and not event.public:
        visible_to = (event.seat,)
    return message, event_text(event), visible_to


_EVENT_BUILDERS = {
    ev.GameStarted: lambda e: pb.Event(game_started=pb.GameStarted(governor=e.governor)),
    ev.RoleChosen: lambda e: pb.Event(role_chosen=pb.RoleChosen(seat=e.seat, role=e.role + 1)),
    ev.Passed: lambda e: pb.Event(passed=pb.Passed(seat=e.seat, step=e.step)),
    ev.TileTaken: lambda e: pb.Event(tile_taken=pb.TileTaken(seat=e.seat, tile=e.tile + 1, source=e.source)),
    ev.ColonistsReceived: lambda e: pb.Event(
        colonists_received=pb.ColonistsReceived(seat=e.seat, count=e.colonists, source=e.source)
    ),
    ev.ColonistsArranged: lambda e: pb.Event(
        colonists_arranged=pb.ColonistsArranged(seat=e.seat, san_juan=e.san_juan)
    ),
    ev.BuildingBuilt: lambda e: pb.Event(
        building_built=pb.BuildingBuilt(seat=e.seat, building=e.building + 1, price=e.price)
    ),
    ev.GoodsProduced: lambda e: pb.Event(
        goods_produced=pb.GoodsProduced(
            seat=e.seat, goods=_good_counts(e.goods), privilege=e.privilege, building=e.building + 1
        )
    ),
    ev.DoubloonsReceived: lambda e: pb.Event(
        doubloons_received=pb.DoubloonsReceived(seat=e.seat, amount=e.amount, reason=e.reason)
    ),
    ev.GoodSold: lambda e: pb.Event(
        good_sold=pb.GoodSold(seat=e.seat, good=e.good + 1, price=e.price, trading_post=e.trading_post)
    ),
    ev.GoodsLoaded: lambda e: pb.Event(
        goods_loaded=pb.GoodsLoaded(seat=e.seat, good=e.good + 1, count=e.barrels, ship=e.ship)
    ),
    ev.VpReceived: lambda e: pb.Event(
        vp_received=pb.VpReceived(seat=e.seat, amount=e.amount, reason=e.reason)
    ),
    ev.GoodsDiscarded: lambda e: pb.Event(
        goods_discarded=pb.GoodsDiscarded(seat=e.seat, goods=_good_counts(e.goods))
    ),
    ev.ShipsCleared: lambda e: pb.Event(ships_cleared=pb.ShipsCleared(ships=e.ships)),
    ev.TradingHouseCleared: lambda e: pb.Event(trading_house_cleared=pb.TradingHouseCleared()),
    ev.PlantationsRevealed: lambda e: pb.Event(
        plantations_revealed=pb.PlantationsRevealed(tiles=[t + 1 for t in e.tiles])
    ),
    ev.ColonistShipRefilled: lambda e: pb.Event(
        colonist_ship_refilled=pb.ColonistShipRefilled(count=e.colonists)
    ),
    ev.EndTriggered: lambda e: pb.Event(end_triggered=pb.EndTriggered(trigger=e.trigger)),
    ev.RoundEnded: lambda e: pb.Event(
        round_ended=pb.RoundEnded(round=e.round, next_governor=e.next_governor)
    ),
    ev.GameEnded: lambda e: pb.Event(game_ended=pb.GameEnded(scores=e.scores, winners=e.winners)),
    ev.DraftPicked: lambda e: pb.Event(draft_picked=pb.DraftPicked(seat=e.seat, building=e.building + 1)),
    ev.GuestMoved: lambda e: pb.Event(
        guest_moved=pb.GuestMoved(
            seat=e.seat,
            target=pb.ColonistTarget(tile=e.tile + 1)
            if e.tile >= 0
            else pb.ColonistTarget(building=e.building + 1),
        )
    ),
    ev.BlackMarketReturned: lambda e: pb.Event(
        black_market_returned=pb.BlackMarketReturned(seat=e.seat, item=e.item + 1, good=e.good + 1)
    ),
    ev.SmallWharfShipped: lambda e: pb.Event(
        small_wharf_shipped=pb.SmallWharfShipped(seat=e.seat, goods=_good_counts(e.goods))
    ),
}

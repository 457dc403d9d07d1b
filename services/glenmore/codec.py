"""Conversion between native state, actions, views and events and the boardgame.glenmore.v1 messages.

Protobuf enums and tile numbers count from 1 (0 is unset); native indices count from 0, hence the
+1/-1. Decoding checks every value and the consistency of the whole state, so a forged or damaged
state is refused as MalformedRequest.
"""

from __future__ import annotations

from boardgame.glenmore.v1 import glenmore_pb2 as pb

from services.common.errors import MalformedRequest
from services.common.helpers import check_state, counts_ok, rng_from_proto, rng_to_proto
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.data import (
    ABBEY,
    BRIDGE,
    BUTCHER,
    CARD_NAMES,
    DIE_PLAYER_COUNTS,
    DISTILLERY,
    FAIR,
    GROCER,
    LOCH_LOCHY,
    LOCH_NESS,
    LOCH_OICH,
    LOCH_SHIEL,
    MARKET_SLOTS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    MIXED_BUTCHER,
    NO_CARD,
    PUBLIC_VP,
    STACK_TILES,
    STACKS,
    TILE_CUBE_CAP,
    TILES,
    TRACK_LENGTH,
    TRACK_SPACES,
    start_village,
)
from services.glenmore.engine import check_seat, legal_now
from services.glenmore.labels import event_text
from services.glenmore.state import (
    CHOOSE_CUBE,
    CHOOSE_TILE,
    CUBES_LOCH_LOCHY,
    CUBES_LOCH_SHIEL,
    DIE,
    GAME_OVER,
    MOVE,
    NO_CELL,
    NO_CUBE_CHOICE,
    NO_PAYMENT,
    PAY,
    PAY_FOR_ACTIVATION,
    PAY_FOR_TILE,
    PLACE_TILE,
    Config,
    Player,
    State,
    figure,
)
from services.glenmore.territory import EDGES, ORIGIN, ORTHOGONAL, cell, in_range, xy

N_STEPS = GAME_OVER
CONVERSIONS = (DISTILLERY, BUTCHER, MIXED_BUTCHER, FAIR, GROCER, BRIDGE)


def _resource(value: int, what: str) -> int:
    check_state(1 <= value <= 5, f"{what} is not a resource")
    return value - 1


def _tile_number(value: int, what: str) -> int:
    check_state(1 <= value <= STACK_TILES, f"{what} is not a stack tile")
    return value - 1


def _counts(counts: pb.ResourceCounts) -> list[int]:
    return [counts.wood, counts.stone, counts.grain, counts.cattle, counts.sheep]


def _resource_counts(values: list[int]) -> pb.ResourceCounts:
    return pb.ResourceCounts(
        wood=values[0], stone=values[1], grain=values[2], cattle=values[3], sheep=values[4]
    )


def _cell_message(c: int) -> pb.Cell:
    x, y = xy(c)
    return pb.Cell(x=x, y=y)


def _cell_of(message: pb.Cell, what: str) -> int:
    check_state(in_range(message.x, message.y), f"{what} is out of range")
    return cell(message.x, message.y)


# Config.


def config_from_proto(message: pb.Config) -> Config:
    """The native config; an unset `public_vp` takes its default (OP-23)."""
    return Config(public_vp=message.public_vp if message.HasField("public_vp") else PUBLIC_VP)


def config_to_proto(config: Config) -> pb.Config:
    """The Config message. Options are written only when they differ from their defaults, so a
    default config encodes exactly as it did before the options existed."""
    message = pb.Config()
    if config.public_vp != PUBLIC_VP:
        message.public_vp = config.public_vp
    return message


# State.

# Decoding a state's encoding gives back an equal state, attribute by attribute, the legal-action memo
# aside (services.common.game.exact_state_round_trip; the conformance suite checks it).
EXACT_STATE_ROUND_TRIP = True


def _player_to_proto(player: Player) -> pb.Player:
    return pb.Player(
        coins=player.coins,
        vp=player.vp,
        scoring_vp=player.scoring_vp,
        whisky=player.whisky,
        chieftains=player.chieftains,
        territory=[
            pb.PlacedTile(
                tile=tile + 1,
                cell=_cell_message(c),
                clan_members=player.clans[slot],
                cubes=_resource_counts(player.cubes[5 * slot : 5 * slot + 5]),
            )
            for slot, (tile, c) in enumerate(zip(player.tiles, player.cells, strict=True))
        ],
        cards=[card + 1 for card in player.cards],
    )


def _track_entry(entry: int) -> pb.TrackEntry:
    if entry >= 0:
        return pb.TrackEntry(tile=entry + 1)
    if entry == DIE:
        return pb.TrackEntry(die=pb.DieFigure())
    return pb.TrackEntry(figure=-1 - entry)


def _turn_to_proto(state: State) -> pb.Turn:
    turn = pb.Turn(
        tile=state.t_tile + 1,
        placed=state.t_placed,
        cubes_to_choose=state.choose_left,
        cube_purpose=state.choose_purpose,
        activate_all=state.activate_all,
        loch_ness_ready=state.ness_ready,
        loch_ness_used=state.ness_used,
        movement_points=state.moves,
    )
    if state.t_placed:
        turn.cell.CopyFrom(_cell_message(state.t_cell))
    if state.pay_purpose != NO_PAYMENT:
        payment = pb.Payment(
            purpose=state.pay_purpose,
            resources=[k + 1 for k in state.pay_cubes],
            different_cubes=state.pay_different,
            kinds_paid=[k + 1 for k in state.pay_used],
            any_cubes=state.pay_any,
            clan_member=state.pay_clan,
            activation_count=state.act_count,
        )
        if state.act_cell != NO_CELL:
            payment.activation_cell.CopyFrom(_cell_message(state.act_cell))
        turn.payment.CopyFrom(payment)
    if state.activated:
        player = state.players[state.actor]
        turn.activated.extend(
            _cell_message(c) for slot, c in enumerate(player.cells) if state.activated >> slot & 1
        )
    return turn


def _table_to_proto(state: State) -> pb.Table:
    return pb.Table(
        config=config_to_proto(state.config),
        player_count=state.n,
        start_player=state.start_player,
        step=state.step,
        actor=state.actor,
        track=[_track_entry(entry) for entry in state.chain],
        track_space=state.track_space,
        stack_sizes=[len(stack) for stack in state.stacks],
        market=[pb.MarketRow(resource=k + 1, filled=f) for k, f in enumerate(state.market)],
        players=[_player_to_proto(p) for p in state.players],
        turn=_turn_to_proto(state),
        scorings_done=state.scorings_done,
        discarded_tiles=[t + 1 for t in state.discarded],
        last_die_roll=state.last_die,
    )


def state_to_proto(state: State) -> pb.State:
    """The State message, hidden parts included."""
    return pb.State(
        table=_table_to_proto(state),
        rng=rng_to_proto(state.rng),
        stacks=[pb.TileStack(tiles=[t + 1 for t in stack]) for stack in state.stacks],
    )


def _player_from_proto(message: pb.Player, seat: int, player: Player) -> None:
    """Fill a fresh `player` from its message (cards are checked by the caller)."""
    for value, what in (
        (message.coins, "coins"),
        (message.vp, "VP"),
        (message.scoring_vp, "scoring VP"),
        (message.whisky, "whisky"),
        (message.chieftains, "chieftains"),
    ):
        check_state(counts_ok(value), f"{what} out of range")
    check_state(message.scoring_vp <= message.vp, "scoring VP above VP")
    check_state(not message.vp_hidden, "hidden VP in a state")
    player.coins = message.coins
    player.vp = message.vp
    player.scoring_vp = message.scoring_vp
    player.whisky = message.whisky
    player.chieftains = message.chieftains
    check_state(len(message.territory) >= 1, "a territory without its start village")
    for slot, placed in enumerate(message.territory):
        if slot == 0:
            check_state(
                placed.tile == start_village(seat) + 1, "the first tile is not the seat's start village"
            )
            tile = start_village(seat)
        else:
            tile = _tile_number(placed.tile, "a territory tile")
        check_state(placed.HasField("cell"), "a territory tile without a cell")
        c = _cell_of(placed.cell, "a territory cell")
        check_state(c not in player.grid, "two tiles on one cell")
        check_state((slot == 0) == (c == ORIGIN), "the start village is not at (0, 0)")
        if slot:
            check_state(any(c + d in player.grid for d in ORTHOGONAL), "a tile not touching the territory")
            check_state(
                _edges_match(player, c, EDGES[tile]), "a tile whose edges do not match its neighbours"
            )
        cubes = _counts(placed.cubes)
        check_state(min(cubes) >= 0 and sum(cubes) <= TILE_CUBE_CAP, "cubes on a tile")
        check_state(counts_ok(placed.clan_members), "clan members out of range")
        new_slot = player.add_tile(tile, c, placed.clan_members)
        for kind, count in enumerate(cubes):
            for _ in range(count):
                player.add_cube(new_slot, kind)
    check_state(player.clan_total() >= 1, "no clan member in a territory")
    for card in message.cards:
        check_state(1 <= card <= len(CARD_NAMES), "unknown special location")


def _edges_match(player: Player, c: int, edge: int) -> bool:
    """P4 against the tiles already decoded."""
    grid, tiles = player.grid, player.tiles
    for d in ORTHOGONAL:
        slot = grid.get(c + d)
        if slot is None:
            continue
        feature = 1 if d in (1, -1) else 2
        if (edge & feature != 0) != (EDGES[tiles[slot]] & feature != 0):
            return False
    return True


def _chain_from_proto(table: pb.Table, n: int) -> list[int]:
    chain = []
    for entry in table.track:
        which = entry.WhichOneof("entry")
        if which == "tile":
            chain.append(_tile_number(entry.tile, "a track tile"))
        elif which == "figure":
            check_state(0 <= entry.figure < n, "a figure of no seat")
            chain.append(figure(entry.figure))
        else:
            check_state(which == "die" and n in DIE_PLAYER_COUNTS, "a die figure where there is none")
            chain.append(DIE)
    figures = sorted(e for e in chain if e < 0)
    expected = sorted([figure(s) for s in range(n)] + ([DIE] if n in DIE_PLAYER_COUNTS else []))
    check_state(figures == expected, "figures on the track")
    check_state(len(chain) <= TRACK_LENGTH, "too many entries on the track")
    check_state(chain[0] < 0, "a tile behind the rearmost figure")
    return chain


def _turn_from_proto(turn: pb.Turn, state: State) -> None:
    step = state.step
    player = state.players[state.actor]
    if step in (CHOOSE_TILE, GAME_OVER):
        check_state(turn == pb.Turn(), "turn progress outside a turn")
        return
    state.t_tile = _tile_number(turn.tile, "the tile of the turn")
    state.t_placed = turn.placed
    check_state(turn.placed == (step != PLACE_TILE), "whether the tile of the turn is placed")
    check_state(turn.HasField("cell") == turn.placed, "the cell of the turn")
    if turn.placed:
        state.t_cell = _cell_of(turn.cell, "the cell of the turn")
        slot = player.grid.get(state.t_cell)
        check_state(
            slot == len(player.tiles) - 1 and player.tiles[slot] == state.t_tile, "the tile placed this turn"
        )
    tile = TILES[state.t_tile]
    check_state(turn.HasField("payment") == (step == PAY), "a payment outside STEP_PAY")
    if step == PAY:
        _payment_from_proto(turn.payment, state, player)
    check_state((turn.cubes_to_choose > 0) == (step == CHOOSE_CUBE), "cubes to choose")
    check_state(0 <= turn.cubes_to_choose <= 2, "cubes to choose")
    state.choose_left = turn.cubes_to_choose
    check_state(0 <= turn.cube_purpose <= CUBES_LOCH_SHIEL, "cube purpose")
    check_state((turn.cube_purpose != NO_CUBE_CHOICE) == (step == CHOOSE_CUBE), "cube purpose")
    if turn.cube_purpose == CUBES_LOCH_LOCHY:
        check_state(tile.card == LOCH_LOCHY, "Loch Lochy cubes without Loch Lochy")
    if turn.cube_purpose == CUBES_LOCH_SHIEL:
        check_state(tile.card == LOCH_SHIEL, "Loch Shiel cubes without Loch Shiel")
        check_state(any(TILES[t].family == ABBEY for t in player.tiles), "Loch Shiel cube without Iona Abbey")
    state.choose_purpose = turn.cube_purpose
    check_state(not turn.activate_all or tile.card == LOCH_OICH, "activating everything without Loch Oich")
    state.activate_all = turn.activate_all
    check_state(not turn.loch_ness_ready or LOCH_NESS in player.cards, "Loch Ness ready without its card")
    check_state(not turn.loch_ness_used or turn.loch_ness_ready, "Loch Ness used without being ready")
    state.ness_ready = turn.loch_ness_ready
    state.ness_used = turn.loch_ness_used
    last = -1
    for activated in turn.activated:
        slot = player.grid.get(_cell_of(activated, "an activated cell"))
        check_state(slot is not None and slot > last, "activated tiles")
        assert slot is not None
        last = slot
        state.activated |= 1 << slot
    check_state(
        counts_ok(turn.movement_points) and (turn.movement_points > 0 or step != MOVE), "movement points"
    )
    state.moves = turn.movement_points


def _payment_from_proto(payment: pb.Payment, state: State, player: Player) -> None:
    check_state(payment.purpose in (PAY_FOR_TILE, PAY_FOR_ACTIVATION), "payment purpose")
    state.pay_purpose = payment.purpose
    state.pay_cubes = [_resource(k, "a resource to pay") for k in payment.resources]
    state.pay_used = [_resource(k, "a kind paid") for k in payment.kinds_paid]
    check_state(len(set(state.pay_used)) == len(state.pay_used), "kinds paid twice")
    check_state(0 <= payment.different_cubes <= 5 - len(state.pay_used), "different cubes to pay")
    check_state(0 <= payment.any_cubes <= 3, "cubes of any kind to pay")
    check_state(len(state.pay_cubes) <= 3, "cubes to pay")
    state.pay_different = payment.different_cubes
    state.pay_any = payment.any_cubes
    state.pay_clan = payment.clan_member
    check_state(
        bool(state.pay_cubes or state.pay_different or state.pay_any or state.pay_clan), "an empty payment"
    )
    check_state(0 <= payment.activation_count <= 5, "activation count")
    if payment.purpose == PAY_FOR_ACTIVATION:
        check_state(payment.HasField("activation_cell"), "an activation payment without its tile")
        state.act_cell = _cell_of(payment.activation_cell, "the activated cell")
        slot = player.grid.get(state.act_cell)
        check_state(
            slot is not None and TILES[player.tiles[slot]].effect in CONVERSIONS, "the activated tile"
        )
        state.act_count = payment.activation_count
    else:
        check_state(not payment.HasField("activation_cell") and payment.activation_count == 0, "tile payment")


def _expected_cards(player: Player, paying_for_tile: bool) -> list[int]:
    """The cards of the player's special tiles, in placement order; a tile being paid has none yet."""
    tiles = player.tiles[:-1] if paying_for_tile else player.tiles
    return [TILES[t].card for t in tiles if TILES[t].card != NO_CARD]


def state_from_proto(message: pb.State) -> State:
    """The native state of a State message; MalformedRequest if it is not a consistent state."""
    table = message.table
    n = table.player_count
    check_state(MIN_PLAYERS <= n <= MAX_PLAYERS, "player count")
    check_state(len(table.players) == n, "one player record per seat")
    state = State(config_from_proto(table.config), n, rng_from_proto(message.rng))
    check_state(0 <= table.start_player < n and 0 <= table.actor < n, "seat out of range")
    state.start_player = table.start_player
    state.actor = table.actor
    check_state(1 <= table.step <= N_STEPS, "step")
    state.step = table.step
    for seat, (player, player_message) in enumerate(zip(state.players, table.players, strict=True)):
        _player_from_proto(player_message, seat, player)

    check_state(len(message.stacks) == STACKS, "four stacks")
    for number, stack in enumerate(message.stacks):
        tiles = [_tile_number(t, "a stack tile") for t in stack.tiles]
        check_state(all(TILES[t].stack == number for t in tiles), f"a tile in the wrong stack {number}")
        state.stacks[number] = tiles
    check_state(list(table.stack_sizes) == [len(s) for s in state.stacks], "stack sizes")
    state.chain = _chain_from_proto(table, n)
    check_state(0 <= table.track_space < TRACK_SPACES, "track space")
    state.track_space = table.track_space
    state.discarded = [_tile_number(t, "a discarded tile") for t in table.discarded_tiles]
    check_state(len(table.market) == 5, "five market rows")
    for kind, row in enumerate(table.market):
        check_state(row.resource == kind + 1 and 0 <= row.filled <= MARKET_SLOTS, "market row")
        state.market[kind] = row.filled
    check_state(
        0 <= table.last_die_roll <= 3 and (n in DIE_PLAYER_COUNTS or table.last_die_roll == 0), "die roll"
    )
    state.last_die = table.last_die_roll

    exhausted = 0
    while exhausted < STACKS - 1 and not state.stacks[exhausted + 1]:
        exhausted += 1
    check_state(table.scorings_done == exhausted, "scorings done against the stacks used up")
    state.scorings_done = table.scorings_done
    check_state((state.step == GAME_OVER) == (exhausted == STACKS - 1), "game over exactly after scoring 3")
    if state.step == CHOOSE_TILE:
        check_state(state.chain[0] == figure(state.actor), "the acting seat's figure is not the rearmost")
        check_state(len(state.chain) == TRACK_LENGTH, "the track is not full at the start of a turn")

    paying_for_tile = state.step == PAY and table.turn.payment.purpose == PAY_FOR_TILE
    for seat, (player, player_message) in enumerate(zip(state.players, table.players, strict=True)):
        cards = _expected_cards(player, paying_for_tile and seat == state.actor)
        check_state(
            [c - 1 for c in player_message.cards] == cards, "special-location cards against the tiles"
        )
        player.cards = cards
    _turn_from_proto(table.turn, state)

    seen = [t for stack in state.stacks for t in stack]
    seen += [e for e in state.chain if e >= 0]
    seen += state.discarded
    for player in state.players:
        seen += player.tiles[1:]
    if state.step not in (CHOOSE_TILE, GAME_OVER) and not state.t_placed:
        seen.append(state.t_tile)
    check_state(sorted(seen) == list(range(STACK_TILES)), "every stack tile exactly once")
    if state.step != GAME_OVER:
        # A forged position can be consistent yet offer nothing (a payment nobody can complete).
        check_state(bool(legal_now(state)), "the acting seat has no legal action")
    return state


# Actions.


def _action_check(condition: bool, what: str) -> None:
    if not condition:
        raise MalformedRequest(f"invalid action: {what}")


def _action_cell(message: pb.Cell, what: str) -> tuple[int, int]:
    _action_check(in_range(message.x, message.y), f"{what} out of range")
    return message.x, message.y


def _action_resource(value: int) -> int:
    _action_check(1 <= value <= 5, "resource out of range")
    return value - 1


def action_from_proto(message: pb.Action) -> act.Action:
    """The native action; MalformedRequest if no move is set or a value is out of range."""
    move = message.WhichOneof("move")
    if move is None:
        raise MalformedRequest("the action sets no move")
    if move == "take_tile":
        _action_check(1 <= message.take_tile.tile <= STACK_TILES, "tile out of range")
        return act.Action(act.TAKE_TILE, message.take_tile.tile - 1)
    if move == "place_tile":
        return act.Action(act.PLACE_TILE, *_action_cell(message.place_tile.cell, "cell"))
    if move == "pay_cube":
        x, y = _action_cell(message.pay_cube.cell, "cell")
        return act.Action(act.PAY_CUBE, x, y, _action_resource(message.pay_cube.resource))
    if move == "buy_cube":
        return act.BUY_ACTION[_action_resource(message.buy_cube.resource)]
    if move == "pay_clan_member":
        return act.Action(act.PAY_CLAN, *_action_cell(message.pay_clan_member.cell, "cell"))
    if move == "choose_cube":
        return act.CHOOSE_ACTION[_action_resource(message.choose_cube.resource)]
    if move == "activate":
        activate = message.activate
        x, y = _action_cell(activate.cell, "cell")
        _action_check(0 <= activate.count <= 5, "count out of range")
        _action_check(0 <= activate.resource <= 5, "resource out of range")
        return act.Action(act.ACTIVATE, x, y, activate.count, activate.resource)
    if move == "move_clan_member":
        x, y = _action_cell(getattr(message.move_clan_member, "from"), "origin")
        tx, ty = _action_cell(message.move_clan_member.to, "target")
        return act.Action(act.MOVE_CLAN, x, y, tx, ty)
    if move == "make_chieftain":
        return act.Action(act.MAKE_CHIEFTAIN, *_action_cell(message.make_chieftain.cell, "cell"))
    if move == "sell":
        return act.SELL_ACTION[_action_resource(message.sell.resource)]
    return _EMPTY_MOVES[move]


_EMPTY_MOVES = {
    "discard_first_tile": act.DISCARD_FIRST_ACTION,
    "pay_chieftain": act.PAY_CHIEFTAIN_ACTION,
    "end_activations": act.END_ACTIVATIONS_ACTION,
    "end_movement": act.END_MOVEMENT_ACTION,
}
_EMPTY_KINDS = {action.kind: name for name, action in _EMPTY_MOVES.items()}


def action_to_proto(action: act.Action) -> pb.Action:
    """The Action message."""
    kind, a, b, c, d = action
    if kind == act.TAKE_TILE:
        return pb.Action(take_tile=pb.TakeTile(tile=a + 1))
    if kind == act.PLACE_TILE:
        return pb.Action(place_tile=pb.PlaceTile(cell=pb.Cell(x=a, y=b)))
    if kind == act.PAY_CUBE:
        return pb.Action(pay_cube=pb.PayCube(cell=pb.Cell(x=a, y=b), resource=c + 1))
    if kind == act.BUY_CUBE:
        return pb.Action(buy_cube=pb.BuyCube(resource=a + 1))
    if kind == act.PAY_CLAN:
        return pb.Action(pay_clan_member=pb.PayClanMember(cell=pb.Cell(x=a, y=b)))
    if kind == act.CHOOSE_CUBE:
        return pb.Action(choose_cube=pb.ChooseCube(resource=a + 1))
    if kind == act.ACTIVATE:
        return pb.Action(activate=pb.Activate(cell=pb.Cell(x=a, y=b), count=c, resource=d))
    if kind == act.MOVE_CLAN:
        move = pb.MoveClanMember(to=pb.Cell(x=c, y=d))
        getattr(move, "from").CopyFrom(pb.Cell(x=a, y=b))
        return pb.Action(move_clan_member=move)
    if kind == act.MAKE_CHIEFTAIN:
        return pb.Action(make_chieftain=pb.MakeChieftain(cell=pb.Cell(x=a, y=b)))
    if kind == act.SELL:
        return pb.Action(sell=pb.Sell(resource=a + 1))
    message = pb.Action()
    getattr(message, _EMPTY_KINDS[kind]).SetInParent()
    return message


# Views.


def vp_visible(state: State, viewer: int | None, seat: int) -> bool:
    """Whether `viewer` (None: a spectator) may see `seat`'s VP: always with the option public_vp
    (OP-23), else only its own, and everyone's once the game is over (the final scores are public)."""
    return state.config.public_vp or viewer == seat or state.terminal


def view_to_proto(state: State, seat: int | None) -> pb.View:
    """What `seat` may see: the public table (stack sizes, not their order; no RNG), without the VP
    of the seats whose VP it may not see."""
    if seat is not None:
        check_seat(state, seat)
    return _view(state, seat, _table_to_proto(state))


def views_to_proto(state: State, state_message: pb.State | None = None) -> list[pb.View]:
    """Every seat's view, then the spectator's, sharing one conversion of the table (the table of
    `state_message`, the caller's `state_to_proto(state)`, when it is given)."""
    table = state_message.table if state_message is not None else _table_to_proto(state)
    return [_view(state, seat, table) for seat in [*range(state.n), None]]


def _view(state: State, seat: int | None, table: pb.Table) -> pb.View:
    view = pb.View(table=table)
    for s, player in enumerate(view.table.players):
        if not vp_visible(state, seat, s):
            player.vp = 0
            player.scoring_vp = 0
            player.vp_hidden = True
    if seat is not None:
        view.seat = seat
    return view


# Events.


def _event_cell(where: tuple[int, int] | None) -> pb.Cell | None:
    return None if where is None else pb.Cell(x=where[0], y=where[1])


def _moved(e: ev.ClanMemberMoved) -> pb.Event:
    moved = pb.ClanMemberMoved(seat=e.seat, to=_event_cell(e.target))
    getattr(moved, "from").CopyFrom(_event_cell(e.origin))
    return pb.Event(clan_member_moved=moved)


def event_to_proto(event: tuple) -> tuple[pb.Event, str, tuple[int, ...]]:  # type: ignore[type-arg]
    """The Event message, its text, and who may see it: everyone, except VP gained with the option
    public_vp off, which only their seat sees (OP-23)."""
    visible_to: tuple[int, ...] = ()
    if isinstance(event, ev.VpGained) and not event.public:
        visible_to = (event.seat,)
    return _EVENT_BUILDERS[type(event)](event), event_text(event), visible_to


def _scoring_done(e: ev.ScoringDone) -> pb.Event:
    """The ScoringDone message; with hidden VP (OP-23) it carries the counts but not the VP."""
    shown = e.public
    return pb.Event(
        scoring_done=pb.ScoringDone(
            number=e.number,
            seats=[
                pb.SeatScoring(
                    seat=s.seat,
                    whisky=s.whisky,
                    whisky_vp=s.whisky_vp if shown else 0,
                    chieftains=s.chieftains,
                    chieftain_vp=s.chieftain_vp if shown else 0,
                    cards=s.cards,
                    card_vp=s.card_vp if shown else 0,
                )
                for s in e.seats
            ],
            vp_hidden=not shown,
        )
    )


_EVENT_BUILDERS = {
    ev.GameStarted: lambda e: pb.Event(game_started=pb.GameStarted(start_player=e.start_player)),
    ev.TilesDrawn: lambda e: pb.Event(tiles_drawn=pb.TilesDrawn(tiles=[t + 1 for t in e.tiles])),
    ev.TileTaken: lambda e: pb.Event(tile_taken=pb.TileTaken(seat=e.seat, tile=e.tile + 1)),
    ev.TileDiscarded: lambda e: pb.Event(tile_discarded=pb.TileDiscarded(tile=e.tile + 1, reason=e.reason)),
    ev.DieRolled: lambda e: pb.Event(die_rolled=pb.DieRolled(roll=e.roll)),
    ev.TilePlaced: lambda e: pb.Event(
        tile_placed=pb.TilePlaced(seat=e.seat, tile=e.tile + 1, cell=_event_cell(e.cell))
    ),
    ev.CubeSpent: lambda e: pb.Event(
        cube_spent=pb.CubeSpent(seat=e.seat, resource=e.kind + 1, cell=_event_cell(e.cell))
    ),
    ev.CubeBought: lambda e: pb.Event(
        cube_bought=pb.CubeBought(seat=e.seat, resource=e.kind + 1, price=e.price)
    ),
    ev.CubeSold: lambda e: pb.Event(
        cube_sold=pb.CubeSold(seat=e.seat, resource=e.kind + 1, price=e.price, cell=_event_cell(e.cell))
    ),
    ev.ClanMemberSpent: lambda e: pb.Event(
        clan_member_spent=pb.ClanMemberSpent(seat=e.seat, chieftain=e.chieftain, cell=_event_cell(e.cell))
    ),
    ev.WhiskySpent: lambda e: pb.Event(whisky_spent=pb.WhiskySpent(seat=e.seat, count=e.barrels)),
    ev.CardTaken: lambda e: pb.Event(card_taken=pb.CardTaken(seat=e.seat, card=e.card + 1)),
    ev.TileActivated: lambda e: pb.Event(
        tile_activated=pb.TileActivated(
            seat=e.seat, tile=e.tile + 1, cell=_event_cell(e.cell), loch_ness=e.loch_ness
        )
    ),
    ev.CubeGained: lambda e: pb.Event(
        cube_gained=pb.CubeGained(
            seat=e.seat, resource=e.kind + 1, cell=_event_cell(e.cell), lost=e.cell is None
        )
    ),
    ev.VpGained: lambda e: pb.Event(vp_gained=pb.VpGained(seat=e.seat, amount=e.amount, reason=e.reason)),
    ev.WhiskyGained: lambda e: pb.Event(whisky_gained=pb.WhiskyGained(seat=e.seat, count=e.barrels)),
    ev.CoinsGained: lambda e: pb.Event(coins_gained=pb.CoinsGained(seat=e.seat, amount=e.amount)),
    ev.ClanMembersGained: lambda e: pb.Event(
        clan_members_gained=pb.ClanMembersGained(seat=e.seat, count=e.members, cell=_event_cell(e.cell))
    ),
    ev.MovementGained: lambda e: pb.Event(movement_gained=pb.MovementGained(seat=e.seat, points=e.points)),
    ev.ClanMemberMoved: _moved,
    ev.ChieftainMade: lambda e: pb.Event(
        chieftain_made=pb.ChieftainMade(seat=e.seat, cell=_event_cell(e.cell))
    ),
    ev.TurnEnded: lambda e: pb.Event(turn_ended=pb.TurnEnded(seat=e.seat)),
    ev.ScoringDone: _scoring_done,
    ev.GameEnded: lambda e: pb.Event(
        game_ended=pb.GameEnded(
            seats=[
                pb.SeatFinal(
                    seat=s.seat,
                    card_vp=s.card_vp,
                    coin_vp=s.coin_vp,
                    tile_penalty=s.tile_penalty,
                    total=s.total,
                    cubes=s.cubes,
                )
                for s in e.seats
            ],
            winners=e.winners,
        )
    ),
}

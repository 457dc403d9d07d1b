"""OP-23, option `public_vp` (§12 of the rules): VP are public by default; with the option off a seat
sees only its own VP, in its view and in the events, until the game ends (final scores are public
either way). The default encodes and plays exactly as before the option existed."""

from __future__ import annotations

from typing import Any

import pytest
from boardgame.gateway.v1 import gateway_pb2
from boardgame.glenmore.v1 import glenmore_pb2 as pb
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from live.errors import GatewayError
from live.games import build_config
from services.common.errors import MalformedRequest
from services.common.playout import random_playout
from services.common.rng import Rng
from services.common.servicer import RulesServicer, info_to_proto, pack
from services.glenmore import GAME
from services.glenmore import actions as act
from services.glenmore import events as ev
from services.glenmore.bot import determinize
from services.glenmore.codec import CODEC
from services.glenmore.data import CASTLE_MOIL, PUBLIC_VP, ROAD
from services.glenmore.scoring import intermediate_scoring
from services.glenmore.state import CHOOSE_TILE, Config, State
from tests.glenmore.scenario import blank_game, play, put, set_track, take_and_place, tile

HIDDEN = Config(public_vp=False)
VIEWERS: tuple[int | None, ...] = (0, 1, 2, 3, None)
# seat -> (vp, of which from the intermediate scorings)
VP = {0: (9, 4), 1: (0, 0), 2: (12, 5), 3: (3, 0)}


def vp_game(config: Config) -> State:
    """A 4-player game in which the seats hold the VP of `VP`."""
    state = blank_game(4, config=config)
    for seat, (vp, scoring_vp) in VP.items():
        state.players[seat].vp = vp
        state.players[seat].scoring_vp = scoring_vp
    return state


def shown_vp(state: State, viewer: int | None) -> dict[int, tuple[int, int]]:
    """The (vp, scoring_vp) that `viewer`'s view shows (None: a spectator), by seat; a seat whose VP
    are withheld is left out, after checking that its view carries no VP for it."""
    shown = {}
    for seat, player in enumerate(CODEC.view_to_proto(state, viewer).table.players):
        if player.vp_hidden:
            assert (player.vp, player.scoring_vp) == (0, 0), f"seat {seat}'s withheld VP leak"
        else:
            shown[seat] = (player.vp, player.scoring_vp)
    return shown


def audience(event: tuple) -> tuple[int, ...]:  # type: ignore[type-arg]
    """Who may see a native event (empty: everyone)."""
    return CODEC.event_to_proto(event)[2]


def finished_game(config: Config, seed: bytes = b"public vp") -> State:
    """A whole 3-player random game."""
    playout = random_playout(GAME, 3, seed, rng=Rng.from_seed(seed), config=config)
    assert playout.terminal
    return playout.state


# --- Views -------------------------------------------------------------------------------------


def test_default_every_seat_and_a_spectator_see_every_seats_vp() -> None:
    """§12 DEFAULT (public_vp = true): VP are public."""
    assert Config().public_vp is PUBLIC_VP is True
    state = vp_game(Config())
    for viewer in VIEWERS:
        assert shown_vp(state, viewer) == VP, viewer


def test_hidden_a_seat_sees_only_its_own_vp_and_a_spectator_none() -> None:
    """public_vp = false: each seat sees its own VP only; another seat's are withheld (0 and marked
    vp_hidden), and a spectator sees nobody's."""
    state = vp_game(HIDDEN)
    for seat, own in VP.items():
        assert shown_vp(state, seat) == {seat: own}
    assert shown_vp(state, None) == {}
    assert CODEC.view_to_proto(state, None).table.players[2].vp_hidden


def test_hidden_vp_are_shown_to_everyone_once_the_game_is_over() -> None:
    """The final scores are public, so a finished game's views show every seat's VP."""
    state = finished_game(HIDDEN)
    expected = {s: (p.vp, p.scoring_vp) for s, p in enumerate(state.players)}
    assert any(vp for vp, _ in expected.values())
    for viewer in (0, 1, 2, None):
        assert shown_vp(state, viewer) == expected


# --- Events ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("config", "seen_by"), [(Config(), ()), (HIDDEN, (0,))], ids=["public", "hidden"])
def test_vp_from_an_activation_are_seen_by_their_seat_only_when_hidden(
    config: Config, seen_by: tuple[int, ...]
) -> None:
    """A tavern's VP (§7.2): with public_vp off only the gaining seat sees the VpGained; the tile
    and its activation stay public."""
    state = blank_game(4, config=config)
    put(state, 0, tile("Quarry", edge=ROAD, stack=0), 1, 0)
    state.players[0].whisky = 2
    tavern = tile("Tavern", nth=2)
    set_track(state, 0, [tavern, tile("Forest", edge=1, stack=0)])
    events = take_and_place(state, tavern, 1, 1)
    events += play(state, act.Action(act.ACTIVATE, 1, 1))
    gained = [e for e in events if isinstance(e, ev.VpGained)]
    assert [(e.seat, e.amount, e.reason) for e in gained] == [(0, 4, ev.VP_ACTIVATION)]
    assert [audience(e) for e in gained] == [seen_by]
    assert all(audience(e) == () for e in events if not isinstance(e, ev.VpGained))
    assert state.players[0].vp == 4


def scoring_game(config: Config) -> State:
    """Before scoring 1: whisky 3, 0, 1, 0 and Castle Moil (1 bonnet, 1 card) for seat 2."""
    state = blank_game(4, config=config)
    for seat, whisky in enumerate((3, 0, 1, 0)):
        state.players[seat].whisky = whisky
    put(state, 2, tile("Castle Moil"), 0, 1)
    assert state.players[2].cards == [CASTLE_MOIL]
    return state


# (seat, VP) of scoring_game's scoring 1: seat 0 3 for whisky; seat 2 1 for whisky, 1 for the
# chieftain category (its bonnet) and 1 for the card.
SCORED = [(0, 3), (2, 3)]


def test_public_intermediate_scoring_is_one_public_event_with_every_seats_vp() -> None:
    """Default: the scoring is reported once, to everyone, with each seat's VP (as before)."""
    state = scoring_game(Config())
    events: list = []  # type: ignore[type-arg]
    intermediate_scoring(state, 1, events)
    (scoring,) = events
    message, text, seen_by = CODEC.event_to_proto(scoring)
    assert seen_by == ()
    totals = [(s.seat, s.whisky_vp + s.chieftain_vp + s.card_vp) for s in message.scoring_done.seats]
    assert [(seat, vp) for seat, vp in totals if vp] == SCORED
    assert not any(isinstance(e, ev.VpGained) for e in events)
    assert not message.scoring_done.vp_hidden
    assert "seat 0: 3 VP" in text and "seat 2: 3 VP" in text


def test_hidden_intermediate_scoring_tells_each_seat_its_own_vp_only() -> None:
    """public_vp = false: the scoring's counts stay public but its VP do not; each seat that scored
    gets a VpGained (reason scoring) that only it sees."""
    state = scoring_game(HIDDEN)
    events: list = []  # type: ignore[type-arg]
    intermediate_scoring(state, 1, events)
    scoring, *private = events
    message, text, seen_by = CODEC.event_to_proto(scoring)
    assert seen_by == ()
    done = message.scoring_done
    assert done.vp_hidden and done.number == 1
    assert [(s.whisky, s.chieftains, s.cards) for s in done.seats] == [
        (3, 0, 0),
        (0, 0, 0),
        (1, 1, 1),
        (0, 0, 0),
    ]
    assert all(s.whisky_vp == s.chieftain_vp == s.card_vp == 0 for s in done.seats)
    assert "VP hidden" in text and "3 VP" not in text
    assert [(e.seat, e.amount, e.reason) for e in private] == [(s, vp, ev.VP_SCORING) for s, vp in SCORED]
    assert [audience(e) for e in private] == [(s,) for s, _ in SCORED]
    assert [(state.players[s].vp, state.players[s].scoring_vp) for s, _ in SCORED] == [(3, 3), (3, 3)]


# --- Config, codec and lobby -------------------------------------------------------------------


@pytest.mark.parametrize("public_vp", [True, False])
def test_the_option_round_trips_through_the_codec(public_vp: bool) -> None:
    config = Config(public_vp=public_vp)
    message = CODEC.config_to_proto(config)
    assert CODEC.config_from_proto(message) == config
    assert CODEC.config_from_proto(pb.Config(public_vp=public_vp)) == config
    state = blank_game(3, config=config)
    data = CODEC.state_to_proto(state).SerializeToString(deterministic=True)
    again = CODEC.state_from_proto(pb.State.FromString(data))
    assert again.config == config
    assert CODEC.state_to_proto(again).SerializeToString(deterministic=True) == data


def test_the_default_config_encodes_as_before_the_option() -> None:
    """An unset public_vp means true, and the default config writes no field, so stored states and
    golden playthroughs of default games are unchanged."""
    assert CODEC.config_from_proto(pb.Config()) == Config()
    assert CODEC.config_to_proto(Config()).SerializeToString() == b""
    assert CODEC.config_to_proto(HIDDEN).HasField("public_vp")


def test_a_state_that_claims_hidden_vp_is_refused() -> None:
    """vp_hidden belongs to views only."""
    message = CODEC.state_to_proto(blank_game(3))
    message.table.players[1].vp_hidden = True
    with pytest.raises(MalformedRequest, match="hidden VP"):
        CODEC.state_from_proto(message)


def test_the_lobby_accepts_the_option_through_the_gateways_build_config() -> None:
    """GameInfo lists public_vp (default "true"); each choice, built the way a lobby builds it, gives
    the native config; another value is refused."""
    info = info_to_proto(GAME.info, GAME)
    (option,) = [o for o in info.options if o.name == "public_vp"]
    assert list(option.choices) == ["false", "true"] and option.default_value == "true"
    for value, expected in (("true", Config()), ("false", HIDDEN)):
        message = pb.Config()
        packed = build_config(info, [gateway_pb2.GameOptionValue(name="public_vp", value=value)])
        assert packed.Unpack(message)
        assert CODEC.config_from_proto(message) == expected
    with pytest.raises(GatewayError):
        build_config(info, [gateway_pb2.GameOptionValue(name="public_vp", value="maybe")])


# --- Hidden information for tests and bots -----------------------------------------------------


def mid_game(config: Config, steps: int) -> State:
    """A 4-player game after `steps` random decisions, at the start of a turn."""
    playout = random_playout(
        GAME, 4, b"public vp mid", rng=Rng.from_seed(b"mid"), config=config, max_steps=steps
    )
    state = playout.state
    while state.step != CHOOSE_TILE:
        GAME.play(state, state.actor, GAME.legal_actions(state, state.actor)[0])
    return state


def test_disturbing_what_a_seat_cannot_see_moves_others_hidden_vp_but_not_its_view() -> None:
    """disturb_hidden (the bots' fallback determinization) changes the VP a viewer may
    not see and nothing in its view; with the default it leaves every VP alone."""
    hidden = mid_game(HIDDEN, 120)
    for viewer in VIEWERS:
        other = GAME.disturb_hidden(hidden, viewer, Rng(7))
        assert CODEC.view_to_proto(other, viewer) == CODEC.view_to_proto(hidden, viewer)
        moved = [s for s in range(4) if other.players[s].vp != hidden.players[s].vp]
        assert moved and viewer not in moved
        CODEC.state_from_proto(CODEC.state_to_proto(other))  # still a consistent state
    public = mid_game(Config(), 120)
    for viewer in VIEWERS:
        other = GAME.disturb_hidden(public, viewer, Rng(7))
        assert [p.vp for p in other.players] == [p.vp for p in public.players]


def test_a_bot_world_keeps_what_the_seat_sees_and_ignores_others_hidden_vp() -> None:
    """The determinization shows the seat the same view and does not depend on others' true VP."""
    state = mid_game(HIDDEN, 150)
    assert sum(1 for p in state.players if p.vp) >= 2
    for seat in range(4):
        world = determinize(state, seat, Rng(seat))
        assert CODEC.view_to_proto(world, seat) == CODEC.view_to_proto(state, seat)
        disturbed = GAME.disturb_hidden(state, seat, Rng(100 + seat))
        again = determinize(disturbed, seat, Rng(seat))
        assert CODEC.state_to_proto(again) == CODEC.state_to_proto(world)


# --- Whole games through the rules service -----------------------------------------------------


def unpack_view(packed: any_pb2.Any) -> pb.View:
    view = pb.View()
    assert packed.Unpack(view)
    return view


def unpack_state(packed: any_pb2.Any) -> pb.State:
    state = pb.State()
    assert packed.Unpack(state)
    return state


def serve_whole_game(config: pb.Config, seed: bytes) -> list[tuple[rules_pb2.ApplyActionResponse, pb.State]]:
    """A 3-player game played to the end through the rules servicer (random legal actions), with the
    views of every seat and the spectator after each action."""
    servicer = RulesServicer(GAME)
    context: Any = None  # never used: no request here fails
    started = servicer.NewGame(
        rules_pb2.NewGameRequest(player_count=3, seed=seed, config=pack(config)), context
    )
    packed, acting = started.state, list(started.acting_seats)
    rng = Rng.from_seed(seed)
    played = []
    for _ in range(GAME.info.max_game_length):
        seat = acting[0]
        legal = servicer.ListLegalActions(rules_pb2.ListLegalActionsRequest(state=packed, seat=seat), context)
        choice = legal.actions[rng.below(len(legal.actions))].action
        response = servicer.ApplyAction(
            rules_pb2.ApplyActionRequest(state=packed, seat=seat, action=choice, include_views=True), context
        )
        played.append((response, unpack_state(response.state)))
        if response.game_over:
            return played
        packed, acting = response.state, list(response.acting_seats)
    raise AssertionError("the game did not end within its bound")


def test_a_whole_hidden_vp_game_shows_each_seat_only_its_own_vp() -> None:
    """Every view and event of a whole game with public_vp = false, as the gateway gets them: a
    seat's view shows its own VP only (a spectator's none) until the game ends; VpGained events are
    addressed to their seat alone, every other event to everyone; a scoring shows no VP."""
    played = serve_whole_game(pb.Config(public_vp=False), b"hidden vp whole game")
    private_events = withheld = 0
    for response, state in played:
        players = state.table.players
        views = [unpack_view(v.view) for v in response.seat_views] + [
            unpack_view(response.spectator_view.view)
        ]
        for viewer, view in zip((0, 1, 2, None), views, strict=True):
            for seat, (shown, true) in enumerate(zip(view.table.players, players, strict=True)):
                if response.game_over or seat == viewer:
                    assert not shown.vp_hidden and (shown.vp, shown.scoring_vp) == (true.vp, true.scoring_vp)
                else:
                    assert shown.vp_hidden and shown.vp == shown.scoring_vp == 0
                    withheld += true.vp > 0
        for event in response.events:
            detail = pb.Event()
            assert event.detail.Unpack(detail)
            kind = detail.WhichOneof("event")
            if kind == "vp_gained":
                assert list(event.visible_to) == [detail.vp_gained.seat]
                private_events += 1
            else:
                assert not event.visible_to, kind
            if kind == "scoring_done":
                assert detail.scoring_done.vp_hidden
                assert all(s.whisky_vp == s.chieftain_vp == s.card_vp == 0 for s in detail.scoring_done.seats)
    assert private_events and withheld, "the game never withheld anything: the test proves nothing"
    final = played[-1][1].table.players
    assert any(p.scoring_vp for p in final), "no scoring VP reached the players"


def test_a_whole_default_game_is_as_public_as_before() -> None:
    """With the default (and with public_vp = true set explicitly) nothing is withheld, no event has
    an audience, and the stored state carries no option: the same bytes either way."""
    default = serve_whole_game(pb.Config(), b"public vp whole game")
    explicit = serve_whole_game(pb.Config(public_vp=True), b"public vp whole game")
    assert [r.state for r, _ in default] == [r.state for r, _ in explicit]
    for response, state in default:
        assert not state.table.HasField("config") or state.table.config.ListFields() == []
        assert all(not event.visible_to for event in response.events)
        for packed in [*(v.view for v in response.seat_views), response.spectator_view.view]:
            assert not any(p.vp_hidden for p in unpack_view(packed).table.players)


def test_a_hidden_vp_game_plays_the_same_moves_to_the_same_scores() -> None:
    """The option changes who sees VP, never the rules: the same seeded game ends with the same scores."""
    public = finished_game(Config(), b"same game")
    hidden = finished_game(HIDDEN, b"same game")
    assert GAME.scores(hidden) == GAME.scores(public)

"""The conformance suite: every registered game, every player count, in-process and over gRPC.

Each test states one property of the rules-service contract (protos/boardgame/rules/v1) or the Game
protocol (services/common/game.py) and checks it on seeded random playouts. Nothing here names a
specific game: whatever a test needs to know about a game it reads from GameInfo and the game's
message descriptors.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import random
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2

from services.common import registry
from services.common.compiled import PURE_ENV
from services.common.errors import GameOver, IllegalAction, MalformedRequest, NotYourTurn, RulesError
from services.common.game import Game
from services.common.playout import random_playout, replay
from services.common.rng import Rng
from services.common.visibility import bool_options, config_in, message_types
from tests.conformance.drivers import (
    REPLAYED_SEEDS,
    RNG_STATE_TYPE,
    SAMPLES,
    SEEDS,
    TYPE_URL_PREFIX,
    Case,
    Driver,
    GrpcDriver,
    InProcessDriver,
    LegalRecord,
    Pool,
    Refused,
    Trace,
    choice_rng,
    config_with,
    enum_mutations,
    info_message,
    option_value,
    pack,
    rng_paths,
    run_trace,
    serialize,
    with_rng_changed,
)
from tests.conformance.native import StateChanged, compiled, frozen_copy, structure
from tests.conformance.visibility import (
    PUBLIC_CHANGES,
    STATES_PER_TRACE,
    Coverage,
    check_views,
    seen_differences,
)

T = TypeVar("T")
STATUS_NAMES = {code.name for code in grpc.StatusCode}
GARBAGE = b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"


def traces(pool: Pool, kind: str, case: Case) -> list[Trace]:
    """The traced playouts of `case` through the `kind` driver, one per seed."""
    return [pool.trace(kind, case, seed) for seed in SEEDS[kind]]


def spread(items: Sequence[T], count: int) -> list[T]:
    """At most `count` items evenly spread over `items`, first and last included."""
    if len(items) <= count:
        return list(items)
    if count == 1:
        return [items[len(items) // 2]]
    return [items[round(i * (len(items) - 1) / (count - 1))] for i in range(count)]


def refusal(call: Callable[..., Any], *args: Any, what: str = "request") -> Refused:
    """The Refused that `call(*args)` raises; fails the test, saying `what`, if the call is accepted."""
    try:
        result = call(*args)
    except Refused as refused:
        assert refused.code in STATUS_NAMES, f"{refused.code!r} is not a gRPC status code name"
        assert refused.code not in ("UNKNOWN", "INTERNAL"), f"a bad request surfaced as {refused}"
        if refused.error is not None and isinstance(refused.error, RulesError):
            assert refused.error.code == refused.code
        return refused
    raise AssertionError(f"{what} was accepted, expected a refusal; got {result!r}"[:500])


def assert_code(
    refused: Refused,
    code: str,
    reason: str | None = None,
    error_type: type | tuple[type, ...] | None = None,
) -> None:
    """Check a refusal's status code, ErrorInfo reason and (in-process) exception class."""
    assert refused.code == code, f"expected {code}, got {refused}"
    assert refused.message.strip(), f"refusal without a readable message: {refused}"
    if reason is not None:
        assert refused.reason == reason, f"expected reason {reason}, got {refused}"
    if error_type is not None and refused.error is not None and not isinstance(refused.error, grpc.RpcError):
        assert isinstance(refused.error, error_type), f"expected {error_type}, got {refused.error!r}"


def state_refusal(driver: Driver, data: bytes, what: str) -> Refused:
    """The refusal of a state given as bytes, whether decoding it or viewing it is refused."""
    return refusal(lambda: driver.view_bytes(driver.state_from_bytes(data), None), what=what)


def action_refusal(driver: Driver, state: Any, seat: int, data: bytes, what: str) -> Refused:
    """The refusal of an action given as bytes, whether decoding it or applying it is refused."""
    return refusal(lambda: driver.apply(state, seat, driver.action_from_bytes(data)), what=what)


def listed(legal: Sequence[LegalRecord]) -> list[tuple[bytes, str]]:
    """Legal actions as comparable (serialized action, label) pairs, in listed order."""
    return [(action.action_bytes, action.label) for action in legal]


def sampled_states(trace: Trace, count: int) -> list[tuple[Any, tuple[int, ...]]]:
    """About `count` non-terminal states of a trace, with their acting seats."""
    return spread([(step.state, step.acting_seats) for step in trace.steps], count)


# Static facts


def test_game_info_is_consistent(driver: Driver, game: Game, game_name: str) -> None:
    """GetGameInfo reports the game's own record; its options name Config fields with valid choices."""
    info = driver.info()
    assert info == info_message(game)
    assert info.name == game_name
    assert 1 <= info.min_players <= info.max_players
    assert info.max_game_length > 0
    assert info.min_score <= info.max_score
    config_fields = game.messages.config.DESCRIPTOR.fields_by_name
    for option in info.options:
        assert option.name in config_fields, f"option {option.name} is not a Config field"
        assert option.description.strip()
        if option.choices:
            assert option.default_value in option.choices, f"option {option.name}: default not a choice"
        for choice in option.choices:
            option_value(game.messages.config, option.name, choice)


def test_every_game_serves_its_static_data_as_its_declared_message(
    driver: Driver, game: Game, game_name: str
) -> None:
    """GetGameData carries the game's own data message, as GameInfo names it, under the digest
    GameInfo lists, serialized deterministically, with something in it and a version."""
    info, data = driver.info(), driver.data()
    declared = game.title_data
    assert declared is not None, f"{game.info.name} declares no static data for clients"
    package = game.messages.state.DESCRIPTOR.file.package
    assert declared.message.DESCRIPTOR.file.package == package, "the data message is the game's own"
    assert data.data.TypeName() == info.data_type == declared.message.DESCRIPTOR.full_name
    assert data.digest == info.data_digest == hashlib.sha256(data.data.value).hexdigest()
    message = declared.message.FromString(data.data.value)
    assert message.ListFields()
    message.DiscardUnknownFields()  # so that bytes of fields the message does not declare show below
    assert message.SerializeToString(deterministic=True) == data.data.value
    assert data.data_version.strip()


def test_views_and_events_declare_no_rng_state(game_name: str, game: Game) -> None:
    """Nothing a client receives (View, Event) declares a field of type RngState."""
    for root in (game.messages.view, game.messages.event):
        for descriptor in message_types(root.DESCRIPTOR):
            for field in descriptor.fields:
                assert field.message_type is None or field.message_type.full_name != RNG_STATE_TYPE, (
                    f"{descriptor.full_name}.{field.name} carries the RNG state to clients"
                )


# Playouts, acting seats and legal actions


def test_random_playouts_end_within_bound(pool: Pool, kind: str, case: Case, game: Game) -> None:
    """Random playouts reach a terminal state within info.max_game_length decisions."""
    for trace in traces(pool, kind, case):
        assert trace.initial.acting_seats, "the new game has no acting seat"
        assert not trace.initial.game_over
        assert len(trace.steps) <= game.info.max_game_length, (
            f"seed {trace.seed!r}: not over after {len(trace.steps)} decisions"
        )
        assert trace.final.game_over, f"seed {trace.seed!r}: ended without game_over"
        assert trace.final.acting_seats == ()


def test_only_acting_seats_have_legal_actions(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """Acting seats have labelled, unique legal actions; every other seat and a finished game have none."""
    seats = range(case.players)
    for trace in traces(pool, kind, case):
        steps = trace.steps if kind == "inprocess" else spread(trace.steps, 3 * SAMPLES[kind])
        for step in steps:
            where = f"seed {trace.seed!r} step {step.index}"
            assert step.acting_seats, f"{where}: no acting seat in a game not over"
            assert list(step.acting_seats) == sorted(set(step.acting_seats)), f"{where}: {step.acting_seats}"
            assert set(step.acting_seats) <= set(seats), f"{where}: acting seats {step.acting_seats}"
            assert step.outcome.game_over == (step.outcome.acting_seats == ()), (
                f"{where}: game_over {step.outcome.game_over} but acting seats {step.outcome.acting_seats}"
            )
            for seat in seats:
                legal = step.legal if seat == step.seat else driver.legal_actions(step.state, seat)
                if seat in step.acting_seats:
                    assert legal, f"{where}: acting seat {seat} has no legal action"
                    assert all(action.label.strip() for action in legal), f"{where}: an empty label"
                    encoded = [action.action_bytes for action in legal]
                    assert len(set(encoded)) == len(encoded), f"{where}: duplicate legal actions"
                else:
                    assert not legal, f"{where}: seat {seat} does not act but has legal actions"
        final = trace.final.state
        assert driver.acting_seats(final) == ()
        for seat in seats:
            assert driver.legal_actions(final, seat) == [], f"seed {trace.seed!r}: legal actions at the end"


def test_engine_legal_actions_are_sorted_and_unique(pool: Pool, case: Case, game: Game) -> None:
    """The engine lists legal actions strictly increasing: sorted and without duplicates."""
    for trace in traces(pool, "inprocess", case):
        for step in trace.steps:
            actions = list(game.legal_actions(step.state, step.seat))
            assert all(a < b for a, b in itertools.pairwise(actions)), (
                f"seed {trace.seed!r} step {step.index}: not strictly increasing: {actions}"
            )


def test_legal_actions_on_the_wire_carry_the_action_type(pool: Pool, case: Case, game: Game) -> None:
    """Over gRPC, states, legal actions and event details are Any messages of the game's own types."""
    messages = game.messages
    for trace in traces(pool, "grpc", case):
        assert trace.initial.state.type_url == TYPE_URL_PREFIX + messages.state.DESCRIPTOR.full_name
        for step in trace.steps:
            for legal in step.legal:
                assert legal.action.type_url == TYPE_URL_PREFIX + messages.action.DESCRIPTOR.full_name
            assert step.outcome.state.type_url == trace.initial.state.type_url


def test_every_legal_action_applies(pool: Pool, kind: str, case: Case, driver: Driver, game: Game) -> None:
    """At sampled states every legal action of every acting seat applies and leaves its input unchanged."""
    checked = 0
    for trace in traces(pool, kind, case):
        for state, acting in sampled_states(trace, SAMPLES[kind]):
            before = driver.state_bytes(state)
            for seat in acting:
                for legal in driver.legal_actions(state, seat):
                    action_before = legal.action_bytes
                    outcome = driver.apply(state, seat, legal.action)
                    assert driver.state_bytes(state) == before, f"applying {legal.label!r} changed its input"
                    if kind == "inprocess":
                        assert serialize(game.action_to_proto(legal.action)) == action_before
                    assert outcome.game_over == (outcome.acting_seats == ()), (
                        f"{legal.label!r}: game_over {outcome.game_over}, acting {outcome.acting_seats}"
                    )
                    checked += 1
    assert checked > 0


def test_play_in_place_matches_apply(pool: Pool, case: Case, game: Game) -> None:
    """`random_playout` (in-place `play`) and `replay` reach the state the pure `apply` trace reached."""
    message = case.config_message()
    config = None if message is None else game.config_from_proto(message)
    for trace in traces(pool, "inprocess", case):
        playout = random_playout(
            game, case.players, trace.seed, rng=choice_rng(trace.seed), record=True, config=config
        )
        final_bytes = serialize(game.state_to_proto(trace.final.state))
        assert playout.terminal
        assert playout.steps == len(trace.steps)
        assert serialize(game.state_to_proto(playout.state)) == final_bytes
        assert playout.trajectory is not None
        replayed = replay(game, case.players, trace.seed, playout.trajectory, config=config)
        assert serialize(game.state_to_proto(replayed)) == final_bytes


# Refusals


def actions_seen(trace: Trace) -> list[bytes]:
    """Every distinct serialized action that was legal somewhere in the trace, in first-seen order."""
    seen: dict[bytes, None] = {}
    for step in trace.steps:
        for legal in step.legal:
            seen.setdefault(legal.action_bytes, None)
    return list(seen)


def test_illegal_action_is_refused(pool: Pool, kind: str, case: Case, driver: Driver, game: Game) -> None:
    """An action legal elsewhere in the game but not now is refused (INVALID_ARGUMENT), state unchanged."""
    refused_count = 0
    for trace in traces(pool, kind, case):
        seen = actions_seen(trace)
        for state, acting in sampled_states(trace, SAMPLES[kind]):
            seat = acting[0]
            legal = {action.action_bytes for action in driver.legal_actions(state, seat)}
            candidates = [data for data in seen if data not in legal]
            before = driver.state_bytes(state)
            for data in spread(candidates, 3):
                action = driver.action_from_bytes(data)
                refused = refusal(driver.apply, state, seat, action)
                assert_code(refused, "INVALID_ARGUMENT", IllegalAction.reason, IllegalAction)
                assert driver.state_bytes(state) == before
                if kind == "inprocess":
                    own = game.copy_state(state)
                    with pytest.raises(IllegalAction):
                        game.play(own, seat, action)
                    assert serialize(game.state_to_proto(own)) == before, "a refused `play` changed the state"
                refused_count += 1
    assert refused_count > 0, "no state where some action legal elsewhere was illegal"


def test_action_for_a_seat_not_acting_is_refused(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """An acting seat's legal action sent for a seat that does not act: FAILED_PRECONDITION, unchanged."""
    refused_count = 0
    for trace in traces(pool, kind, case):
        for state, acting in sampled_states(trace, SAMPLES[kind]):
            idle = [seat for seat in range(case.players) if seat not in acting]
            if not idle:
                continue
            action = driver.legal_actions(state, acting[0])[0].action
            before = driver.state_bytes(state)
            refused = refusal(driver.apply, state, idle[0], action)
            assert_code(refused, "FAILED_PRECONDITION", NotYourTurn.reason, NotYourTurn)
            assert driver.state_bytes(state) == before
            refused_count += 1
    if refused_count == 0:
        pytest.skip("every seat acts in every sampled state")


def test_seat_out_of_range_is_refused(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """A seat outside 0..player_count-1 is INVALID_ARGUMENT, and the state is unchanged."""
    for trace in traces(pool, kind, case):
        for state, acting in sampled_states(trace, 2):
            action = driver.legal_actions(state, acting[0])[0].action
            before = driver.state_bytes(state)
            for seat in (-1, case.players, case.players + 7):
                refused = refusal(driver.apply, state, seat, action)
                assert_code(refused, "INVALID_ARGUMENT")
                assert driver.state_bytes(state) == before


def test_action_after_game_over_is_refused(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """Any action on a finished game is FAILED_PRECONDITION (GAME_OVER), and the state is unchanged."""
    for trace in traces(pool, kind, case):
        last = trace.steps[-1]
        final = trace.final.state
        before = driver.state_bytes(final)
        refused = refusal(driver.apply, final, last.seat, last.legal[last.choice].action)
        assert_code(refused, "FAILED_PRECONDITION", GameOver.reason, GameOver)
        assert driver.state_bytes(final) == before


def test_undefined_enum_values_are_refused(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """Actions and states holding enum numbers their enum does not define are INVALID_ARGUMENT."""
    limit = None if kind == "inprocess" else 12
    tried = 0
    trace = traces(pool, kind, case)[0]
    for state, acting in sampled_states(trace, 3):
        before = driver.state_bytes(state)
        game = driver.game
        seat = acting[0]
        for legal in driver.legal_actions(state, seat)[:4]:
            message = game.messages.action.FromString(legal.action_bytes)
            for path, mutated in list(enum_mutations(message))[:limit]:
                data = serialize(mutated)
                refused = action_refusal(driver, state, seat, data, f"action with undefined {path}")
                assert_code(refused, "INVALID_ARGUMENT", error_type=(MalformedRequest, IllegalAction))
                assert driver.state_bytes(state) == before, f"refused action ({path}) changed the state"
                tried += 1
        state_message = game.messages.state.FromString(before)
        for path, mutated in list(enum_mutations(state_message))[:limit]:
            refused = state_refusal(driver, serialize(mutated), f"state with undefined {path}")
            assert_code(refused, "INVALID_ARGUMENT", MalformedRequest.reason, MalformedRequest)
            tried += 1
    if tried == 0:
        pytest.skip("no enum value is set in the sampled actions and states")


def test_empty_state_is_refused(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """A State message with nothing set is not a game: INVALID_ARGUMENT (MalformedRequest in-process)."""
    refused = state_refusal(driver, b"", "an empty state")
    assert_code(refused, "INVALID_ARGUMENT", MalformedRequest.reason, MalformedRequest)


def test_malformed_any_is_refused(pool: Pool, case: Case, grpc_driver: GrpcDriver, game: Game) -> None:
    """Over gRPC, a wrong type URL, another message type, garbage bytes or no Any: INVALID_ARGUMENT."""
    trace = traces(pool, "grpc", case)[0]
    step = trace.steps[len(trace.steps) // 2]
    state, seat = step.state, step.seat
    action = step.legal[step.choice].action
    state_type, action_type = state.type_url, action.type_url
    another_type = pack(game.messages.config())
    bad_anys = {
        "unknown type URL": lambda good: any_pb2.Any(
            type_url=TYPE_URL_PREFIX + "boardgame.nosuchgame.v1.Nothing", value=good.value
        ),
        "another message type": lambda good: another_type,
        "garbage bytes": lambda good: any_pb2.Any(type_url=good.type_url, value=GARBAGE),
        "empty Any": lambda good: any_pb2.Any(),
    }
    assert state_type != action_type
    baseline = grpc_driver.apply(state, seat, action)
    for name, make in bad_anys.items():
        bad_state = make(state)
        for method, request in (
            ("ListLegalActions", rules_pb2.ListLegalActionsRequest(state=bad_state, seat=seat)),
            ("ApplyAction", rules_pb2.ApplyActionRequest(state=bad_state, seat=seat, action=action)),
            ("GetView", rules_pb2.GetViewRequest(state=bad_state)),
            ("GetScores", rules_pb2.GetScoresRequest(state=bad_state)),
        ):
            refused = refusal(grpc_driver.call, method, request, what=f"{method} with state as {name}")
            assert refused.code == "INVALID_ARGUMENT", f"{method} with state as {name}: {refused}"
            assert refused.reason, f"{method} with state as {name}: no ErrorInfo reason"
        refused = refusal(grpc_driver.apply, state, seat, make(action), what=f"action as {name}")
        assert refused.code == "INVALID_ARGUMENT", f"ApplyAction with action as {name}: {refused}"
        assert refused.reason, f"ApplyAction with action as {name}: no ErrorInfo reason"
    swapped = refusal(grpc_driver.apply, action, seat, state)
    assert swapped.code == "INVALID_ARGUMENT"
    again = grpc_driver.apply(state, seat, action)
    assert grpc_driver.state_bytes(again.state) == grpc_driver.state_bytes(baseline.state)
    assert again.events == baseline.events


def test_get_view_lists_the_same_legal_actions(pool: Pool, case: Case, grpc_driver: GrpcDriver) -> None:
    """GetView with include_legal_actions gives ListLegalActions' list and the plain view's bytes."""
    trace = traces(pool, "grpc", case)[0]
    states = [state for state, _ in sampled_states(trace, SAMPLES["grpc"])] + [trace.final.state]
    for state in states:
        for seat in [*range(case.players), None]:
            request = rules_pb2.GetViewRequest(state=state, include_legal_actions=True)
            if seat is not None:
                request.seat = seat
            response = grpc_driver.call("GetView", request)
            assert response.view.value == grpc_driver.view_bytes(state, seat)
            listed_now = [(legal.action.value, legal.label) for legal in response.legal_actions]
            expected = listed(grpc_driver.legal_actions(state, seat)) if seat is not None else []
            assert listed_now == expected, f"seat {seat}: GetView and ListLegalActions disagree"


def test_apply_action_returns_every_view_when_asked(pool: Pool, case: Case, grpc_driver: GrpcDriver) -> None:
    """ApplyAction with include_views gives each seat's GetView (legal actions included) and the
    spectator's, in seat order; without it, none."""
    trace = traces(pool, "grpc", case)[0]
    steps = spread(trace.steps, SAMPLES["grpc"])
    for step in steps:
        action = step.legal[step.choice].action
        request = rules_pb2.ApplyActionRequest(state=step.state, seat=step.seat, action=action)
        plain = grpc_driver.call("ApplyAction", request)
        assert not plain.seat_views and not plain.HasField("spectator_view")
        request.include_views = True
        response = grpc_driver.call("ApplyAction", request)
        assert response.state == plain.state and response.events == plain.events
        assert len(response.seat_views) == case.players
        for seat, view in enumerate(response.seat_views):
            asked = rules_pb2.GetViewRequest(state=response.state, seat=seat, include_legal_actions=True)
            assert view == grpc_driver.call("GetView", asked), f"seat {seat}"
        spectator = grpc_driver.call("GetView", rules_pb2.GetViewRequest(state=response.state))
        assert response.spectator_view == spectator


def test_invalid_new_game_is_refused(driver: Driver, game: Game, game_name: str) -> None:
    """Unsupported player counts and option values outside their choices are INVALID_ARGUMENT."""
    info = game.info
    seed = b"conformance-config"
    for players in (info.min_players - 1, info.max_players + 1, 0, -1):
        refused = refusal(driver.new_game, players, seed)
        assert refused.code == "INVALID_ARGUMENT", f"{players} players: {refused}"
    config_type = game.messages.config
    for option in info.options:
        field = config_type.DESCRIPTOR.fields_by_name[option.name]
        if field.enum_type is not None:
            bad = max(value.number for value in field.enum_type.values) + 1000
        elif option.choices and all(choice.lstrip("-").isdigit() for choice in option.choices):
            bad = max(int(choice) for choice in option.choices) + 1
            if bad == 0:
                bad = 1 + max(abs(int(choice)) for choice in option.choices)
        else:
            continue
        refused = refusal(driver.new_game, info.max_players, seed, config_with(config_type, option.name, bad))
        assert refused.code == "INVALID_ARGUMENT", f"option {option.name}={bad}: {refused}"


def test_seed_length_is_checked(grpc_driver: GrpcDriver, game: Game, game_name: str) -> None:
    """NewGame takes seeds of 1 to 64 bytes and refuses others with INVALID_ARGUMENT."""
    players = game.info.min_players
    for seed in (b"", bytes(65)):
        refused = refusal(grpc_driver.new_game, players, seed)
        assert refused.code == "INVALID_ARGUMENT", f"seed of {len(seed)} bytes: {refused}"
    for seed in (b"x", bytes(range(64))):
        assert grpc_driver.new_game(players, seed).acting_seats


def test_every_option_choice_plays_to_the_end(driver: Driver, game: Game, game_name: str) -> None:
    """Each listed choice of each option sets up a game, and in-process a random playout finishes it."""
    info = game.info
    for option in info.options:
        for choice in option.choices:
            message = config_with(
                game.messages.config, option.name, option_value(game.messages.config, option.name, choice)
            )
            outcome = driver.new_game(info.max_players, b"conformance-options", message)
            assert outcome.acting_seats, f"{option.name}={choice}: nobody acts"
            if isinstance(driver, InProcessDriver):
                playout = random_playout(
                    game,
                    info.max_players,
                    b"conformance-options",
                    rng=Rng.from_seed(option.name.encode() + choice.encode()),
                    config=game.config_from_proto(message),
                )
                assert playout.terminal, f"{option.name}={choice}: not over after {playout.steps} decisions"


# Serialization and determinism


def test_states_round_trip(
    pool: Pool, kind: str, case: Case, driver: Driver, engine_driver: InProcessDriver, game: Game
) -> None:
    """State bytes decode and re-encode to identical bytes, which are the canonical encoding."""
    for trace in traces(pool, kind, case):
        for state, _ in trace.states():
            data = driver.state_bytes(state)
            assert serialize(game.messages.state.FromString(data)) == data
            native = engine_driver.state_from_bytes(data)
            assert engine_driver.state_bytes(native) == data


def test_decoding_an_encoded_state_gives_the_same_state(pool: Pool, case: Case, game: Game) -> None:
    """Every state of every in-process playout, encoded and decoded again, is the same native value:
    every attribute equal (the legal-action memo aside, which must give the same legal actions), and
    the same bytes once more; so a rules service may answer from the state it encoded instead of
    decoding the bytes it gets back. Checked for the games that declare it."""
    if not game.exact_state_round_trip:
        pytest.skip(f"{case.game} does not declare exact_state_round_trip: its service decodes every state")
    for trace in traces(pool, "inprocess", case):
        for number, (state, acting) in enumerate(trace.states()):
            where = f"seed {trace.seed!r} state {number}"
            message = game.state_to_proto(state)
            data = serialize(message)
            decoded = game.state_from_proto(game.messages.state.FromString(data))
            assert structure(decoded) == structure(state), f"{where}: decoding gave another value"
            assert serialize(game.state_to_proto(decoded)) == data, f"{where}: bytes changed"
            for seat in acting:
                assert list(game.legal_actions(decoded, seat)) == list(game.legal_actions(state, seat)), (
                    f"{where}: the decoded state has other legal actions for seat {seat}"
                )


def test_the_engine_never_changes_a_state_it_is_given(pool: Pool, case: Case, game: Game) -> None:
    """Nothing a rules service asks of a state changes it, not even for a moment (threads share the
    states it caches): over a whole playout, applying the chosen action, every view, every seat's
    legal actions and their labels, and the scores run on a copy where any change raises; at sampled
    states so does applying every legal action. Views built from the State message equal the others."""
    trace = traces(pool, "inprocess", case)[0]
    sampled = {step.index for step in spread(trace.steps, SAMPLES["inprocess"])}
    final = (None, trace.final.state)
    for step, state in [*((step, step.state) for step in trace.steps), final]:
        where = f"seed {trace.seed!r} " + (f"step {step.index}" if step else "final state")
        before = structure(state)
        data = serialize(game.state_to_proto(state))
        # Compiled engines change what they change past any refusal: for them, only what remains
        # changed afterwards is seen here (test_the_engines_from_source_never_change_a_state_they_are_given).
        frozen = game.copy_state(state) if compiled(state) else frozen_copy(state)
        try:
            if step is not None:
                actions = [legal.action for legal in step.legal] if step.index in sampled else []
                chosen = step.legal[step.choice].action
                after, events = game.apply(frozen, step.seat, chosen)
                for event in events:
                    message, text, visible_to = game.event_to_proto(event)
                    assert game.encode_event(event) == (serialize(message), text, visible_to), (
                        f"{where}: encode_event differs from event_to_proto on {event}"
                    )
                assert serialize(game.state_to_proto(after)) == serialize(
                    game.state_to_proto(step.outcome.state)
                ), f"{where}: applying to the copy gave another state"
                for action in actions:
                    game.apply(frozen, step.seat, action)
            state_message = game.state_to_proto(frozen)
            assert serialize(state_message) == data
            views = [serialize(view) for view in game.views_to_proto(frozen)]
            shared = [serialize(view) for view in game.views_to_proto(frozen, state_message)]
            viewers: list[int | None] = [*range(case.players), None]
            one_by_one = [serialize(game.view_to_proto(frozen, seat)) for seat in viewers]
            assert views == shared == one_by_one, f"{where}: views differ by how they were built"
            assert game.encode_state(frozen) == data, f"{where}: encode_state differs from the State"
            encoded = list(game.encode_views(frozen, data))
            assert encoded == views, f"{where}: encode_views differs from the views"
            for seat in range(case.players):
                for action in game.legal_actions(frozen, seat):
                    game.label(frozen, action)
            game.scores(frozen)
            game.acting_seats(frozen)
            game.is_terminal(frozen)
        except StateChanged as changed:
            raise AssertionError(f"{where}: {changed}") from changed
        assert structure(frozen) == before, f"{where}: the state given to the engine changed"
        assert structure(state) == before and serialize(game.state_to_proto(state)) == data


# Within pytest-timeout's 600 s for this test (the run takes 35-70 s on two cores), so that a hung run
# is reported by the subprocess with its output rather than by the outer timeout.
SOURCE_RUN_TIMEOUT_SECONDS = 300


def test_the_engines_from_source_never_change_a_state_they_are_given() -> None:
    """A compiled engine writes attributes and lists past the frozen copies' refusals: when this
    process runs compiled engines, the tests that freeze states (the one above and those of
    test_native.py) run again in a process that runs every engine from its sources."""
    games = registry.games().values()
    if not any(
        compiled(random_playout(game, game.info.min_players, b"", rng=Rng(0), max_steps=0).state)
        for game in games
    ):
        pytest.skip("this process runs every engine from its sources: the tests above froze their states")
    tests = [f"{Path(__file__).name}::test_the_engine_never_changes_a_state_it_is_given", "test_native.py"]
    pure = {**os.environ, PURE_ENV: "1"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests]
    here = Path(__file__).parent
    run = subprocess.run(
        command, cwd=here, env=pure, capture_output=True, text=True, timeout=SOURCE_RUN_TIMEOUT_SECONDS
    )
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and " skipped" not in run.stdout, run.stdout[-2000:]


def disturb_global_random(seed: int) -> None:
    """Reseed the global `random` module and draw from it, as other code in a process might."""
    random.seed(seed)
    for _ in range(1 + seed % 97):
        random.random()


def assert_same_trace(first: Trace, second: Trace, driver_a: Driver, driver_b: Driver) -> None:
    """Both traces made identical decisions, reached identical state bytes and reported the same."""
    assert driver_a.state_bytes(first.initial.state) == driver_b.state_bytes(second.initial.state)
    assert first.initial.events == second.initial.events
    assert first.initial.acting_seats == second.initial.acting_seats
    assert len(first.steps) == len(second.steps)
    for one, other in zip(first.steps, second.steps, strict=True):
        where = f"seed {first.seed!r} step {one.index}"
        assert listed(one.legal) == listed(other.legal), f"{where}: legal actions differ"
        assert one.seat == other.seat and one.choice == other.choice
        assert driver_a.state_bytes(one.outcome.state) == driver_b.state_bytes(other.outcome.state), (
            f"{where}: states differ"
        )
        assert one.outcome.events == other.outcome.events, f"{where}: events differ"
        assert one.outcome.acting_seats == other.outcome.acting_seats, f"{where}: acting seats differ"
        assert one.outcome.game_over == other.outcome.game_over


def test_same_seed_and_actions_give_same_bytes(pool: Pool, kind: str, case: Case, driver: Driver) -> None:
    """Replaying a seed's decisions gives byte-identical states, however the global `random` was used."""
    saved = random.getstate()
    try:
        for number, seed in enumerate(SEEDS[kind][:REPLAYED_SEEDS]):
            disturb_global_random(1000 + number)
            limit = driver.game.info.max_game_length + 1
            first = run_trace(driver, case.players, seed, limit, case.config_message())
            disturb_global_random(2000 + number)
            second = run_trace(driver, case.players, seed, limit, case.config_message())
            assert_same_trace(first, second, driver, driver)
            assert_same_trace(first, pool.trace(kind, case, seed), driver, driver)
    finally:
        random.setstate(saved)


def test_in_process_and_grpc_agree(pool: Pool, case: Case) -> None:
    """The same seed and decisions give the same bytes, labels and events in-process and over gRPC."""
    for seed in SEEDS["grpc"]:
        assert seed in SEEDS["inprocess"]
        assert_same_trace(
            pool.trace("inprocess", case, seed),
            pool.trace("grpc", case, seed),
            pool.driver("inprocess", case.game),
            pool.driver("grpc", case.game),
        )


# Hidden information


def test_hidden_information_never_changes_a_view(
    pool: Pool, kind: str, case: Case, driver: Driver, engine_driver: InProcessDriver, game: Game
) -> None:
    """Changing what the State's visibility declaration hides from a viewer changes neither its view nor
    its legal actions; changing what it may see changes its view (tests/conformance/visibility.py)."""
    rng = Rng.from_seed(b"conformance-visibility:" + str(case).encode())
    coverage = Coverage()
    for trace in traces(pool, kind, case):
        states = [state for state, _ in sampled_states(trace, STATES_PER_TRACE[kind])] + [trace.final.state]
        named = [(f"seed {trace.seed!r} state {number}", state) for number, state in enumerate(states)]
        check_views(driver, engine_driver, game, named, rng, PUBLIC_CHANGES[kind], coverage)
    assert not coverage.never_checked(), (
        f"hidden parts that held values but never had a change the game accepts: {coverage.never_checked()}"
    )
    assert coverage.public_checks > 0
    if game.info.has_hidden_information or game.info.has_chance:
        assert coverage.hidden_checks > 0, "no hidden part was ever changed"


def test_disturb_hidden_changes_only_what_the_seat_cannot_see(
    pool: Pool, case: Case, engine_driver: InProcessDriver, game: Game
) -> None:
    """`disturb_hidden` (the bots' determinization when a game has no `determinize`) changes only parts
    the State's visibility declaration hides from the seat, and leaves its argument alone."""
    rng = Rng.from_seed(b"conformance-disturb:" + str(case).encode())
    for trace in traces(pool, "inprocess", case):
        for state in [state for state, _ in sampled_states(trace, SAMPLES["inprocess"] // 4)] + [
            trace.final.state
        ]:
            data = engine_driver.state_bytes(state)
            message = game.messages.state.FromString(data)
            options = bool_options(config_in(message, game.messages.config), game.info)
            for seat in [*range(case.players), None]:
                disturbed = game.disturb_hidden(state, seat, rng)
                assert engine_driver.state_bytes(state) == data, "disturb_hidden changed its argument"
                other = game.messages.state.FromString(engine_driver.state_bytes(disturbed))
                seen = seen_differences(message, other, seat, options, game.is_terminal(state))
                assert not seen, f"seed {trace.seed!r}: disturb_hidden changed what {seat} may see: {seen}"


def test_views_ignore_the_rng_state(pool: Pool, kind: str, case: Case, driver: Driver, game: Game) -> None:
    """Moving the RNG key and counter inside a state leaves every view byte-identical."""
    paths = rng_paths(game.messages.state.DESCRIPTOR)
    if not paths:
        assert not game.info.has_chance, "a game with chance keeps no RngState in its State"
        pytest.skip("the State holds no RngState")
    viewers: list[int | None] = [*range(case.players), None]
    trace = traces(pool, kind, case)[0]
    for state, _ in sampled_states(trace, SAMPLES[kind] // 2 or 1):
        data = driver.state_bytes(state)
        message = game.messages.state.FromString(data)
        for bump in (1, 2):
            changed_bytes = serialize(with_rng_changed(message, paths, bump))
            assert changed_bytes != data
            changed = driver.state_from_bytes(changed_bytes)
            for seat in viewers:
                assert driver.view_bytes(changed, seat) == driver.view_bytes(state, seat), (
                    f"seed {trace.seed!r}: the view of {seat} shows the RNG state"
                )


# Scores and events


def test_scores_are_bounded_and_final_at_the_end(
    pool: Pool, kind: str, case: Case, driver: Driver, game: Game
) -> None:
    """Final scores lie within the declared bounds, add up, rank consistently and name the winners."""
    info = game.info
    for trace in traces(pool, kind, case):
        scores = driver.scores(trace.final.state)
        assert scores.final
        assert [score.seat for score in scores.seats] == list(range(case.players))
        for score in scores.seats:
            assert info.min_score <= score.total <= info.max_score, f"seed {trace.seed!r}: {score}"
            assert sum(points for _, points in score.items) == score.total, f"lines do not add up: {score}"
            assert all(label.strip() for label, _ in score.items)
        for a in scores.seats:
            for b in scores.seats:
                if (a.total, a.tiebreak) > (b.total, b.tiebreak):
                    assert a.rank < b.rank, f"seed {trace.seed!r}: {a} ranked behind {b}"
                elif (a.total, a.tiebreak) == (b.total, b.tiebreak):
                    assert a.rank == b.rank, f"seed {trace.seed!r}: tied {a} and {b} ranked apart"
        assert min(score.rank for score in scores.seats) == 1
        assert scores.winners, f"seed {trace.seed!r}: no winner"
        assert sorted(scores.winners) == [s.seat for s in scores.seats if s.rank == 1]
        for state, _ in sampled_states(trace, 2):
            running = driver.scores(state)
            assert not running.final and running.winners == ()
            assert len(running.seats) == case.players


def test_events_have_text_and_valid_audience(pool: Pool, kind: str, case: Case, game: Game) -> None:
    """Every event is the game's Event message with non-empty text, shown to seats that exist."""
    event_type = game.messages.event.DESCRIPTOR.full_name
    seats = set(range(case.players))
    for trace in traces(pool, kind, case):
        events = list(trace.initial.events)
        for step in trace.steps:
            events.extend(step.outcome.events)
        assert events, f"seed {trace.seed!r}: a whole game without an event"
        for event in events:
            assert event.type_name == event_type
            game.messages.event.FromString(event.detail)
            assert event.text.strip(), f"an event without text: {event}"
            assert set(event.visible_to) <= seats, f"audience out of range: {event}"
            assert len(set(event.visible_to)) == len(event.visible_to), f"repeated audience: {event}"

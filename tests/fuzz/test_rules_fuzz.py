"""Bad requests to every RulesService method of every registered title, over real gRPC to the real
rules servers: forged and damaged State bytes, Any fields of the wrong type or random bytes, actions
and configs built from their descriptors with wild values (every enum value and unknown ones), wild
seats, player counts and seeds. Every answer is OK or a refusal of the error table with a readable
message; never UNKNOWN or INTERNAL (an engine failing on a state it should have refused)."""

from __future__ import annotations

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2, rules_pb2_grpc
from google.protobuf import any_pb2
from hypothesis import given
from hypothesis import strategies as st

from services.common import registry
from tests.fuzz import strategies
from tests.fuzz.outcomes import call, check_refusal
from tests.fuzz.positions import Position, message_type_names, positions
from tests.fuzz.rules_requests import (
    RPC_TIMEOUT,
    STATE_METHODS,
    STATE_REFUSALS,
    action_any,
    request,
    send,
    state_any,
)
from tests.fuzz.volume import fuzz

TITLES = list(registry.games())


@st.composite
def forged_states(draw: st.DrawFn, title: str) -> tuple[Position, bytes]:
    """A position and its State forged: fields changed, or the bytes damaged."""
    position = draw(st.sampled_from(positions(title)))
    if draw(st.booleans()):
        original = registry.get(title).messages.state.FromString(position.state)
        return position, draw(strategies.forged(original)).SerializeToString()
    return position, draw(strategies.damaged(position.state))


@pytest.mark.parametrize("method", STATE_METHODS)
@pytest.mark.parametrize("title", TITLES)
def test_forged_state(fuzz_rules_channels: dict[str, grpc.Channel], title: str, method: str) -> None:
    @fuzz(1.5)
    @given(forged=forged_states(title))
    def run(forged: tuple[Position, bytes]) -> None:
        position, state = forged
        message = request(method, state_any(title, state), position.seat, action_any(title, position.action))
        send(fuzz_rules_channels, "forged state", title, method, message)

    run()


@pytest.mark.parametrize("method", STATE_METHODS)
@pytest.mark.parametrize("title", TITLES)
def test_state_any_of_another_type(
    fuzz_rules_channels: dict[str, grpc.Channel], title: str, method: str
) -> None:
    @fuzz(0.5)
    @given(position=st.sampled_from(positions(title)), packed=strategies.any_values(message_type_names()))
    def run(position: Position, packed: any_pb2.Any) -> None:
        message = request(method, packed, position.seat, action_any(title, position.action))
        send(fuzz_rules_channels, "state any", title, method, message)

    run()


@pytest.mark.parametrize("title", TITLES)
def test_wild_action(fuzz_rules_channels: dict[str, grpc.Channel], title: str) -> None:
    """ApplyAction of an action built from the Action descriptor, or an Any of any type and bytes, by
    any seat, with a view seat asked for or not."""
    game = registry.get(title)
    actions = st.one_of(
        strategies.messages(game.messages.action).map(lambda a: action_any(title, a.SerializeToString())),
        strategies.any_values(message_type_names()),
        st.just(any_pb2.Any()),
    )

    @fuzz(1.5)
    @given(
        position=st.sampled_from(positions(title)),
        action=actions,
        seat=st.one_of(
            st.sampled_from(range(game.info.max_players)), strategies.wild_ints(*strategies.INT32)
        ),
        view_seat=st.none() | strategies.wild_ints(*strategies.INT32),
    )
    def run(position: Position, action: any_pb2.Any, seat: int, view_seat: int | None) -> None:
        message = rules_pb2.ApplyActionRequest(
            state=state_any(title, position.state), seat=seat, action=action
        )
        if view_seat is not None:
            message.view_seat = view_seat
        send(fuzz_rules_channels, "wild action", title, "ApplyAction", message)

    run()


@pytest.mark.parametrize("method", ("ListLegalActions", "GetView"))
@pytest.mark.parametrize("title", TITLES)
def test_wild_seat(fuzz_rules_channels: dict[str, grpc.Channel], title: str, method: str) -> None:
    @fuzz(0.5)
    @given(position=st.sampled_from(positions(title)), seat=strategies.wild_ints(*strategies.INT32))
    def run(position: Position, seat: int) -> None:
        message = request(method, state_any(title, position.state), seat, None)
        send(fuzz_rules_channels, "wild seat", title, method, message)

    run()


@pytest.mark.parametrize("title", TITLES)
def test_wild_new_game(fuzz_rules_channels: dict[str, grpc.Channel], title: str) -> None:
    """NewGame with any player count, seed and config: a Config built from its descriptor, an Any of
    any type and bytes, or none."""
    game = registry.get(title)
    name = game.messages.config.DESCRIPTOR.full_name
    configs = st.one_of(
        st.just(any_pb2.Any()),
        strategies.messages(game.messages.config).map(
            lambda c: any_pb2.Any(type_url=f"type.googleapis.com/{name}", value=c.SerializeToString())
        ),
        strategies.any_values(message_type_names()),
    )
    counts = st.one_of(st.sampled_from(game.info.player_counts), strategies.wild_ints(*strategies.INT32))

    @fuzz(1.0)
    @given(player_count=counts, seed=st.binary(max_size=80), config=configs)
    def run(player_count: int, seed: bytes, config: any_pb2.Any) -> None:
        stub = rules_pb2_grpc.RulesServiceStub(fuzz_rules_channels[title])
        message = rules_pb2.NewGameRequest(player_count=player_count, seed=seed, config=config)
        outcome, _ = call("rules new game", stub.NewGame, message, timeout=RPC_TIMEOUT)
        if not outcome.ok:
            check_refusal(outcome, ("MALFORMED_REQUEST", "INVALID_CONFIG"))

    run()


@pytest.mark.parametrize("title", TITLES)
def test_a_long_type_url_is_quoted_short(fuzz_rules_channels: dict[str, grpc.Channel], title: str) -> None:
    """A refusal quotes a type URL of any length or character only in part, escaped (it once quoted
    all 600 characters of one)."""
    stub = rules_pb2_grpc.RulesServiceStub(fuzz_rules_channels[title])
    for type_url in ("x" * 600, "type.googleapis.com/\x00\n\u202e"):
        message = rules_pb2.GetScoresRequest(state=any_pb2.Any(type_url=type_url))
        outcome, _ = call("rules state any", stub.GetScores, message, timeout=RPC_TIMEOUT)
        check_refusal(outcome, STATE_REFUSALS)
        assert len(outcome.message) < 200, outcome.message

"""The generic servicer over a tiny game defined here, so every error path can be reached on purpose.

The game is a race to the last stick: seats take turns removing 1 or 2 sticks from a pile, and the
seat that takes the last one wins. Its messages are built at run time in a private descriptor pool,
so it needs no .proto file and never enters the registry. Taking 99 sticks makes the engine crash
(a stand-in for an engine bug), which the servicer must report as INTERNAL, not UNKNOWN.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

import grpc
import pytest
from boardgame.rules.v1 import rules_pb2
from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

from services.common.errors import GameOver, IllegalAction, InvalidConfig, MalformedRequest, NotYourTurn
from services.common.game import Game, GameInfo, Messages, OptionInfo, Scores, SeatScore
from services.common.rng import Rng
from services.common.servicer import pack
from tests.common.support import handled, refused, scrape, serving, stub


def _build_messages() -> Messages:
    """The toy game's message classes: every field an int32."""
    fields = {
        "Config": ["sticks"],
        "State": ["sticks", "to_move", "player_count"],
        "Action": ["take"],
        "View": ["sticks", "to_move"],
        "Event": ["seat", "took"],
    }
    file = descriptor_pb2.FileDescriptorProto(name="toy/v1/toy.proto", package="toy.v1", syntax="proto3")
    for name, names in fields.items():
        message = file.message_type.add(name=name)
        for number, field_name in enumerate(names, start=1):
            message.field.add(
                name=field_name,
                number=number,
                type=descriptor_pb2.FieldDescriptorProto.TYPE_INT32,
                label=descriptor_pb2.FieldDescriptorProto.LABEL_OPTIONAL,
            )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(file)
    classes = {
        name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"toy.v1.{name}")) for name in fields
    }
    return Messages(
        config=classes["Config"],
        state=classes["State"],
        action=classes["Action"],
        view=classes["View"],
        event=classes["Event"],
    )


@dataclass(frozen=True)
class Pile:
    """The toy game's native state."""

    sticks: int
    to_move: int
    player_count: int


class LastStick:
    """A two-to-three player race to take the last stick."""

    info = GameInfo(
        name="laststick",
        display_name="Last Stick",
        min_players=2,
        max_players=3,
        options=(OptionInfo("sticks", "Sticks in the pile at the start.", (), "7"),),
        has_chance=False,
        has_hidden_information=False,
        max_game_length=100,
        min_score=0,
        max_score=1,
    )
    messages = _build_messages()

    def new_game(self, player_count: int, config: Any, seed: bytes) -> tuple[Pile, list[Any]]:
        return Pile(config, 0, player_count), [(-1, 0)]

    def acting_seats(self, state: Pile) -> tuple[int, ...]:
        return () if self.is_terminal(state) else (state.to_move,)

    def seat_count(self, state: Pile) -> int:
        return state.player_count

    def legal_actions(self, state: Pile, seat: int) -> Sequence[int]:
        if seat not in self.acting_seats(state):
            return []
        return [take for take in (1, 2) if take <= state.sticks]

    def label(self, state: Pile, action: int) -> str:
        return f"take {action}"

    def apply(self, state: Pile, seat: int, action: int) -> tuple[Pile, list[Any]]:
        if action == 99:
            raise KeyError("a bug in the engine")
        if self.is_terminal(state):
            raise GameOver("the last stick is gone")
        if seat != state.to_move:
            raise NotYourTurn(f"seat {state.to_move} is to move", seat=str(seat))
        if action not in self.legal_actions(state, seat):
            raise IllegalAction(f"cannot take {action}", take=str(action))
        after = replace(state, sticks=state.sticks - action, to_move=(seat + 1) % state.player_count)
        return after, [(seat, action)]

    def copy_state(self, state: Pile) -> Pile:
        return state

    def play(self, state: Pile, seat: int, action: int) -> list[Any]:
        raise NotImplementedError

    def is_terminal(self, state: Pile) -> bool:
        return state.sticks == 0

    def scores(self, state: Pile) -> Scores:
        winner = (state.to_move - 1) % state.player_count if self.is_terminal(state) else None
        seats = tuple(
            SeatScore(seat, int(won), (("last stick", int(won)),), 0, 1 if won else 2)
            for seat, won in ((seat, seat == winner) for seat in range(state.player_count))
        )
        return Scores(seats, () if winner is None else (winner,), winner is not None)

    def config_from_proto(self, message: Message) -> int:
        sticks = message.sticks or 7  # type: ignore[attr-defined]
        if sticks < 0:
            raise InvalidConfig("sticks must be positive", sticks=str(sticks))
        return int(sticks)

    def state_to_proto(self, state: Pile) -> Message:
        return self.messages.state(
            sticks=state.sticks, to_move=state.to_move, player_count=state.player_count
        )

    def state_from_proto(self, message: Message) -> Pile:
        pile = Pile(message.sticks, message.to_move, message.player_count)  # type: ignore[attr-defined]
        if pile.sticks < 0 or not 0 <= pile.to_move < pile.player_count <= 3:
            raise MalformedRequest("inconsistent pile")
        return pile

    def action_to_proto(self, action: int) -> Message:
        return self.messages.action(take=action)

    def action_from_proto(self, message: Message) -> int:
        return int(message.take)  # type: ignore[attr-defined]

    def view_to_proto(self, state: Pile, seat: int | None) -> Message:
        return self.messages.view(sticks=state.sticks, to_move=state.to_move)

    def views_to_proto(self, state: Pile, state_message: Message | None = None) -> list[Message]:
        return [self.view_to_proto(state, seat) for seat in [*range(state.player_count), None]]

    def event_to_proto(self, event: tuple[int, int]) -> tuple[Message, str, tuple[int, ...]]:
        seat, took = event
        text = "the pile is ready" if seat < 0 else f"seat {seat} took {took}"
        return self.messages.event(seat=seat, took=took), text, ()

    def disturb_hidden(self, state: Pile, seat: int | None, rng: Rng) -> Pile:
        return state


RULES = LastStick()
GAME: Game[Pile, int, int] = Game(
    info=RULES.info,
    messages=RULES.messages,
    new_game=RULES.new_game,
    acting_seats=RULES.acting_seats,
    seat_count=RULES.seat_count,
    legal_actions=RULES.legal_actions,
    label=RULES.label,
    apply=RULES.apply,
    play=RULES.play,
    copy_state=RULES.copy_state,
    is_terminal=RULES.is_terminal,
    scores=RULES.scores,
    config_from_proto=RULES.config_from_proto,
    state_to_proto=RULES.state_to_proto,
    state_from_proto=RULES.state_from_proto,
    action_to_proto=RULES.action_to_proto,
    action_from_proto=RULES.action_from_proto,
    view_to_proto=RULES.view_to_proto,
    views_to_proto=RULES.views_to_proto,
    event_to_proto=RULES.event_to_proto,
    disturb_hidden=RULES.disturb_hidden,
    exact_state_round_trip=True,
)


@pytest.fixture(scope="module")
def channel() -> Iterator[grpc.Channel]:
    with serving(GAME) as channel:
        yield channel


def packed(message: Message, type_url: str | None = None, value: bytes | None = None) -> any_pb2.Any:
    """`message` packed, optionally with its type URL or bytes replaced."""
    result = pack(message)
    if type_url is not None:
        result.type_url = type_url
    if value is not None:
        result.value = value
    return result


def new_game(channel: grpc.Channel, players: int = 2, sticks: int = 0) -> rules_pb2.NewGameResponse:
    """A new toy game over the channel."""
    config = pack(GAME.messages.config(sticks=sticks)) if sticks else any_pb2.Any()
    return stub(channel).NewGame(rules_pb2.NewGameRequest(player_count=players, config=config, seed=b"s"))


def test_game_info_names_the_toy_messages(channel: grpc.Channel) -> None:
    info = stub(channel).GetGameInfo(rules_pb2.GetGameInfoRequest()).info
    assert (info.name, info.min_players, info.max_players) == ("laststick", 2, 3)
    assert [(o.name, o.default_value) for o in info.options] == [("sticks", "7")]
    types = [info.config_type, info.state_type, info.action_type, info.view_type, info.event_type]
    assert types == ["toy.v1.Config", "toy.v1.State", "toy.v1.Action", "toy.v1.View", "toy.v1.Event"]


def test_empty_config_means_defaults(channel: grpc.Channel) -> None:
    response = new_game(channel)
    state: Any = GAME.messages.state()
    response.state.Unpack(state)
    assert (state.sticks, state.player_count) == (7, 2)
    assert list(response.acting_seats) == [0]
    assert [event.text for event in response.events] == ["the pile is ready"]
    assert response.events[0].detail.TypeName() == "toy.v1.Event"


def test_a_game_plays_to_the_end(channel: grpc.Channel) -> None:
    rules = stub(channel)
    state = new_game(channel, sticks=4).state
    seat = 0
    game_over = False
    while not game_over:
        legal = rules.ListLegalActions(rules_pb2.ListLegalActionsRequest(state=state, seat=seat)).actions
        assert legal[0].label == "take 1"
        waiting = rules_pb2.ListLegalActionsRequest(state=state, seat=1 - seat)
        assert list(rules.ListLegalActions(waiting).actions) == []
        request = rules_pb2.ApplyActionRequest(state=state, seat=seat, action=legal[-1].action)
        applied = rules.ApplyAction(request)
        state, game_over = applied.state, applied.game_over
        assert list(applied.acting_seats) == ([] if game_over else [1 - seat])
        seat = 1 - seat
    scores = rules.GetScores(rules_pb2.GetScoresRequest(state=state))
    assert scores.final and list(scores.winners) == [1]
    assert [(s.seat, s.total, s.rank) for s in scores.scores] == [(0, 0, 2), (1, 1, 1)]
    assert scores.scores[1].items[0].label == "last stick"


def test_the_same_request_gives_the_same_bytes(channel: grpc.Channel) -> None:
    state = new_game(channel).state
    request = rules_pb2.ApplyActionRequest(state=state, seat=0, action=pack(GAME.messages.action(take=2)))
    first = stub(channel).ApplyAction(request)
    second = stub(channel).ApplyAction(request)
    assert first.SerializeToString() == second.SerializeToString()


def test_views_for_a_seat_and_a_spectator(channel: grpc.Channel) -> None:
    state = new_game(channel, players=3).state
    spectator = stub(channel).GetView(rules_pb2.GetViewRequest(state=state))
    seated = stub(channel).GetView(rules_pb2.GetViewRequest(state=state, seat=2))
    assert spectator.view.TypeName() == seated.view.TypeName() == "toy.v1.View"
    assert list(seated.acting_seats) == [0] and not seated.game_over


@pytest.mark.parametrize(
    ("players", "seed", "reason"),
    [
        (2, b"", "MALFORMED_REQUEST"),
        (2, bytes(65), "MALFORMED_REQUEST"),
        (1, b"s", "INVALID_CONFIG"),
        (4, b"s", "INVALID_CONFIG"),
    ],
)
def test_new_game_checks_seed_and_player_count(
    channel: grpc.Channel, players: int, seed: bytes, reason: str
) -> None:
    request = rules_pb2.NewGameRequest(player_count=players, seed=seed)
    code, info = refused(stub(channel).NewGame, request)
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, reason)


def test_new_game_refuses_a_config_of_another_type(channel: grpc.Channel) -> None:
    request = rules_pb2.NewGameRequest(player_count=2, seed=b"s", config=pack(GAME.messages.state()))
    code, info = refused(stub(channel).NewGame, request)
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    assert info.metadata["field"] == "config"


def test_engine_refusals_keep_their_codes(channel: grpc.Channel) -> None:
    state = new_game(channel, sticks=1).state
    apply = stub(channel).ApplyAction

    def action(take: int) -> any_pb2.Any:
        return pack(GAME.messages.action(take=take))

    code, info = refused(apply, rules_pb2.ApplyActionRequest(state=state, seat=0, action=action(2)))
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "ILLEGAL_ACTION")
    assert dict(info.metadata) == {"take": "2"}
    code, info = refused(apply, rules_pb2.ApplyActionRequest(state=state, seat=1, action=action(1)))
    assert (code, info.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "NOT_YOUR_TURN")
    finished = apply(rules_pb2.ApplyActionRequest(state=state, seat=0, action=action(1)))
    assert finished.game_over and list(finished.acting_seats) == []
    code, info = refused(apply, rules_pb2.ApplyActionRequest(state=finished.state, seat=1, action=action(1)))
    assert (code, info.reason) == (grpc.StatusCode.FAILED_PRECONDITION, "GAME_OVER")


@pytest.mark.parametrize("seat", [-1, 3, 2**31 - 1])
def test_seats_beyond_the_table_are_refused(channel: grpc.Channel, seat: int) -> None:
    state = new_game(channel).state
    rules = stub(channel)
    take_one = pack(GAME.messages.action(take=1))
    for call, request in [
        (rules.ApplyAction, rules_pb2.ApplyActionRequest(state=state, seat=seat, action=take_one)),
        (rules.ListLegalActions, rules_pb2.ListLegalActionsRequest(state=state, seat=seat)),
        (rules.GetView, rules_pb2.GetViewRequest(state=state, seat=seat)),
    ]:
        code, info = refused(call, request)
        assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
        assert info.metadata["seat"] == str(seat)


@pytest.mark.parametrize(
    "state",
    [
        any_pb2.Any(),
        packed(GAME.messages.view(sticks=3)),
        packed(GAME.messages.state(), value=b"\xff\xff\xff"),
        packed(GAME.messages.state(sticks=3, to_move=5, player_count=2)),
    ],
    ids=["missing", "wrong-type", "garbage", "inconsistent"],
)
def test_malformed_states_are_refused_by_every_rpc(channel: grpc.Channel, state: any_pb2.Any) -> None:
    rules = stub(channel)
    take_one = pack(GAME.messages.action(take=1))
    for call, request in [
        (rules.ApplyAction, rules_pb2.ApplyActionRequest(state=state, action=take_one)),
        (rules.ListLegalActions, rules_pb2.ListLegalActionsRequest(state=state)),
        (rules.GetView, rules_pb2.GetViewRequest(state=state)),
        (rules.GetScores, rules_pb2.GetScoresRequest(state=state)),
    ]:
        code, info = refused(call, request)
        assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST"), request


def test_an_engine_crash_is_internal_not_unknown(channel: grpc.Channel, metrics_port: int) -> None:
    state = new_game(channel).state
    before = handled(scrape(metrics_port), "ApplyAction", "INTERNAL")
    request = rules_pb2.ApplyActionRequest(state=state, seat=0, action=pack(GAME.messages.action(take=99)))
    code, info = refused(stub(channel).ApplyAction, request)
    assert (code, info.reason) == (grpc.StatusCode.INTERNAL, "ENGINE_FAILURE")
    assert handled(scrape(metrics_port), "ApplyAction", "INTERNAL") == before + 1


def test_cached_state_bytes_under_another_type_are_refused(channel: grpc.Channel) -> None:
    state = new_game(channel).state
    take_one = pack(GAME.messages.action(take=1))
    assert stub(channel).ApplyAction(rules_pb2.ApplyActionRequest(state=state, seat=0, action=take_one))
    as_view = packed(GAME.messages.state(), type_url=pack(GAME.messages.view()).type_url, value=state.value)
    request = rules_pb2.ApplyActionRequest(state=as_view, seat=0, action=take_one)
    code, info = refused(stub(channel).ApplyAction, request)
    assert (code, info.reason) == (grpc.StatusCode.INVALID_ARGUMENT, "MALFORMED_REQUEST")
    assert info.metadata["field"] == "state"


def test_metrics_count_state_cache_lookups(channel: grpc.Channel, metrics_port: int) -> None:
    def lookups(result: str) -> float:
        key = ("rules_state_cache_lookups_total", frozenset({("result", result)}))
        return scrape(metrics_port).get(key, 0.0)

    hits, misses = lookups("hit"), lookups("miss")
    state = new_game(channel, sticks=5).state
    rules = stub(channel)
    applied = rules.ApplyAction(
        rules_pb2.ApplyActionRequest(state=state, seat=0, action=pack(GAME.messages.action(take=1)))
    )
    rules.GetView(rules_pb2.GetViewRequest(state=applied.state))
    unseen = packed(GAME.messages.state(sticks=5, to_move=1, player_count=3))
    rules.GetScores(rules_pb2.GetScoresRequest(state=unseen))
    assert (lookups("hit") - hits, lookups("miss") - misses) == (2, 1)


def test_a_packed_action_is_remembered_and_the_memo_bounded() -> None:
    """The servicer packs each native action once, as pack() would, and forgets all beyond ACTION_MEMO."""
    from services.common.servicer import ACTION_MEMO, RulesServicer

    calls: list[int] = []

    def counted(action: int) -> Message:
        calls.append(action)
        return RULES.action_to_proto(action)

    servicer = RulesServicer(replace(GAME, action_to_proto=counted))
    first = servicer._action(2)
    assert servicer._action(2) == first == pack(RULES.action_to_proto(2))
    assert calls == [2]
    for action in range(ACTION_MEMO + 1):
        servicer._action(action)
    assert len(servicer._actions) <= ACTION_MEMO

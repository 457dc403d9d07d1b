"""The `Game` of a game package laid out as docs/adding-a-game.md says: `setup.new_game`, an `engine`
built on `services.common.decisions.DecisionLoop`, `labels.label`, a `codec`, and a final-scores
function, plus the parts that are the game's own, each passed by name."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import Any

from google.protobuf.message import Message

from services.common.game import (
    NO_TARGETS,
    Edition,
    ExampleConfigs,
    Game,
    GameInfo,
    Messages,
    PerformanceTargets,
    Policy,
    Sampler,
    Scores,
)
from services.common.rng import Rng


def modular_game(
    info: GameInfo,
    messages: Messages,
    *,
    setup: ModuleType,
    engine: ModuleType,
    labels: ModuleType,
    codec: ModuleType,
    scores: Callable[[Any], Scores],
    disturb_hidden: Callable[[Any, int | None, Rng], Any],
    views_to_proto: Callable[[Any, Any], Sequence[Message]] | None = None,
    encode_state: Callable[[Any], bytes] | None = None,
    decode_state: Callable[[bytes], Any] | None = None,
    encode_views: Callable[[Any, bytes], Sequence[bytes]] | None = None,
    encode_event: Callable[[Any], tuple[bytes, str, tuple[int, ...]]] | None = None,
    heuristic_action: Policy[Any, Any] | None = None,
    determinize: Sampler[Any] | None = None,
    edition: Callable[[Any], Edition] | None = None,
    web_board: Callable[[], Mapping[str, Any]] | None = None,
    example_configs: ExampleConfigs = (),
    targets: PerformanceTargets = NO_TARGETS,
    exact_state_round_trip: bool = False,
) -> Game[Any, Any, Any]:
    """The game whose engine, labels and codec are those modules' functions. Without a
    `views_to_proto` that converts what the views share once, every view is converted on its own;
    without the `encode_*` functions of a codec that writes bytes itself (services.common.convert),
    the bytes are the messages serialized."""

    def new_game(player_count: int, config: Any, seed: bytes) -> tuple[Any, list[Any]]:
        state, events = setup.new_game(player_count, config, seed)
        engine.settle(state, events)
        return state, events

    def each_view(state: Any, state_message: Message | None = None) -> list[Message]:
        return [codec.view_to_proto(state, seat) for seat in [*range(len(state.players)), None]]

    return Game(
        info=info,
        messages=messages,
        new_game=new_game,
        acting_seats=lambda state: tuple(engine.acting_seats(state)),
        seat_count=lambda state: len(state.players),
        legal_actions=lambda state, seat: list(engine.legal_actions(state, seat)),
        label=lambda state, action: str(labels.label(state, action)),
        apply=engine.apply,
        play=lambda state, seat, action: list(engine.play(state, seat, action)),
        copy_state=lambda state: state.copy(),
        is_terminal=lambda state: bool(state.terminal),
        scores=scores,
        config_from_proto=codec.config_from_proto,
        state_to_proto=codec.state_to_proto,
        state_from_proto=codec.state_from_proto,
        action_to_proto=codec.action_to_proto,
        action_from_proto=codec.action_from_proto,
        view_to_proto=codec.view_to_proto,
        views_to_proto=views_to_proto or each_view,
        event_to_proto=codec.event_to_proto,
        encode_state=encode_state,  # type: ignore[arg-type]
        decode_state=decode_state,  # type: ignore[arg-type]
        encode_views=encode_views,  # type: ignore[arg-type]
        encode_event=encode_event,  # type: ignore[arg-type]
        disturb_hidden=disturb_hidden,
        heuristic_action=heuristic_action,
        determinize=determinize,
        edition=edition,
        web_board=web_board,
        example_configs=example_configs,
        targets=targets,
        exact_state_round_trip=exact_state_round_trip,
    )

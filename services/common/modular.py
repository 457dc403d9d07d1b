"""The `Game` of a game package laid out as docs/adding-a-game.md says: `setup.new_game`, an `engine`
built on `services.common.decisions.DecisionLoop`, `labels.label`, a `services.common.codec.Codec`,
and a final-scores function, plus the parts that are the game's own, each passed by name."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from services.common.codec import Codec
from services.common.decisions import DecisionLoop
from services.common.game import (
    NO_TARGETS,
    Edition,
    ExampleConfigs,
    Game,
    GameInfo,
    PerformanceTargets,
    Policy,
    Sampler,
    Scores,
    TitleData,
)
from services.common.rng import Rng


def modular_game(
    info: GameInfo,
    *,
    setup: ModuleType,
    engine: ModuleType,
    labels: ModuleType,
    codec: Codec,
    scores: Callable[[Any], Scores],
    disturb_hidden: Callable[[Any, int | None, Rng], Any],
    heuristic_action: Policy[Any, Any] | None = None,
    determinize: Sampler[Any] | None = None,
    edition: Callable[[Any], Edition] | None = None,
    title_data: TitleData | None = None,
    example_configs: ExampleConfigs = (),
    targets: PerformanceTargets = NO_TARGETS,
) -> Game[Any, Any, Any]:
    """The game whose engine and labels are those modules' functions, and whose messages, conversion
    (both the message and the bytes forms) and exact state round trip are the codec's."""

    loop = getattr(engine, "LOOP", None)  # its DecisionLoop, which traces the seats a decision moved
    # The loop's own legal_now, advance and rollout, for the search bot (else the Game's defaults); the
    # loop's end (its game_over step) is the state's terminal.
    playouts: dict[str, Any] = (
        {"legal_now": loop.legal_now, "advance": loop.advance, "rollout": loop.rollout}
        if isinstance(loop, DecisionLoop)
        else {}
    )

    def new_game(player_count: int, config: Any, seed: bytes) -> tuple[Any, list[Any]]:
        state, events = setup.new_game(player_count, config, seed)
        engine.settle(state, events)
        return state, events

    return Game(
        info=info,
        messages=codec.messages,
        new_game=new_game,
        acting_seats=lambda state: tuple(engine.acting_seats(state)),
        seat_count=lambda state: len(state.players),
        legal_actions=lambda state, seat: list(engine.legal_actions(state, seat)),
        label=labels.label,
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
        views_to_proto=codec.views_to_proto,
        event_to_proto=codec.event_to_proto,
        encode_state=codec.encode_state,
        decode_state=codec.decode_state,
        encode_views=codec.encode_views,
        encode_event=codec.encode_event,
        disturb_hidden=disturb_hidden,
        heuristic_action=heuristic_action,
        determinize=determinize,
        edition=edition,
        title_data=title_data,
        example_configs=example_configs,
        targets=targets,
        catalogs=getattr(labels, "CATALOGS", None),
        exact_state_round_trip=codec.exact_state_round_trip,
        apply_traced=loop.apply_traced if isinstance(loop, DecisionLoop) else None,
        **playouts,
    )
